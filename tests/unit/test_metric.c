// SPDX-License-Identifier: GPL-2.0
/* libpmc's metrics (user/libpmc/metric.c): every metric of the kernel's data, and values by hand. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"
#include "pmu_events.h"
#include "metric-internal.h"
#include "unit.h"

#define SKL	"GenuineIntel-6-5E-3"
#define SKX	"GenuineIntel-6-55-4"
#define SPR	"GenuineIntel-6-8F-8"

static const struct pmc_metric_env env_smt_off = {
	.smt_on = 0, .core_wide = 0, .num_cpus = 4, .num_cpus_online = 4, .num_cores = 4,
	.num_dies = 1, .num_packages = 1, .slots = 4, .system_tsc_freq = 2e9, .has_pmem = 0,
};

/*
 * Why a metric of the data may be refused: what pmcdrv does not count.  A
 * reason outside this list (an unknown event name, a modifier or term the
 * code does not know) fails the test.
 */
static const struct {
	const char *pattern, *what;
} refusals[] = {
	{ "is an uncore event", "uncore events (UNC_*)" },
	{ "PMU, not a core counter", "events of other PMUs (msr, cstate_*, cha, cbox, arb, imc)" },
	{ "time-stamp counter", "TSC (msr/tsc/)" },
	{ "extra register", "PEBS load latency or front-end extra register events" },
	{ "AnyThread", "AnyThread events (*_ANY)" },
	{ "retire latency", "retire latency (modifier R)" },
	{ "TSX event", "TSX events of the cpu PMU (cycles-t ...)" },
};

/* Every metric of every model, with SMT off and on: parses, and is computable or refused for a known reason. */
static void test_all_metrics(void)
{
	unsigned int counts[ARRAY_SIZE(refusals)] = { 0 }, total = 0, ok = 0, bad = 0;
	unsigned int thr = 0, thr_ok = 0;
	unsigned int mi, i, smt, r;

	for (smt = 0; smt < 2; smt++) {
		struct pmc_metric_env env = env_smt_off;

		env.smt_on = smt;
		for (mi = 0; mi < pmc_pe_nr_models; mi++) {
			const struct pmc_pe_model *m = &pmc_pe_models[mi];

			for (i = 0; i < m->nr_metrics; i++) {
				const struct pmc_pe_metric *pm = &pmc_pe_metrics[m->first_metric + i];
				struct pmc_metrics *ms = NULL;
				struct pmc_metric_info info;
				char err[512] = "";
				int ret;

				total++;
				ret = pmc_metrics_open_model(m, pmc_pe_str(pm->name), &env, &ms, err,
							     sizeof(err));
				if (ret) {
					printf("\n  %s %s: %d %s", pmc_pe_str(m->name), pmc_pe_str(pm->name),
					       ret, err);
					bad++;
					continue;
				}
				CU_ASSERT(pmc_metrics_nr(ms) >= 1);
				CU_ASSERT_EQUAL(pmc_metrics_info(ms, 0, &info), 0);
				if (!info.refused && *pmc_pe_str(pm->threshold)) {
					thr++;
					if (pmc_metrics_threshold_expr(ms, 0))
						thr_ok++;
					else
						printf("\n  %s %s: threshold left out: %s", pmc_pe_str(m->name),
						       info.name, pmc_pe_str(pm->threshold));
				}
				if (!info.refused) {
					ok++;
				} else {
					for (r = 0; r < ARRAY_SIZE(refusals); r++) {
						if (strstr(info.refused, refusals[r].pattern))
							break;
					}
					if (r < ARRAY_SIZE(refusals)) {
						counts[r]++;
					} else {
						printf("\n  %s %s: refused: %s", pmc_pe_str(m->name),
						       info.name, info.refused);
						bad++;
					}
				}
				pmc_metrics_close(ms);
			}
		}
	}
	printf("\n  %u metric compilations (%u metrics, SMT off and on): %u computable, refused:",
	       total, pmc_pe_nr_metrics, ok);
	for (r = 0; r < ARRAY_SIZE(refusals); r++)
		printf("\n    %5u %s", counts[r], refusals[r].what);
	printf("\n  thresholds of the computable ones: %u, %u compiled\n", thr, thr_ok);
	CU_ASSERT(thr > 0);
	CU_ASSERT_EQUAL(thr_ok, thr);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(total, 2 * pmc_pe_nr_metrics);
	CU_ASSERT(ok > total / 2);
}

