/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl's count reports in perf stat's three formats: text, CSV (-x) and
 * JSON.  Pure formatting: everything it prints comes from struct report, so
 * tests/unit/ can hold the output against golden files.
 */
#ifndef PMCDRV_REPORT_H
#define PMCDRV_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "libpmc.h"

/* Running mean and variance (Welford). */
struct stat_acc {
	double mean, m2;
	unsigned int n;
};

void acc_add(struct stat_acc *a, double x);
/* Sample standard deviation; 0 below two samples. */
double acc_sd(const struct stat_acc *a);
/* Relative spread of the mean in percent, as perf stat reports it. */
double acc_spread_pct(const struct stat_acc *a);

enum report_format {
	REPORT_TEXT,
	REPORT_CSV,
	REPORT_JSON,
};

/* One printed count: an event, on one CPU (-A) or summed. */
struct report_row {
	const struct pmc_evsel *ev;
	const char *cpu;	/* "CPU3" with -A, NULL for a total */
	const char *cgroup;	/* stat -G: the cgroup counted, after the event as perf prints it */
	/*
	 * A hybrid CPU's core type ("cpu_core", "cpu_atom"): the row is that
	 * type's share, ev's name "PMU/EVENT/" as perf prints it; NULL for the sum.
	 */
	const char *pmu;
	double value;		/* mean raw value: ns for task-clock */
	double spread_pct;	/* acc_spread_pct() of the runs, 0 for one run */
	/*
	 * The session multiplexed: value is scaled (unless --no-scale), the
	 * event's own runtime and share of time on a counter are these, and
	 * a count never on a counter shows perf's "<not counted>".
	 */
	bool mux;
	bool not_counted;
	double time_running;	/* ns */
	double running_pct;	/* 100 * time_running / time_enabled */
	/*
	 * An event of one core type (cpu_core/EVENT/): its raw count, never
	 * scaled; time_running and running_pct are the time on CPUs of its
	 * type, the only time it counted.  With mux as well (a row of a
	 * type's turns): value is that type's estimate, time_running and
	 * running_pct its time on a counter there and its share of the
	 * type's time, type_pct the type's share of the whole time.
	 */
	bool typed;
	double type_pct;
};

/*
 * A metric (-M) printed in the metric column of row @row, as perf prints
 * it beside its group's leader: further metrics of one row get lines of
 * their own.
 */
enum report_threshold {
	REPORT_THRESHOLD_NONE,		/* none in the data, or not decided by the counts */
	REPORT_THRESHOLD_WITHIN,
	REPORT_THRESHOLD_BEYOND,
};

struct report_metric {
	unsigned int row;
	const char *name;
	const char *unit;	/* ScaleUnit's unit ("%", "per_instr"); "" or NULL: none */
	bool scaled;		/* a ScaleUnit: "%8.1f UNIT  NAME" (else "%8.2f NAME") */
	double value;		/* ScaleUnit applied; NAN: no value (not counted, 0/0) */
	/*
	 * Its MetricThreshold.  Text on a terminal colours the value as perf
	 * does (red beyond, green within; not with NO_COLOR set); JSON says
	 * "metric-threshold": "beyond" or "within"; CSV has no field for it
	 * (perf's layout).
	 */
	enum report_threshold threshold;
};

struct report {
	enum report_format format;
	const char *sep;		/* CSV separator */
	const char *target;		/* "'CMD ARGS'", "system wide", "CPU(s) 0-3" */
	unsigned int runs;		/* -r N; 1 otherwise */
	double interval;		/* -I: seconds since the start; < 0 without -I */
	double time_running;		/* ns; event-runtime in CSV and JSON */
	double elapsed;			/* seconds */
	double elapsed_spread_pct;
	bool have_rusage;		/* print user and sys (one run only, as perf) */
	double utime, stime;		/* seconds */
	const char *note;		/* printed under the counts (text), NULL for none */
	const struct report_metric *metrics;	/* -M, nr_metrics of them */
	unsigned int nr_metrics;
};

/*
 * Print the rows.  Text: a header (none with -I), the counts, elapsed time
 * and rusage; IPC beside instructions when cycles with the same modifiers
 * and CPU are in the rows.  Text and CSV have the layout of perf stat 6.1
 * (Debian 12), spreads with -r included, except that no text line ends in
 * blanks; elapsed time and times in CSV/JSON follow perf.
 */
void report_print(FILE *f, const struct report *r, const struct report_row *rows, unsigned int n);

/* A top-down metric as perf stat --topdown prints it: its name and percentage. */
struct td_value {
	const char *unit;
	double pct;
};

struct td_gp;

/*
 * The top-down metrics of @rows (topdown-* events, level 2 only when
 * @level >= 2) in perf's order, into @out (room for 12); how many, 0 when
 * the four level-1 metrics are not there or sum to 0.  Without topdown-*
 * rows, level 1 from the model's TopdownL1 metrics @gp (topdown.h:
 * td_gp_level1(); NULL: none).
 */
int report_topdown_metrics(const struct report_row *rows, unsigned int n, unsigned int level,
			   struct td_gp *gp, struct td_value *out);
/*
 * perf stat --topdown's output (its metric-only layout): text, a line of
 * metric names and one of percentages; CSV (-x), the same with the
 * separator; JSON, one object per metric.  With -I (r->interval >= 0) the
 * interval's time leads each line, and the names come only with @header
 * (the first interval); with rows per CPU (-A: each row's cpu set) one
 * line per CPU.  Then, without -I, the footer, as report_print().  @gp:
 * as report_topdown_metrics().
 */
void report_print_topdown(FILE *f, const struct report *r, const struct report_row *rows,
			  unsigned int n, unsigned int level, struct td_gp *gp, bool header);

/*
 * One metric for a writer of its own (the region report): text, a line
 * with the count, unit and event columns blank and the metric in perf's #
 * column; CSV, its two fields (SEP value SEP unit, the value empty when it
 * has none); JSON, its "metric-value" and "metric-unit" fields.
 */
void report_metric(FILE *f, const struct report *r, const struct report_metric *m);

/* Text with -I: perf's column header, printed once before the first interval. */
void report_interval_header(FILE *f, const struct report *r, bool per_cpu);

/*
 * Warnings that a READ's flags carry (counts low or possibly wrong), to
 * stderr, each once per call: tasks not tracked (LOST_TASKS), a setuid exec
 * (SECURE_EXEC), PMU MSR accesses that faulted (HW_FAULTS).  @cmd: "run",
 * "stat".
 */
void report_read_warnings(const char *cmd, const struct pmcdrv_read *r);

#endif /* PMCDRV_REPORT_H */
