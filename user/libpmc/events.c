// SPDX-License-Identifier: GPL-2.0
/* libpmc: pmcctl's event syntax (-e), parsed into ABI events. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpmc.h"
#include "internal.h"
#include "pmu_events.h"
#include "pfm-internal.h"

struct named_event {
	const char *name;
	int arch;		/* enum pmc_arch_event, -1 for software, PSEUDO: code */
	uint32_t sw_id;		/* software: its id; PSEUDO: umask << 8 | event */
};

#define PSEUDO	-2		/* event 0x00 pseudo-encodings (perf's names) */
#define TD(umask)	PSEUDO, (umask) << 8

/* perf's generic names first; aliases after. */
static const struct named_event named_events[] = {
	{ "instructions", PMC_ARCH_INSTRUCTIONS, 0 },
	{ "cycles", PMC_ARCH_CORE_CYCLES, 0 },
	{ "cpu-cycles", PMC_ARCH_CORE_CYCLES, 0 },
	{ "ref-cycles", PMC_ARCH_REF_CYCLES, 0 },
	{ "branches", PMC_ARCH_BRANCHES, 0 },
	{ "branch-instructions", PMC_ARCH_BRANCHES, 0 },
	{ "branch-misses", PMC_ARCH_BRANCH_MISSES, 0 },
	{ "llc-references", PMC_ARCH_LLC_REFERENCES, 0 },
	{ "cache-references", PMC_ARCH_LLC_REFERENCES, 0 },
	{ "llc-misses", PMC_ARCH_LLC_MISSES, 0 },
	{ "cache-misses", PMC_ARCH_LLC_MISSES, 0 },
	{ "task-clock", -1, PMCDRV_SW_TASK_CLOCK },
	{ "context-switches", -1, PMCDRV_SW_CONTEXT_SWITCHES },
	{ "cs", -1, PMCDRV_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", -1, PMCDRV_SW_CPU_MIGRATIONS },
	{ "migrations", -1, PMCDRV_SW_CPU_MIGRATIONS },
	/* fixed counter 3 only, as perf's slots; then PERF_METRICS's fields */
	{ "topdown-slots", TD(0x04) },
	{ "slots", TD(0x04) },
	{ "topdown-retiring", TD(PMC_TD_UMASK_BASE + PMC_TD_RETIRING) },
	{ "topdown-bad-spec", TD(PMC_TD_UMASK_BASE + PMC_TD_BAD_SPEC) },
	{ "topdown-fe-bound", TD(PMC_TD_UMASK_BASE + PMC_TD_FE_BOUND) },
	{ "topdown-be-bound", TD(PMC_TD_UMASK_BASE + PMC_TD_BE_BOUND) },
	{ "topdown-heavy-ops", TD(PMC_TD_UMASK_BASE + PMC_TD_HEAVY_OPS) },
	{ "topdown-br-mispredict", TD(PMC_TD_UMASK_BASE + PMC_TD_BR_MISPREDICT) },
	{ "topdown-fetch-lat", TD(PMC_TD_UMASK_BASE + PMC_TD_FETCH_LAT) },
	{ "topdown-mem-bound", TD(PMC_TD_UMASK_BASE + PMC_TD_MEM_BOUND) },
};

/* perf raw config bits that map onto fields; the rest may not be given. */
#define RAW_ALLOWED	(PMC_EVTSEL_EVENT | PMC_EVTSEL_UMASK | PMC_EVTSEL_EDGE | PMC_EVTSEL_INV | \
			 PMC_EVTSEL_CMASK)

/* Parse a whole number (decimal, or hex after 0x) that must fit in @max. */
static bool parse_num(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;
	int base = 10;

	/* Digits only: no sign, no blanks (strtoull would skip them), no octal. */
	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)*s))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		base = 16;
		if (!isxdigit((unsigned char)buf[2]))
			return false;
	}
	errno = 0;
	v = strtoull(buf, &end, base);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static bool parse_hex(const char *s, size_t n, uint64_t *out)
{
	char buf[32], *end;
	unsigned long long v;
	size_t i;

	if (!n || n > 16 || n >= sizeof(buf))
		return false;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 16);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* rHEX (r followed by hex digits only, up to the modifiers). */