/* Every event a model's metrics need parses with pmcdrv's -e parser, as the model. */
static void test_events_parse(void)
{
	static const char *const cpuids[] = { SKL, SKX, SPR, "GenuineIntel-6-3C-3", "GenuineIntel-6-7E-5" };
	unsigned int c, i, n = 0;

	for (c = 0; c < ARRAY_SIZE(cpuids); c++) {
		struct pmc_metrics *ms = NULL;
		char err[512] = "";

		setenv("PMCDRV_FORCE_CPUID", cpuids[c], 1);
		CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(cpuids[c], "all", &env_smt_off, &ms, err,
						       sizeof(err)), 0);
		for (i = 0; i < pmc_metrics_nr_events(ms); i++, n++) {
			struct pmc_evlist l;
			int ret;

			memset(&l, 0, sizeof(l));
			ret = pmc_evlist_parse(&l, pmc_metrics_event(ms, i), err, sizeof(err));
			if (ret)
				printf("\n  %s: %s: %s", cpuids[c], pmc_metrics_event(ms, i), err);
			CU_ASSERT_EQUAL(ret, 0);
		}
		pmc_metrics_close(ms);
	}
	unsetenv("PMCDRV_FORCE_CPUID");
	CU_ASSERT(n > 100);
}

/* The counts of @ms's events from @names/@vals (NAN for the others). */
static void fill(const struct pmc_metrics *ms, const char *const *names, const double *vals,
		 size_t n, double *counts)
{
	unsigned int i;
	size_t j;

	for (i = 0; i < pmc_metrics_nr_events(ms); i++) {
		counts[i] = NAN;
		for (j = 0; j < n; j++) {
			if (!strcmp(pmc_metrics_event(ms, i), names[j]))
				counts[i] = vals[j];
		}
		if (isnan(counts[i]))
			printf("\n  no count for %s", pmc_metrics_event(ms, i));
	}
}

static double value_of(const char *cpuid, const char *metric, const struct pmc_metric_env *env,
		       const char *const *names, const double *vals, size_t n, unsigned int nevents)
{
	struct pmc_metrics *ms = NULL;
	struct pmc_metric_info info;
	double counts[32], v = -1;
	char err[512] = "";

	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(cpuid, metric, env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr(ms), 1);
	CU_ASSERT_EQUAL(pmc_metrics_nr_events(ms), nevents);
	CU_ASSERT_FATAL(pmc_metrics_nr_events(ms) <= 32);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 0, &info), 0);
	CU_ASSERT_PTR_NULL(info.refused);
	fill(ms, names, vals, n, counts);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 0, counts, 1.0, &v), 0);
	pmc_metrics_close(ms);
	return v;
}

#define NEAR(a, b)	CU_ASSERT(fabs((a) - (b)) < 1e-12)

