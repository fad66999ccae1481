/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -I MS: the counts of each interval while counting, and --plot's drawing
 * of them after; what stat (whole CPUs) and run (a command, -p/-t) share.
 */
#ifndef PMCDRV_PMCCTL_INTERVAL_H
#define PMCDRV_PMCCTL_INTERVAL_H

#include <stdbool.h>
#include <stdio.h>

#include "libpmc.h"
#include "pmcctl.h"
#include "report.h"

#define INTERVAL_MIN_MS		10
#define INTERVAL_MAX_MS		(24L * 3600 * 1000)

struct count_metrics;

/* Where the intervals go and what they have printed so far. */
struct interval_out {
	FILE *f;			/* the counts (-o, or stderr) */
	const struct count_opts *c;	/* the format, separator, scaling and events */
	bool topdown;			/* --topdown's layout */
	unsigned int td_level;
	struct count_metrics *cm;	/* -M, or NULL */
	const char *target;		/* the report's target */
	const char *cmd;		/* "run", "stat" */
	double interval;		/* seconds; 0 without -I */
	double t0;			/* when counting started */
	double t_last;			/* when the last interval ended (t0 before the first) */
	double next;			/* when the next one is due */
	struct pmcdrv_read prev;	/* the counts at t_last (one summed read) */
	const char *plot;		/* --plot FILE, or NULL */
	FILE *plot_json;		/* with --plot: every interval once more, as JSON */
	char plot_path[40];
};

/* -I MS: *ms, or the rule and -EINVAL. */
int interval_parse(const char *arg, long *ms, const char *cmd);

/*
 * --plot FILE checks after the options: it needs -I, and gnuplot (named
 * with the package that has it).  0 or the error to exit with.
 */
int interval_plot_check(const char *plot, long interval_ms, const char *cmd);

/* Before counting: with io->plot the temporary JSON file.  0 or the error to exit with. */
int interval_open(struct interval_out *io);

/*
 * Counting started at @t0: the intervals' times count from there.  Prints
 * text's column header (not --topdown's: it comes with the first interval).
 */
void interval_begin(struct interval_out *io, double t0, bool per_cpu);

/* After a late wake-up the intervals it missed are skipped, as perf does. */
double interval_next_due(double next, double interval, double t);

/*
 * Print one interval's @rows (the counts of [io->t_last, t], already
 * deltas) to io->f and, with --plot, as JSON to the plot's file; @r has
 * the format, target and times set by interval_report().
 */
void interval_print_rows(struct interval_out *io, struct report *r,
			 const struct report_row *rows, unsigned int n, bool first);

/* The report of an interval ending at @t (its time column and length). */
struct report interval_report(const struct interval_out *io, double t);

/* @now - @prev of event @e, as a one-event read (its value, times and flags). */
void interval_delta(const struct pmcdrv_read *now, const struct pmcdrv_read *prev,
		    unsigned int e, struct pmcdrv_read *d);

/*
 * One summed read (run: the task session, -p/-t: the sessions' sum) at @t:
 * print now - io->prev, scaled as the final counts, then start the next
 * interval.  @last: the final read after the count; printed only when the
 * interval is not empty.
 */
void interval_print_read(struct interval_out *io, const struct pmcdrv_read *now, double t,
			 bool last);

/*
 * The end: close the plot's file and, when the count went well (!@ex),
 * draw it.  A failed drawing turns a *code of 0 into 1 (it stays when not
 * 0).  Returns @ex, or an error closing the file.
 */
int interval_finish(struct interval_out *io, int ex, int *code);

#endif /* PMCDRV_PMCCTL_INTERVAL_H */
