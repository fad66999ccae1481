/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl report: saved JSON outputs of 'pmcctl run -j' and 'pmcctl stat -j'
 * (one per MPI rank, or any files) merged into one table: a column per
 * rank, then sum, min, max, mean and imbalance (max / mean), per event,
 * metric and region; printed as text, CSV or JSON, and as the data of a
 * per-rank bar chart.  Parsing is json-c's; nothing here runs a program,
 * so tests/unit/ holds it against files pmcctl's own writers produce.
 */
#ifndef PMCDRV_PMCCTL_MERGE_H
#define PMCDRV_PMCCTL_MERGE_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

/* One input file, a column of the table. */
struct merge_input {
	char *file;
	char *label;		/* "host:rank" from its identity object, else the file name */
	char *host;		/* NULL without an identity object */
	int rank, local_rank, world_size;	/* -1 when unknown */
	char *cpu_model;	/* NULL when unknown */
};

enum merge_kind {
	MERGE_EVENT,		/* a counter value, summed over a file's per-CPU and interval lines */
	MERGE_METRIC,		/* a ratio (insn per cycle, a top-down share): no sum */
	MERGE_REGION_STAT,	/* a region's calls or msec */
};

/* One row: an event, metric or region statistic, per input. */
struct merge_row {
	char *region;		/* NULL: the whole run */
	char *name;
	enum merge_kind kind;
	double *v;		/* [n_in], in column order */
	bool *have;		/* [n_in]: false where the file has no value ("-") */
	/* Over the inputs that have a value. */
	unsigned int n;
	double sum, min, max, mean, imbalance;	/* imbalance: max / mean, NAN when the mean is 0 */
};

struct merge {
	unsigned int n_in;
	struct merge_input *in;		/* sorted: by rank, then files without one in the order given */
	unsigned int n_rows;
	struct merge_row *rows;
	unsigned int n_notes;
	char **notes;			/* what was dropped or differs, said in the report */
};

/*
 * Read @n files and merge them into *m.  Files whose whole-run events
 * differ are merged on the events all of them have, with a note naming
 * what was dropped from which file, or refused with @strict; different
 * CPU models are noted, or refused with @strict.  Errors (-EINVAL, -EIO,
 * -ENOENT, -ENOMEM) come with a message in @err naming the file and line.
 */
int merge_files(struct merge *m, char **files, unsigned int n, bool strict, char *err, size_t errlen);
void merge_free(struct merge *m);

/* The report: @format text, CSV with @sep, or one JSON document. */
void merge_print(FILE *f, const struct merge *m, enum report_format format, const char *sep);

/*
 * The bar chart's data, tab-separated: a header "rank" and one column per
 * event and region statistic, then a line per input, each value divided
 * by its row's mean (1 = balanced); rows without a mean are left out.
 * Returns the number of data columns.
 */
unsigned int merge_plot_data(FILE *f, const struct merge *m);

#endif /* PMCDRV_PMCCTL_MERGE_H */
