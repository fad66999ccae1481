// SPDX-License-Identifier: GPL-2.0
/* -M METRIC|GROUP of run and stat: the metrics' events among the counted ones, their values. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "metrics.h"

int metric_list_add(char *list, size_t len, const char *arg, const char *cmd)
{
	size_t o = strlen(list);

	if (!*arg || (size_t)snprintf(list + o, len - o, "%s%s", o ? "," : "", arg) >= len - o) {
		fprintf(stderr, "pmcctl %s: -M '%s': %s\n", cmd, arg,
			*arg ? "the metric list is too long" : "give metric or group names "
			"('pmcctl list --metrics' lists them)");
		list[o] = '\0';
		return -EINVAL;
	}
	return 0;
}

/* Is @name one of the comma-separated names of @list (any case, as pmc_metrics_open)? */
static bool named(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list, *e;

	while (*p) {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		while (p < e && isspace((unsigned char)*p))
			p++;
		if ((size_t)(e - p) == len && !strncasecmp(p, name, len))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

/* Do two events count the same (the name and group aside)? */
static bool same_event(const struct pmcdrv_event *a, const struct pmcdrv_event *b)
{
	struct pmcdrv_event x = *a, y = *b;

	x.group = y.group = 0;
	x.counter = y.counter = 0;
	return !memcmp(&x, &y, sizeof(x));
}

/* The set's event @i into co's list: an index, or -EINVAL after saying why. */
static int add_event(struct count_opts *co, const char *spell, const char *cmd)
{
	struct pmc_evlist one;
	char err[512];
	unsigned int j;

	memset(&one, 0, sizeof(one));
	if (pmc_evlist_parse(&one, spell, err, sizeof(err)) || one.n != 1) {
		fprintf(stderr, "pmcctl %s: -M: the metric event '%s' does not parse: %s\n", cmd, spell,
			err);
		return -EINVAL;
	}
	for (j = 0; j < co->events.n; j++)
		if (same_event(&co->events.ev[j].ev, &one.ev[0].ev))
			return (int)j;
	if (co->events.n >= PMCDRV_MAX_EVENTS) {
		fprintf(stderr, "pmcctl %s: -M: the metrics and -e need more than %u events; "
			"fix: ask for fewer metrics or events at a time\n", cmd, PMCDRV_MAX_EVENTS);
		return -EINVAL;
	}
	co->events.ev[co->events.n] = one.ev[0];
	co->events.ev[co->events.n].ev.group = 0;
	return (int)co->events.n++;
}

int count_metrics_setup(struct count_metrics *cm, struct count_opts *co, const char *list,
			bool system_wide, const char *cmd)
{
	struct pmc_metric_env env;
	struct pmc_metric_info mi;
	char err[512] = "";
	unsigned int i, nrefused = 0;
	int ret;

	memset(cm, 0, sizeof(*cm));
	pmc_metric_env_init(&env, system_wide);
	ret = pmc_metrics_open(NULL, list, &env, &cm->ms, err, sizeof(err));
	if (ret == -ENODEV) {
		fprintf(stderr, "pmcctl %s: -M %s: %s (PMCDRV_FORCE_CPUID can name another model)\n", cmd, list, err);
		return -ENODEV;
	}
	if (ret) {
		fprintf(stderr, "pmcctl %s: -M %s: %s\n", cmd, list, err);
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	for (i = 0; i < pmc_metrics_nr(cm->ms); i++) {
		pmc_metrics_info(cm->ms, i, &mi);
		if (!mi.refused) {
			cm->idx[cm->nr++] = i;
			continue;
		}
		nrefused++;
		if (named(list, mi.name)) {
			fprintf(stderr, "pmcctl %s: -M: metric '%s' cannot be computed: %s\n"
				"  fix: leave it out of -M ('pmcctl list --metrics %s' shows its formula)\n",
				cmd, mi.name, mi.refused, mi.name);
			goto fail;
		}
		fprintf(stderr, "pmcctl %s: warning: -M %s: metric '%s' left out: %s\n", cmd, list,
			mi.name, mi.refused);
		if (cm->nr >= PMCDRV_MAX_EVENTS)
			break;
	}
	if (!cm->nr) {
		fprintf(stderr, "pmcctl %s: -M %s: none of its %u metrics can be computed here (see the "
			"warnings above)\n", cmd, list, nrefused);
		goto fail;
	}
	for (i = 0; i < pmc_metrics_nr_events(cm->ms); i++) {
		ret = add_event(co, pmc_metrics_event(cm->ms, i), cmd);
		if (ret < 0)
			goto fail;
		cm->ev[i] = (unsigned int)ret;
	}
	return 0;
fail:
	pmc_metrics_close(cm->ms);
	cm->ms = NULL;
	return -EINVAL;
}

bool count_metrics_eval(struct count_metrics *cm, const struct report_row *rows, unsigned int n,
			double duration_s, struct report *r, const char *cmd)
{
	double counts[PMCDRV_MAX_EVENTS], v;
	unsigned int nev = pmc_metrics_nr_events(cm->ms), i, k, first;
	struct pmc_metric_info mi;
	char muxed[512] = "";
	size_t mo = 0;
	bool any = false, mux;

	for (i = 0; i < nev; i++) {
		const struct report_row *row = cm->ev[i] < n ? &rows[cm->ev[i]] : NULL;

		counts[i] = !row || row->not_counted ? NAN : row->value;
	}
	for (k = 0; k < cm->nr; k++) {
		unsigned int m = cm->idx[k];

		pmc_metrics_info(cm->ms, m, &mi);
		/* beside the first of its events in the list, as perf beside its group's leader */
		first = n;
		mux = false;
		for (i = 0; i < nev; i++) {
			if (pmc_metrics_uses(cm->ms, m, i) != 1 || cm->ev[i] >= n)
				continue;
			if (cm->ev[i] < first)
				first = cm->ev[i];
			mux |= rows[cm->ev[i]].mux && rows[cm->ev[i]].running_pct < 100;
		}
		if (first == n)
			first = 0;
		if (pmc_metrics_eval(cm->ms, m, counts, duration_s, &v))
			v = NAN;
		cm->out[k] = (struct report_metric){
			.row = first,
			.name = mi.name,
			.unit = mi.unit,
			.scaled = (mi.unit && *mi.unit) || mi.scale != 1.0,
			.value = v * mi.scale,
		};
		if (mux) {
			any = true;
			if (mo < sizeof(muxed))
				mo += (size_t)snprintf(muxed + mo, sizeof(muxed) - mo, "%s%s",
						       mo ? ", " : "", mi.name);
		}
	}
	r->metrics = cm->out;
	r->nr_metrics = cm->nr;
	if (any && !cm->warned) {
		fprintf(stderr, "pmcctl %s: note: the events of %s did not fit the counters together "
			"and were multiplexed: those metrics come from scaled counts (the (xx.xx%%) "
			"column); ask for fewer metrics or events at a time for exact ones\n", cmd, muxed);
		cm->warned = true;
	}
	return any;
}

void count_metrics_close(struct count_metrics *cm)
{
	pmc_metrics_close(cm->ms);
	cm->ms = NULL;
}
