// SPDX-License-Identifier: GPL-2.0
/* -M METRIC|GROUP of run and stat: the metrics' events among the counted ones, their values. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
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

bool metric_pmu_info(struct pmcdrv_info *info)
{
	enum pmc_decode_err why;
	struct pmc_session *s;
	int err;

	if (!pmc_session_open(NULL, &s)) {
		err = pmc_session_info(s, info);
		pmc_session_close(s);
		if (!err)
			return true;
	}
	return !pmc_cpuid_info(info, &why);
}

const char *metric_refused(struct pmc_metrics *ms, unsigned int m, const struct pmcdrv_info *info,
			   char *buf, size_t len)
{
	struct pmc_metric_info mi;
	struct pmc_arch_perfmon pm;
	enum pmc_event_err why;
	struct pmc_evlist one;
	const char *name;
	char err[256] = "";
	unsigned int i;

	if (pmc_metrics_info(ms, m, &mi))
		return "no such metric";
	if (mi.refused || !info)
		return mi.refused;
	pmc_perfmon_from_info(info, &pm);
	for (i = 0; i < pmc_metrics_nr_events(ms); i++) {
		if (pmc_metrics_uses(ms, m, i) != 1)
			continue;
		name = pmc_metrics_event(ms, i);
		memset(&one, 0, sizeof(one));
		if (pmc_evlist_parse(&one, name, err, sizeof(err)) || one.n != 1) {
			snprintf(buf, len, "its event %s does not parse: %s", name, err);
			return buf;
		}
		/* a CPU without a PMU refuses every event: that is the count's to say, not a metric's */
		if (pmc_uevent_check(&one.ev[0].ev, &pm, &why) && why != PMC_EVENT_NO_PMU) {
			snprintf(buf, len, "its event %s cannot be counted here: %s", name,
				 pmc_event_strerror(why));
			return buf;
		}
	}
	return NULL;
}

int count_metrics_setup(struct count_metrics *cm, struct count_opts *co, const char *list,
			bool system_wide, const char *cmd)
{
	struct pmc_metric_env env;
	struct pmc_metric_info mi;
	struct pmcdrv_info info;
	bool have_info = metric_pmu_info(&info), used;
	char err[512] = "", why[512];
	const char *refused;
	unsigned int i, k, nrefused = 0;
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
		refused = metric_refused(cm->ms, i, have_info ? &info : NULL, why, sizeof(why));
		if (!refused) {
			cm->idx[cm->nr++] = i;
			continue;
		}
		nrefused++;
		if (named(list, mi.name)) {
			fprintf(stderr, "pmcctl %s: -M: metric '%s' cannot be computed: %s\n"
				"  fix: leave it out of -M ('pmcctl list --metrics %s' shows its formula)\n",
				cmd, mi.name, refused, mi.name);
			goto fail;
		}
		fprintf(stderr, "pmcctl %s: warning: -M %s: metric '%s' left out: %s\n", cmd, list,
			mi.name, refused);
		if (cm->nr >= PMCDRV_MAX_EVENTS)
			break;
	}
	if (!cm->nr) {
		fprintf(stderr, "pmcctl %s: -M %s: none of its %u metrics can be computed here (see the "
			"warnings above)\n", cmd, list, nrefused);
		goto fail;
	}
	for (i = 0; i < pmc_metrics_nr_events(cm->ms); i++) {
		/* only the events of the metrics kept: a left-out one's may not be countable */
		for (k = 0, used = false; k < cm->nr && !used; k++)
			used = pmc_metrics_uses(cm->ms, cm->idx[k], i) == 1;
		cm->ev[i] = UINT_MAX;
		if (!used)
			continue;
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

/* Why metric @m has no value: the inputs that counted 0 or were not counted, else its formula's division. */
static void why_no_value(const struct count_metrics *cm, unsigned int m, const double *counts, int ret,
			 char *buf, size_t len)
{
	unsigned int i;
	size_t o = 0;

	buf[0] = '\0';
	for (i = 0; i < pmc_metrics_nr_events(cm->ms) && o < len; i++) {
		if (pmc_metrics_uses(cm->ms, m, i) != 1 || !(isnan(counts[i]) || counts[i] == 0))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s %s", o ? ", " : "", pmc_metrics_event(cm->ms, i),
				      isnan(counts[i]) ? "was not counted" : "counted 0");
	}
	if (o && o < len)
		snprintf(buf + o, len - o, ", and its formula divides by what they count");
	else if (!o)
		snprintf(buf, len, "%s", ret == -EDOM ? "its formula takes a '%' by zero" :
			 "its formula divides by zero");
}

bool count_metrics_eval(struct count_metrics *cm, const struct report_row *rows, unsigned int n,
			double duration_s, struct report *r, const char *cmd)
{
	double counts[PMCDRV_MAX_EVENTS], v;
	unsigned int nev = pmc_metrics_nr_events(cm->ms), i, k, first;
	struct pmc_metric_info mi;
	char muxed[512] = "", why[512];
	size_t mo = 0;
	bool any = false, mux;
	int ret;

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
		ret = pmc_metrics_eval(cm->ms, m, counts, duration_s, &v);
		if (ret)
			v = NAN;
		if ((isnan(v) || isinf(v)) && !cm->noted[k]) {
			why_no_value(cm, m, counts, ret, why, sizeof(why));
			fprintf(stderr, "pmcctl %s: note: metric '%s' has no value (n/a): %s\n", cmd, mi.name, why);
			cm->noted[k] = true;
		}
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
