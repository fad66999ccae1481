// SPDX-License-Identifier: GPL-2.0
/* pmcctl: top-down level 1 from the model's TopdownL1 metrics (topdown.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"
#include "metrics.h"
#include "topdown.h"

#define TD_GP_MAX	4

/* perf stat --topdown's order and names of the level-1 metrics (its topdown_metric_attrs[]). */
static const struct {
	const char *metric, *unit;
} td_gp_names[TD_GP_MAX] = {
	{ "tma_retiring", "Retiring" },
	{ "tma_bad_speculation", "Bad Speculation" },
	{ "tma_frontend_bound", "Frontend Bound" },
	{ "tma_backend_bound", "Backend Bound" },
};

struct td_gp {
	struct pmc_metrics *ms;
	unsigned int idx[TD_GP_MAX];		/* td_gp_names[k]'s metric in ms */
	double scale[TD_GP_MAX];		/* its ScaleUnit's number (100: a percentage) */
	unsigned int nev;			/* the metrics' events */
	struct pmcdrv_event ev[PMCDRV_MAX_EVENTS];	/* their encodings, to find their rows */
	double counts[PMCDRV_MAX_EVENTS];
	char events[1024];			/* "{EV,...}" */
};

int td_gp_open(struct td_gp **out, const char *cpuid, const struct pmc_metric_env *env,
	       const struct pmcdrv_info *info, char *err, size_t len)
{
	struct pmc_metric_info mi;
	struct pmc_arch_perfmon pm;
	struct pmc_evlist one;
	struct td_gp *td;
	char why[512], perr[256];
	const char *refused, *name;
	unsigned int i, k, nr;
	size_t o;
	int ret;

	*out = NULL;
	td = calloc(1, sizeof(*td));
	if (!td) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	ret = pmc_metrics_open(cpuid, "TopdownL1", env, &td->ms, err, len);
	if (ret) {
		free(td);
		return ret == -EINVAL ? -ENODEV : ret;	/* no such group: no top-down formulas */
	}
	for (k = 0; k < TD_GP_MAX; k++)
		td->idx[k] = ~0U;
	if (info)
		hybrid_perfmon_from_info(info, &pm);
	nr = pmc_metrics_nr(td->ms);
	for (i = 0; i < nr; i++) {
		pmc_metrics_info(td->ms, i, &mi);
		for (k = 0; k < TD_GP_MAX && strcmp(mi.name, td_gp_names[k].metric); k++)
			;
		if (k == TD_GP_MAX)
			continue;	/* a helper metric of the group (tma_info_*): not printed */
		refused = metric_refused(td->ms, i, info ? &pm : NULL, why, sizeof(why));
		if (refused) {
			snprintf(err, len, "the data's %s cannot be computed here: %s", mi.name, refused);
			ret = -EOPNOTSUPP;
			goto fail;
		}
		td->idx[k] = i;
		td->scale[k] = mi.scale;
	}
	for (k = 0; k < TD_GP_MAX; k++) {
		if (td->idx[k] == ~0U) {
			snprintf(err, len, "the data's TopdownL1 group has no %s", td_gp_names[k].metric);
			ret = -ENODEV;
			goto fail;
		}
	}
	td->nev = pmc_metrics_nr_events(td->ms);
	if (td->nev > PMCDRV_MAX_EVENTS) {
		snprintf(err, len, "its metrics need %u events, more than a session's %u", td->nev,
			 PMCDRV_MAX_EVENTS);
		ret = -EINVAL;
		goto fail;
	}
	o = (size_t)snprintf(td->events, sizeof(td->events), "{");
	for (i = 0; i < td->nev; i++) {
		name = pmc_metrics_event(td->ms, i);
		memset(&one, 0, sizeof(one));
		if (pmc_evlist_parse(&one, name, perr, sizeof(perr)) || one.n != 1 ||
		    one.ev[0].ev.type != PMCDRV_EVENT_HW) {
			snprintf(err, len, "its event %s does not parse as one hardware event: %s", name,
				 perr);
			ret = -EINVAL;
			goto fail;
		}
		td->ev[i] = one.ev[0].ev;
		if (o < sizeof(td->events))
			o += (size_t)snprintf(td->events + o, sizeof(td->events) - o, "%s%s",
					      i ? "," : "", name);
	}
	if (o + 2 > sizeof(td->events)) {
		snprintf(err, len, "its event list is longer than %zu bytes", sizeof(td->events));
		ret = -EINVAL;
		goto fail;
	}
	strcat(td->events, "}");
	*out = td;
	return 0;
fail:
	td_gp_close(td);
	return ret;
}

void td_gp_close(struct td_gp *td)
{
	if (!td)
		return;
	pmc_metrics_close(td->ms);
	free(td);
}

const char *td_gp_events(const struct td_gp *td)
{
	return td->events;
}

/* Does @row count the event @ev (its modifiers, group and counter aside)? */
static bool td_gp_is(const struct pmcdrv_event *row, const struct pmcdrv_event *ev)
{
	const unsigned int modes = PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL;

	return row->type == ev->type && row->event == ev->event && row->umask == ev->umask &&
	       row->cmask == ev->cmask && row->extra == ev->extra &&
	       row->core_type == ev->core_type && (row->flags & ~modes) == (ev->flags & ~modes);
}

int td_gp_level1(struct td_gp *td, const struct report_row *rows, unsigned int n,
		 struct td_value *out)
{
	unsigned int i, j, k;
	double v;

	/* a row never on a counter (multiplexing) has no value: no metric, as perf */
	for (i = 0; i < td->nev; i++) {
		td->counts[i] = NAN;
		for (j = 0; j < n && isnan(td->counts[i]); j++)
			if (!rows[j].not_counted && td_gp_is(&rows[j].ev->ev, &td->ev[i]))
				td->counts[i] = rows[j].value;
		if (isnan(td->counts[i]))
			return 0;
	}
	for (k = 0; k < TD_GP_MAX; k++) {
		if (pmc_metrics_eval(td->ms, td->idx[k], td->counts, 0, &v) || !isfinite(v))
			return 0;
		out[k] = (struct td_value){ td_gp_names[k].unit, v * td->scale[k] };
	}
	return TD_GP_MAX;
}
