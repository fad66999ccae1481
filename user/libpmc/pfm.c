// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: the CPU model's own events, by name, through libpfm4.
 *
 * libpfm4 keeps process-global tables: pfm_initialize() detects the PMUs
 * once per process (LIBPFM_FORCE_PMU=name in the environment before the
 * first call forces one).  libpmc calls it exactly once, under pthread_once,
 * so every function here is idempotent and safe from several threads; the
 * once-control and libpfm4's result are the only state kept here, and
 * libpfm4's tables are read-only after initialization.  Nothing here prints.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "libpmc.h"
#include "internal.h"
#include "pfm-internal.h"

/* The bits of IA32_PERFEVTSELx that map onto struct pmcdrv_event. */
#define PFM_SEL_MAPPED	(PMC_EVTSEL_EVENT | PMC_EVTSEL_UMASK | PMC_EVTSEL_USR | PMC_EVTSEL_OS | \
			 PMC_EVTSEL_EDGE | PMC_EVTSEL_INV | PMC_EVTSEL_CMASK)
/* Set by libpfm4 on every encoding; pmcdrv sets them itself. */
#define PFM_SEL_OWNED	(PMC_EVTSEL_EN | PMC_EVTSEL_INT)

/* Intel's off-core response events: their extra value goes to MSR_OFFCORE_RSP_0/1. */
#define PFM_EVENT_OFFCORE_RSP_0	0xb7
#define PFM_EVENT_OFFCORE_RSP_1	0xbb

#define SUGGEST_MAX	4

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_ret;

static void pfm_init_once(void)
{
	pfm_init_ret = pfm_initialize();
}

/* 0, or -ENODEV when libpfm4 could not initialize. */
static int pfm_ready(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	return pfm_init_ret == PFM_SUCCESS ? 0 : -ENODEV;
}

static bool pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm_get_pmu_info(pmu, pi) == PFM_SUCCESS;
}

static bool event_info(int idx, pfm_event_info_t *ei)
{
	memset(ei, 0, sizeof(*ei));
	ei->size = sizeof(*ei);
	return pfm_get_event_info(idx, PFM_OS_NONE, ei) == PFM_SUCCESS;
}

static bool attr_info(int idx, int a, pfm_event_attr_info_t *ai)
{
	memset(ai, 0, sizeof(*ai));
	ai->size = sizeof(*ai);
	return pfm_get_event_attr_info(idx, a, PFM_OS_NONE, ai) == PFM_SUCCESS;
}

/* libpfm4's Intel core PMUs; pmcdrv programs no other vendor's. */
static bool pmu_is_intel(const pfm_pmu_info_t *pi)
{
	return pi->type == PFM_PMU_TYPE_CORE && pi->name && strncmp(pi->name, "amd", 3) != 0;
}

/*
 * The core PMU of this CPU as libpfm4 detects it: the first present core PMU
 * of a model; libpfm4's architectural-only ix86arch (present on every Intel
 * CPU beside the model's PMU) only when there is no model's.
 */
static bool default_pmu(pfm_pmu_info_t *out)
{
	bool arch = false;
	pfm_pmu_t pmu;

	pfm_for_all_pmus(pmu) {
		if (!pmu_info(pmu, out) || !out->is_present || out->type != PFM_PMU_TYPE_CORE)
			continue;
		if (pmu != PFM_PMU_INTEL_X86_ARCH)
			return true;
		arch = true;
	}
	return arch && pmu_info(PFM_PMU_INTEL_X86_ARCH, out);
}

unsigned int pmc_edit_distance(const char *a, const char *b)
{
	unsigned int row[64], i, j, diag, up;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= ARRAY_SIZE(row) || lb >= ARRAY_SIZE(row))
		return 255;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int best;

			up = row[j];
			best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb] > 255 ? 255 : row[lb];
}