static bool is_raw(const char *t, size_t n)
{
	size_t i;

	if (n < 2 || t[0] != 'r')
		return false;
	for (i = 1; i < n; i++) {
		if (!isxdigit((unsigned char)t[i]))
			return false;
	}
	return true;
}

/* cpu/key=val,.../ terms. */
static int parse_fields(const char *body, size_t n, const char *term, unsigned int unit,
			struct pmcdrv_event *ev, char *err, size_t errlen)
{
	const char *p = body, *end = body + n;
	bool have_event = false;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		const char *eq = memchr(p, '=', (size_t)(stop - p));
		size_t klen = (size_t)((eq ? eq : stop) - p);
		uint64_t v = 0;

		if (!klen)
			return pmc_error(-EINVAL, err, errlen, "'%s': empty field inside cpu/.../", term);
#define KEY(k) (klen == strlen(k) && !strncmp(p, k, klen))
		if (KEY("event") || KEY("umask") || KEY("cmask")) {
			if (!eq || !parse_num(eq + 1, (size_t)(stop - eq - 1), 0xff, &v))
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': %.*s needs a value 0..255 (e.g. %.*s=0x1)",
						 term, (int)klen, p, (int)klen, p);
			if (KEY("event")) {
				ev->event = (uint32_t)v;
				have_event = true;
			} else if (KEY("umask")) {
				ev->umask = (uint32_t)v;
			} else {
				ev->cmask = (uint32_t)v;
			}
		} else if (KEY("inv") || KEY("edge")) {
			if (eq && !(parse_num(eq + 1, (size_t)(stop - eq - 1), 1, &v)))
				return pmc_error(-EINVAL, err, errlen, "'%s': %.*s takes no value, or 0/1",
						 term, (int)klen, p);
			if (!eq)
				v = 1;
			/* The last occurrence wins, as for the numeric fields. */
			if (v)
				ev->flags |= KEY("inv") ? PMCDRV_EVF_INV : PMCDRV_EVF_EDGE;
			else
				ev->flags &= ~(KEY("inv") ? PMCDRV_EVF_INV : PMCDRV_EVF_EDGE);
		} else if (KEY("any") || KEY("pc") || KEY("int") || KEY("en")) {
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': %.*s cannot be set: pmcdrv controls EN, INT, AnyThread and pin control itself",
					 term, (int)klen, p);
		} else if (!eq && p == body && is_raw(p, klen)) {
			/* perf's cpu_core/r01d1/: a raw config inside a PMU's slashes */
			if (!parse_hex(p + 1, klen - 1, &v) || (v & ~RAW_ALLOWED))
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': %.*s: a raw config has event, umask, edge (bit 18), inv (bit 23) and cmask (bits 31:24) only",
						 term, (int)klen, p);
			pmc_evtsel_decode(v, ev);
			have_event = true;
		} else if (!eq && p == body && klen < PMC_EVENT_NAME_MAX && memchr(p, '.', klen)) {
			/* perf's cpu/EVENT.UMASK,cmask=1/: the named event, then the fields */
			const struct pmc_pe_model *m = pmc_pe_this_model();
			const struct pmc_pe_event *pe;
			char name[PMC_EVENT_NAME_MAX];

			memcpy(name, p, klen);
			name[klen] = '\0';
			pe = m ? pmc_pe_event_find(m, name, unit) : NULL;
			if (!pe)
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': '%s' is not an event of the kernel's data for this CPU%s",
						 term, name,
						 unit == PMC_PE_CPU_CORE ? "'s P-cores (cpu_core)" :
						 unit == PMC_PE_CPU_ATOM ? "'s E-cores (cpu_atom)" : "");
			if (pmc_pe_event_encode(pe, ev))
				return pmc_error(-EOPNOTSUPP, err, errlen,
						 "'%s': the kernel's data encodes %s with what pmcdrv does not program",
						 term, name);
			ev->type = PMCDRV_EVENT_HW;
			have_event = true;
		} else {
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': unknown field '%.*s' (fields: event, umask, cmask, inv, edge; or rHEX first)",
					 term, (int)klen, p);
		}
