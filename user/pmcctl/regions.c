// SPDX-License-Identifier: GPL-2.0
/* pmcctl run --regions: the command's region tables, summed by name, and their report. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "output.h"
#include "regions.h"

#define TABLE_MAGIC	"pmcdrv-regions 1 "

static int bad_line(char *err, size_t errlen, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad_line(char *err, size_t errlen, unsigned int line, const char *fmt, ...)
{
	size_t o;
	va_list ap;

	if (!errlen)
		return -EINVAL;
	snprintf(err, errlen, "line %u: ", line);
	o = strlen(err);
	va_start(ap, fmt);
	vsnprintf(err + o, errlen - o, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A decimal number and one blank after it; advances *p.  false when there is none. */
static bool take_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	if (s >= end || *s != ' ')
		return false;
	*p = s + 1;
	*v = x;
	return true;
}

static struct region_row *row_of(struct region_table *t, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if (strlen(t->rows[i].name) == len && !memcmp(t->rows[i].name, name, len))
			return &t->rows[i];
	if (t->n == PMC_REGION_MAX)
		return NULL;
	memset(&t->rows[t->n], 0, sizeof(t->rows[t->n]));
	memcpy(t->rows[t->n].name, name, len);
	return &t->rows[t->n++];
}

/* "r PID TID CALLS TIME_NS V0 .. NAME" of a table with @nev events. */
static int add_record(struct region_table *t, unsigned int nev, const char *p, const char *end,
		      unsigned int line, char *err, size_t errlen)
{
	uint64_t pid, tid, calls, time_ns, v[PMCDRV_MAX_EVENTS];
	struct region_row *row;
	unsigned int i;
	size_t len;

	if (!take_u64(&p, end, &pid) || !take_u64(&p, end, &tid) || !take_u64(&p, end, &calls) ||
	    !take_u64(&p, end, &time_ns))
		return bad_line(err, errlen, line, "a region record needs PID TID CALLS TIME_NS");
	for (i = 0; i < nev; i++)
		if (!take_u64(&p, end, &v[i]))
			return bad_line(err, errlen, line, "value %u of %u is missing or not a number", i + 1, nev);
	len = (size_t)(end - p);
	if (!len || len >= PMC_REGION_NAME_MAX)
		return bad_line(err, errlen, line, "the region name is empty or longer than %d characters",
				PMC_REGION_NAME_MAX - 1);
	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return bad_line(err, errlen, line, "the region name has a non-printable character");
	row = row_of(t, p, len);
	if (!row) {
		snprintf(err, errlen, "more than %d distinct region names", PMC_REGION_MAX);
		return -ENOSPC;
	}
	row->threads += 1;
	row->calls += (double)calls;
	row->time_ns += (double)time_ns;
	for (i = 0; i < nev; i++)
		row->values[i] += (double)v[i];
	return 0;
}

int region_table_add(struct region_table *t, const char *buf, size_t len, char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len, *eol;
	unsigned int line = 0, nev = 0;
	bool in_table = false;
	uint64_t pid, n;
	size_t k;
	int ret;

	for (; p < end; p = eol + 1) {
		line++;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			return bad_line(err, errlen, line, "the last line is cut short (no newline)");
		if ((size_t)(eol - p) > strlen(TABLE_MAGIC) && !memcmp(p, TABLE_MAGIC, strlen(TABLE_MAGIC))) {
			const char *q = p + strlen(TABLE_MAGIC);

			if (!take_u64(&q, eol, &pid) || q >= eol || *q < '0' || *q > '9')
				return bad_line(err, errlen, line, "the header needs PID NEVENTS");
			for (n = 0; q < eol && *q >= '0' && *q <= '9' && n <= PMCDRV_MAX_EVENTS; q++)
				n = n * 10 + (uint64_t)(*q - '0');
			if (q != eol || n > PMCDRV_MAX_EVENTS)
				return bad_line(err, errlen, line, "NEVENTS is not a number from 0 to %d",
						PMCDRV_MAX_EVENTS);
			if (n && t->nr_events && n != t->nr_events)
				return bad_line(err, errlen, line, "a table of %u events after tables of %u",
						(unsigned int)n, t->nr_events);
			if (n)
				t->nr_events = (unsigned int)n;
			nev = (unsigned int)n;
			in_table = true;
			t->tables++;
			continue;
		}
		if (!in_table)
			return bad_line(err, errlen, line, "no 'pmcdrv-regions 1' header before it");
		if (eol - p > 2 && !memcmp(p, "r ", 2)) {
			ret = add_record(t, nev, p + 2, eol, line, err, errlen);
			if (ret)
				return ret;
		} else if (eol - p > 2 && !memcmp(p, "e ", 2)) {
			const char *q = p + 2;

			if (!take_u64(&q, eol, &pid))
				return bad_line(err, errlen, line, "an error record needs PID MESSAGE");
			k = (size_t)(eol - q);
			if (!t->error[0])
				snprintf(t->error, sizeof(t->error), "%.*s", (int)(k < 255 ? k : 255), q);
		} else {
			return bad_line(err, errlen, line, "not a region record ('r ...', 'e ...' or a header)");
		}
	}
	return 0;
}

/* ---- the report ------------------------------------------------------------------ */
static const char *ev_name(const struct pmc_evlist *ev, unsigned int i)
{
	return ev && i < ev->n ? ev->ev[i].name : "event";
}

/*
 * Region @row's metrics (its means over @runs; duration_time is its counted
 * time) into r->metrics, each beside the row of its first event: how many.
 */