static void test_skylake(void)
{
	static const char *const names[] = {
		"INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
		"CPU_CLK_UNHALTED.REF_XCLK", "UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED.MACRO_FUSED",
	};
	static const double vals[] = { 1500, 1000, 100, 100, 2000, 500 };
	struct pmc_metric_env env = env_smt_off;
	struct pmc_metrics *ms = NULL;
	struct pmc_metric_info info;
	char err[512];

	/* IPC = 1500 / 1000 */
	NEAR(value_of(SKL, "tma_info_thread_ipc", &env, names, vals, 6, 2), 1.5);
	/*
	 * Level 1, per task (#core_wide 0): slots = 4 x THREAD / 2 x (1 + ONE_THREAD_ACTIVE /
	 * REF_XCLK) = 4000 (the if branch), retiring = 2000 / 4000
	 */
	NEAR(value_of(SKL, "tma_retiring", &env, names, vals, 6, 4), 0.5);
	/* system-wide without SMT: the else branch, slots = 4 x THREAD, two events */
	env.core_wide = 1;
	NEAR(value_of(SKL, "TMA_RETIRING", &env, names, vals, 6, 2), 0.5);
	env.core_wide = 0;
	/* level 2: (2000 + 500 - 1500) / 4000; light = retiring - heavy, two metrics referenced */
	NEAR(value_of(SKL, "tma_heavy_operations", &env, names, vals, 6, 6), 0.25);
	NEAR(value_of(SKL, "tma_light_operations", &env, names, vals, 6, 6), 0.25);

	/* ScaleUnit and the group, any case */
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "topdownl1,tma_retiring", &env, &ms, err,
					       sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr(ms), 4);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 0, &info), 0);
	CU_ASSERT(info.scale == 100 && !strcmp(info.unit, "%") && !strcmp(info.pmu, "cpu"));
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 4, &info), -ERANGE);
	pmc_metrics_close(ms);

	/* which events each metric needs: IPC two of the three, level 1's through references */
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "tma_info_thread_ipc,tma_info_thread_cpi",
					       &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr_events(ms), 2);
	CU_ASSERT_EQUAL(pmc_metrics_uses(ms, 0, 0), 1);
	CU_ASSERT_EQUAL(pmc_metrics_uses(ms, 0, 1), 1);
	CU_ASSERT_EQUAL(pmc_metrics_uses(ms, 1, 1), 1);
	CU_ASSERT_EQUAL(pmc_metrics_uses(ms, 0, 2), -ERANGE);
	CU_ASSERT_EQUAL(pmc_metrics_uses(ms, 2, 0), -ERANGE);
	pmc_metrics_close(ms);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "tma_info_thread_ipc,tma_light_operations",
					       &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr_events(ms), 6);
	{
		unsigned int i, n0 = 0, n1 = 0;

		for (i = 0; i < 6; i++) {
			n0 += pmc_metrics_uses(ms, 0, i) == 1;
			n1 += pmc_metrics_uses(ms, 1, i) == 1;
		}
		CU_ASSERT_EQUAL(n0, 2);
		CU_ASSERT_EQUAL(n1, 6);
	}
	pmc_metrics_close(ms);

	/* with SMT on, bad speculation needs AnyThread: refused, naming the event */
	env.smt_on = 1;
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "tma_bad_speculation", &env, &ms, err,
					       sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 0, &info), 0);
	CU_ASSERT(info.refused && strstr(info.refused, "INT_MISC.RECOVERY_CYCLES_ANY") &&
		  strstr(info.refused, "AnyThread"));
	CU_ASSERT_EQUAL(pmc_metrics_nr_events(ms), 0);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 0, NULL, 1.0, &info.scale), -EOPNOTSUPP);
	pmc_metrics_close(ms);
}

static void test_sapphirerapids(void)
{
	static const char *const names[] = {
		"topdown-retiring", "topdown-fe-bound", "topdown-bad-spec", "topdown-be-bound",
		"topdown-heavy-ops", "TOPDOWN.SLOTS", "INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD",
	};
	static const double vals[] = { 300, 200, 100, 400, 150, 1000, 2400, 800 };

	NEAR(value_of(SPR, "tma_info_thread_ipc", &env_smt_off, names, vals, 8, 2), 3.0);
	/* level 1: 300 / (200 + 100 + 300 + 400) + 0 x slots */
	NEAR(value_of(SPR, "tma_retiring", &env_smt_off, names, vals, 8, 5), 0.3);
	/* level 2: 150 / 1000; light = max(0, 0.3 - 0.15) */
	NEAR(value_of(SPR, "tma_heavy_operations", &env_smt_off, names, vals, 8, 6), 0.15);
	NEAR(value_of(SPR, "tma_light_operations", &env_smt_off, names, vals, 8, 6), 0.15);
}