#undef KEY
		if (comma && comma + 1 == end)
			return pmc_error(-EINVAL, err, errlen, "'%s': empty field inside cpu/.../", term);
		p = comma ? comma + 1 : end;
	}
	if (!have_event)
		return pmc_error(-EINVAL, err, errlen, "'%s': %.*s.../ needs event=", term,
				 (int)(body - term), term);
	return 0;
}

/*
 * perf's PMU prefixes: cpu/.../ everywhere; cpu_core/.../ and cpu_atom/.../
 * on a hybrid part, an event of that core type alone.  The prefix's length
 * (0: none), its unit in the kernel's data and its core type.
 */
static size_t pmu_prefix(const char *t, unsigned int *unit, uint32_t *core_type)
{
	static const struct {
		const char *prefix;
		unsigned int unit;
		uint32_t core_type;
	} pmus[] = {
		{ "cpu/", PMC_PE_CPU, 0 },
		{ "cpu_core/", PMC_PE_CPU_CORE, PMCDRV_CORE_TYPE_CORE },
		{ "cpu_atom/", PMC_PE_CPU_ATOM, PMCDRV_CORE_TYPE_ATOM },
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(pmus); i++) {
		n = strlen(pmus[i].prefix);
		if (!strncmp(t, pmus[i].prefix, n)) {
			if (unit)
				*unit = pmus[i].unit;
			if (core_type)
				*core_type = pmus[i].core_type;
			return n;
		}
	}
	return 0;
}

/* The built-in names, the nearest-name candidates beside libpfm4's. */
static int named_list(const char **names, size_t max)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(named_events) && i < max; i++)
		names[i] = named_events[i].name;
	return (int)i;
}

static bool is_named(const char *t, size_t n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		if (strlen(named_events[i].name) == n && !strncmp(named_events[i].name, t, n))
			return true;
	}
	return false;
}

/*
 * The mode letters of a modifier (an event's after ':', a group's after
 * '}:'), @n characters at @s, ORed into *@mode as PMCDRV_EVF_USER/KERNEL.
 * Returns NULL, or the first letter that is neither u nor k.
 */
static const char *mode_letters(const char *s, size_t n, uint32_t *mode)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == 'u')
			*mode |= PMCDRV_EVF_USER;
		else if (s[i] == 'k')
			*mode |= PMCDRV_EVF_KERNEL;
		else
			return s + i;
	}
	return NULL;
}

/* Does the libpfm4 term @t give a privilege level (:u, :k, :u=N, :k=N) itself? */
static bool pfm_has_mode(const char *t)
{
	const char *p = strstr(t, "::");

	for (p = strchr(p ? p + 2 : t, ':'); p; p = strchr(p + 1, ':')) {
		if ((p[1] == 'u' || p[1] == 'k') && (p[2] == ':' || p[2] == '=' || !p[2]))
			return true;
	}
	return false;
}

/*
 * perf's EVENT.UMASK[:MODS] from the kernel's data for this CPU's model
 * (pmu_events.h), as perf resolves it; -ENOENT (nothing said) when the
 * model or the name is not in it.
 */
