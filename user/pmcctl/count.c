// SPDX-License-Identifier: GPL-2.0
/* pmcctl: the options and event checks the counting commands share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"
#include "libpmc.h"
#include "metrics.h"
#include "pmcctl.h"
#include "report.h"
#include "run.h"
#include "topdown.h"

bool parse_long(const char *arg, long min, long max, long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < min || n > max)
		return false;
	*out = n;
	return true;
}

bool parse_seconds(const char *arg, double max, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(arg, &end);
	if (errno || *end || end == arg || !(d > 0) || d > max)
		return false;
	*out = d;
	return true;
}

int cpus_choose(cpu_set_t *cpus, bool given, const char *cmd)
{
	char list[256], onl[256];
	cpu_set_t online, off;
	int err = pmc_online_cpus(NULL, &online);

	if (err) {
		fprintf(stderr, "pmcctl %s: reading the online CPUs: %s\n", cmd, strerror(-err));
		return -EIO;
	}
	if (!given) {
		*cpus = online;
		return 0;
	}
	CPU_XOR(&off, cpus, &online);
	CPU_AND(&off, &off, cpus);
	if (CPU_COUNT(&off)) {
		pmc_cpulist_format(&off, list, sizeof(list));
		pmc_cpulist_format(&online, onl, sizeof(onl));
		fprintf(stderr, "pmcctl %s: -C: CPU %s %s not online (online: %s)\n",
			cmd, list, CPU_COUNT(&off) > 1 ? "are" : "is", onl);
		return -EINVAL;
	}
	return 0;
}

int cpu_events(const struct pmc_evlist *l, bool defaults, struct pmc_evlist *out, const char *cmd)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < l->n; i++) {
		const struct pmc_evsel *e = &l->ev[i];

		if (pmc_evsel_is_hw(e) || e->ev.sw_id == PMCDRV_SW_TASK_CLOCK) {
			out->ev[out->n++] = *e;
		} else if (!defaults) {
			fprintf(stderr, "pmcctl %s: event '%s' is counted per task, not per CPU; "
				"count it with 'pmcctl run'\n", cmd, e->name);
			return -EINVAL;
		}
	}
	return 0;
}

bool count_opt_owns(int c)
{
	return c == COUNT_OPT_NO_SCALE || (c > 0 && c < 256 && c != ':' && strchr(COUNT_SHORTOPTS, c));
}

double count_value(const struct count_opts *co, const struct pmcdrv_read *r, unsigned int i)
{
	uint64_t v;

	if (i >= PMCDRV_MAX_EVENTS)
		return 0;
	/* Only a multiplexing session's counts need it (the MSR fallback has no times). */
	if (co->no_scale || !(r->flags & PMCDRV_READ_MULTIPLEXED))
		return (double)r->values[i];
	pmc_scale_count(r->values[i], r->times[i].time_enabled, r->times[i].time_running, &v);
	return (double)v;
}

void count_row_times(struct report_row *row, bool mux, double ena, double run)
{
	row->mux = mux;
	if (!mux)
		return;
	row->time_running = run;
	row->running_pct = ena > 0 ? 100.0 * run / ena : 100;
	row->not_counted = !(run > 0);
}

int count_opt(struct count_opts *co, int c, const char *arg, const char *cmd)
{
	char err[512];

	switch (c) {
	case 'e':
		if (pmc_evlist_parse(&co->events, arg, err, sizeof(err))) {
			fprintf(stderr, "pmcctl %s: -e %s: %s\n", cmd, arg, err);
			return -EINVAL;
		}
		return 0;
	case 'x':
		if (!*arg) {
			fprintf(stderr, "pmcctl %s: -x needs a non-empty separator\n", cmd);
			return -EINVAL;
		}
		co->csv_sep = arg;
		return 0;
	case 'j':
		co->json = true;
		return 0;
	case 'o':
		co->out_path = arg;
		return 0;
	case 'c':
		co->no_scale = false;
		return 0;
	case COUNT_OPT_NO_SCALE:
		co->no_scale = true;
		return 0;
	default:	/* 'd' */
		co->device = arg;
		return 0;
	}
}

