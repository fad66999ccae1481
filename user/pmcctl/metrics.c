// SPDX-License-Identifier: GPL-2.0
/* -M METRIC|GROUP of run and stat: the metrics' events among the counted ones, their values. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hybrid.h"
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

/*
 * Event @spell into @l: an index, -EINVAL (it does not parse: said why) or
 * -ENOSPC (the list is full: not said).  @group 0: shared with an event
 * of @l that counts the same; else a new member of that group.
 */
static int add_event(struct pmc_evlist *l, const char *spell, unsigned int group, const char *cmd)
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
	for (j = 0; !group && j < l->n; j++)
		if (same_event(&l->ev[j].ev, &one.ev[0].ev))
			return (int)j;
	if (l->n >= PMCDRV_MAX_EVENTS)
		return -ENOSPC;
	l->ev[l->n] = one.ev[0];
	l->ev[l->n].ev.group = group;
	return (int)l->n++;
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

const char *metric_refused(struct pmc_metrics *ms, unsigned int m, const struct pmc_arch_perfmon *pm,
			   char *buf, size_t len)
{
	struct pmc_metric_info mi;
	enum pmc_event_err why;
	struct pmc_evlist one;
	const char *name;
	char err[256] = "";
	unsigned int i;

	if (pmc_metrics_info(ms, m, &mi))
		return "no such metric";
	if (mi.refused || !pm)
		return mi.refused;
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
		if (pmc_uevent_check(&one.ev[0].ev, pm, &why) && why != PMC_EVENT_NO_PMU) {
			snprintf(buf, len, "its event %s cannot be counted here: %s", name,
				 pmc_event_strerror(why));
			return buf;
		}
	}
	return NULL;
}