static int parse_kernel_event(const char *t, size_t head, struct pmc_evsel *out,
			      bool *explicit_mode, char *err, size_t errlen)
{
	const struct pmc_pe_model *m = pmc_pe_this_model();
	const struct pmc_pe_event *pe;
	char name[PMC_EVENT_NAME_MAX];
	uint32_t mode = 0;
	const char *bad;
	int ret;

	if (!m || head >= sizeof(name))
		return -ENOENT;
	memcpy(name, t, head);
	name[head] = '\0';
	pe = pmc_pe_event_find(m, name, PMC_PE_CPU);
	if (!pe)
		return -ENOENT;
	ret = pmc_pe_event_encode(pe, &out->ev);
	if (ret)
		return pmc_error(ret, err, errlen,
				 "'%s': the kernel's data for this CPU (perf's '%s') encodes it with %s, which pmcdrv does not program",
				 t, pmc_pe_str(m->name),
				 (pe->flags & PMC_PE_ANY) ? "AnyThread" :
				 pe->msr ? "a PEBS extra register" : "an extended event select");
	*explicit_mode = t[head] == ':';
	if (t[head] == ':') {
		bad = mode_letters(t + head + 1, strlen(t + head + 1), &mode);
		/* libpfm4's modifiers (:c=1:i, :e): its spelling of the name then */
		if (bad || !mode)
			return -ENOENT;
	}
	out->ev.flags |= mode ? mode : (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
	if ((out->ev.flags & PMCDRV_EVF_INV) && !out->ev.cmask)
		return pmc_error(-EINVAL, err, errlen, "'%s': inv needs a non-zero cmask", t);
	return 0;
}

/*
 * A libpfm4 name, or perf's event.umask spelling of one: first the kernel's
 * own data for this model (parse_kernel_event()), then libpfm4, where the
 * dots before the first ':' become ':' (perf's inst_retired.any_p is
 * libpfm4's INST_RETIRED:ANY_P; libpfm4 ignores case).
 */
static int parse_pfm(const char *t, struct pmc_evsel *out, bool *explicit_mode, char *err,
		     size_t errlen)
{
	const char *names[ARRAY_SIZE(named_events)];
	char conv[PMC_EVENT_NAME_MAX], msg[400];
	size_t head = strcspn(t, ":");
	bool perf = !strstr(t, "::") && memchr(t, '.', head);
	size_t i;
	int ret, nnames = named_list(names, ARRAY_SIZE(names));

	if (perf) {
		ret = parse_kernel_event(t, head, out, explicit_mode, err, errlen);
		if (ret != -ENOENT)
			return ret;
	}
	snprintf(conv, sizeof(conv), "%s", t);
	for (i = 0; perf && i < head; i++) {
		if (conv[i] == '.')
			conv[i] = ':';
	}
	/* pmcdrv's :uk (both modes) is libpfm4's :u:k. */
	i = strlen(conv);
	if (i > 3 && i + 1 < sizeof(conv) &&
	    (!strcmp(conv + i - 3, ":uk") || !strcmp(conv + i - 3, ":ku")))
		memcpy(conv + i - 3, ":u:k", 5);
	ret = pmc_pfm_encode_named(conv, names, (size_t)nnames, &out->ev, msg, sizeof(msg));
	/* An unknown name is a bad argument like any other (pmc_pfm_encode() says -ENOENT). */
	if (ret == -ENOENT)
		ret = -EINVAL;
	if (ret && perf)
		return pmc_error(ret, err, errlen, "perf's '%s' is libpfm4's '%s': %s", t, conv, msg);
	if (ret)
		return pmc_error(ret, err, errlen, "%s", msg);
	*explicit_mode = pfm_has_mode(conv);
	return 0;
}

static int parse_term(const char *term, size_t n, struct pmc_evsel *out, bool *explicit_mode,
		      char *err, size_t errlen)
{
	struct pmcdrv_event *ev = &out->ev;
	const char *colon = NULL, *mods = NULL, *p;
	size_t body_len = n, i;
	uint32_t mode = 0, core_type = 0;
	unsigned int unit = PMC_PE_CPU;
	uint64_t v;
	size_t plen;
	char t[PMC_EVENT_NAME_MAX];

	if (!n)
		return pmc_error(-EINVAL, err, errlen,
				 "empty event in the list (two commas, or a trailing comma?)");
	if (n >= sizeof(t))
		return pmc_error(-EINVAL, err, errlen, "event '%.*s...' is too long", 20, term);
	memcpy(t, term, n);
	t[n] = '\0';
	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", t);

	/* Modifiers follow the last ':' outside cpu/.../ (cpu_core/.../, cpu_atom/.../). */
	plen = pmu_prefix(t, &unit, &core_type);
	p = plen ? strrchr(t, '/') : t;
	if (p)
		colon = strrchr(p, ':');
	if (colon) {
		body_len = (size_t)(colon - t);
		mods = colon + 1;
	} else if (plen && p && p > t + plen - 1 && p[1]) {
		/* perf's spelling: the modifiers right after the closing '/' (cpu_core/cycles/u) */
		body_len = (size_t)(p + 1 - t);
		mods = p + 1;
	}
	/* Not one of the built-in forms: a libpfm4 name (or perf's spelling of one). */
	if (!is_named(t, body_len) && !is_raw(t, body_len) && !plen &&
	    !(body_len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')))
		return parse_pfm(t, out, explicit_mode, err, errlen);
	*explicit_mode = mods != NULL;
	if (mods) {
		const char *bad = mode_letters(mods, strlen(mods), &mode);

		if (bad)
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': unknown modifier '%c' (supported: u = user, k = kernel)",
					 t, *bad);
		if (!mode)
			return pmc_error(-EINVAL, err, errlen, "'%s': empty modifier after ':' (use :u, :k or :uk)", t);
	}

	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		const struct named_event *ne = &named_events[i];
		/* cpu_core/instructions/: a built-in name of one core type */
		size_t nlen = body_len;
		const char *nm = t;

		if (plen > 4 && body_len > plen + 1 && t[body_len - 1] == '/') {
			nm = t + plen;
			nlen = body_len - plen - 1;
		}
		if (strlen(ne->name) != nlen || strncmp(ne->name, nm, nlen))
			continue;
		if (ne->arch == -1 && nm != t)
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': %s is a software event: it counts on every core type (drop %.*s)",
					 t, ne->name, (int)plen, t);
		if (ne->arch == -1) {
			if (mode)
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': :u/:k apply to hardware events; %s counts the task in both modes",
						 t, ne->name);
			ev->type = PMCDRV_EVENT_SW;
			ev->sw_id = ne->sw_id;
			return 0;
		}
		ev->type = PMCDRV_EVENT_HW;
		if (ne->arch == PSEUDO) {
			ev->event = ne->sw_id & 0xff;
			ev->umask = ne->sw_id >> 8;
		} else {
			ev->event = pmc_arch_events[ne->arch].event;
			ev->umask = pmc_arch_events[ne->arch].umask;
		}
		goto done;
	}

	ev->type = PMCDRV_EVENT_HW;
	if (body_len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		if (!parse_hex(t + 2, body_len - 2, &v))
			return pmc_error(-EINVAL, err, errlen, "'%s': not a hexadecimal code", t);
		if (v > 0xffff)
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': a code is umask<<8 | event (0x0000..0xffff); for cmask/inv/edge use r<hex> or cpu/event=..,cmask=../",
					 t);
		ev->event = (uint32_t)(v & 0xff);
		ev->umask = (uint32_t)(v >> 8);
	} else if (body_len > 1 && t[0] == 'r') {
		if (!parse_hex(t + 1, body_len - 1, &v))
			return pmc_error(-EINVAL, err, errlen, "'%s': r needs a hexadecimal raw config (e.g. r01c2)", t);
		if (v & ~RAW_ALLOWED)
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': raw bits 0x%llx are not allowed: only event, umask, edge (bit 18), inv (bit 23) and cmask (bits 31:24); use :u/:k for modes",
					 t, (unsigned long long)(v & ~RAW_ALLOWED));
		pmc_evtsel_decode(v, ev);
	} else if (plen && body_len > plen + 1 && t[body_len - 1] == '/') {
		int ret = parse_fields(t + plen, body_len - plen - 1, t, unit, ev, err, errlen);

		if (ret)
			return ret;
	} else {
		return pmc_error(-EINVAL, err, errlen,
				 "unknown event '%.*s' (see 'pmcctl list' for names and syntax)",
				 (int)body_len, t);
	}
