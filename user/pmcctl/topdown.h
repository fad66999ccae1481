/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl: top-down level 1 from general-purpose events, on the cores
 * before PERF_METRICS (Sandy Bridge to Cascade Lake), with the formulas of
 * perf's metric files for those models (Linux 6.1,
 * tools/perf/pmu-events/arch/x86/MODEL/ metrics files, group TopdownL1).
 * Pure: the model table, the event list and the arithmetic; the caller
 * reads SMT and the PMU.
 */
#ifndef PMCCTL_TOPDOWN_H
#define PMCCTL_TOPDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* One group of models in perf's mapfile.csv, and what differs between them. */
struct td_gp_model {
	const char *perf_name;		/* perf's directory: "skylake" */
	const unsigned char *models;	/* family 6 model numbers, 0-terminated */
	unsigned int recovery_umask;	/* INT_MISC.RECOVERY_CYCLES: umask, counter mask */
	unsigned int recovery_cmask;
};

/* The model group of family @family model @model, NULL when perf's files use PERF_METRICS or none. */
const struct td_gp_model *td_gp_model(unsigned int family, unsigned int model);

/*
 * The -e list of the level-1 events into @buf, one group:
 * CPU_CLK_UNHALTED.THREAD (cycles), IDQ_UOPS_NOT_DELIVERED.CORE,
 * UOPS_ISSUED.ANY, UOPS_RETIRED.RETIRE_SLOTS and INT_MISC.RECOVERY_CYCLES
 * (4 general-purpose counters and fixed counter 1).  Returns 0, or -ENOSPC.
 */
int td_gp_events(const struct td_gp_model *m, char *buf, size_t len);

/*
 * Level 1 from the rows of those events (found by their encodings), as
 * perf's TopdownL1 metrics with #SMT_on false: SLOTS = 4 * CORE_CLKS;
 * retiring = RETIRE_SLOTS / SLOTS; bad speculation = (ISSUED -
 * RETIRE_SLOTS + 4 * RECOVERY_CYCLES) / SLOTS; frontend bound =
 * IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS; backend bound = 1 - frontend bound
 * - (ISSUED + 4 * RECOVERY_CYCLES) / SLOTS.  CORE_CLKS is THREAD: perf's
 * files say so for core-wide counting with SMT off, and for a task they
 * say THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK), which with SMT off
 * is THREAD too, as ONE_THREAD_ACTIVE counts every REF_XCLK cycle when no
 * other thread shares the core; so the two clock events are not counted
 * and the rest fits one group on 4 counters.  Into @out (room for 4), in
 * perf stat --topdown's order and names; returns 4, or 0 when an event is
 * missing or was never on a counter, or a divisor is 0 (perf prints no
 * metric then).
 */
int td_gp_level1(const struct report_row *rows, unsigned int n, struct td_value *out);

#endif
