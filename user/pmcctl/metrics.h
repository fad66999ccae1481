/* SPDX-License-Identifier: GPL-2.0 */
/* -M METRIC|GROUP of run and stat: the metrics' events among the counted ones, their values. */
#ifndef PMCDRV_PMCCTL_METRICS_H
#define PMCDRV_PMCCTL_METRICS_H

#include <stdbool.h>

#include "libpmc.h"
#include "pmcctl.h"
#include "report.h"

struct count_metrics {
	struct pmc_metrics *ms;
	unsigned int nr;			/* metrics computed (refused ones of a group left out) */
	unsigned int idx[PMCDRV_MAX_EVENTS];	/* the set's metric numbers, nr of them */
	unsigned int nev;			/* the set's events */
	unsigned int *map;			/* nr x nev: metric k's event i in the list, or UINT_MAX */
	double *counts;				/* 2 x nev: one metric's inputs, its threshold's */
	bool grouped;				/* they did not fit together: placed in perf's groups */
	struct report_metric out[PMCDRV_MAX_EVENTS];
	bool warned;				/* the multiplexing note was given */
	bool noted[PMCDRV_MAX_EVENTS];		/* metric k's "no value" note was given */
};

/* Do the hardware events of @l from @first on fit the counters of @pm all at once? */
bool metric_events_fit(const struct pmc_evlist *l, unsigned int first,
		       const struct pmc_arch_perfmon *pm);

/* This CPU's PMU as the module describes it, else as CPUID does; false when neither answers. */
bool metric_pmu_info(struct pmcdrv_info *info);

/*
 * Why metric @m of @ms cannot be computed here, or NULL: libpmc's reason
 * (uncore, another PMU, ...), else, with @pm (hybrid_perfmon_from_info(),
 * once for every metric asked), the first of its events that this PMU
 * cannot count and why (CPUID.0AH marks an architectural event
 * unavailable, ...), written into @buf.
 */
const char *metric_refused(struct pmc_metrics *ms, unsigned int m, const struct pmc_arch_perfmon *pm,
			   char *buf, size_t len);

/*
 * -M @list: compile the metrics for this CPU's model (@system_wide: perf's
 * #core_wide) and add their events to co's, once each (an event -e already
 * has is shared).  When they do not all fit this PMU's counters at once,
 * they are placed as perf places them instead: each metric perf groups
 * (its MetricConstraint) in a group of its own events, or in the group of
 * an earlier metric with all of them, unless the group alone would not fit;
 * the others' events shared (cm->grouped is then true).  A metric is refused when libpmc refuses it or this PMU
 * cannot count one of its events (metric_refused()).  A refused metric named in @list, an unknown name, or
 * events that do not fit the list are explained (the fix included) and
 * return -EINVAL; a model without metrics -ENODEV.  A refused metric of a
 * group is left out with a warning.
 */
int count_metrics_setup(struct count_metrics *cm, struct count_opts *co, const char *list,
			bool system_wide, const char *cmd);
/* count_metrics_setup() for the PMU @info describes (NULL: unknown, nothing refused or grouped by it). */
int count_metrics_setup_pmu(struct count_metrics *cm, struct count_opts *co, const char *list,
			    bool system_wide, const struct pmcdrv_info *info, const char *cmd);

/*
 * The metrics' values from @rows (one per event of the list, in its order)
 * into r->metrics, each beside the row of its first event.  A metric without
 * a value gets a note on stderr, once, naming why (its inputs that counted 0
 * or were not counted, else its formula's division by zero).  @duration_s:
 * wall-clock seconds (duration_time).  Returns true when an input of some
 * metric was multiplexed (its count scaled); the first time, a note on
 * stderr names the metrics.
 */
bool count_metrics_eval(struct count_metrics *cm, const struct report_row *rows, unsigned int n,
			double duration_s, struct report *r, const char *cmd);

void count_metrics_close(struct count_metrics *cm);

#endif /* PMCDRV_PMCCTL_METRICS_H */