/* The index of metric @name in @ms, or -1. */
static int metric_index(const struct pmc_metrics *ms, const char *name)
{
	struct pmc_metric_info mi;
	unsigned int i;

	for (i = 0; i < pmc_metrics_nr(ms); i++) {
		if (!pmc_metrics_info(ms, i, &mi) && !strcmp(mi.name, name))
			return (int)i;
	}
	return -1;
}

/*
 * MetricThreshold on skylake's level 1, per task, as perf colours the
 * values: from the set's own counts only, a name it does not count not a
 * number (tma_retiring's "tma_retiring > 0.7 | tma_heavy_operations > 0.1"
 * without level 2).
 */
static void test_thresholds(void)
{
	static const char *const names[] = {
		"CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
		"CPU_CLK_UNHALTED.REF_XCLK", "IDQ_UOPS_NOT_DELIVERED.CORE", "UOPS_ISSUED.ANY",
		"INT_MISC.RECOVERY_CYCLES", "UOPS_RETIRED.RETIRE_SLOTS",
	};
	/* slots 4000: frontend 750 (18.75%), retiring 500 (12.5%), backend 1 - 0.1875 -
	 * (750 + 4 x 250) / 4000 = 37.5%, bad speculation the rest, 31.25% */
	double vals[] = { 1000, 100, 100, 750, 750, 250, 500 }, counts[16], v;
	struct pmc_metric_env env = env_smt_off;
	struct pmc_metrics *ms = NULL;
	char err[512];
	int fe, be, bs, ret;

	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "TopdownL1", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_nr_events(ms), 7);
	fe = metric_index(ms, "tma_frontend_bound");
	be = metric_index(ms, "tma_backend_bound");
	bs = metric_index(ms, "tma_bad_speculation");
	ret = metric_index(ms, "tma_retiring");
	CU_ASSERT_FATAL(fe >= 0 && be >= 0 && bs >= 0 && ret >= 0);
	CU_ASSERT_STRING_EQUAL(pmc_metrics_threshold_expr(ms, (unsigned int)be), "tma_backend_bound > 0.2");
	fill(ms, names, vals, ARRAY_SIZE(names), counts);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, (unsigned int)be, counts, 1.0, &v), 0);
	NEAR(v, 0.375);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)be, counts, 1.0), 1);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)fe, counts, 1.0), 1);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)bs, counts, 1.0), 1);
	/* 12.5% retiring and tma_heavy_operations not counted: undecided */
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)ret, counts, 1.0), -EDOM);
	/* 75% retiring decides it alone; frontend 10% is within its 15% */
	vals[6] = 3000;
	vals[3] = 400;
	fill(ms, names, vals, ARRAY_SIZE(names), counts);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)ret, counts, 1.0), 1);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)fe, counts, 1.0), 0);
	/* an input not counted: undecided, not "within" */
	counts[0] = NAN;
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, (unsigned int)fe, counts, 1.0), -EDOM);
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, 99, counts, 1.0), -ERANGE);
	pmc_metrics_close(ms);

	/* IPC has no threshold */
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL, "tma_info_thread_ipc", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_PTR_NULL(pmc_metrics_threshold_expr(ms, 0));
	CU_ASSERT_EQUAL(pmc_metrics_threshold(ms, 0, counts, 1.0), -ENODATA);
	pmc_metrics_close(ms);
}

