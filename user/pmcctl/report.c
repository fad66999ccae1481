// SPDX-License-Identifier: GPL-2.0
/* pmcctl's count reports: text, CSV and JSON as perf stat prints them. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "report.h"
#include "topdown.h"

/*
 * The text columns of perf stat 6.1 (Debian 12's linux-perf,
 * tools/perf/util/stat-display.c): the interval prefix "%6lu.%09lu ", the
 * CPU with -A "CPU%-7d ", the count "%18.0f " (task-clock "%18.2f "), the
 * unit "%-4s " ("msec" or blank), the event "%-32s", then the metric column
 * of METRIC_LEN and the spread "  ( +-%6.2f%% )".  METRIC_LEN is 35 in 6.1;
 * perf 6.2 made it 38 ("perf stat: Increase metric length to align outputs").
 */
#define INTERVAL_LEN	16
#define CPU_LEN		10
#define COUNTS_LEN	18
#define UNIT_LEN	4
#define EVNAME_LEN	32
#define METRIC_LEN	35
#define TD_METRIC_LEN	20	/* perf's METRIC_ONLY_LEN (stat.h) */
/* perf's print_noise_pct(): the spread, printed only when it is not 0. */
#define NOISE_FMT	"  ( +-%6.2f%% )"

void acc_add(struct stat_acc *a, double x)
{
	double d = x - a->mean;

	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

double acc_sd(const struct stat_acc *a)
{
	return a->n > 1 ? sqrt(a->m2 / (a->n - 1)) : 0;
}

double acc_spread_pct(const struct stat_acc *a)
{
	if (a->n < 2 || a->mean == 0)
		return 0;
	return 100.0 * acc_sd(a) / sqrt(a->n) / a->mean;
}

static bool is_clock(const struct pmc_evsel *e)
{
	return !pmc_evsel_is_hw(e) && e->ev.sw_id == PMCDRV_SW_TASK_CLOCK;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Rows of one CPU (or both totals), one cgroup (or none) and one core type (or the sum). */
static bool same_cpu(const struct report_row *a, const struct report_row *b)
{
	return same_str(a->cpu, b->cpu) && same_str(a->cgroup, b->cgroup) &&
	       same_str(a->pmu, b->pmu);
}

/* IPC for row @i if it is instructions and cycles of the same modifiers and CPU are there; else -1. */
static double row_ipc(const struct report_row *rows, unsigned int n, unsigned int i)
{
	const char *k = pmc_event_known_name(&rows[i].ev->ev);
	unsigned int j;

	/* perf prints no metric beside a count that never got a counter */
	if (!k || strcmp(k, "instructions") || rows[i].not_counted)
		return -1;
	for (j = 0; j < n; j++) {
		k = pmc_event_known_name(&rows[j].ev->ev);
		if (k && !strcmp(k, "cycles") && same_cpu(&rows[i], &rows[j]) &&
		    rows[j].ev->ev.flags == rows[i].ev->ev.flags)
			return rows[j].value > 0 ? rows[i].value / rows[j].value : -1;
	}
	return -1;
}

/* The row's runtime (ns) and percentage of time on a counter, as perf prints them. */
static double row_running(const struct report *r, const struct report_row *row)
{
	return row->mux || row->typed ? row->time_running : r->time_running;
}

static double row_pct(const struct report_row *row)
{
	return row->mux || row->typed ? row->running_pct : 100;
}

/* perf's PERF_COLOR_RED, PERF_COLOR_GREEN and PERF_COLOR_RESET (tools/perf/util/color.h). */
#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_RESET	"\033[m"

/* A metric's unit column as perf's generic_metric(): "UNIT  NAME" with a ScaleUnit, else NAME. */
static const char *metric_unit(const struct report_metric *m, char *buf, size_t len)
{
	if (!m->scaled)
		return m->name;
	snprintf(buf, len, "%s  %s", m->unit ? m->unit : "", m->name);
	return buf;
}

/* The next metric of row @row after index *k (start at -1); NULL when none. */
static const struct report_metric *row_metric(const struct report *r, unsigned int row, int *k)
{
	while (++*k < (int)r->nr_metrics)
		if (r->metrics[*k].row == row)
			return &r->metrics[*k];
	return NULL;
}

/* JSON: a metric's fields; no value (NAN) is null; its threshold when decided. */
static void json_metric(FILE *f, const struct report_metric *m)
{
	char ub[160];

	if (isnan(m->value) || isinf(m->value))
		fputs("\"metric-value\": null", f);
	else
		fprintf(f, "\"metric-value\": %.6f", m->value);
	fputs(", \"metric-unit\": ", f);
	json_string(f, metric_unit(m, ub, sizeof(ub)));
	if (m->threshold != REPORT_THRESHOLD_NONE && !isnan(m->value) && !isinf(m->value))
		fprintf(f, ", \"metric-threshold\": \"%s\"",
			m->threshold == REPORT_THRESHOLD_BEYOND ? "beyond" : "within");
}

/*
 * Colour in text as perf's color.ui=auto: only on a terminal (not "dumb"),
 * and not with NO_COLOR set (no-color.org).
 */
static bool want_color(FILE *f)
{
	const char *term = getenv("TERM");

	return !getenv("NO_COLOR") && term && strcmp(term, "dumb") && isatty(fileno(f));
}

/* CSV: SEP value SEP unit; no value is an empty field, as perf's print_metric_csv(). */
static void csv_metric(FILE *f, const char *s, const struct report_metric *m)
{
	char ub[160];

	if (isnan(m->value) || isinf(m->value))
		fprintf(f, "%s%s%s", s, s, metric_unit(m, ub, sizeof(ub)));
	else
		fprintf(f, "%s%.*f%s%s", s, m->scaled ? 1 : 2, m->value, s,
			metric_unit(m, ub, sizeof(ub)));
}

/* A JSON line's opening: the interval, CPU and cgroup when there are, each followed by ", ". */
static void json_open(FILE *f, const struct report *r, const struct report_row *row)
{
	fputc('{', f);
	if (r->interval >= 0)
		fprintf(f, "\"interval\": %.9f, ", r->interval);
	if (row->cpu) {
		fputs("\"cpu\": ", f);
		json_string(f, row->cpu + strlen("CPU"));
		fputs(", ", f);
	}
	if (row->cgroup) {
		fputs("\"cgroup\": ", f);
		json_string(f, row->cgroup);
		fputs(", ", f);
	}
}

static void print_json(FILE *f, const struct report *r, const struct report_row *row, double v,
		       double ipc, const struct report_metric *m)
{
	bool clock = is_clock(row->ev);

	json_open(f, r, row);
	fputs("\"event\": ", f);
	json_string(f, row->ev->name);
	if (row->not_counted)
		fputs(", \"counter-value\": \"<not counted>\"", f);
	else
		fprintf(f, ", \"counter-value\": %.6f", v);
	fprintf(f, ", \"unit\": \"%s\", \"event-runtime\": %.0f, \"pcnt-running\": %.2f",
		clock ? "msec" : "", row_running(r, row), row_pct(row));
	if (r->runs > 1)
		fprintf(f, ", \"runs\": %u, \"variance\": %.2f", r->runs, row->spread_pct);
	if (ipc >= 0) {
		fprintf(f, ", \"metric-value\": %.6f, \"metric-unit\": \"insn per cycle\"", ipc);
	} else if (m) {
		fputs(", ", f);
		json_metric(f, m);
	}
	fputs("}\n", f);
}

static void print_csv(FILE *f, const struct report *r, const struct report_row *row, double v,
		     double ipc, const struct report_metric *m)
{
	const char *s = r->sep;
	bool clock = is_clock(row->ev);

	/* perf 6.1 pads the time as in text ("%6lu.%09lu"); from 6.2 on it does not. */
	if (r->interval >= 0)
		fprintf(f, "%*.9f%s", INTERVAL_LEN, r->interval, s);
	if (row->cpu)
		fprintf(f, "%s%s", row->cpu, s);
	if (row->not_counted)
		fprintf(f, "<not counted>%s%s%s%s", s, clock ? "msec" : "", s, row->ev->name);
	else
		fprintf(f, "%.*f%s%s%s%s", clock ? 2 : 0, v, s, clock ? "msec" : "", s,
			row->ev->name);
	if (row->cgroup)
		fprintf(f, "%s%s", s, row->cgroup);
	if (r->runs > 1)
		fprintf(f, "%s%.2f%%", s, row->spread_pct);
	fprintf(f, "%s%.0f%s%.2f", s, row_running(r, row), s, row_pct(row));
	if (ipc >= 0)
		fprintf(f, "%s%.2f%sinsn per cycle", s, ipc, s);
	else if (m)
		csv_metric(f, s, m);
	fputc('\n', f);
}

/* One text line, built whole so that its trailing blanks can be cut. */
struct text_line {
	char buf[512];
	size_t n;
};

static void tl_printf(struct text_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void tl_printf(struct text_line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (l->n >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(l->buf + l->n, sizeof(l->buf) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n = l->n + (size_t)k < sizeof(l->buf) ? l->n + (size_t)k : sizeof(l->buf) - 1;
}

/* The line without its trailing blanks, and a newline. */
static void tl_put(FILE *f, struct text_line *l)
{
	while (l->n && l->buf[l->n - 1] == ' ')
		l->n--;
	fwrite(l->buf, 1, l->n, f);
	fputc('\n', f);
}

/*
 * The metric column as perf's print_metric_std(): " # ", the value, a blank
 * and the unit padded so that the column is METRIC_LEN wide; blank when
 * there is no metric (@unit NULL).  @color (NULL: none) colours the value;
 * the padding counts what shows, not the escapes.
 */
static void tl_metric_color(struct text_line *l, const char *value, const char *unit,
			    const char *color)
{
	int n;

	if (!unit) {
		tl_printf(l, "%-*s", METRIC_LEN, "");
		return;
	}
	n = (int)strlen(" # ") + (int)strlen(value);
	tl_printf(l, " # %s%s%s %-*s", color ? color : "", value, color ? COLOR_RESET : "",
		  METRIC_LEN - n - 1, unit);
}

static void tl_metric(struct text_line *l, const char *value, const char *unit)
{
	tl_metric_color(l, value, unit, NULL);
}

/*
 * A metric's value and unit in the text column, as perf: "%8.1f" with a
 * ScaleUnit, else "%8.2f"; with @color and a decided threshold the value in
 * perf's red (beyond) or green (within), the column as wide as without.
 */
static void tl_report_metric(struct text_line *l, const struct report_metric *m, bool color)
{
	char val[64], ub[160];
	const char *c = NULL;

	if (isnan(m->value) || isinf(m->value))
		snprintf(val, sizeof(val), "%8s", "n/a");
	else
		snprintf(val, sizeof(val), m->scaled ? "%8.1f" : "%8.2f", m->value);
	if (color && !isnan(m->value) && !isinf(m->value) && m->threshold != REPORT_THRESHOLD_NONE)
		c = m->threshold == REPORT_THRESHOLD_BEYOND ? COLOR_RED : COLOR_GREEN;
	tl_metric_color(l, val, metric_unit(m, ub, sizeof(ub)), c);
}

/* The count, unit and event columns blank, the metric in the # column. */
static void tl_metric_alone(struct text_line *l, const struct report_metric *m, bool color)
{
	tl_printf(l, "%*s", COUNTS_LEN + 1 + UNIT_LEN + 1 + EVNAME_LEN, "");
	tl_report_metric(l, m, color);
}

static void print_text(FILE *f, const struct report *r, const struct report_row *row, double v,
		       double ipc, const struct report_metric *m)
{
	bool clock = is_clock(row->ev);
	struct text_line l = { .n = 0 };
	char buf[64], val[64];

	if (r->interval >= 0)
		tl_printf(&l, "%*.9f ", INTERVAL_LEN, r->interval);
	if (row->cpu)
		tl_printf(&l, "%-*s ", CPU_LEN, row->cpu);
	if (row->not_counted)
		tl_printf(&l, "%*s ", COUNTS_LEN, "<not counted>");
	else if (clock)
		tl_printf(&l, "%*.2f ", COUNTS_LEN, v);
	else
		tl_printf(&l, "%*s ", COUNTS_LEN, fmt_thousands((uint64_t)llround(v), buf, sizeof(buf)));
	tl_printf(&l, "%-*s %-*s", UNIT_LEN, clock ? "msec" : "", EVNAME_LEN, row->ev->name);
	if (row->cgroup)
		tl_printf(&l, " %s", row->cgroup);
	if (ipc >= 0) {
		snprintf(val, sizeof(val), "%7.2f ", ipc);
		tl_metric(&l, val, "insn per cycle");
	} else if (clock && r->elapsed > 0) {
		snprintf(val, sizeof(val), "%8.3f", row->value / 1e9 / r->elapsed);
		tl_metric(&l, val, "CPUs utilized");
	} else if (m) {
		tl_report_metric(&l, m, want_color(f));
	} else {
		tl_metric(&l, NULL, NULL);
	}
	if (r->runs > 1 && row->spread_pct != 0)
		tl_printf(&l, NOISE_FMT, row->spread_pct);
	/*
	 * perf's print_running_std(): the share of time on a counter when not
	 * all; of a core type's row, the share of that type's time.
	 */
	if (row->mux && !row->not_counted && row->running_pct < 100) {
		if (!row->pmu)
			tl_printf(&l, "  (%.2f%%)", row->running_pct);
		else if (row->time_running > 0)	/* none: the task never ran on that type */
			tl_printf(&l, "  (%.2f%% of its time on %s)", row->running_pct, row->pmu);
	}
	/* The share of the time on its core type, the rest uncounted. */
	if (row->typed && row->mux && row->type_pct < 100 && row->time_running > 0)
		tl_printf(&l, "  (%.2f%% of the time on %s)", row->type_pct, row->pmu);
	else if (row->typed && !row->mux && row->running_pct < 100)
		tl_printf(&l, "  (%.2f%% of the time on %s)", row->running_pct, row->pmu);
	tl_put(f, &l);
}

/* perf's get_precision() + 2: two digits more than the spread's first significant one. */
static int elapsed_precision(double sd)
{
	/* perf: 0 above 1; for 0 its lround(inf) also ends as 0 on x86-64. */
	if (!(sd > 0) || sd > 1)
		return 2;
	return (int)lround(ceil(-log10(sd))) + 2;
}

void report_interval_header(FILE *f, const struct report *r, bool per_cpu)
{
	if (r->format != REPORT_TEXT)
		return;
	fputs(per_cpu ? "#           time CPU                    counts unit events\n" :
			"#           time             counts unit events\n", f);
}

static void print_footer(FILE *f, const struct report *r);

/*
 * A metric on a line of its own (a row's second and later): text, the
 * count, unit and event columns blank (perf 6.1's new_line_std(), aligned
 * here); CSV, the row's fields empty; JSON, an object of the metric alone.
 */
static void print_metric_line(FILE *f, const struct report *r, const struct report_row *row,
			      const struct report_metric *m)
{
	struct text_line l = { .n = 0 };
	int fields = 5 + (r->runs > 1) + !!row->cgroup, i;

	if (r->format == REPORT_JSON) {
		json_open(f, r, row);
		json_metric(f, m);
		fputs("}\n", f);
		return;
	}
	if (r->format == REPORT_CSV) {
		if (r->interval >= 0)
			fprintf(f, "%*.9f%s", INTERVAL_LEN, r->interval, r->sep);
		if (row->cpu)
			fprintf(f, "%s%s", row->cpu, r->sep);
		for (i = 1; i < fields; i++)
			fputs(r->sep, f);
		csv_metric(f, r->sep, m);
		fputc('\n', f);
		return;
	}
	if (r->interval >= 0)
		tl_printf(&l, "%*.9f ", INTERVAL_LEN, r->interval);
	if (row->cpu)
		tl_printf(&l, "%-*s ", CPU_LEN, "");
	tl_metric_alone(&l, m, want_color(f));
	tl_put(f, &l);
}

void report_metric(FILE *f, const struct report *r, const struct report_metric *m)
{
	struct text_line l = { .n = 0 };

	if (r->format == REPORT_JSON) {
		json_metric(f, m);
	} else if (r->format == REPORT_CSV) {
		csv_metric(f, r->sep, m);
	} else {
		tl_metric_alone(&l, m, want_color(f));
		tl_put(f, &l);
	}
}

void report_print(FILE *f, const struct report *r, const struct report_row *rows, unsigned int n)
{
	bool text = r->format == REPORT_TEXT;
	unsigned int i;

	if (text && r->interval < 0) {
		fprintf(f, "\n Performance counter stats for %s", r->target);
		if (r->runs > 1)
			fprintf(f, " (%u runs)", r->runs);
		fputs(":\n\n", f);
	}
	for (i = 0; i < n; i++) {
		double v = is_clock(rows[i].ev) ? rows[i].value / 1e6 : rows[i].value;
		double ipc = row_ipc(rows, n, i);
		const struct report_metric *m;
		int k = -1;

		/* The row's first metric in its column unless IPC or CPUs utilized has it. */
		m = row_metric(r, i, &k);
		if (m && (ipc >= 0 || (text && is_clock(rows[i].ev) && r->elapsed > 0)))
			m = NULL, k = -1;
		if (r->format == REPORT_JSON)
			print_json(f, r, &rows[i], v, ipc, m);
		else if (r->format == REPORT_CSV)
			print_csv(f, r, &rows[i], v, ipc, m);
		else
			print_text(f, r, &rows[i], v, ipc, m);
		while ((m = row_metric(r, i, &k)))
			print_metric_line(f, r, &rows[i], m);
	}
	if (!text || r->interval >= 0)
		return;
	print_footer(f, r);
}

/* perf's print_footer(), after the note. */
static void print_footer(FILE *f, const struct report *r)
{
	if (r->note)
		fprintf(f, "\n %s\n", r->note);
	fputc('\n', f);
	if (r->runs > 1) {
		/* The mean +- the standard deviation of the mean, and that relative to the mean. */
		double sd = r->elapsed * r->elapsed_spread_pct / 100;
		int prec = elapsed_precision(sd);

		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, r->elapsed, prec, sd);
		if (r->elapsed_spread_pct != 0)
			fprintf(f, NOISE_FMT, r->elapsed_spread_pct);
	} else {
		fprintf(f, " %17.9f seconds time elapsed", r->elapsed);
		/* User and sys for one run only, as perf. */
		if (r->have_rusage)
			fprintf(f, "\n\n %17.9f seconds user\n %17.9f seconds sys\n", r->utime,
				r->stime);
	}
	fputs("\n\n", f);
}

void report_read_warnings(const char *cmd, const struct pmcdrv_read *r)
{
	if (r->flags & PMCDRV_READ_LOST_TASKS)
		fprintf(stderr, "pmcctl %s: warning: %llu new tasks could not be tracked (they forked faster than pmcdrv refills its context pool); counts are low\n",
			cmd, (unsigned long long)r->lost_tasks);
	if (r->flags & PMCDRV_READ_SECURE_EXEC)
		fprintf(stderr, "pmcctl %s: warning: a task exec'd a setuid (non-dumpable) program and was not counted from there on, as with perf\n",
			cmd);
	if (r->flags & PMCDRV_READ_HW_FAULTS)
		fprintf(stderr, "pmcctl %s: warning: %llu PMU register accesses faulted while these counters were programmed or read; the counts may be wrong (the kernel log names the register)\n",
			cmd, (unsigned long long)r->hw_faults);
}

/*
 * Top-down: perf stat --topdown's metrics (tools/perf/util/stat-shadow.c,
 * Linux 6.1), each a share of the sum of the four level-1 metrics; a
 * level-2 metric and its sibling (the parent minus it) after its parent's
 * four.
 */
static const struct {
	const char *event;	/* pmc_event_known_name() */
	const char *unit;	/* perf's metric name */
	int parent;		/* level 2: index of the level-1 parent here, else -1 */
	const char *sibling;	/* level 2: perf's name for parent - this */
} td_metrics[] = {
	{ "topdown-retiring", "Retiring", -1, NULL },
	{ "topdown-bad-spec", "Bad Speculation", -1, NULL },
	{ "topdown-fe-bound", "Frontend Bound", -1, NULL },
	{ "topdown-be-bound", "Backend Bound", -1, NULL },
	{ "topdown-heavy-ops", "Heavy Operations", 0, "Light Operations" },
	{ "topdown-br-mispredict", "Branch Mispredict", 1, "Machine Clears" },
	{ "topdown-fetch-lat", "Fetch Latency", 2, "Fetch Bandwidth" },
	{ "topdown-mem-bound", "Memory Bound", 3, "Core Bound" },
};

int report_topdown_metrics(const struct report_row *rows, unsigned int n, unsigned int level,
			   struct td_gp *gp, struct td_value *out)
{
	double v[ARRAY_SIZE(td_metrics)], sum = 0;
	bool have[ARRAY_SIZE(td_metrics)] = { false };
	unsigned int i, k, m = 0, nonzero = 0;
	const char *name;

	for (i = 0; i < n; i++) {
		name = pmc_event_known_name(&rows[i].ev->ev);
		for (k = 0; name && k < ARRAY_SIZE(td_metrics); k++) {
			if (!strcmp(name, td_metrics[k].event)) {
				v[k] = rows[i].value;
				have[k] = true;
			}
		}
	}
	for (k = 0; k < 4; k++) {
		if (!have[k])	/* no PERF_METRICS: the model's TopdownL1 metrics */
			return level < 2 && gp ? td_gp_level1(gp, rows, n, out) : 0;
		sum += v[k];
		nonzero += v[k] > 0;
	}
	/* perf's full_td(): two of the four may be missing (zero) */
	if (nonzero < 2 || !(sum > 0))
		return 0;
	for (k = 0; k < ARRAY_SIZE(td_metrics); k++) {
		if (!have[k] || (td_metrics[k].parent >= 0 && level < 2))
			continue;
		out[m++] = (struct td_value){ td_metrics[k].unit, 100 * v[k] / sum };
		if (td_metrics[k].sibling)
			out[m++] = (struct td_value){ td_metrics[k].sibling,
						      100 * (v[td_metrics[k].parent] - v[k]) / sum };
	}
	return (int)m;
}

/* A metric's column width in text: perf's METRIC_ONLY_LEN, or its name and a blank. */
static int td_width(const struct td_value *t)
{
	int len = (int)strlen(t->unit) + 1;

	return len > TD_METRIC_LEN ? len : TD_METRIC_LEN;
}

/*
 * The header of the metric-only layout: text, "#           time " with -I
 * and "CPU" with -A before the names (perf 6.1 leaves the names out with -I
 * alone; pmcctl prints them); CSV, the same with the separator, without -I
 * and -A none (perf prints none).
 */
static void td_header(FILE *f, const struct report *r, const struct td_value *t, int m,
		      bool per_cpu)
{
	bool interval = r->interval >= 0;
	int i;

	if (r->format == REPORT_JSON)
		return;
	if (r->format == REPORT_CSV) {
		if (!interval && !per_cpu) {	/* an empty line, as before the values without them */
			fputc('\n', f);
			return;
		}
		if (interval)
			fprintf(f, "%*s%s", INTERVAL_LEN, "time", r->sep);
		if (per_cpu)
			fprintf(f, "cpu%s", r->sep);
		for (i = 0; i < m; i++)
			fprintf(f, "%s%s", t[i].unit, r->sep);
		fputc('\n', f);
		return;
	}
	if (interval)
		fputs("#           time ", f);
	/* perf 6.1's widths, which do not line up with its CPU column */
	if (per_cpu)
		fputs(interval ? "CPU     " : "      ", f);
	for (i = 0; i < m; i++)
		fprintf(f, "%s%*s ", i || interval || per_cpu ? "" : " ", td_width(&t[i]), t[i].unit);
	fputc('\n', f);
}

/* One line of percentages, of the CPU @cpu (NULL: the total). */
static void td_line(FILE *f, const struct report *r, const char *cpu, const struct td_value *t,
		    int m)
{
	bool interval = r->interval >= 0;
	char val[32];
	int i;

	if (r->format == REPORT_JSON) {
		for (i = 0; i < m; i++) {
			fputc('{', f);
			if (interval)
				fprintf(f, "\"interval\": %.9f, ", r->interval);
			if (cpu)
				fprintf(f, "\"cpu\": \"%s\", ", cpu);
			fprintf(f, "\"metric-value\": %.6f, \"metric-unit\": \"%s\"}\n", t[i].pct,
				t[i].unit);
		}
		return;
	}
	if (r->format == REPORT_CSV) {
		if (interval)
			fprintf(f, "%*.9f%s", INTERVAL_LEN, r->interval, r->sep);
		if (cpu)
			fprintf(f, "%s%s", cpu, r->sep);
		for (i = 0; i < m; i++)
			fprintf(f, "%.1f%s", t[i].pct, r->sep);
		fputc('\n', f);
		return;
	}
	if (interval)
		fprintf(f, "%*.9f ", INTERVAL_LEN, r->interval);
	if (cpu)
		fprintf(f, "%-*s ", CPU_LEN, cpu);
	for (i = 0; i < m; i++) {
		snprintf(val, sizeof(val), "%8.1f%%", t[i].pct);
		fprintf(f, "%s%*s ", i || interval || cpu ? "" : " ", td_width(&t[i]), val);
	}
	fputc('\n', f);
}

void report_print_topdown(FILE *f, const struct report *r, const struct report_row *rows,
			  unsigned int n, unsigned int level, struct td_gp *gp, bool header)
{
	struct td_value t[2 * ARRAY_SIZE(td_metrics)];
	const char *cpu;
	unsigned int i, j, k, nsub;
	bool per_cpu = n && rows[0].cpu;
	int m;

	if (r->format == REPORT_TEXT && r->interval < 0)
		fprintf(f, "\n Performance counter stats for %s:\n\n", r->target);
	if (!per_cpu) {
		m = report_topdown_metrics(rows, n, level, gp, t);
		if (header || r->interval < 0)
			td_header(f, r, t, m, false);
		td_line(f, r, NULL, t, m);
	} else {
		/* -A: each CPU's rows (in the order the CPUs first come) make its metrics. */
		struct report_row *own = calloc(n, sizeof(*own));

		for (i = 0; own && i < n; i++) {
			for (j = 0; j < i && strcmp(rows[j].cpu, rows[i].cpu); j++)
				;
			if (j < i)
				continue;
			cpu = rows[i].cpu;
			for (k = i, nsub = 0; k < n; k++)
				if (!strcmp(rows[k].cpu, cpu))
					own[nsub++] = rows[k];
			m = report_topdown_metrics(own, nsub, level, gp, t);
			if (i == 0 && (header || r->interval < 0))
				td_header(f, r, t, m, true);
			td_line(f, r, cpu, t, m);
		}
		free(own);
	}
	if (r->format == REPORT_TEXT && r->interval < 0)
		print_footer(f, r);
}
