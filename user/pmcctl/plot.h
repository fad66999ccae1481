/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl plot: a saved interval run ('pmcctl stat -I MS -j') read back into
 * one time series per event and metric, and written as gnuplot's data file
 * and script: a panel per event (its count per second) and per metric, and
 * the top-down level 1 as one stacked-area panel.  Parsing is json-c's;
 * nothing here runs a program, so tests/unit/ holds it against files
 * pmcctl's own writers produce.
 */
#ifndef PMCDRV_PMCCTL_PLOT_H
#define PMCDRV_PMCCTL_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One event or metric over the intervals. */
struct plot_series {
	char *name;	/* the event, or the metric without its unit: "tma_retiring" */
	char *unit;	/* a metric's unit ("%", "" for none); "" for an event */
	bool metric;
	double *v;	/* [n_t]: an event's count in the interval (summed over CPUs), a metric's value */
	bool *have;	/* [n_t]: false where the interval has none (not counted, no value) */
};

/* The top-down level-1 series, in the order they stack from the bottom. */
enum { PLOT_TD_RETIRING, PLOT_TD_BAD_SPEC, PLOT_TD_FE_BOUND, PLOT_TD_BE_BOUND, PLOT_TD_N };

struct plot {
	char *file;
	unsigned int n_t, cap_t;
	double *t;			/* each interval's end, seconds since the start */
	unsigned int n_s;
	struct plot_series *s;		/* in the order the file first names them */
	int td[PLOT_TD_N];		/* index in s of each level-1 share, -1 when absent */
	unsigned int n_notes;
	char **notes;			/* what was left out, for the user */
};

/*
 * Read @file, the JSON lines of 'pmcctl stat -I MS -j' (with -M, --topdown
 * or -A), into *p.  Events are summed over the CPUs of an interval; metrics
 * of single CPUs (-A) are left out with a note.  Errors (-ENOENT, -EIO,
 * -EINVAL: not pmcctl's JSON, a count without an interval, no interval at
 * all; -ENOMEM) come with a message in @err naming the file and line.
 */
int plot_read(struct plot *p, const char *file, char *err, size_t errlen);
void plot_free(struct plot *p);

/*
 * Keep only the events of the comma-separated @events and the metrics of
 * @metrics ("topdown" names the four level-1 shares); both NULL keep all.
 * -EINVAL with a message naming the unknown name and what the file has.
 */
int plot_select(struct plot *p, const char *events, const char *metrics, char *err, size_t errlen);

/* Are the four level-1 top-down shares there (one stacked panel)? */
bool plot_has_topdown(const struct plot *p);
/* The number of panels the script draws. */
unsigned int plot_panels(const struct plot *p);

/*
 * gnuplot's data, tab-separated: a comment line naming the columns, then a
 * line per interval: its end time, its length (s), and each series' value
 * as the JSON has it ("%.6f"), NaN where there is none.
 */
void plot_data(FILE *f, const struct plot *p);

/*
 * The gnuplot script that draws @data into @out (.png: pngcairo, .svg:
 * svg).  -EINVAL with a message in @err for another file name ending.
 */
int plot_script(FILE *f, const struct plot *p, const char *data, const char *out, char *err,
		size_t errlen);

#endif /* PMCDRV_PMCCTL_PLOT_H */