done:
	ev->core_type = core_type;
	ev->flags |= mode ? mode : (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
	if ((ev->flags & PMCDRV_EVF_INV) && !ev->cmask)
		return pmc_error(-EINVAL, err, errlen, "'%s': inv needs a non-zero cmask", t);
	return 0;
}

/* Where the term at @start ends: ',' '{' '}' or the end, outside cpu/.../. */
static const char *term_end(const char *start, char *err, size_t errlen, int *ret)
{
	size_t plen = pmu_prefix(start, NULL, NULL);
	const char *close;

	*ret = 0;
	if (plen) {
		close = strchr(start + plen, '/');
		if (!close) {
			*ret = pmc_error(-EINVAL, err, errlen, "'%s': %.*s... is missing its closing '/'",
					 start, (int)plen, start);
			return NULL;
		}
		return close + strcspn(close, ",{}");
	}
	return start + strcspn(start, ",{}");
}

/*
 * A group's modifier (the :u/:k after '}') on its members first..l->n-1:
 * a member without its own mode takes the group's; one with its own counts
 * in both (perf adds the group's modifier to the member's).
 */
static int group_modifier(struct pmc_evlist *l, unsigned int first, const bool *explicit_mode,
			  const char *mod, size_t n, char *err, size_t errlen)
{
	uint32_t mode = 0;
	unsigned int i;
	const char *bad;

	if (n < 2)
		return pmc_error(-EINVAL, err, errlen, "empty modifier after '}' (use }:u, }:k or }:uk)");
	bad = mode_letters(mod + 1, n - 1, &mode);
	if (bad)
		return pmc_error(-EINVAL, err, errlen,
				 "'}%.*s': unknown group modifier '%c' (supported: u = user, k = kernel)",
				 (int)n, mod, *bad);
	for (i = first; i < l->n; i++) {
		struct pmcdrv_event *ev = &l->ev[i].ev;

		if (ev->type != PMCDRV_EVENT_HW)
			return pmc_error(-EINVAL, err, errlen,
					 "'}%.*s': :u/:k apply to hardware events; group member %s counts the task in both modes",
					 (int)n, mod, l->ev[i].name);
		if (explicit_mode[i])
			ev->flags |= mode;
		else
			ev->flags = (ev->flags & ~(PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL)) | mode;
	}
	return 0;
}