int count_opts_check(const struct count_opts *co, const char *cmd)
{
	if (co->json && co->csv_sep) {
		fprintf(stderr, "pmcctl %s: -x and --json exclude each other\n", cmd);
		return -EINVAL;
	}
	return 0;
}

enum report_format count_format(const struct count_opts *co)
{
	return co->json ? REPORT_JSON : co->csv_sep ? REPORT_CSV : REPORT_TEXT;
}

FILE *count_output(const struct count_opts *co, const char *cmd)
{
	FILE *f;

	if (!co->out_path)
		return stderr;
	f = fopen(co->out_path, "we");
	if (!f)
		fprintf(stderr, "pmcctl %s: -o %s: %s\n", cmd, co->out_path, strerror(errno));
	return f;
}

int check_events(struct pmc_evlist *events, const struct pmcdrv_info *info, const char *cmd)
{
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_arch_perfmon pm;
	uint32_t counter[PMCDRV_MAX_EVENTS];
	struct pmc_extra_prog xp;
	unsigned int i;
	int err;

	if (!events->n)
		pmc_evlist_default(events, info);

	memset(&cfg, 0, sizeof(cfg));
	hybrid_perfmon_from_info(info, &pm);
	/* as perf: on a hybrid part, slots and the topdown metrics are cpu_core's alone */
	for (i = 0; pm.hybrid && i < events->n; i++) {
		struct pmcdrv_event *e = &events->ev[i].ev;
		struct pmc_event_spec sp;

		if (e->type != PMCDRV_EVENT_HW || e->core_type)
			continue;
		pmc_event_to_spec(e, &sp);
		if (pmc_event_td_metric(&sp) >= 0 || pmc_event_is_slots(&sp))
			e->core_type = PMCDRV_CORE_TYPE_CORE;
	}
	cfg.nr_events = events->n;
	for (i = 0; i < events->n; i++)
		cfg.events[i] = events->ev[i].ev;
	err = pmc_config_check(&cfg, &pm, ~0ULL, counter, &v);
	/* the extra registers (offcore response) as the module checks them, by the model */
	if (!err)
		err = pmc_config_extra(&cfg, pmc_extra_model_find(info->family, info->model), &xp, &v);
	if (err) {
		if (v.err == PMC_CONFIG_BAD_EVENT || v.err == PMC_CONFIG_FIXED_BUSY ||
		    v.err == PMC_CONFIG_NO_EXTRA_REGS || v.err == PMC_CONFIG_EXTRA_NO_REG ||
		    v.err == PMC_CONFIG_EXTRA_RESERVED)
			fprintf(stderr, "pmcctl %s: event '%s': %s\n", cmd,
				events->ev[v.bad_index].name, pmc_config_strerror(&v));
		else if (v.err == PMC_CONFIG_EXTRA_CONFLICT)
			fprintf(stderr, "pmcctl %s: the group of event '%s' ({...} number %u): two events "
				"of one {group} need different values in one extra register "
				"(OFFCORE_RESPONSE_0/1); split the group (events outside groups take "
				"turns on the counters)\n", cmd, events->ev[v.bad_index].name,
				events->ev[v.bad_index].ev.group);
		else if (v.err == PMC_CONFIG_GROUP_TOO_BIG)
			fprintf(stderr, "pmcctl %s: the group of event '%s' ({...} number %u): %s\n", cmd,
				events->ev[v.bad_index].name, events->ev[v.bad_index].ev.group,
				pmc_config_strerror(&v));
		else
			fprintf(stderr, "pmcctl %s: %s\n", cmd, pmc_config_strerror(&v));
		return err == -ENODEV || err == -EOPNOTSUPP ? -ENODEV : -EINVAL;
	}
	return 0;
}