/* Expressions of our own: the language's corners, perf's division by zero, cycles, errors. */
static const struct pmc_metric_def defs[] = {
	{ "dr", "d_ratio(INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD)", "G1", "", "", 0 },
	{ "div0", "INST_RETIRED.ANY / 0", "", "", "", 0 },
	{ "div", "INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD", "G1;G2", "", "", 0 },
	{ "dr0", "d_ratio(INST_RETIRED.ANY, 0)", "", "", "", 0 },
	{ "cond", "2 if INST_RETIRED.ANY > 10 else 3", "", "1e3ms", "", 0 },
	{ "arith", "-2e-1 * 10 + min(1, 2) + max(1, 2) + (1 < 2) + (3 > 4) + 7 - 2 - 1 + 8 / 4 / 2",
	  "", "", "", 0 },
	{ "loop_a", "1 + loop_b", "", "", "", 0 },
	{ "loop_b", "loop_a * 2", "", "", "", 0 },
	{ "mod0", "5 % 0", "", "", "", 0 },
	{ "lit", "#nosuch + 1", "", "", "", 0 },
	{ "dur", "INST_RETIRED.ANY / duration_time", "", "", "", 0 },
	{ "smt", "cpu@UOPS_EXECUTED.CORE\\,cmask\\=2@ if #SMT_on else cycles:u", "", "", "", 0 },
	{ "has", "(cpu@cycles\\-t@ / cycles if has_event(cycles\\-t) else 0) + source_count(cycles)",
	  "", "", "", 0 },
	{ "syntax", "1 + (2", "", "", "", 0 },
	{ "tsc_rate", "TSC / duration_time", "", "", "", 0 },
	{ "ref_tsc", "tsc_rate + dr", "", "", "", 0 },
};

static int open_defs(const char *list, const struct pmc_metric_env *env, struct pmc_metrics **ms,
		     char *err, size_t len)
{
	return pmc_metrics_open_defs(pmc_pe_model_find(SKL), defs, ARRAY_SIZE(defs), list, env, ms,
				     err, len);
}