int pmc_evlist_parse(struct pmc_evlist *l, const char *arg, char *err, size_t errlen)
{
	bool explicit_mode[PMCDRV_MAX_EVENTS];
	const char *start = arg, *end;
	unsigned int group = 0, first = 0;
	int ret;

	if (!*arg)
		return pmc_error(-EINVAL, err, errlen, "empty event list");
	for (;;) {
		if (*start == '{') {
			if (group)
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': groups do not nest: close the group with '}' first", start);
			group = ++l->nr_groups;
			first = l->n;
			start++;
			if (*start == '}')
				return pmc_error(-EINVAL, err, errlen,
						 "empty group '{}': put events between the braces, e.g. {cycles,instructions}");
		}
		end = term_end(start, err, errlen, &ret);
		if (!end)
			return ret;
		if (*end == '{')
			return pmc_error(-EINVAL, err, errlen,
					 "'%s': '{' starts a group only at the start of an event%s", start,
					 group ? " (groups do not nest)" : "");
		if (*end == '}' && !group)
			return pmc_error(-EINVAL, err, errlen, "'%s': '}' without its '{'", start);
		if (l->n >= PMCDRV_MAX_EVENTS)
			return pmc_error(-EINVAL, err, errlen, "more than %d events", PMCDRV_MAX_EVENTS);
		ret = parse_term(start, (size_t)(end - start), &l->ev[l->n],
				 &explicit_mode[l->n], err, errlen);
		if (ret)
			return ret;
		l->ev[l->n].ev.group = group;
		l->n++;
		if (*end == '}') {
			const char *mod = end + 1;
			size_t mlen = strcspn(mod, ",");

			if (*mod == ':') {
				ret = group_modifier(l, first, explicit_mode, mod, mlen, err, errlen);
				if (ret)
					return ret;
			} else if (mlen) {
				return pmc_error(-EINVAL, err, errlen,
						 "'}%.*s': after '}' comes ',', the end, or :u/:k for the whole group",
						 (int)mlen, mod);
			}
			group = 0;
			end = mod + mlen;
		}
		if (!*end) {
			if (group)
				return pmc_error(-EINVAL, err, errlen,
						 "'%s': group is missing its closing '}'", arg);
			return 0;
		}
		start = end + 1;
	}
}