/*
 * Ask the module what the PMU offers, fill in the default events, and check
 * the events in user space first, to name an offending one.
 */
int prepare_events(struct pmc_evlist *events, const char *device, const char *cmd)
{
	struct pmcdrv_info info;
	struct pmc_session *probe;
	int err;

	err = pmc_session_open(device, &probe);
	if (err)
		return device_error(cmd, device, err);
	err = pmc_session_info(probe, &info);
	pmc_session_close(probe);
	if (err) {
		fprintf(stderr, "pmcctl %s: INFO: %s\n", cmd, strerror(-err));
		return -EIO;
	}
	return check_events(events, &info, cmd);
}

/* A task session of @o's events, configured (run, compare, and -p/-t once per task). */
int task_session_open(const struct run_opts *o, struct pmc_session **out)
{
	struct pmc_session *s;
	unsigned int i;
	int err;

	err = pmc_session_open(o->c.device, &s);
	if (err)
		return device_error("run", o->c.device, err);
	for (i = 0; i < o->c.events.n; i++)
		pmc_session_add(s, &o->c.events.ev[i].ev);
	pmc_session_set_inherit(s, o->inherit);
	err = pmc_session_config(s);
	if (err) {
		pmc_session_close(s);
		return session_error("run", "cannot configure the events", err);
	}
	*out = s;
	return 0;
}

/*
 * --topdown without PERF_METRICS: level 1 from the model's TopdownL1
 * metrics (topdown.h), their events one group; co->td set to them.
 */
static int topdown_gp_setup(struct count_opts *co, const struct pmcdrv_info *info,
			    const struct pmc_arch_perfmon *pm, unsigned int *level, bool system_wide,
			    const char *cmd)
{
	unsigned int first = co->events.n;
	struct pmc_metric_env env;
	struct td_gp *td;
	const char *model = NULL;
	char err[512];
	int ret;

	pmc_kernel_model(NULL, &model);
	pmc_metric_env_init(&env, system_wide);
	/* SMT off: a core runs one thread, its clocks the thread's (topdown.h) */
	if (!env.smt_on)
		env.core_wide = 1;
	ret = td_gp_open(&td, NULL, &env, info, err, sizeof(err));
	if (ret == -ENODEV) {
		fprintf(stderr, "pmcctl %s: --topdown needs IA32_PERF_METRICS (PERF_CAPABILITIES bit 15 "
			"and fixed counter 3: Ice Lake and later cores), or the TopdownL1 metrics of "
			"the model's data (Sandy Bridge to Cascade Lake); this CPU (family %u model 0x%x, "
			"perfmon v%u%s) has neither: %s\n", cmd, info->family, info->model,
			info->perfmon_version, (info->flags & PMCDRV_INFO_PDCM) ? "" : ", no PERF_CAPABILITIES",
			err);
		return -ENODEV;
	}
	if (ret == -EOPNOTSUPP && env.smt_on) {
		fprintf(stderr, "pmcctl %s: --topdown: with SMT on, the top-down formulas of this CPU's "
			"data ('%s') count both threads of a core, and %s; turn SMT off (echo off > "
			"/sys/devices/system/cpu/smt/control) to use it\n", cmd, model ? model : "?", err);
		return -ENODEV;
	}
	if (ret) {
		fprintf(stderr, "pmcctl %s: --topdown: %s\n", cmd, err);
		return ret == -ENOMEM ? -ENOMEM : ret == -EOPNOTSUPP ? -ENODEV : -EINVAL;
	}
	if (*level > 1) {
		fprintf(stderr, "pmcctl %s: --td-level %u: without PERF_METRICS this CPU (the '%s' "
			"data's TopdownL1) has level 1 only (as perf: \"The max level is 1\")\n", cmd,
			*level, model ? model : "?");
		td_gp_close(td);
		return -EINVAL;
	}
	*level = 1;
	if (pmc_evlist_parse(&co->events, td_gp_events(td), err, sizeof(err))) {
		fprintf(stderr, "pmcctl %s: --topdown: %s\n", cmd, err);
		td_gp_close(td);
		return -EINVAL;
	}
	/* one group: it must fit the counters at once */
	if (!metric_events_fit(&co->events, first, pm)) {
		fprintf(stderr, "pmcctl %s: --topdown: the %u events of the '%s' data's TopdownL1 "
			"metrics, one group (%s), do not fit this PMU (%u general-purpose counters)\n",
			cmd, co->events.n - first, model ? model : "?", td_gp_events(td), pm->num_gp);
		td_gp_close(td);
		return -EINVAL;
	}
	co->td = td;
	return 0;
}