struct suggest {
	const char *word;
	size_t wlen;
	const char *name[SUGGEST_MAX];
	unsigned int score[SUGGEST_MAX];
	unsigned int n;
};

/* Keep the SUGGEST_MAX best: a prefix match scores 0, else the edit distance. */
static void suggest_add(struct suggest *s, const char *name)
{
	unsigned int score, i, worst = 0;

	if (!strncasecmp(name, s->word, s->wlen))
		score = 0;
	else
		score = pmc_edit_distance(s->word, name) + 1;
	/* Nothing within a third of the word (and at least 2 edits) is "near". */
	if (score > 1 + (s->wlen / 3 > 2 ? s->wlen / 3 : 2))
		return;
	for (i = 0; i < s->n; i++) {
		if (!strcasecmp(s->name[i], name))
			return;
	}
	if (s->n < SUGGEST_MAX) {
		s->name[s->n] = name;
		s->score[s->n++] = score;
		return;
	}
	for (i = 1; i < s->n; i++) {
		if (s->score[i] > s->score[worst])
			worst = i;
	}
	if (score < s->score[worst]) {
		s->name[worst] = name;
		s->score[worst] = score;
	}
}

static int suggest_cmp(const void *a, const void *b, void *arg)
{
	const struct suggest *s = arg;
	unsigned int ia = *(const unsigned int *)a, ib = *(const unsigned int *)b;

	if (s->score[ia] != s->score[ib])
		return s->score[ia] < s->score[ib] ? -1 : 1;
	return strcasecmp(s->name[ia], s->name[ib]);
}

