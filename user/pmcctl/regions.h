/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl run --regions: the region tables the command's processes write
 * (libpmc's machine form, libpmc.h "regions"), summed by name, and their
 * report in text, CSV and JSON.  Pure parsing and formatting (unit-tested).
 */
#ifndef PMCDRV_PMCCTL_REGIONS_H
#define PMCDRV_PMCCTL_REGIONS_H

#include <stddef.h>
#include <stdio.h>

#include "libpmc.h"
#include "report.h"

struct count_metrics;

/* One region: totals over the threads and processes (and runs) that ran it. */
struct region_row {
	char name[PMC_REGION_NAME_MAX];
	double threads;			/* records, i.e. thread-runs */
	double calls;
	double time_ns;
	double values[PMCDRV_MAX_EVENTS];
};

struct region_table {
	unsigned int nr_events;		/* 0 until a table with events is added */
	unsigned int n;
	struct region_row rows[PMC_REGION_MAX];
	unsigned int tables;		/* process tables added */
	unsigned int runs;		/* runs of the command (-r): the caller counts them */
	char error[256];		/* the first "e" record: a process could not set regions up */
};

/*
 * Add the tables in @buf[0..len) (one or more processes' "pmcdrv-regions 1"
 * blocks) to @t.  -EINVAL with a message naming the line and what is wrong
 * in @err (a wrong header, field count, number, or a table whose event
 * count differs from the others); -ENOSPC: more than PMC_REGION_MAX names.
 */
int region_table_add(struct region_table *t, const char *buf, size_t len, char *err, size_t errlen);

/*
 * Print @t after the counts: every value divided by @runs (means over -r),
 * event names from @ev (as many as t->nr_events), in r->format (text
 * table; CSV lines "region,NAME,THREADS,CALLS,MSEC,VALUE,EVENT" per event
 * with r->sep; one JSON object a region).  @target as in the report.
 * With @cm (run -M; NULL: none) each region's metrics too, from its means
 * (duration_time: its counted time): text, a "region NAME:" block after
 * the table with each metric in perf's # column; CSV, perf stat -M -x's two
 * metric fields (",VALUE,UNIT", empty when none) at the end of each event
 * line, a further metric of the same event on a line of its own with the
 * region's name and the other fields empty; JSON, a "metrics" list of
 * {"metric-value", "metric-unit"} objects (null: no value).
 */
void region_report_print(FILE *f, const struct report *r, const struct pmc_evlist *ev,
			 const struct region_table *t, unsigned int runs, struct count_metrics *cm);

#endif /* PMCDRV_PMCCTL_REGIONS_H */
