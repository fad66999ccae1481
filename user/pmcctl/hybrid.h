/* SPDX-License-Identifier: GPL-2.0 */
/* A hybrid CPU's rows by core type (hybrid.c). */
#ifndef PMCCTL_HYBRID_H
#define PMCCTL_HYBRID_H

#include "report.h"
#include "run.h"

/* A hybrid CPU's counts by core type over the runs (the core types of the last). */
struct type_acc {
	unsigned int nr;
	uint32_t ids[PMCDRV_MAX_CORE_TYPES];	/* CPUID.1AH:EAX */
	struct stat_acc vals[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];
	struct stat_acc time[PMCDRV_MAX_CORE_TYPES];	/* ns counted on CPUs of the type */
	struct stat_acc run[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];	/* ns on a counter */
	/*
	 * The events took turns (each type its own) and are scaled: vals are
	 * each type's estimates, raw x its time there / its time on a counter
	 * there (never the whole time: perf's overcount of cpu_atom rows).
	 */
	bool scale;
};

/*
 * The index of core type @cpuid_1a (CPUID.1AH:EAX) in @res->types, added
 * (zeroed) when new; -1 when the PMCDRV_MAX_CORE_TYPES are taken.
 */
int type_slot(struct run_result *res, uint32_t cpuid_1a);

/* Add one run's split (res->nr_types 0: none) of @n events. */
/*
 * Add a run's split by core type to @ta; with @scale (the session
 * multiplexed, and is scaled) each type's estimates.
 */
void type_acc_add(struct type_acc *ta, const struct run_result *res, unsigned int n, bool scale);

/*
 * The rows of @sum's @n events by core type (@cputype's alone when not 0,
 * none with @merge: --cputype and --hybrid-merge) into @rows (room for
 * PMCDRV_MAX_EVENTS * (PMCDRV_MAX_CORE_TYPES + 1)), their names in @tev
 * (room for PMCDRV_MAX_EVENTS * PMCDRV_MAX_CORE_TYPES); the number of rows.
 */
unsigned int type_rows(unsigned int cputype, bool merge, const struct type_acc *ta,
		       const struct report_row *sum, unsigned int n, struct report_row *rows,
		       struct pmc_evsel *tev);

/*
 * Rows as they are (with metrics beside them: -M), but each event of one
 * core type (cpu_core/EVENT/) marked as type_rows() marks it: its PMU, and
 * its time on its type.
 */
void type_rows_mark(const struct type_acc *ta, struct report_row *rows, unsigned int n);

/*
 * What run, run -p/-t and stat -a print on a hybrid CPU, chosen in one
 * place: without @ta (not hybrid) @rows as they are; with @metrics (-M) @rows
 * marked (type_rows_mark()), the metrics staying beside them; else the rows
 * by core type (type_rows() into @trows and @tev).  Returns the rows to
 * print, *@nr how many.
 */
const struct report_row *type_rows_shown(unsigned int cputype, bool merge, bool metrics,
					 const struct type_acc *ta, struct report_row *rows,
					 unsigned int n, struct report_row *trows,
					 struct pmc_evsel *tev, unsigned int *nr);

/*
 * @info's PMU into @pm (pmc_perfmon_from_info()) and, on a hybrid part,
 * each core type's own counters, read from each CPU's CPUID: its GP and
 * fixed counters and its PERF_METRICS fields, as the module plans them
 * (pmc_type_set_gp(), pmc_type_set_fixed()).  Each CPU is visited: once
 * a command, not once an event or a metric.
 */
void hybrid_perfmon_from_info(const struct pmcdrv_info *info, struct pmc_arch_perfmon *pm);
/* Into @pm (from pmc_perfmon_from_info()), the @nt core types already read (pmc_cpuid_core_types()). */
void hybrid_types_perfmon(const struct pmcdrv_info *info, const struct pmc_core_type_desc *types,
			  int nt, struct pmc_arch_perfmon *pm);

#endif