static void add_named(struct pmc_evlist *l, const char *name)
{
	char err[8];

	pmc_evlist_parse(l, name, err, sizeof(err));
}

void pmc_evlist_default(struct pmc_evlist *l, const struct pmcdrv_info *info)
{
	static const struct {
		const char *name;
		int arch;
	} hw[] = {
		{ "cycles", PMC_ARCH_CORE_CYCLES },
		{ "instructions", PMC_ARCH_INSTRUCTIONS },
		{ "branches", PMC_ARCH_BRANCHES },
		{ "branch-misses", PMC_ARCH_BRANCH_MISSES },
	};
	size_t i;

	l->n = 0;
	add_named(l, "task-clock");
	add_named(l, "context-switches");
	add_named(l, "cpu-migrations");
	if (!(info->flags & PMCDRV_INFO_ARCH_PERFMON))
		return;
	for (i = 0; i < ARRAY_SIZE(hw); i++) {
		if ((unsigned int)hw[i].arch < info->events_len &&
		    (info->events_avail & (1U << hw[i].arch)))
			add_named(l, hw[i].name);
	}
}

const char *pmc_event_known_name(const struct pmcdrv_event *ev)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(named_events); i++) {
		const struct named_event *ne = &named_events[i];

		if (ne->arch == PSEUDO) {
			if (ev->type == PMCDRV_EVENT_HW && !ev->cmask &&
			    ev->event == (ne->sw_id & 0xff) && ev->umask == ne->sw_id >> 8)
				return ne->name;
		} else if (ne->arch < 0) {
			if (ev->type == PMCDRV_EVENT_SW && ev->sw_id == ne->sw_id)
				return ne->name;
		} else if (ev->type == PMCDRV_EVENT_HW && !ev->cmask &&
			   !(ev->flags & (PMCDRV_EVF_EDGE | PMCDRV_EVF_INV)) &&
			   ev->event == pmc_arch_events[ne->arch].event &&
			   ev->umask == pmc_arch_events[ne->arch].umask) {
			return ne->name;
		}
	}
	return NULL;
}