/* The first integer of file @path; @dflt when it cannot be read. */
static int read_int_file(const char *path, int dflt)
{
	FILE *f = fopen(path, "r");
	int v;

	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/*
 * Does perf count metric @m's events as one (weak) group here?
 * metricgroup.c's metric__group_events() (Linux 6.12) line by line: never
 * with NO_GROUP_EVENTS; with NO_GROUP_EVENTS_NMI only while the NMI watchdog
 * is off (sysctl__nmi_watchdog_enabled()); with NO_GROUP_EVENTS_SMT only
 * while SMT is off (smt_on()); otherwise always.
 */
struct group_env {
	bool nmi_watchdog;	/* sysctl kernel.nmi_watchdog is on */
	bool smt;		/* /sys/devices/system/cpu/smt/active */
};

static void group_env_read(struct group_env *env)
{
	env->nmi_watchdog = read_int_file("/proc/sys/kernel/nmi_watchdog", 0) > 0;
	env->smt = read_int_file("/sys/devices/system/cpu/smt/active", 0) > 0;
}

static bool group_events(const struct pmc_metrics *ms, unsigned int m, const struct group_env *env)
{
	switch (pmc_metrics_grouping(ms, m)) {
	case PMC_METRIC_NO_GROUP_EVENTS:
		return false;
	case PMC_METRIC_NO_GROUP_EVENTS_NMI:
		return !env->nmi_watchdog;
	case PMC_METRIC_NO_GROUP_EVENTS_SMT:
		return !env->smt;
	default:
		return true;
	}
}

bool metric_events_fit(const struct pmc_evlist *l, unsigned int first,
		       const struct pmc_arch_perfmon *pm)
{
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	u32 idx[PMCDRV_MAX_EVENTS];
	unsigned int i, n = 0;

	for (i = first; i < l->n; i++)
		if (l->ev[i].ev.type == PMCDRV_EVENT_HW)
			pmc_event_to_spec(&l->ev[i].ev, &specs[n++]);
	return !pmc_assign_counters(specs, n, pm, ~0ULL, idx);
}

/* Metric k's row of a map or uses table: one entry per event of the set. */
#define ROW(t, cm, k)	(&(t)[(size_t)(k) * (cm)->nev])

/*
 * Metric k's events into @l, each shared with an event of @l that counts
 * the same (an -e event too), @map's row k their indices.  0, -EINVAL or
 * -ENOSPC as add_event().
 */
static int place_shared(struct count_metrics *cm, const unsigned char *uses, unsigned int k,
			struct pmc_evlist *l, unsigned int *map, const char *cmd)
{
	unsigned int i;
	int ret;

	for (i = 0; i < cm->nev; i++) {
		ROW(map, cm, k)[i] = UINT_MAX;
		if (!ROW(uses, cm, k)[i])
			continue;
		ret = add_event(l, pmc_metrics_event(cm->ms, i), 0, cmd);
		if (ret < 0)
			return ret;
		ROW(map, cm, k)[i] = (unsigned int)ret;
	}
	return 0;
}

/*
 * perf's placement when the events do not fit the counters together
 * (metricgroup.c's parse_groups(), Linux 6.12): the metrics from the one
 * with the most events down; one that perf groups (group_events()) reuses
 * the group of an earlier metric whose events include all of its own, else
 * gets a group of its own (its events counted again there, not shared); a
 * group too big for the counters alone is broken up, as perf does with a
 * weak group ({...}:W) the PMU refuses.  Ungrouped metrics' events are
 * shared, with any event of @l.  @order: scratch, cm->nr entries.
 */
static int place_grouped(struct count_metrics *cm, const unsigned char *uses,
			 const struct pmc_arch_perfmon *pm, struct pmc_evlist *l, unsigned int *map,
			 unsigned int *order, const char *cmd)
{
	unsigned int nuse[PMCDRV_MAX_EVENTS], owner[PMCDRV_MAX_EVENTS], nowner = 0;
	bool grouped[PMCDRV_MAX_EVENTS] = { false };
	unsigned int a, b, i, k, o, first;
	struct group_env env;
	int ret;

	group_env_read(&env);	/* once: the same for every metric */

	for (a = 0; a < cm->nr; a++) {
		for (i = 0, nuse[a] = 0; i < cm->nev; i++)
			nuse[a] += ROW(uses, cm, a)[i];
		/* insertion sort, stable: the most events first (perf's metric_list_cmp()) */
		for (b = a; b > 0 && nuse[order[b - 1]] < nuse[a]; b--)
			order[b] = order[b - 1];
		order[b] = a;
	}
	for (a = 0; a < cm->nr; a++) {
		k = order[a];
		if (!group_events(cm->ms, cm->idx[k], &env))
			continue;
		for (o = 0; o < nowner; o++) {
			for (i = 0; i < cm->nev; i++)
				if (ROW(uses, cm, k)[i] && !ROW(uses, cm, owner[o])[i])
					break;
			if (i == cm->nev)
				break;
		}
		if (o < nowner) {
			memcpy(ROW(map, cm, k), ROW(map, cm, owner[o]), cm->nev * sizeof(*map));
			for (i = 0; i < cm->nev; i++)
				if (!ROW(uses, cm, k)[i])
					ROW(map, cm, k)[i] = UINT_MAX;
			grouped[k] = true;
			continue;
		}
		first = l->n;
		l->nr_groups++;
		for (i = 0; i < cm->nev; i++) {
			ROW(map, cm, k)[i] = UINT_MAX;
			if (!ROW(uses, cm, k)[i])
				continue;
			ret = add_event(l, pmc_metrics_event(cm->ms, i), l->nr_groups, cmd);
			if (ret < 0)
				return ret;
			ROW(map, cm, k)[i] = (unsigned int)ret;
		}
		if (!metric_events_fit(l, first, pm)) {
			l->n = first;	/* the weak group broken up: its events shared below */
			l->nr_groups--;
			continue;
		}
		grouped[k] = true;
		owner[nowner++] = k;
	}
	for (k = 0; k < cm->nr; k++) {
		if (grouped[k])
			continue;
		ret = place_shared(cm, uses, k, l, map, cmd);
		if (ret)
			return ret;
	}
	return 0;
}

int count_metrics_setup(struct count_metrics *cm, struct count_opts *co, const char *list,
			bool system_wide, const char *cmd)
{
	struct pmcdrv_info info;

	return count_metrics_setup_pmu(cm, co, list, system_wide,
				       metric_pmu_info(&info) ? &info : NULL, cmd);
}

int count_metrics_setup_pmu(struct count_metrics *cm, struct count_opts *co, const char *list,
			    bool system_wide, const struct pmcdrv_info *info, const char *cmd)
{
	struct pmc_metric_env env;
	struct pmc_metric_info mi;
	unsigned int *gmap = NULL, *order = NULL;
	unsigned char *uses = NULL;
	struct pmc_arch_perfmon pm;
	char err[512] = "", why[512];
	struct pmc_evlist l, g;
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
	if (info)
		hybrid_perfmon_from_info(info, &pm);	/* once: each CPU's CPUID on hybrid */
	for (i = 0; i < pmc_metrics_nr(cm->ms); i++) {
		pmc_metrics_info(cm->ms, i, &mi);
		refused = metric_refused(cm->ms, i, info ? &pm : NULL, why, sizeof(why));
		if (!refused) {
			if (cm->nr == PMCDRV_MAX_EVENTS) {
				fprintf(stderr, "pmcctl %s: -M %s: more than %u metrics at once; fix: ask "
					"for fewer metrics or smaller groups at a time\n", cmd, list,
					PMCDRV_MAX_EVENTS);
				goto fail;
			}
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
	}
	if (!cm->nr) {
		fprintf(stderr, "pmcctl %s: -M %s: none of its %u metrics can be computed here (see the "
			"warnings above)\n", cmd, list, nrefused);
		goto fail;
	}
	/* only the events of the metrics kept: a left-out one's may not be countable */
	cm->nev = pmc_metrics_nr_events(cm->ms);
	cm->map = malloc(((size_t)cm->nr * cm->nev + 1) * sizeof(*cm->map));
	gmap = malloc(((size_t)cm->nr * cm->nev + 1) * sizeof(*gmap));
	/* one metric's inputs, then its threshold's (threshold()) */
	cm->counts = malloc((2 * (size_t)cm->nev + 1) * sizeof(*cm->counts));
	uses = calloc((size_t)cm->nr * cm->nev + 1, 1);
	order = calloc(cm->nr, sizeof(*order));
	if (!cm->map || !gmap || !cm->counts || !uses || !order) {
		fprintf(stderr, "pmcctl %s: out of memory\n", cmd);
		ret = -ENOMEM;
		goto fail;
	}
	for (k = 0; k < cm->nr; k++)
		for (i = 0; i < cm->nev; i++)
			ROW(uses, cm, k)[i] = pmc_metrics_uses(cm->ms, cm->idx[k], i) == 1;
	/* Each event once, shared with -e's: exact whenever they all fit the counters. */
	l = co->events;
	for (k = 0, ret = 0; k < cm->nr && !ret; k++)
		ret = place_shared(cm, uses, k, &l, cm->map, cmd);
	if (ret == -ENOSPC)
		fprintf(stderr, "pmcctl %s: -M: the metrics and -e need more than %u events; "
			"fix: ask for fewer metrics or events at a time\n", cmd, PMCDRV_MAX_EVENTS);
	if (ret)
		goto fail;
	if (info && !metric_events_fit(&l, 0, &pm)) {
		/* They take turns on the counters: perf's groups keep each metric's inputs together. */
		g = co->events;
		ret = place_grouped(cm, uses, &pm, &g, gmap, order, cmd);
		if (ret == -EINVAL)
			goto fail;
		if (!ret) {
			l = g;
			memcpy(cm->map, gmap, (size_t)cm->nr * cm->nev * sizeof(*gmap));
			cm->grouped = true;
		}
		/* -ENOSPC: as groups they need more events than a session has; shared, they fit */
	}
	ret = pmc_evlist_topdown_groups(&l);
	if (ret) {
		fprintf(stderr, "pmcctl %s: -M: the metrics and -e need more than %u events with the "
			"topdown-slots their top-down events count with; fix: ask for fewer metrics "
			"or events at a time\n", cmd, PMCDRV_MAX_EVENTS);
		goto fail;
	}
	co->events = l;
	free(gmap);
	free(uses);
	free(order);
	return 0;
fail:
	free(gmap);
	free(uses);
	free(order);
	count_metrics_close(cm);
	return ret == -ENOMEM ? -ENOMEM : -EINVAL;
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

/*
 * Metric k's MetricThreshold (pmc_metrics_threshold()): its own events'
 * counts (cm->counts, as for its value), and for an event of another metric
 * it names, that event's count in the first metric's group that has it.
 */
static int threshold(struct count_metrics *cm, unsigned int k, const struct report_row *rows,
		     unsigned int n, double duration_s)
{
	double *t = cm->counts + cm->nev;
	unsigned int i, j, r;

	if (!pmc_metrics_threshold_expr(cm->ms, cm->idx[k]))
		return -ENODATA;	/* none: no counts to gather */
	for (i = 0; i < cm->nev; i++) {
		t[i] = cm->counts[i];
		for (j = 0; isnan(t[i]) && j < cm->nr; j++) {
			r = ROW(cm->map, cm, j)[i];
			if (r < n && !rows[r].not_counted)
				t[i] = rows[r].value;
		}
	}
	return pmc_metrics_threshold(cm->ms, cm->idx[k], t, duration_s);
}

bool count_metrics_eval(struct count_metrics *cm, const struct report_row *rows, unsigned int n,
			double duration_s, struct report *r, const char *cmd)
{
	double *counts = cm->counts, v;
	unsigned int nev = cm->nev, i, k, first;
	const unsigned int *map;
	struct pmc_metric_info mi;
	char muxed[512] = "", why[512];
	size_t mo = 0;
	bool any = false, mux;
	int ret, thr;

	for (k = 0; k < cm->nr; k++) {
		unsigned int m = cm->idx[k];

		pmc_metrics_info(cm->ms, m, &mi);
		/* its own events' counts (in its group, when perf's groups were needed) */
		map = ROW(cm->map, cm, k);
		/* beside the first of its events in the list, as perf beside its group's leader */
		first = n;
		mux = false;
		for (i = 0; i < nev; i++) {
			const struct report_row *row = map[i] < n ? &rows[map[i]] : NULL;

			counts[i] = !row || row->not_counted ? NAN : row->value;
			if (!row)
				continue;
			if (map[i] < first)
				first = map[i];
			mux |= row->mux && row->running_pct < 100;
		}
		if (first == n)
			first = 0;
		ret = pmc_metrics_eval(cm->ms, m, counts, duration_s, &v);
		if (ret)
			v = NAN;
		thr = ret ? -EDOM : threshold(cm, k, rows, n, duration_s);
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
			.threshold = thr == 1 ? REPORT_THRESHOLD_BEYOND :
				     thr == 0 ? REPORT_THRESHOLD_WITHIN : REPORT_THRESHOLD_NONE,
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
	free(cm->map);
	cm->map = NULL;
	free(cm->counts);
	cm->counts = NULL;
}