static void test_language(void)
{
	struct pmc_metric_env env = env_smt_off;
	struct pmc_metrics *ms = NULL;
	struct pmc_metric_info info;
	double counts[4], v;
	char err[512];

	CU_ASSERT_EQUAL_FATAL(open_defs("dr,div0,div,dr0,cond,arith,dur", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr(ms), 7);
	/* div0 and dr0 need no event: a constant divisor of 0 drops the dividend's */
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_nr_events(ms), 2);
	CU_ASSERT_STRING_EQUAL(pmc_metrics_event(ms, 0), "INST_RETIRED.ANY");
	CU_ASSERT_STRING_EQUAL(pmc_metrics_event(ms, 1), "CPU_CLK_UNHALTED.THREAD");
	counts[0] = 100;
	counts[1] = 0;
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 0, counts, 2.0, &v), 0);
	CU_ASSERT(v == 0);			/* d_ratio by 0 */
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 1, counts, 2.0, &v), 0);
	CU_ASSERT(isnan(v));			/* '/' by a constant 0 */
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 2, counts, 2.0, &v), 0);
	CU_ASSERT(isnan(v));			/* '/' by a count of 0 */
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 3, counts, 2.0, &v), 0);
	CU_ASSERT(v == 0);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 4, counts, 2.0, &v), 0);
	CU_ASSERT(v == 2);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 4, &info), 0);
	CU_ASSERT(info.scale == 1e3 && !strcmp(info.unit, "ms"));
	counts[0] = 5;
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 4, counts, 2.0, &v), 0);
	CU_ASSERT(v == 3);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 5, counts, 2.0, &v), 0);
	NEAR(v, -2 + 1 + 2 + 1 + 0 + 7 - 2 - 1 + 1);
	counts[1] = 4;
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 0, counts, 2.0, &v), 0);
	CU_ASSERT(v == 1.25);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 6, &info), 0);
	CU_ASSERT(info.duration_time);
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 6, counts, 2.0, &v), 0);
	CU_ASSERT(v == 2.5);
	counts[0] = NAN;			/* not counted */
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 2, counts, 2.0, &v), 0);
	CU_ASSERT(isnan(v));
	pmc_metrics_close(ms);

	/* groups: G1 holds dr and div, any case, each once */
	CU_ASSERT_EQUAL_FATAL(open_defs("g1,G2,div", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_nr(ms), 2);
	pmc_metrics_close(ms);

	/* literals, pmu@event,terms@ and modifiers in pmcdrv's spelling */
	CU_ASSERT_EQUAL_FATAL(open_defs("smt", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_nr_events(ms), 1);
	CU_ASSERT_STRING_EQUAL(pmc_metrics_event(ms, 0), "cycles:u");
	pmc_metrics_close(ms);
	env.smt_on = 1;
	CU_ASSERT_EQUAL_FATAL(open_defs("smt", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_nr_events(ms), 1);
	CU_ASSERT_STRING_EQUAL(pmc_metrics_event(ms, 0), "cpu/UOPS_EXECUTED.CORE,cmask=2/");
	pmc_metrics_close(ms);

	/* has_event(): pmcdrv cannot count cycles-t, so the else part; source_count() of a core event is 1 */
	CU_ASSERT_EQUAL_FATAL(open_defs("has", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_nr_events(ms), 1);
	counts[0] = 77;
	CU_ASSERT_EQUAL(pmc_metrics_eval(ms, 0, counts, 1.0, &v), 0);
	CU_ASSERT(v == 1);
	pmc_metrics_close(ms);

	/* refused through a reference, naming the event and the metric */
	CU_ASSERT_EQUAL_FATAL(open_defs("ref_tsc", &env, &ms, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_metrics_info(ms, 0, &info), 0);
	CU_ASSERT(info.refused && strstr(info.refused, "'TSC'") && strstr(info.refused, "(in tsc_rate)"));
	CU_ASSERT_EQUAL(pmc_metrics_nr_events(ms), 0);
	pmc_metrics_close(ms);

	/* errors */
	ms = NULL;
	CU_ASSERT_EQUAL(open_defs("loop_a", &env, &ms, err, sizeof(err)), -ELOOP);
	CU_ASSERT(strstr(err, "loop_") != NULL);
	CU_ASSERT_EQUAL(open_defs("nosuch", &env, &ms, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "'nosuch'") != NULL);
	CU_ASSERT_EQUAL(open_defs("mod0", &env, &ms, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(open_defs("lit", &env, &ms, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "literal") != NULL);
	CU_ASSERT_EQUAL(open_defs("syntax", &env, &ms, err, sizeof(err)), -EINVAL);
	CU_ASSERT(strstr(err, "syntax") != NULL);
	CU_ASSERT_EQUAL(open_defs("div,", &env, &ms, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NULL(ms);
	CU_ASSERT_EQUAL(pmc_metrics_open("GenuineIntel-6-1-1", "all", &env, &ms, err, sizeof(err)),
			-ENODEV);
}

static int count_metric(const struct pmc_metric_info *mi, void *arg)
{
	(*(unsigned int *)arg)++;
	return !mi->name;
}

static void test_list(void)
{
	unsigned int n = 0;
	struct pmc_metric_env env;

	CU_ASSERT_EQUAL(pmc_metric_list(SPR, count_metric, &n), 0);
	CU_ASSERT_EQUAL(n, pmc_pe_model_find(SPR)->nr_metrics);
	CU_ASSERT(n > 100);
	pmc_metric_env_init(&env, false);
	CU_ASSERT(env.num_cpus_online >= 1 && env.num_packages >= 1 && env.core_wide == 0);
}

void register_metric_tests(void)
{
	static const struct unit_test tests[] = {
		{ "every metric of every model compiles", test_all_metrics },
		{ "their events parse as -e events", test_events_parse },
		{ "skylake: IPC, level 1 and 2 by hand", test_skylake },
		{ "sapphirerapids: IPC, level 1 and 2 by hand", test_sapphirerapids },
		{ "the language, division by zero, cycles, errors", test_language },
		{ "skylake: MetricThreshold from the set's counts", test_thresholds },
		{ "list and the machine's literals", test_list },
	};
	UNIT_ADD_SUITE("metric", tests);
}
