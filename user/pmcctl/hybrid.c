// SPDX-License-Identifier: GPL-2.0
/*
 * A hybrid CPU's rows by core type (run of a command and run -p/-t): each
 * hardware event's raw count on each type, then the exact sum; an event of
 * one core type its one row, with its time on that type.  Where the events
 * took turns, each type's estimate from its own time there.
 */
#include <stdio.h>
#include <string.h>

#include "hybrid.h"
#include "libpmc.h"

int type_slot(struct run_result *res, uint32_t cpuid_1a)
{
	unsigned int k;

	for (k = 0; k < res->nr_types && res->types[k].cpuid_1a != cpuid_1a; k++)
		;
	if (k == PMCDRV_MAX_CORE_TYPES)
		return -1;
	if (k == res->nr_types) {
		memset(&res->types[k], 0, sizeof(res->types[k]));
		res->types[res->nr_types++].cpuid_1a = cpuid_1a;
	}
	return (int)k;
}

/* A type's estimate of a count: @v x @on / @run, 0 when never on a counter. */
static double type_scaled(double v, double on, double run)
{
	return run > 0 ? v * on / run : 0;
}

void type_acc_add(struct type_acc *ta, const struct run_result *res, unsigned int n, bool scale)
{
	unsigned int t, i;
	double v, on, run;

	if (res->nr_types > ta->nr) {
		for (t = 0; t < res->nr_types; t++)
			ta->ids[t] = res->types[t].cpuid_1a;
		ta->nr = res->nr_types;
	}
	ta->scale |= scale;
	/* A type the run did not see (the split came with a later one) counted 0 there. */
	for (t = 0; t < ta->nr; t++) {
		on = t < res->nr_types ? (double)res->types[t].time_enabled : 0;
		for (i = 0; i < n; i++) {
			v = t < res->nr_types ? (double)res->types[t].values[i] : 0;
			run = t < res->nr_types ? (double)res->type_running[t][i] : 0;
			acc_add(&ta->vals[t][i], scale ? type_scaled(v, on, run) : v);
			acc_add(&ta->run[t][i], run);
		}
		acc_add(&ta->time[t], on);
	}
}

/*
 * A row of core type @t's turns (@ta scaled): its time on a counter there,
 * and its share of the type's time; never on a counter there while the
 * type had time: perf's "<not counted>".  No time there: 0, on a counter
 * 0 ns of it (0%).
 */
static void type_row_turns(const struct type_acc *ta, unsigned int t, unsigned int i,
			   struct report_row *row)
{
	double on = ta->time[t].mean, run = ta->run[t][i].mean;

	row->mux = true;
	row->time_running = run;
	row->running_pct = on > 0 ? 100.0 * run / on : 0;
	row->not_counted = on > 0 && !(run > 0);
}

/*
 * An event of one core type (cpu_core/EVENT/): its row as it counted, with
 * the time on its type; scaled, its type's estimate and turns there.
 */
static void type_row_typed(const struct type_acc *ta, unsigned int i, struct report_row *row)
{
	double all = 0, on = 0;
	unsigned int t, k = ta->nr;

	row->typed = true;
	row->pmu = pmc_core_type_pmu(row->ev->ev.core_type);
	for (t = 0; t < ta->nr; t++) {
		all += ta->time[t].mean;
		if (ta->ids[t] >> 24 == row->ev->ev.core_type) {
			on += ta->time[t].mean;
			k = t;
		}
	}
	row->time_running = on;
	row->running_pct = all > 0 ? 100.0 * on / all : 100;
	row->type_pct = row->running_pct;
	if (!ta->scale)
		return;
	if (k == ta->nr) {
		/* its type was never online */
		row->value = 0;
		row->mux = false;
		row->not_counted = false;
		return;
	}
	row->value = ta->vals[k][i].mean;
	row->spread_pct = acc_spread_pct(&ta->vals[k][i]);
	type_row_turns(ta, k, i, row);
}

void type_rows_mark(const struct type_acc *ta, struct report_row *rows, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (rows[i].ev->ev.core_type)
			type_row_typed(ta, i, &rows[i]);
	}
}

