/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl: top-down level 1 without PERF_METRICS (Sandy Bridge to Cascade
 * Lake, and the E-core models), from the model's own TopdownL1 metrics in
 * the kernel's data (libpmc's pmc_metrics_*: tma_retiring,
 * tma_bad_speculation, tma_frontend_bound, tma_backend_bound), so the
 * events and formulas are the data's, model by model, and nothing is
 * written here by hand but the order and names perf stat --topdown prints.
 *
 * The one rule added to the data's: for a task with SMT off, the
 * core-wide formula of the core's clocks is used (the caller sets
 * #core_wide).  The data's per-task formula, CPU_CLK_UNHALTED.THREAD / 2 *
 * (1 + ONE_THREAD_ACTIVE / REF_XCLK), is then the same number
 * (ONE_THREAD_ACTIVE counts every REF_XCLK cycle while no other thread
 * shares the core) from two more events, which would not fit one group on
 * 4 general-purpose counters beside the rest.  With SMT on, the data's
 * formulas need the AnyThread events, which pmcdrv refuses, and say so.
 */
#ifndef PMCCTL_TOPDOWN_H
#define PMCCTL_TOPDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "libpmc.h"
#include "report.h"

struct td_gp;

/*
 * The TopdownL1 metrics of @cpuid's model (NULL: this CPU's, as
 * pmc_metrics_open()) with @env's literals, their events parsed; @info
 * (NULL: not checked) is the PMU whose counters must count them.  0, or
 * -ENODEV: the model has no data or no TopdownL1 group; -EOPNOTSUPP: one of
 * its metrics cannot be computed here (@err names it and why); -EINVAL: an
 * event does not parse; -ENOMEM.  @err says which.
 */
int td_gp_open(struct td_gp **out, const char *cpuid, const struct pmc_metric_env *env,
	       const struct pmcdrv_info *info, char *err, size_t len);
void td_gp_close(struct td_gp *td);

/* The -e list of their events, one group: "{EV,EV,...}" in perf's spelling. */
const char *td_gp_events(const struct td_gp *td);

/*
 * Level 1 from @rows, each metric's events found by their encoding (not
 * their modifiers: --all-user's :u rows count them), into @out (room for
 * 4) in perf stat --topdown's order and names ("Retiring", "Bad
 * Speculation", "Frontend Bound", "Backend Bound"): how many, or 0 when an
 * event is missing or was never on a counter, or a metric has no value
 * (a division by zero): perf prints no metric then.
 */
int td_gp_level1(struct td_gp *td, const struct report_row *rows, unsigned int n,
		 struct td_value *out);

#endif
