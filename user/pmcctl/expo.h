/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pmcctl serve's exposition: the counts as Prometheus text format 0.0.4 or
 * OpenMetrics 1.0.0.  Pure formatting (no session, no socket), so the unit
 * tests and promtool can hold it.
 */
#ifndef PMCDRV_PMCCTL_EXPO_H
#define PMCDRV_PMCCTL_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPO_CT_TEXT	"text/plain; version=0.0.4; charset=utf-8"
#define EXPO_CT_OPENMETRICS	"application/openmetrics-text; version=1.0.0; charset=utf-8"

/* One event's counts on one CPU, for one cgroup (NULL: the whole CPU). */
struct expo_event {
	const char *event;	/* as -e spelled it: "instructions:u" */
	bool hw;		/* type="hw", else "sw" */
	unsigned int cpu;
	const char *cgroup;
	uint64_t value;		/* raw count since start, not scaled */
	uint64_t enabled_ns;	/* time_enabled of the event */
	uint64_t running_ns;	/* time_running of the event */
};

/* One -M metric's value on one CPU (or for one cgroup on it). */
struct expo_metric {
	const char *metric;
	unsigned int cpu;
	const char *cgroup;
	double value;		/* NAN when it has none (not counted, 0/0) */
};

struct expo {
	bool openmetrics;
	const char *version;		/* pmcdrv_build_info's version label */
	const struct expo_event *ev;
	unsigned int nr_ev;
	const struct expo_metric *m;
	unsigned int nr_m;
	uint64_t scrape_errors;
};

/*
 * The exposition of @e in a malloc'd, NUL-terminated buffer (*len bytes
 * without the NUL); NULL when out of memory.
 */
char *expo_format(const struct expo *e, size_t *len);

/*
 * Does an HTTP Accept header value ask for OpenMetrics?  True when a media
 * range application/openmetrics-text is listed with a q above 0 (Prometheus
 * sends it first); NULL or anything else: the 0.0.4 text format.
 */
bool expo_wants_openmetrics(const char *accept);

#endif