int count_topdown_setup(struct count_opts *co, unsigned int *level, bool system_wide,
			const char *cmd)
{
	/* slots and level 1, then level 2 */
	static const char *const names[] = {
		"slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
		"topdown-be-bound", "topdown-heavy-ops", "topdown-br-mispredict",
		"topdown-fetch-lat", "topdown-mem-bound",
	};
	struct pmc_arch_perfmon all, pm;
	struct pmcdrv_info info;
	struct pmc_session *s;
	char list[640], err[512];
	const char *pmu = "", *end = "";
	unsigned int max, i, n;
	size_t len;
	int ret;

	ret = pmc_session_open(co->device, &s);
	if (ret)
		return device_error(cmd, co->device, ret);
	ret = pmc_session_info(s, &info);
	pmc_session_close(s);
	if (ret) {
		fprintf(stderr, "pmcctl %s: INFO: %s\n", cmd, strerror(-ret));
		return -EIO;
	}
	hybrid_perfmon_from_info(&info, &all);
	pm = all;
	if (info.flags & PMCDRV_INFO_HYBRID) {
		/* as perf: "default to use cpu_core topdown events" */
		pmc_type_perfmon(&all, PMC_CORE_TYPE_CORE, &pm);
		if (!pm.td_metrics) {
			fprintf(stderr, "pmcctl %s: --topdown on a hybrid CPU takes the P-cores' "
				"PERF_METRICS (cpu_core), which this one's P-cores lack (fixed counter "
				"3 or PERF_CAPABILITIES bit 15); the E-cores' level 1 is their cpu_atom "
				"TopdownL1 metrics: pmcctl %s -M TopdownL1\n", cmd, cmd);
			return -ENODEV;
		}
		pmu = "cpu_core/";
		end = "/";
		fprintf(stderr, "pmcctl %s: note: --topdown on a hybrid CPU is the P-cores' breakdown "
			"(cpu_core's topdown events, as perf); time on E-cores is not in it\n", cmd);
	}
	if (!pm.td_metrics)
		return topdown_gp_setup(co, &info, &pm, level, system_wide, cmd);
	max = pm.td_metrics > PMC_TD_NR_LEVEL1 ? 2 : 1;
	if (*level > max) {
		fprintf(stderr, "pmcctl %s: --td-level %u: this PMU's PERF_METRICS has level 1 only "
			"(as perf: \"The max level is %u\")\n", cmd, *level, max);
		return -EINVAL;
	}
	if (!*level)
		*level = max;	/* as perf stat --topdown */
	/*
	 * perf adds the fields there are, also beyond the level printed; on a
	 * hybrid part each in the P-cores' PMU: {cpu_core/slots/,...}
	 */
	n = max > 1 ? ARRAY_SIZE(names) : 1 + PMC_TD_NR_LEVEL1;
	for (i = 0, len = 0; i < n; i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s%s%s%s", i ? "," : "{",
					pmu, names[i], end, i + 1 == n ? "}" : "");
	if (pmc_evlist_parse(&co->events, list, err, sizeof(err))) {
		fprintf(stderr, "pmcctl %s: --topdown: %s\n", cmd, err);
		return -EINVAL;
	}
	return 0;
}
