// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl serve's exposition (expo.h): Prometheus text format 0.0.4 and
 * OpenMetrics 1.0.0.  The families differ only in their metadata lines:
 * 0.0.4 names a counter by its sample name (pmcdrv_events_total), OpenMetrics
 * by its family name (pmcdrv_events) with the samples' _total suffix, adds
 * UNIT for the seconds, types build info as info, and ends with "# EOF".
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expo.h"

/* A label value with \, " and newline escaped, as both formats ask. */
static void put_label(FILE *f, const char *name, const char *v, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/*
 * A family's metadata.  @family: the OpenMetrics name (without _total or
 * _info), @sample: the 0.0.4 one; @unit: OpenMetrics' UNIT or NULL.
 */
static void put_meta(FILE *f, const struct expo *e, const char *family, const char *sample,
		     const char *type, const char *unit, const char *help)
{
	const char *name = e->openmetrics ? family : sample;

	fprintf(f, "# HELP %s %s\n", name, help);
	/* 0.0.4 has no info type: build info is a gauge of value 1 there. */
	fprintf(f, "# TYPE %s %s\n", name, !e->openmetrics && !strcmp(type, "info") ? "gauge" : type);
	if (e->openmetrics && unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

static void put_cpu_labels(FILE *f, unsigned int cpu, const char *cgroup)
{
	char n[16];

	snprintf(n, sizeof(n), "%u", cpu);
	put_label(f, "cpu", n, false);
	if (cgroup)
		put_label(f, "cgroup", cgroup, false);
}

static void put_event_labels(FILE *f, const struct expo_event *x)
{
	fputc('{', f);
	put_label(f, "event", x->event, true);
	put_label(f, "type", x->hw ? "hw" : "sw", false);
	put_cpu_labels(f, x->cpu, x->cgroup);
	fputc('}', f);
}

/* Nanoseconds as exact decimal seconds. */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, " %llu.%09llu\n", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL));
}

static void put_double(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.15g\n", v);
}

char *expo_format(const struct expo *e, size_t *len)
{
	char *buf = NULL;
	unsigned int i;
	FILE *f;

	*len = 0;
	f = open_memstream(&buf, len);
	if (!f)
		return NULL;
	if (e->nr_ev) {
		put_meta(f, e, "pmcdrv_events", "pmcdrv_events_total", "counter", NULL,
			 "Events counted by pmcdrv since pmcctl serve started, per CPU (and cgroup); "
			 "raw counts: when a CPU's events take turns on the counters, scale by "
			 "time_enabled / time_running");
		for (i = 0; i < e->nr_ev; i++) {
			fputs("pmcdrv_events_total", f);
			put_event_labels(f, &e->ev[i]);
			fprintf(f, " %llu\n", (unsigned long long)e->ev[i].value);
		}
		put_meta(f, e, "pmcdrv_time_enabled_seconds", "pmcdrv_time_enabled_seconds_total",
			 "counter", "seconds",
			 "Seconds the event's session was enabled (for a cgroup: while its tasks ran)");
		for (i = 0; i < e->nr_ev; i++) {
			fputs("pmcdrv_time_enabled_seconds_total", f);
			put_event_labels(f, &e->ev[i]);
			put_seconds(f, e->ev[i].enabled_ns);
		}
		put_meta(f, e, "pmcdrv_time_running_seconds", "pmcdrv_time_running_seconds_total",
			 "counter", "seconds",
			 "Seconds of time_enabled the event was on a counter (less when multiplexed)");
		for (i = 0; i < e->nr_ev; i++) {
			fputs("pmcdrv_time_running_seconds_total", f);
			put_event_labels(f, &e->ev[i]);
			put_seconds(f, e->ev[i].running_ns);
		}
	}
	if (e->nr_m) {
		put_meta(f, e, "pmcdrv_metric", "pmcdrv_metric", "gauge", NULL,
			 "The -M metrics per CPU (and cgroup), computed from the counts since "
			 "pmcctl serve started, not over the scrape interval (use the recording "
			 "rules for rates)");
		for (i = 0; i < e->nr_m; i++) {
			fputs("pmcdrv_metric{", f);
			put_label(f, "metric", e->m[i].metric, true);
			put_cpu_labels(f, e->m[i].cpu, e->m[i].cgroup);
			fputc('}', f);
			put_double(f, e->m[i].value);
		}
	}
	put_meta(f, e, "pmcdrv_scrape_errors", "pmcdrv_scrape_errors_total", "counter", NULL,
		 "Scrapes whose sessions could not all be read (their series are left out)");
	fprintf(f, "pmcdrv_scrape_errors_total %llu\n", (unsigned long long)e->scrape_errors);
	put_meta(f, e, "pmcdrv_build", "pmcdrv_build_info", "info", NULL,
		 "The version of pmcctl that serves these metrics");
	fputs("pmcdrv_build_info{", f);
	put_label(f, "version", e->version, true);
	fputs("} 1\n", f);
	if (e->openmetrics)
		fputs("# EOF\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The q of one media range's parameters ";a=b;q=0.5": 1 without one. */
static double media_q(const char *p, const char *end)
{
	double q = 1;

	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));

		if (!semi)
			break;
		p = semi + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
			char num[16];
			size_t n = (size_t)(end - p - 2);
			const char *v = p + 2;

			while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
				n--;
			if (n >= sizeof(num))
				n = sizeof(num) - 1;
			memcpy(num, v, n);
			num[n] = '\0';
			/* a q up to the next ';' only */
			if (strchr(num, ';'))
				*strchr(num, ';') = '\0';
			q = strtod(num, NULL);
		}
	}
	return q;
}

bool expo_wants_openmetrics(const char *accept)
{
	static const char om[] = "application/openmetrics-text";
	const char *p = accept, *end;

	if (!p)
		return false;
	while (*p) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(end - p) >= sizeof(om) - 1 && !strncasecmp(p, om, sizeof(om) - 1) &&
		    (p + sizeof(om) - 1 == end || p[sizeof(om) - 1] == ';' || p[sizeof(om) - 1] == ' ') &&
		    media_q(p, end) > 0)
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}