const struct report_row *type_rows_shown(unsigned int cputype, bool merge, bool metrics,
					 const struct type_acc *ta, struct report_row *rows,
					 unsigned int n, struct report_row *trows,
					 struct pmc_evsel *tev, unsigned int *nr)
{
	*nr = n;
	if (!ta || !ta->nr)
		return rows;
	if (metrics) {
		type_rows_mark(ta, rows, n);
		return rows;
	}
	*nr = type_rows(cputype, merge, ta, rows, n, trows, tev);
	return trows;
}

/*
 * The rows of a hybrid CPU: each hardware event's count on each core type
 * (as perf's cpu_core/EVENT/ and cpu_atom/EVENT/ rows, but raw: never
 * scaled by its own running time), then the exact sum of them, the row of
 * @sum; with --cputype the one type's rows alone, with --hybrid-merge the
 * sums alone.  An event of one core type (cpu_core/EVENT/) has its one
 * row, raw too.  Where the events took turns (@ta scaled), each type's
 * row is its estimate from its own time there, and the sum their sum.
 * @tev holds the rows' names.  Returns the number of rows.
 */
unsigned int type_rows(unsigned int cputype, bool merge, const struct type_acc *ta,
		       const struct report_row *sum, unsigned int n, struct report_row *rows,
		       struct pmc_evsel *tev)
{
	unsigned int i, t, k = 0, m = 0;
	double est;

	for (i = 0; i < n; i++) {
		bool hw = pmc_evsel_is_hw(sum[i].ev) && !merge && !sum[i].ev->ev.core_type;

		if (sum[i].ev->ev.core_type) {
			rows[k] = sum[i];
			type_row_typed(ta, i, &rows[k++]);
			continue;
		}
		for (t = 0; hw && t < ta->nr; t++) {
			const char *pmu = pmc_core_type_pmu(ta->ids[t] >> 24);

			if (cputype && ta->ids[t] >> 24 != cputype)
				continue;
			if (snprintf(tev[m].name, sizeof(tev[m].name), "%s/%s/", pmu,
				     sum[i].ev->name) >= (int)sizeof(tev[m].name))
				tev[m].name[sizeof(tev[m].name) - 2] = '/';
			tev[m].ev = sum[i].ev->ev;
			rows[k] = sum[i];
			rows[k].ev = &tev[m++];
			rows[k].pmu = pmu;
			rows[k].value = ta->vals[t][i].mean;
			rows[k].spread_pct = acc_spread_pct(&ta->vals[t][i]);
			if (ta->scale)
				type_row_turns(ta, t, i, &rows[k]);
			k++;
		}
		if (hw && cputype)
			continue;
		rows[k] = sum[i];
		/* Taking turns: the sum of the types' estimates, each by its own time. */
		if (ta->scale && pmc_evsel_is_hw(sum[i].ev)) {
			for (t = 0, est = 0; t < ta->nr; t++)
				est += ta->vals[t][i].mean;
			rows[k].value = est;
		}
		k++;
	}
	return k;
}

void hybrid_perfmon_from_info(const struct pmcdrv_info *info, struct pmc_arch_perfmon *pm)
{
	struct pmc_core_type_desc types[PMCDRV_MAX_CORE_TYPES];

	pmc_perfmon_from_info(info, pm);
	if (pm->hybrid)
		hybrid_types_perfmon(info, types, pmc_cpuid_core_types(types, PMCDRV_MAX_CORE_TYPES),
				     pm);
}

void hybrid_types_perfmon(const struct pmcdrv_info *info, const struct pmc_core_type_desc *types,
			  int nt, struct pmc_arch_perfmon *pm)
{
	int t;
	u32 type;
	u64 cap;

	for (t = 0; pm->hybrid && t < nt; t++) {
		type = types[t].cpuid_1a >> 24;
		/*
		 * PERF_CAPABILITIES is INFO's, of the CPU the module probed on:
		 * a P-core's PERF_METRICS is taken as there when its fixed
		 * counter 3 is (every hybrid part has both); the module checks
		 * each type's own and refuses otherwise.
		 */
		cap = info->perf_capabilities;
		if (type == PMC_CORE_TYPE_CORE && (info->flags & PMCDRV_INFO_PDCM))
			cap |= PMC_PERF_CAP_PERF_METRICS;
		pmc_type_set_gp(pm, type, types[t].gp_mask);
		pmc_type_set_fixed(pm, type, types[t].fixed_mask,
				   pmc_td_metrics(info->family, info->model, cap,
						  (u32)types[t].fixed_mask));
	}
}