int pmc_event_format(const struct pmcdrv_event *ev, char *buf, size_t len)
{
	uint32_t modes = ev->flags & (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
	const char *name = pmc_event_known_name(ev);
	const char *mod = "";
	int n;

	if (ev->type == PMCDRV_EVENT_HW && modes == PMCDRV_EVF_USER)
		mod = ":u";
	else if (ev->type == PMCDRV_EVENT_HW && modes == PMCDRV_EVF_KERNEL)
		mod = ":k";
	if (name && ev->type == PMCDRV_EVENT_HW && ev->core_type)
		n = snprintf(buf, len, "%s/%s/%s", pmc_core_type_pmu(ev->core_type), name, mod);
	else if (name)
		n = snprintf(buf, len, "%s%s", name, mod);
	else if (ev->type == PMCDRV_EVENT_HW)
		n = snprintf(buf, len, "%s/event=0x%02x,umask=0x%02x%s%.0u%s%s%s%.0llx/%s",
			     ev->core_type ? pmc_core_type_pmu(ev->core_type) : "cpu",
			     ev->event, ev->umask, ev->cmask ? ",cmask=" : "", ev->cmask,
			     (ev->flags & PMCDRV_EVF_INV) ? ",inv" : "",
			     (ev->flags & PMCDRV_EVF_EDGE) ? ",edge" : "",
			     ev->extra ? ",offcore_rsp=0x" : "", (unsigned long long)ev->extra, mod);
	else
		n = snprintf(buf, len, "sw%u", ev->sw_id);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? n : -ENOSPC;
}

/*
 * PERF_METRICS events and their group (pmc_evlist_topdown_groups()), as
 * perf's parse_events__sort_events_and_fix_groups() with
 * arch_evsel__must_be_in_group() (tools/perf, Linux 6.12).
 */
/* Is @ev a PERF_METRICS event (topdown-retiring, ...)? */
static bool is_td_metric(const struct pmcdrv_event *ev)
{
	struct pmc_event_spec spec;

	if (ev->type != PMCDRV_EVENT_HW)
		return false;
	pmc_event_to_spec(ev, &spec);
	return pmc_event_td_metric(&spec) >= 0;
}

static bool is_slots(const struct pmcdrv_event *ev)
{
	struct pmc_event_spec spec;

	if (ev->type != PMCDRV_EVENT_HW)
		return false;
	pmc_event_to_spec(ev, &spec);
	return pmc_event_is_slots(&spec);
}

#define TD_MODES	(PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL)

/*
 * The event of @l in group @g (0: on its own) that is topdown-slots with
 * @modes and of core type @type (0: every type), or -1.
 */
static int find_slots(const struct pmc_evlist *l, unsigned int g, u32 modes, u32 type)
{
	unsigned int j;

	for (j = 0; j < l->n; j++)
		if (l->ev[j].ev.group == g && is_slots(&l->ev[j].ev) &&
		    (l->ev[j].ev.flags & TD_MODES) == modes && l->ev[j].ev.core_type == type)
			return (int)j;
	return -1;
}

/* made[]'s row of core type @type: none, cpu_atom, cpu_core */
static unsigned int td_type_row(u32 type)
{
	return type == PMCDRV_CORE_TYPE_CORE ? 2 : type == PMCDRV_CORE_TYPE_ATOM;
}

int pmc_evlist_topdown_groups(struct pmc_evlist *l)
{
	/* the group made for each core type and modes value */
	unsigned int i, g, made[3][TD_MODES + 1] = { { 0 } }, *mk;
	struct pmc_evlist one;
	char err[256], name[48];
	u32 m, ct;
	int s;

	for (i = 0; i < l->n; i++) {
		if (!is_td_metric(&l->ev[i].ev) || is_slots(&l->ev[i].ev))
			continue;
		m = l->ev[i].ev.flags & TD_MODES;
		ct = l->ev[i].ev.core_type;
		mk = &made[td_type_row(ct)][m];
		g = l->ev[i].ev.group;
		if (g && find_slots(l, g, m, ct) >= 0)
			continue;
		if (!g && *mk) {
			l->ev[i].ev.group = *mk;
			continue;
		}
		if (!g) {
			g = *mk = ++l->nr_groups;
			l->ev[i].ev.group = g;
			s = find_slots(l, 0, m, ct);
			if (s >= 0) {
				l->ev[s].ev.group = g;
				continue;
			}
		}
		memset(&one, 0, sizeof(one));
		if (l->n >= PMCDRV_MAX_EVENTS)
			return -ENOSPC;
		/* slots of the metric's own core type: cpu_core/topdown-slots/ */
		snprintf(name, sizeof(name), "%s%stopdown-slots%s%s", ct ? pmc_core_type_pmu(ct) : "",
			 ct ? "/" : "", ct ? "/" : "",
			 m == PMCDRV_EVF_USER ? ":u" : m == PMCDRV_EVF_KERNEL ? ":k" : "");
		if (pmc_evlist_parse(&one, name, err, sizeof(err)))
			return -EINVAL;
		l->ev[l->n] = one.ev[0];
		l->ev[l->n++].ev.group = g;
	}
	return 0;
}