static unsigned int row_metrics(struct count_metrics *cm, const struct pmc_evlist *ev,
				const struct region_table *t, const struct region_row *row,
				unsigned int runs, struct report *r)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	unsigned int j;

	r->nr_metrics = 0;
	if (!cm || !ev || ev->n < t->nr_events)
		return 0;
	for (j = 0; j < t->nr_events; j++)
		rows[j] = (struct report_row){ .ev = &ev->ev[j], .value = row->values[j] / runs };
	count_metrics_eval(cm, rows, t->nr_events, row->time_ns / runs / 1e9, r, "run");
	return r->nr_metrics;
}

/* Text: each region's metrics under its name, in perf's # column. */
static void print_text_metrics(FILE *f, struct report *r, const struct pmc_evlist *ev,
			       const struct region_table *t, unsigned int runs, struct count_metrics *cm)
{
	unsigned int i, k;

	for (i = 0; i < t->n; i++) {
		if (!row_metrics(cm, ev, t, &t->rows[i], runs, r))
			continue;
		fprintf(f, " region %s:\n", t->rows[i].name);
		for (k = 0; k < r->nr_metrics; k++)
			report_metric(f, r, &r->metrics[k]);
	}
	if (r->nr_metrics)
		fputc('\n', f);
}

static void print_text(FILE *f, const struct report *r, const struct pmc_evlist *ev,
		       const struct region_table *t, unsigned int runs)
{
	int namew = (int)strlen("region"), w[PMCDRV_MAX_EVENTS];
	char buf[64];
	unsigned int i, j;

	for (i = 0; i < t->n; i++)
		if ((int)strlen(t->rows[i].name) > namew)
			namew = (int)strlen(t->rows[i].name);
	fprintf(f, " Regions of %s", r->target);
	if (runs > 1)
		fprintf(f, " (means of %u runs)", runs);
	fputs(":\n\n", f);
	fprintf(f, " %-*s %8s %14s %12s", namew, "region", "threads", "calls", "msec");
	for (j = 0; j < t->nr_events; j++) {
		w[j] = (int)strlen(ev_name(ev, j));
		w[j] = w[j] < 18 ? 18 : w[j];
		fprintf(f, " %*s", w[j], ev_name(ev, j));
	}
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		const struct region_row *row = &t->rows[i];

		fprintf(f, " %-*s %8.0f %14s %12.3f", namew, row->name, row->threads / runs,
			fmt_thousands((uint64_t)llround(row->calls / runs), buf, sizeof(buf)),
			row->time_ns / runs / 1e6);
		for (j = 0; j < t->nr_events; j++)
			fprintf(f, " %*s", w[j],
				fmt_thousands((uint64_t)llround(row->values[j] / runs), buf, sizeof(buf)));
		fputc('\n', f);
	}
	fputc('\n', f);
}

/*
 * CSV with metrics: each event line ends in the fields of its first metric
 * (empty ones when it has none), and each further metric of the event has
 * a line of its own with the other fields empty, as perf stat -M -x.
 */
static void csv_metrics(FILE *f, const struct report *r, const struct region_row *row, unsigned int j)
{
	static const struct report_metric none = { .name = "", .value = NAN };
	unsigned int k, seen = 0;

	for (k = 0; k < r->nr_metrics; k++) {
		if (r->metrics[k].row != j)
			continue;
		if (seen++)
			fprintf(f, "\nregion%s%s%s%s%s%s%s", r->sep, row->name, r->sep, r->sep, r->sep, r->sep,
				r->sep);
		report_metric(f, r, &r->metrics[k]);
	}
	if (!seen)
		report_metric(f, r, &none);
}

void region_report_print(FILE *f, const struct report *r0, const struct pmc_evlist *ev,
			 const struct region_table *t, unsigned int runs, struct count_metrics *cm)
{
	struct report rm = *r0, *r = &rm;
	const char *s = r->sep;
	unsigned int i, j, k;

	if (!runs)
		runs = 1;
	if (r->format == REPORT_TEXT) {
		print_text(f, r, ev, t, runs);
		print_text_metrics(f, r, ev, t, runs, cm);
		return;
	}
	for (i = 0; i < t->n; i++) {
		const struct region_row *row = &t->rows[i];
		bool metrics = row_metrics(cm, ev, t, row, runs, r) > 0;

		if (r->format == REPORT_CSV) {
			for (j = 0; j < t->nr_events; j++) {
				fprintf(f, "region%s%s%s%.0f%s%.0f%s%.6f%s%.0f%s%s", s, row->name, s,
					row->threads / runs, s, row->calls / runs, s,
					row->time_ns / runs / 1e6, s, row->values[j] / runs, s, ev_name(ev, j));
				if (metrics)
					csv_metrics(f, r, row, j);
				fputc('\n', f);
			}
			continue;
		}
		fputs("{\"region\": ", f);
		json_string(f, row->name);
		fprintf(f, ", \"threads\": %.0f, \"calls\": %.0f, \"msec\": %.6f, \"events\": [",
			row->threads / runs, row->calls / runs, row->time_ns / runs / 1e6);
		for (j = 0; j < t->nr_events; j++) {
			fputs(j ? ", {\"event\": " : "{\"event\": ", f);
			json_string(f, ev_name(ev, j));
			fprintf(f, ", \"counter-value\": %.6f}", row->values[j] / runs);
		}
		fputc(']', f);
		if (metrics) {
			fputs(", \"metrics\": [", f);
			for (k = 0; k < r->nr_metrics; k++) {
				fputs(k ? ", {" : "{", f);
				report_metric(f, r, &r->metrics[k]);
				fputc('}', f);
			}
			fputc(']', f);
		}
		fputs("}\n", f);
	}
}
