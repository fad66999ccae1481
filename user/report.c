// SPDX-License-Identifier: GPL-2.0
/* pmcctl's count reports: text, CSV and JSON as perf stat prints them. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "output.h"
#include "report.h"

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

static bool same_cpu(const struct report_row *a, const struct report_row *b)
{
	return (!a->cpu && !b->cpu) || (a->cpu && b->cpu && !strcmp(a->cpu, b->cpu));
}

/* IPC for row @i if it is instructions and cycles of the same modifiers and CPU are there; else -1. */
static double row_ipc(const struct report_row *rows, unsigned int n, unsigned int i)
{
	const char *k = pmc_event_known_name(&rows[i].ev->ev);
	unsigned int j;

	if (!k || strcmp(k, "instructions"))
		return -1;
	for (j = 0; j < n; j++) {
		k = pmc_event_known_name(&rows[j].ev->ev);
		if (k && !strcmp(k, "cycles") && same_cpu(&rows[i], &rows[j]) &&
		    rows[j].ev->ev.flags == rows[i].ev->ev.flags)
			return rows[j].value > 0 ? rows[i].value / rows[j].value : -1;
	}
	return -1;
}

static void print_json(FILE *f, const struct report *r, const struct report_row *row, double v,
		       double ipc)
{
	bool clock = is_clock(row->ev);

	fputc('{', f);
	if (r->interval >= 0)
		fprintf(f, "\"interval\": %.9f, ", r->interval);
	if (row->cpu) {
		fputs("\"cpu\": ", f);
		json_string(f, row->cpu + strlen("CPU"));
		fputs(", ", f);
	}
	fputs("\"event\": ", f);
	json_string(f, row->ev->name);
	fprintf(f, ", \"counter-value\": %.6f, \"unit\": \"%s\", \"event-runtime\": %.0f, \"pcnt-running\": 100.00",
		v, clock ? "msec" : "", r->time_running);
	if (r->runs > 1)
		fprintf(f, ", \"runs\": %u, \"variance\": %.2f", r->runs, row->spread_pct);
	if (ipc >= 0)
		fprintf(f, ", \"metric-value\": %.6f, \"metric-unit\": \"insn per cycle\"", ipc);
	fputs("}\n", f);
}

static void print_csv(FILE *f, const struct report *r, const struct report_row *row, double v,
		      double ipc)
{
	const char *s = r->sep;
	bool clock = is_clock(row->ev);

	if (r->interval >= 0)
		fprintf(f, "%.9f%s", r->interval, s);
	if (row->cpu)
		fprintf(f, "%s%s", row->cpu, s);
	fprintf(f, "%.*f%s%s%s%s%s%.0f%s100.00", clock ? 2 : 0, v, s, clock ? "msec" : "", s,
		row->ev->name, s, r->time_running, s);
	if (ipc >= 0)
		fprintf(f, "%s%.2f%sinsn per cycle", s, ipc, s);
	fputc('\n', f);
}

static void print_text(FILE *f, const struct report *r, const struct report_row *row, double v,
		       double ipc)
{
	bool clock = is_clock(row->ev);
	char buf[64];

	if (r->interval >= 0)
		fprintf(f, "%16.9f ", r->interval);
	if (row->cpu)
		fprintf(f, "%-8s", row->cpu);
	if (clock)
		fprintf(f, "%18.2f msec %-28s", v, row->ev->name);
	else
		fprintf(f, "%18s      %-28s", fmt_thousands((uint64_t)llround(v), buf, sizeof(buf)),
			row->ev->name);
	if (ipc >= 0)
		fprintf(f, " #  %6.2f  insn per cycle", ipc);
	else if (clock && r->elapsed > 0)
		fprintf(f, " #  %6.3f CPUs utilized", row->value / 1e9 / r->elapsed);
	if (r->runs > 1)
		fprintf(f, "%s( +- %5.2f%% )",
			ipc >= 0 || clock ? "  " : "                                 ", row->spread_pct);
	fputc('\n', f);
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

		if (r->format == REPORT_JSON)
			print_json(f, r, &rows[i], v, ipc);
		else if (r->format == REPORT_CSV)
			print_csv(f, r, &rows[i], v, ipc);
		else
			print_text(f, r, &rows[i], v, ipc);
	}
	if (!text || r->interval >= 0)
		return;
	if (r->note)
		fprintf(f, "\n %s\n", r->note);
	fprintf(f, "\n %14.9f seconds time elapsed", r->elapsed);
	if (r->runs > 1)
		fprintf(f, "  ( +- %5.2f%% )", r->elapsed_spread_pct);
	fputs("\n\n", f);
	if (r->have_rusage)
		fprintf(f, " %14.9f seconds user\n %14.9f seconds sys\n\n", r->utime, r->stime);
}