/* ", nearest: A, B" into @out (empty when nothing is near). */
static void suggest_format(struct suggest *s, char *out, size_t len)
{
	unsigned int order[SUGGEST_MAX], i;
	size_t off = 0;

	*out = '\0';
	for (i = 0; i < s->n; i++)
		order[i] = i;
	qsort_r(order, s->n, sizeof(order[0]), suggest_cmp, s);
	for (i = 0; i < s->n && off < len; i++) {
		int w = snprintf(out + off, len - off, "%s%s", i ? ", " : "; nearest: ", s->name[order[i]]);

		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* Every event name of the present core PMUs. */
static void suggest_pfm(struct suggest *s)
{
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	pfm_pmu_t pmu;
	int idx;

	pfm_for_all_pmus(pmu) {
		if (!pmu_info(pmu, &pi) || !pi.is_present || pi.type != PFM_PMU_TYPE_CORE)
			continue;
		for (idx = pi.first_event; idx >= 0; idx = pfm_get_event_next(idx)) {
			if (event_info(idx, &ei))
				suggest_add(s, ei.name);
		}
	}
}

/* The core PMUs libpfm4 knows but this CPU is not, that have an event called @word. */
static void other_models(const char *word, char *out, size_t len)
{
	pfm_pmu_info_t pi;
	pfm_event_info_t ei;
	pfm_pmu_t pmu;
	size_t off = 0;
	int idx, i, nfound = 0;

	*out = '\0';
	pfm_for_all_pmus(pmu) {
		if (!pmu_info(pmu, &pi) || pi.is_present || pi.type != PFM_PMU_TYPE_CORE ||
		    pi.nevents <= 0)
			continue;
		for (i = 0, idx = pi.first_event; i < pi.nevents && idx >= 0; i++) {
			if (!event_info(idx, &ei))
				break;
			if (!strcasecmp(ei.name, word)) {
				if (nfound < 6 && off < len) {
					int w = snprintf(out + off, len - off, "%s%s", nfound ? ", " : "",
							 pi.name);

					if (w > 0)
						off += (size_t)w;
				}
				nfound++;
				break;
			}
			/* pfm_get_event_next() walks only the present PMUs; indices are dense. */
			idx++;
		}
	}
	if (nfound > 6 && off < len)
		snprintf(out + off, len - off, ", ... (%d models)", nfound);
}

/* The event part of NAME: without "pmu::" and without ":umask:mod..." (or perf's ".umask"). */
static void event_word(const char *name, char *out, size_t len)
{
	const char *p = strstr(name, "::");
	size_t n;

	p = p ? p + 2 : name;
	n = strcspn(p, ":.");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* "A, B, C" of the unit masks of event @idx (for a bad or missing umask). */
static void umask_names(int idx, char *out, size_t len)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	size_t off = 0;
	int a;

	*out = '\0';
	if (!event_info(idx, &ei))
		return;
	for (a = 0; a < ei.nattrs && off < len; a++) {
		int w;

		if (!attr_info(idx, a, &ai) || ai.type != PFM_ATTR_UMASK)
			continue;
		w = snprintf(out + off, len - off, "%s%s%s", off ? ", " : "", ai.name,
			     ai.is_dfl ? " (default)" : "");
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* libpfm4's index of the event of @name ("pmu::EVENT" or "EVENT", no unit masks), or < 0. */
static int find_event(const char *name)
{
	char head[PMC_EVENT_NAME_MAX];
	const char *p = strstr(name, "::");
	size_t n = (size_t)((p ? p + 2 : name) - name);

	n += strcspn(name + n, ":.");
	if (n >= sizeof(head))
		return -1;
	memcpy(head, name, n);
	head[n] = '\0';
	return pfm_find_event(head);
}

static int unknown_name(const char *name, const char *const *extra, size_t nextra,
			char *err, size_t errlen)
{
	char word[PMC_EVENT_NAME_MAX], near[200], models[160];
	const char *colons = strstr(name, "::");
	pfm_pmu_info_t pi;
	struct suggest s;
	pfm_pmu_t pmu;
	size_t i;

	if (!default_pmu(&pi))
		pi.name = "none";
	/* A PMU prefix of a model this CPU is not. */
	pfm_for_all_pmus(pmu) {
		pfm_pmu_info_t other;

		if (colons && pmu_info(pmu, &other) && !other.is_present &&
		    strlen(other.name) == (size_t)(colons - name) &&
		    !strncasecmp(other.name, name, (size_t)(colons - name)))
			return pmc_error(-ENOENT, err, errlen,
					 "'%s': libpfm4 PMU %s is not this CPU's (this CPU: %s); drop the %s:: prefix",
					 name, other.name, pi.name, other.name);
	}
	event_word(name, word, sizeof(word));
	if (pfm_find_event(word) < 0)
		other_models(word, models, sizeof(models));
	else
		*models = '\0';
	if (*models) {
		return pmc_error(-ENOENT, err, errlen,
				 "'%s': this CPU (libpfm4 PMU %s) has no event %s; libpfm4 knows it for %s",
				 name, pi.name, word, models);
	}
	memset(&s, 0, sizeof(s));
	s.word = word;
	s.wlen = strlen(word);
	for (i = 0; i < nextra; i++)
		suggest_add(&s, extra[i]);
	suggest_pfm(&s);
	suggest_format(&s, near, sizeof(near));
	return pmc_error(-ENOENT, err, errlen, "unknown event '%s'%s (see 'pmcctl list')", name, near);
}

/* Refuse what pmcdrv cannot program, naming the field; else fill @ev. */
static int from_encoding(const char *name, const pfm_pmu_encode_arg_t *arg, const char *fstr,
			 struct pmcdrv_event *ev, char *err, size_t errlen)
{
	uint64_t sel = arg->codes[0], left;
	unsigned int code = (unsigned int)(sel & PMC_EVTSEL_EVENT);

	if (sel & PMC_EVTSEL_ANY)
		return pmc_error(-EOPNOTSUPP, err, errlen,
				 "'%s': t=1 (AnyThread, EVTSEL bit 21) is not programmable by pmcdrv: it counts this thread only; drop :t=1",
				 name);
	if (sel & PMC_EVTSEL_PC)
		return pmc_error(-EOPNOTSUPP, err, errlen,
				 "'%s': pin control (EVTSEL bit 19) is not programmable by pmcdrv; drop it",
				 name);
	if (sel & (PMC_EVTSEL_IN_TX | PMC_EVTSEL_IN_TXCP))
		return pmc_error(-EOPNOTSUPP, err, errlen,
				 "'%s': %s (EVTSEL bit %d, TSX filter) is not programmable by pmcdrv; drop :%s=1",
				 name, (sel & PMC_EVTSEL_IN_TX) ? "intx" : "intxcp",
				 (sel & PMC_EVTSEL_IN_TX) ? 32 : 33,
				 (sel & PMC_EVTSEL_IN_TX) ? "intx" : "intxcp");
	left = sel & ~(PFM_SEL_MAPPED | PFM_SEL_OWNED);
	if (left)
		return pmc_error(-EOPNOTSUPP, err, errlen,
				 "'%s': libpfm4 set EVTSEL bits 0x%llx that pmcdrv has no field for (encoding %s)",
				 name, (unsigned long long)left, fstr);
	if (arg->count > 1) {
		if (strstr(fstr, ":ldlat="))
			return pmc_error(-EOPNOTSUPP, err, errlen,
					 "'%s': ldlat (the PEBS load-latency threshold, MSR_PEBS_LD_LAT) is a PEBS facility pmcdrv does not program; this event counts only with PEBS",
					 name);
		if (strstr(fstr, ":fe_thres="))
			return pmc_error(-EOPNOTSUPP, err, errlen,
					 "'%s': needs MSR_PEBS_FRONTEND = 0x%llx (the front-end event filter), a PEBS facility pmcdrv does not program",
					 name, (unsigned long long)arg->codes[1]);
		if (arg->count > 2 ||
		    (code != PFM_EVENT_OFFCORE_RSP_0 && code != PFM_EVENT_OFFCORE_RSP_1))
			return pmc_error(-EOPNOTSUPP, err, errlen,
					 "'%s': needs an extra register value 0x%llx besides EVTSEL (encoding %s), which pmcdrv cannot program",
					 name, (unsigned long long)arg->codes[1], fstr);
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = PMCDRV_EVENT_HW;
	pmc_evtsel_decode(sel, ev);
	/* OFFCORE_RESPONSE_0/1: MSR_OFFCORE_RSP_0/1's value; the module checks it. */
	if (arg->count == 2)
		ev->extra = arg->codes[1];
	if (!(ev->flags & (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL)))
		return pmc_error(-EINVAL, err, errlen, "'%s': counts in neither mode (u=0 and k=0)", name);
	if ((ev->flags & PMCDRV_EVF_INV) && !ev->cmask)
		return pmc_error(-EINVAL, err, errlen, "'%s': i (inv) needs a non-zero c (cmask), e.g. :c=1:i", name);
	return 0;
}

int pmc_pfm_encode_named(const char *name, const char *const *extra, size_t nextra,
			 struct pmcdrv_event *ev, char *err, size_t errlen)
{
	pfm_pmu_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char *fstr = NULL, list[200];
	int ret;

	ret = pfm_ready();
	if (ret)
		return pmc_error(ret, err, errlen, "'%s': libpfm4 did not initialize (%s)", name,
				 pfm_strerror(pfm_init_ret));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	switch (ret) {
	case PFM_SUCCESS:
		break;
	case PFM_ERR_NOTFOUND:
		return unknown_name(name, extra, nextra, err, errlen);
	case PFM_ERR_UMASK: {
		int idx = find_event(name);

		umask_names(idx, list, sizeof(list));
		return pmc_error(-EINVAL, err, errlen, "'%s': invalid or missing unit mask; %s has: %s",
				 name, idx >= 0 && event_info(idx, &ei) ? ei.name : "the event",
				 *list ? list : "none");
	}
	case PFM_ERR_ATTR:
	case PFM_ERR_ATTR_VAL:
	case PFM_ERR_ATTR_SET:
	case PFM_ERR_FEATCOMB: {
		int idx = find_event(name);

		umask_names(idx, list, sizeof(list));
		return pmc_error(-EINVAL, err, errlen,
				 "'%s': %s; unit masks: %s; modifiers: u, k, e, i, c=N", name,
				 pfm_strerror(ret), *list ? list : "none");
	}
	default:
		return pmc_error(-EINVAL, err, errlen, "'%s': libpfm4: %s", name, pfm_strerror(ret));
	}
	ret = 0;
	if (!event_info(arg.idx, &ei) || !pmu_info(ei.pmu, &pi))
		ret = pmc_error(-EINVAL, err, errlen, "'%s': libpfm4 has no description of it", name);
	else if (pi.type != PFM_PMU_TYPE_CORE)
		ret = pmc_error(-EOPNOTSUPP, err, errlen,
				"'%s': an event of libpfm4's %s PMU (%s), not of the core PMU; pmcdrv programs only the core's counters%s",
				name, pi.type == PFM_PMU_TYPE_UNCORE ? "uncore" : "OS", pi.name,
				pi.type == PFM_PMU_TYPE_UNCORE ? "" :
				" (perf's generic events are pmcctl's own names: see 'pmcctl list')");
	else if (!pmu_is_intel(&pi))
		ret = pmc_error(-EOPNOTSUPP, err, errlen,
				"'%s': an event of %s; pmcdrv programs Intel PMUs only", name, pi.name);
	else if (arg.count < 1)
		ret = pmc_error(-EINVAL, err, errlen, "'%s': libpfm4 gave no encoding", name);
	else
		ret = from_encoding(name, &arg, fstr ? fstr : "?", ev, err, errlen);
	free(arg.codes);
	free(fstr);
	return ret;
}

int pmc_pfm_encode(const char *name, struct pmcdrv_event *ev, char *err, size_t errlen)
{
	return pmc_pfm_encode_named(name, NULL, 0, ev, err, errlen);
}

int pmc_pfm_pmu(const char **name, const char **desc)
{
	pfm_pmu_info_t pi;
	int ret = pfm_ready();

	if (ret)
		return ret;
	if (!default_pmu(&pi))
		return -ENODEV;
	*name = pi.name;
	*desc = pi.desc;
	return 0;
}

int pmc_pfm_events(pmc_pfm_event_fn fn, void *arg)
{
	struct pmc_pfm_umask *um = NULL;
	pfm_event_attr_info_t ai;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	int idx, a, ret;

	ret = pfm_ready();
	if (ret)
		return ret;
	if (!default_pmu(&pi))
		return -ENODEV;
	for (idx = pi.first_event; idx >= 0; idx = pfm_get_event_next(idx)) {
		struct pmc_pfm_event e;

		if (!event_info(idx, &ei))
			continue;
		um = calloc(ei.nattrs > 0 ? (size_t)ei.nattrs : 1, sizeof(*um));
		if (!um)
			return -ENOMEM;
		memset(&e, 0, sizeof(e));
		e.pmu = pi.name;
		e.name = ei.name;
		e.desc = ei.desc ? ei.desc : "";
		e.code = (uint32_t)ei.code;
		e.umasks = um;
		for (a = 0; a < ei.nattrs; a++) {
			if (!attr_info(idx, a, &ai) || ai.type != PFM_ATTR_UMASK)
				continue;
			um[e.nr_umasks].name = ai.name;
			um[e.nr_umasks].desc = ai.desc ? ai.desc : "";
			um[e.nr_umasks].code = (uint32_t)ai.code;
			um[e.nr_umasks].dfl = ai.is_dfl;
			e.nr_umasks++;
		}
		ret = fn(&e, arg);
		free(um);
		if (ret)
			return ret;
	}
	return 0;
}
