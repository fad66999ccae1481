// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: perf's metrics (MetricExpr of the kernel's x86 files, pmu_events.h)
 * parsed, reduced to the events they need, and evaluated, with the
 * semantics of Linux 6.12's tools/perf/util/expr.l (tokens), expr.y (the
 * grammar; its "compute_ids" pass and its evaluation), expr.c (literals,
 * has_event) and metricgroup.c (names, groups, references between metrics,
 * recursion).  docs/design.md, "Metrics".  No global state; never prints.
 */
#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "libpmc.h"
#include "internal.h"
#include "pmu_events.h"
#include "metric-internal.h"

/* ---- tokens (expr.l) ---------------------------------------------------- */

enum tok {
	T_END = 256, T_NUM, T_ID, T_LIT, T_MIN, T_MAX, T_IF, T_ELSE, T_DRATIO, T_SRC, T_HAS, T_CPUID,
};

static const struct {
	const char *word;
	int tok;
} keywords[] = {
	{ "d_ratio", T_DRATIO }, { "max", T_MAX }, { "min", T_MIN }, { "if", T_IF },
	{ "else", T_ELSE }, { "source_count", T_SRC }, { "has_event", T_HAS },
	{ "strcmp_cpuid_str", T_CPUID },
};

/* The #literals of expr.c's expr__get_literal(), with its case rules. */
enum lit {
	L_NUM_CPUS, L_NUM_CPUS_ONLINE, L_SYSTEM_TSC_FREQ, L_SMT_ON, L_CORE_WIDE, L_NUM_PACKAGES,
	L_NUM_DIES, L_NUM_CORES, L_SLOTS, L_HAS_PMEM,
};

static const struct {
	const char *name;
	bool anycase;
} literals[] = {
	[L_NUM_CPUS] = { "#num_cpus", false }, [L_NUM_CPUS_ONLINE] = { "#num_cpus_online", false },
	[L_SYSTEM_TSC_FREQ] = { "#system_tsc_freq", true }, [L_SMT_ON] = { "#smt_on", true },
	[L_CORE_WIDE] = { "#core_wide", false }, [L_NUM_PACKAGES] = { "#num_packages", false },
	[L_NUM_DIES] = { "#num_dies", false }, [L_NUM_CORES] = { "#num_cores", false },
	[L_SLOTS] = { "#slots", false }, [L_HAS_PMEM] = { "#has_pmem", false },
};

static double lit_value(const struct pmc_metric_env *env, int lit)
{
	switch (lit) {
	case L_NUM_CPUS: return env->num_cpus;
	case L_NUM_CPUS_ONLINE: return env->num_cpus_online;
	case L_SYSTEM_TSC_FREQ: return env->system_tsc_freq;
	case L_SMT_ON: return env->smt_on;
	case L_CORE_WIDE: return env->core_wide;
	case L_NUM_PACKAGES: return env->num_packages;
	case L_NUM_DIES: return env->num_dies;
	case L_NUM_CORES: return env->num_cores;
	case L_SLOTS: return env->slots;
	default: return env->has_pmem;
	}
}

/* expr.l's sym: [0-9a-zA-Z_.:@?], and its escapes \- \, \= */
static size_t sym_len(const char *p)
{
	size_t n = 0;

	for (;;) {
		if (isalnum((unsigned char)p[n]) || (p[n] && strchr("_.:@?", p[n])))
			n++;
		else if (p[n] == '\\' && p[n + 1] && strchr("-,=", p[n + 1]))
			n += 2;
		else
			return n;
	}
}

/* expr.l's number: ([0-9]+\.?[0-9]*|[0-9]*\.?[0-9]+)(e-?[0-9]+)? */
static size_t num_len(const char *p)
{
	size_t n = 0, digits = 0, e;

	while (isdigit((unsigned char)p[n]))
		n++, digits++;
	if (p[n] == '.') {
		n++;
		while (isdigit((unsigned char)p[n]))
			n++, digits++;
	}
	if (!digits)
		return 0;
	if (p[n] == 'e') {
		e = n + 1;
		if (p[e] == '-')
			e++;
		if (isdigit((unsigned char)p[e])) {
			while (isdigit((unsigned char)p[e]))
				e++;
			n = e;
		}
	}
	return n;
}

/* ---- the parsed expression ---------------------------------------------- */

enum kind { N_NUM, N_LIT, N_ID, N_SRC, N_HAS, N_CPUID, N_NEG, N_BIN, N_DRATIO, N_MIN, N_MAX, N_IF };

struct node {
	unsigned char kind;	/* enum kind */
	char op;		/* N_BIN: | ^ & < > + - * / % */
	int a, b, c;		/* children; N_IF: a if b else c */
	int s;			/* N_ID, N_SRC, N_HAS, N_CPUID: the string; N_LIT: enum lit */
	double num;		/* N_NUM; N_HAS, N_CPUID: their value, fixed at compile */
};

/* What a name of an expression stands for once compiled. */
enum res { R_NONE, R_EVENT, R_REF, R_TOOL };

struct mexpr {
	struct node *n;
	int nn, ncap, root;
	char **s;		/* the names (normalized, as expr.l's normalize()) */
	int ns, scap;
	/* after compile: */
	int state;		/* 0 new, 1 being compiled (a cycle when met again), 2 done */
	unsigned char *res;	/* per name: enum res, for the names it needs */
	int *idx;		/* R_EVENT: the set's event; R_REF: the definition */
	char **spell;		/* R_EVENT: perf's spelling of the event */
	char *refused;		/* why not, of it or of a metric it references */
	bool dur;		/* it or a reference needs duration_time */
	signed char counted;	/* thresholds: -1 an event it needs is not in the set, 1 all are */
	bool evals, evalfail;	/* evaluation: cached value for this round */
	double val;
};

struct parser {
	const char *p, *text, *name;
	int tok;
	double num;
	char *str;
	struct mexpr *e;
	char *err;
	size_t errlen;
	int ret;
};

static int syntax(struct parser *ps, const char *what)
{
	if (!ps->ret)
		ps->ret = pmc_error(-EINVAL, ps->err, ps->errlen,
				    "metric %s: %s at offset %d of '%s'", ps->name, what,
				    (int)(ps->p - ps->text), ps->text);
	return ps->ret;
}

/* expr.l's normalize(): drop each '\', and '?' is the runtime parameter (0). */
static char *normalize(const char *s, size_t n)
{
	char *out = malloc(n + 1), *d = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n)
			*d++ = s[++i];
		else if (s[i] == '?')
			*d++ = '0';
		else
			*d++ = s[i];
	}
	*d = '\0';
	return out;
}

static void next(struct parser *ps)
{
	const char *p = ps->p;
	size_t sl, nl, i;

	free(ps->str);
	ps->str = NULL;
	for (;;) {
		if (!*p) {
			ps->tok = T_END;
			ps->p = p;
			return;
		}
		if (*p == '#') {
			nl = 1;
			while (isalnum((unsigned char)p[nl]) || (p[nl] && strchr("_.-", p[nl])))
				nl++;
			if (nl > 1) {
				ps->tok = T_LIT;
				ps->str = normalize(p, nl);
				ps->p = p + nl;
				return;
			}
		}
		sl = sym_len(p);
		nl = num_len(p);
		/* flex: the longest match; on a tie the earlier rule (keywords, NaN, number) */
		if (nl && nl >= sl) {
			ps->tok = T_NUM;
			ps->num = strtod(p, NULL);
			ps->p = p + nl;
			return;
		}
		if (sl) {
			ps->p = p + sl;
			for (i = 0; i < ARRAY_SIZE(keywords); i++) {
				if (strlen(keywords[i].word) == sl && !strncmp(p, keywords[i].word, sl)) {
					ps->tok = keywords[i].tok;
					return;
				}
			}
			if (sl == 3 && !strncmp(p, "NaN", 3)) {
				ps->tok = T_NUM;
				ps->num = NAN;
				return;
			}
			ps->tok = T_ID;
			ps->str = normalize(p, sl);
			return;
		}
		if (strchr("|^&<>-+*/%(),", *p)) {
			ps->tok = (unsigned char)*p;
			ps->p = p + 1;
			return;
		}
		p++;	/* expr.l's last rule: anything else is skipped */
	}
}

static int add_node(struct parser *ps, struct node nd)
{
	struct mexpr *e = ps->e;

	if (e->nn == e->ncap) {
		int cap = e->ncap ? 2 * e->ncap : 16;
		struct node *n = realloc(e->n, (size_t)cap * sizeof(*n));

		if (!n)
			return ps->ret = -ENOMEM;
		e->n = n;
		e->ncap = cap;
	}
	e->n[e->nn] = nd;
	return e->nn++;
}

/* The index of name @str in the expression's names (taking it over). */
static int add_str(struct parser *ps, char *str)
{
	struct mexpr *e = ps->e;
	int i;

	for (i = 0; i < e->ns; i++) {
		if (!strcmp(e->s[i], str)) {
			free(str);
			return i;
		}
	}
	if (e->ns == e->scap) {
		int cap = e->scap ? 2 * e->scap : 8;
		char **s = realloc(e->s, (size_t)cap * sizeof(*s));

		if (!s) {
			free(str);
			return ps->ret = -ENOMEM;
		}
		e->s = s;
		e->scap = cap;
	}
	e->s[e->ns] = str;
	return e->ns++;
}

static int parse_expr(struct parser *ps, int minprec);
static int parse_if(struct parser *ps);

static int expect(struct parser *ps, int tok, const char *what)
{
	if (ps->tok != tok)
		return syntax(ps, what);
	next(ps);
	return 0;
}

/* FUNC '(' expr ',' expr ')' */
static int parse_call2(struct parser *ps, enum kind kind)
{
	struct node nd = { .kind = kind };

	next(ps);
	if (expect(ps, '(', "'(' expected"))
		return -1;
	nd.a = parse_expr(ps, 1);
	if (nd.a < 0 || expect(ps, ',', "',' expected"))
		return -1;
	nd.b = parse_expr(ps, 1);
	if (nd.b < 0 || expect(ps, ')', "')' expected"))
		return -1;
	return add_node(ps, nd);
}

/* FUNC '(' ID ')' */
static int parse_call_id(struct parser *ps, enum kind kind)
{
	struct node nd = { .kind = kind };

	next(ps);
	if (expect(ps, '(', "'(' expected"))
		return -1;
	if (ps->tok != T_ID)
		return syntax(ps, "an event name expected");
	nd.s = add_str(ps, ps->str);
	ps->str = NULL;
	if (nd.s < 0)
		return -1;
	next(ps);
	if (expect(ps, ')', "')' expected"))
		return -1;
	return add_node(ps, nd);
}

static int parse_primary(struct parser *ps)
{
	struct node nd = { .kind = N_NUM };
	unsigned int i;
	int r;

	switch (ps->tok) {
	case T_NUM:
		nd.num = ps->num;
		next(ps);
		return add_node(ps, nd);
	case T_LIT:
		for (i = 0; i < ARRAY_SIZE(literals); i++) {
			if (literals[i].anycase ? !strcasecmp(ps->str, literals[i].name) :
			    !strcmp(ps->str, literals[i].name))
				break;
		}
		if (i == ARRAY_SIZE(literals))
			return syntax(ps, "unknown literal");
		nd.kind = N_LIT;
		nd.s = (int)i;
		next(ps);
		return add_node(ps, nd);
	case T_ID:
		nd.kind = N_ID;
		nd.s = add_str(ps, ps->str);
		ps->str = NULL;
		if (nd.s < 0)
			return -1;
		next(ps);
		return add_node(ps, nd);
	case T_SRC:
		return parse_call_id(ps, N_SRC);
	case T_HAS:
		return parse_call_id(ps, N_HAS);
	case T_CPUID:
		return parse_call_id(ps, N_CPUID);
	case T_DRATIO:
		return parse_call2(ps, N_DRATIO);
	case T_MIN:
		return parse_call2(ps, N_MIN);
	case T_MAX:
		return parse_call2(ps, N_MAX);
	case '-':	/* '-' expr %prec NEG: tighter than every binary operator */
		next(ps);
		nd.kind = N_NEG;
		nd.a = parse_expr(ps, 7);
		return nd.a < 0 ? -1 : add_node(ps, nd);
	case '(':
		next(ps);
		r = parse_if(ps);
		if (r < 0 || expect(ps, ')', "')' expected"))
			return -1;
		return r;
	default:
		return syntax(ps, ps->tok == T_END ? "unexpected end" : "unexpected token");
	}
}

/* expr.y's %left lines, lowest first: | ^ & < > + - * / % */
static int prec(int tok)
{
	switch (tok) {
	case '|': return 1;
	case '^': return 2;
	case '&': return 3;
	case '<': case '>': return 4;
	case '+': case '-': return 5;
	case '*': case '/': case '%': return 6;
	default: return 0;
	}
}

static int parse_expr(struct parser *ps, int minprec)
{
	int lhs = parse_primary(ps);

	while (lhs >= 0 && prec(ps->tok) >= minprec) {
		struct node nd = { .kind = N_BIN, .op = (char)ps->tok, .a = lhs };

		next(ps);
		nd.b = parse_expr(ps, prec(nd.op) + 1);	/* left associative */
		if (nd.b < 0)
			return -1;
		lhs = add_node(ps, nd);
	}
	return lhs;
}

/* if_expr: expr IF expr ELSE if_expr | expr */
static int parse_if(struct parser *ps)
{
	struct node nd = { .kind = N_IF };

	nd.a = parse_expr(ps, 1);
	if (nd.a < 0 || ps->tok != T_IF)
		return nd.a;
	next(ps);
	nd.b = parse_expr(ps, 1);
	if (nd.b < 0 || expect(ps, T_ELSE, "'else' expected"))
		return -1;
	nd.c = parse_if(ps);
	if (nd.c < 0)
		return -1;
	return add_node(ps, nd);
}

static void mexpr_free(struct mexpr *e)
{
	int i;

	if (!e)
		return;
	for (i = 0; i < e->ns; i++) {
		free(e->s[i]);
		if (e->spell)
			free(e->spell[i]);
	}
	free(e->s);
	free(e->spell);
	free(e->res);
	free(e->idx);
	free(e->n);
	free(e->refused);
	free(e);
}

static int mexpr_parse(const char *name, const char *text, struct mexpr **out, char *err,
		       size_t errlen)
{
	struct parser ps = { .p = text, .text = text, .name = name, .err = err, .errlen = errlen };
	struct mexpr *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	ps.e = e;
	next(&ps);
	e->root = parse_if(&ps);
	if (e->root >= 0 && ps.tok != T_END)
		syntax(&ps, "unexpected token");
	free(ps.str);
	if (ps.ret || e->root < 0) {
		mexpr_free(e);
		return ps.ret ? ps.ret : -EINVAL;
	}
	*out = e;
	return 0;
}

/* ---- the set ------------------------------------------------------------ */

struct root {
	int def;
};

struct pmc_metrics {
	const struct pmc_pe_model *m;
	const struct pmc_metric_def *defs;
	struct pmc_metric_def *owned;	/* the model's definitions, when the set built them */
	unsigned int ndefs;
	struct pmc_metric_env env;
	char cpuid[64];
	struct mexpr **ex;		/* per definition, compiled on demand */
	struct mexpr **thr;		/* per definition: its MetricThreshold, for the roots */
	struct root *roots;
	unsigned int nroots;
	char **events;
	unsigned int nevents;
	const double *counts;		/* evaluation: this round's */
	double duration;
	int evalret;
};

static const char *const unit_pmus[] = { "cpu", "cpu_core", "cpu_atom" };

/* Events the cpu PMU has in sysfs for TSX (intel_tsx_events), qualified by IN_TX/IN_TXCP. */
static const char *const tsx_events[] = {
	"cycles-t", "cycles-ct", "tx-start", "tx-abort", "tx-commit", "tx-capacity-read",
	"tx-capacity-write", "tx-conflict", "el-start", "el-abort", "el-commit", "el-capacity-read",
	"el-capacity-write", "el-conflict",
};

/* perf's generic names pmcdrv's -e parser has (user/libpmc/events.c). */
static const char *const generic_events[] = {
	"instructions", "cycles", "cpu-cycles", "ref-cycles", "branches", "branch-instructions",
	"branch-misses", "cache-references", "cache-misses", "topdown-slots", "slots",
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

static bool in_list(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcasecmp(list[i], s))
			return true;
	}
	return false;
}

/*
 * What event name @id (perf's, after normalize()) of a metric of PMU @unit
 * is: 0 and its spelling for pmcdrv's -e in *@spell (malloc'd), or
 * -EOPNOTSUPP and why not in @why.  metricgroup__build_event_string() turns
 * "pmu@event,terms@mods" into "pmu/event,terms/mods", "event:mods" into
 * "event/.../mods"; pmcdrv's parser takes "event:mods" and "cpu/event,terms/:mods".
 */
static int classify(const struct pmc_pe_model *m, const char *id, unsigned int unit, char **spell,
		    char *why, size_t whylen)
{
	char name[128], terms[128] = "", pmu[32] = "", mods[16] = "";
	const char *at = strchr(id, '@'), *colon;
	const struct pmc_pe_event *pe;
	unsigned int u = unit;
	struct pmcdrv_event ev;
	size_t i;
	int n;

	if (at) {
		const char *rat = strrchr(id, '@'), *comma;

		if (rat == at || (size_t)(at - id) >= sizeof(pmu) || strlen(rat + 1) >= sizeof(mods))
			return pmc_error(-EOPNOTSUPP, why, whylen, "unknown event '%s'", id);
		memcpy(pmu, id, (size_t)(at - id));
		pmu[at - id] = '\0';
		strcpy(mods, rat + 1);
		comma = memchr(at + 1, ',', (size_t)(rat - at - 1));
		n = snprintf(name, sizeof(name), "%.*s", (int)((comma ? comma : rat) - at - 1), at + 1);
		if (comma)
			snprintf(terms, sizeof(terms), "%.*s", (int)(rat - comma - 1), comma + 1);
		for (u = 0; u < ARRAY_SIZE(unit_pmus) && strcmp(pmu, unit_pmus[u]); u++)
			;
		if (u == ARRAY_SIZE(unit_pmus) && !strncasecmp(pmu, "unc_", 4))
			return pmc_error(-EOPNOTSUPP, why, whylen, "'%s' is an uncore event", id);
		if (u == ARRAY_SIZE(unit_pmus))
			return pmc_error(-EOPNOTSUPP, why, whylen,
					 "'%s' is an event of the %s PMU, not a core counter", id, pmu);
	} else {
		colon = strchr(id, ':');
		n = snprintf(name, sizeof(name), "%.*s", (int)(colon ? colon - id : (int)strlen(id)), id);
		if (colon && strlen(colon + 1) < sizeof(mods))
			strcpy(mods, colon + 1);
	}
	if (n < 0 || (size_t)n >= sizeof(name))
		return pmc_error(-EOPNOTSUPP, why, whylen, "unknown event '%s'", id);
	for (i = 0; mods[i]; i++) {
		if (mods[i] == 'R')
			return pmc_error(-EOPNOTSUPP, why, whylen,
					 "'%s' asks for a retire latency (modifier R), which pmcdrv does not sample", id);
		if (mods[i] != 'u' && mods[i] != 'k')
			return pmc_error(-EOPNOTSUPP, why, whylen, "'%s': modifier '%c' is not pmcdrv's", id,
					 mods[i]);
	}
	/* terms inside pmu@...@: the ones pmcdrv's cpu/.../ takes */
	for (i = 0; terms[i];) {
		size_t k = strcspn(terms + i, "=,");

		if (!((k == 5 && (!strncmp(terms + i, "cmask", 5) || !strncmp(terms + i, "umask", 5))) ||
		      (k == 3 && !strncmp(terms + i, "inv", 3)) || (k == 4 && !strncmp(terms + i, "edge", 4))))
			return pmc_error(-EOPNOTSUPP, why, whylen, "'%s': term '%.*s' is not pmcdrv's", id,
					 (int)k, terms + i);
		i += strcspn(terms + i, ",");
		i += terms[i] == ',';
	}
	if (in_list(tsx_events, ARRAY_SIZE(tsx_events), name))
		return pmc_error(-EOPNOTSUPP, why, whylen,
				 "'%s' is a TSX event (in_tx/in_tx_cp bits), which pmcdrv does not program", id);
	if (!strcasecmp(name, "tsc"))
		return pmc_error(-EOPNOTSUPP, why, whylen,
				 "'%s' is the msr PMU's time-stamp counter (msr/tsc/), not a core counter", id);
	if (!strncasecmp(name, "unc_", 4))
		return pmc_error(-EOPNOTSUPP, why, whylen, "'%s' is an uncore event", id);
	if (!in_list(generic_events, ARRAY_SIZE(generic_events), name)) {
		pe = m ? pmc_pe_event_find(m, name, (enum pmc_pe_unit)u) : NULL;
		if (!pe && m && !at && u != PMC_PE_CPU)
			pe = pmc_pe_event_find(m, name, PMC_PE_CPU);
		if (!pe)
			return pmc_error(-EOPNOTSUPP, why, whylen, "unknown event '%s'", id);
		if (pmc_pe_event_encode(pe, &ev))
			return pmc_error(-EOPNOTSUPP, why, whylen,
					 "'%s' needs %s, which pmcdrv does not program", id,
					 (pe->flags & PMC_PE_ANY) ? "AnyThread" :
					 pe->msr ? "a PEBS or front-end extra register" :
					 "an extended event select");
	}
	if (u == PMC_PE_CPU && !terms[0])
		n = asprintf(spell, "%s%s%s", name, mods[0] ? ":" : "", mods);
	else
		n = asprintf(spell, "%s/%s%s%s/%s%s", unit_pmus[u], name, terms[0] ? "," : "", terms,
			     mods[0] ? ":" : "", mods);
	return n < 0 ? -ENOMEM : 0;
}

/*
 * The match of metricgroup.c's match_metric(): @sought, any case, is one of
 * the ';'-separated names of @names, or "all"; a metric without groups is in
 * "No_group".
 */
static bool match_names(const char *names, const char *sought, size_t len)
{
	const char *p;

	if (len == 3 && !strncmp(sought, "all", 3))
		return true;
	if (!names || !*names)
		return len == 8 && !strncasecmp(sought, "No_group", 8);
	for (p = names; p; p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL) {
		if (!strncasecmp(p, sought, len) && (p[len] == '\0' || p[len] == ';'))
			return true;
	}
	return false;
}

/* The definition named @name (any case) for PMU @unit, as metricgroup__find_metric(); -1: none. */
static int find_def(const struct pmc_metrics *ms, const char *name, unsigned int unit)
{
	unsigned int i;

	for (i = 0; i < ms->ndefs; i++) {
		if (ms->defs[i].unit == unit && !strcasecmp(ms->defs[i].name, name))
			return (int)i;
	}
	return -1;
}

/* ---- the "compute_ids" pass of expr.y: which names an expression needs --- */

/* A value, or BOTTOM (NaN: any value), and the names it needs (NULL: none). */
struct cval {
	double val;
	bool *ids;
};

static bool is_const(double v)
{
	return isfinite(v);
}

static bool zero(double v)
{
	return fpclassify(v) == FP_ZERO;
}

struct cctx {
	const struct mexpr *e;
	const struct pmc_metrics *ms;
	unsigned int unit;
	int ret;
};

static struct cval cunion(const struct cctx *c, struct cval x, struct cval y)
{
	struct cval r = { NAN, x.ids ? x.ids : y.ids };
	int i;

	if (x.ids && y.ids) {
		for (i = 0; i < c->e->ns; i++)
			x.ids[i] |= y.ids[i];
		free(y.ids);
	}
	return r;
}

static struct cval cconst(double v)
{
	struct cval r = { v, NULL };

	return r;
}

static struct cval cids(struct cctx *c, const struct node *nd)
{
	const struct mexpr *e = c->e;
	struct cval a, b, k, r = { NAN, NULL };

	switch (nd->kind) {
	case N_NUM:
		return cconst(nd->num);
	case N_LIT:
		return cconst(lit_value(&c->ms->env, nd->s));
	case N_HAS:
	case N_CPUID:
		return cconst(nd->num);
	case N_ID:
	case N_SRC:
		r.ids = calloc((size_t)e->ns, sizeof(bool));
		if (!r.ids)
			c->ret = -ENOMEM;
		else
			r.ids[nd->s] = true;
		return r;
	case N_NEG:
		a = cids(c, &e->n[nd->a]);
		a.val = -a.val;
		return a;
	case N_MIN:
	case N_MAX:
		return cunion(c, cids(c, &e->n[nd->a]), cids(c, &e->n[nd->b]));
	case N_IF:
		a = cids(c, &e->n[nd->a]);
		k = cids(c, &e->n[nd->b]);
		b = cids(c, &e->n[nd->c]);
		if (zero(k.val)) {		/* false: the else part only */
			free(a.ids);
			free(k.ids);
			return b;
		}
		if (is_const(k.val)) {		/* a true constant: the if part only */
			free(k.ids);
			free(b.ids);
			return a;
		}
		if (a.val == b.val) {		/* the same constant either way */
			free(a.ids);
			free(k.ids);
			free(b.ids);
			return cconst(a.val);
		}
		return cunion(c, a, cunion(c, k, b));
	case N_DRATIO:
		a = cids(c, &e->n[nd->a]);
		b = cids(c, &e->n[nd->b]);
		if (zero(b.val)) {		/* by a constant 0: 0, no events */
			free(a.ids);
			return cconst(0.0);
		}
		if (is_const(a.val) && is_const(b.val))
			return cconst(a.val / b.val);
		return cunion(c, a, b);
	default:
		break;
	}
	/* N_BIN */
	a = cids(c, &e->n[nd->a]);
	b = cids(c, &e->n[nd->b]);
	switch (nd->op) {
	case '|':
	case '&': {
		bool is_or = nd->op == '|';

		if (is_const(a.val) && is_const(b.val))
			return cconst(is_or ? !(zero(a.val) && zero(b.val)) : !zero(a.val) && !zero(b.val));
		if (is_const(a.val) || is_const(b.val)) {
			struct cval kk = is_const(a.val) ? a : b, other = is_const(a.val) ? b : a;

			if (zero(kk.val) == is_or)	/* 0 | x, 1 & x: x */
				return other;
			free(other.ids);
			return cconst(is_or ? 1 : 0);
		}
		return cunion(c, a, b);
	}
	case '^':
		if (is_const(a.val) && is_const(b.val))
			return cconst(zero(a.val) != zero(b.val));
		return cunion(c, a, b);
	case '/':
		if (zero(b.val)) {		/* division by zero: NAN, no events */
			free(a.ids);
			return cconst(NAN);
		}
		if (is_const(a.val) && is_const(b.val))
			return cconst(a.val / b.val);
		return cunion(c, a, b);
	case '%':
		if (zero(b.val)) {		/* expr.y aborts the parse */
			free(a.ids);
			c->ret = -EDOM;
			return cconst(NAN);
		}
		if (is_const(a.val) && is_const(b.val)) {
			if (!(long)b.val) {
				c->ret = -EDOM;
				return cconst(NAN);
			}
			return cconst((double)((long)a.val % (long)b.val));
		}
		return cunion(c, a, b);
	default:
		if (!is_const(a.val) || !is_const(b.val))
			return cunion(c, a, b);
		switch (nd->op) {
		case '<': return cconst(a.val < b.val);
		case '>': return cconst(a.val > b.val);
		case '+': return cconst(a.val + b.val);
		case '-': return cconst(a.val - b.val);
		default: return cconst(a.val * b.val);
		}
	}
}

/* has_event(X): does X parse here?  For pmcdrv: is it an event pmcdrv counts. */
static double has_event(const struct pmc_metrics *ms, const char *id, unsigned int unit)
{
	char why[8], *spell = NULL;
	int ret = classify(ms->m, id, unit, &spell, why, sizeof(why));

	free(spell);
	return ret ? 0.0 : 1.0;
}

/* The first reason found is kept: "why" or "why (in metric)". */
static void set_refused(struct mexpr *e, const char *why, const char *in)
{
	if (!e->refused && asprintf(&e->refused, "%s%s%s%s", why, in ? " (in " : "", in ? in : "",
				    in ? ")" : "") < 0)
		e->refused = NULL;
}

/*
 * Parse definition @d and reduce it to what it needs (metricgroup.c's
 * __add_metric() and resolve_metric()): events, duration_time, and other
 * metrics, compiled in turn.  A metric met again while it is being compiled
 * is a cycle (perf's "recursion detected").
 */
static int compile(struct pmc_metrics *ms, int d, char *err, size_t errlen);

/* compile() of @text, definition @d's expression or threshold, into *@slot. */
static int compile_text(struct pmc_metrics *ms, int d, const char *text, struct mexpr **slot,
			char *err, size_t errlen)
{
	const struct pmc_metric_def *def = &ms->defs[d];
	struct cctx c = { .ms = ms, .unit = def->unit };
	struct mexpr *e = *slot;
	struct cval r;
	char why[256];
	int i, ret;

	if (e && e->state == 2)
		return 0;
	if (e)
		return pmc_error(-ELOOP, err, errlen, "metric %s references itself (through other metrics)",
				 def->name);
	ret = mexpr_parse(def->name, text, &e, err, errlen);
	if (ret)
		return ret;
	*slot = e;
	e->state = 1;
	e->res = calloc((size_t)e->ns + 1, 1);
	e->idx = calloc((size_t)e->ns + 1, sizeof(int));
	e->spell = calloc((size_t)e->ns + 1, sizeof(char *));
	if (!e->res || !e->idx || !e->spell)
		return -ENOMEM;
	for (i = 0; i < e->nn; i++) {
		struct node *nd = &e->n[i];

		if (nd->kind == N_HAS)
			nd->num = has_event(ms, e->s[nd->s], def->unit);
		else if (nd->kind == N_CPUID)
			nd->num = ms->cpuid[0] && pmc_pe_cpuid_matches(e->s[nd->s], ms->cpuid) ? 1.0 : 0.0;
		else if (nd->kind == N_LIT && isnan(lit_value(&ms->env, nd->s)))
			return pmc_error(-EINVAL, err, errlen, "metric %s: %s has no value here", def->name,
					 literals[nd->s].name);
	}
	c.e = e;
	r = cids(&c, &e->n[e->root]);
	if (c.ret) {
		free(r.ids);
		return c.ret == -EDOM ? pmc_error(-EINVAL, err, errlen, "metric %s: '%%' by zero", def->name) :
			c.ret;
	}
	for (i = 0; r.ids && i < e->ns; i++) {
		int ref;

		if (!r.ids[i])
			continue;
		ref = find_def(ms, e->s[i], def->unit);
		if (ref >= 0) {
			e->res[i] = R_REF;
			e->idx[i] = ref;
			ret = compile(ms, ref, err, errlen);
			if (ret) {
				free(r.ids);
				return ret;
			}
			if (ms->ex[ref]->refused)
				set_refused(e, ms->ex[ref]->refused, ms->defs[ref].name);
			e->dur |= ms->ex[ref]->dur;
		} else if (!strcmp(e->s[i], "duration_time")) {
			e->res[i] = R_TOOL;
			e->dur = true;
		} else if (classify(ms->m, e->s[i], def->unit, &e->spell[i], why, sizeof(why))) {
			set_refused(e, why, NULL);
		} else {
			e->res[i] = R_EVENT;
		}
	}
	free(r.ids);
	e->state = 2;
	return 0;
}

static int compile(struct pmc_metrics *ms, int d, char *err, size_t errlen)
{
	return compile_text(ms, d, ms->defs[d].expr, &ms->ex[d], err, errlen);
}

/* The set's event of perf's spelling @spell: its index, or -1. */
static int find_event(const struct pmc_metrics *ms, const char *spell)
{
	unsigned int i;

	for (i = 0; i < ms->nevents; i++) {
		if (!strcmp(ms->events[i], spell))
			return (int)i;
	}
	return -1;
}

/*
 * Thresholds add no event to the set (an event more can make the others
 * take turns on the counters): does the set count every event @e needs,
 * itself and through the metrics it references?  Their indexes are set on
 * the way; e->counted remembers the answer.
 */
static bool counted(struct pmc_metrics *ms, struct mexpr *e)
{
	int i, k;

	if (e->counted)
		return e->counted > 0;
	e->counted = -1;	/* no cycle reaches here: compile() refuses them */
	if (e->refused)
		return false;
	for (i = 0; i < e->ns; i++) {
		if (e->res[i] == R_EVENT) {
			k = find_event(ms, e->spell[i]);
			if (k < 0)
				return false;
			e->idx[i] = k;
		} else if (e->res[i] == R_REF && !counted(ms, ms->ex[e->idx[i]])) {
			return false;
		}
	}
	e->counted = 1;
	return true;
}

/*
 * Root @d's MetricThreshold, compiled over what the set counts: a name it
 * needs beyond that is not a number when evaluated (as a name perf cannot
 * resolve), so "a > 0.7 | b > 0.1" still decides when a alone does; so is
 * one refused here.  A threshold that does not compile is left out (none).
 */
static int compile_threshold(struct pmc_metrics *ms, int d)
{
	const char *text = ms->defs[d].threshold;
	struct mexpr *e;
	char err[256];
	int i, k, ret;

	if (!text || !*text || ms->thr[d])
		return 0;
	ret = compile_text(ms, d, text, &ms->thr[d], err, sizeof(err));
	if (ret == -ENOMEM)
		return ret;
	e = ms->thr[d];
	if (ret) {
		mexpr_free(e);
		ms->thr[d] = NULL;
		return 0;
	}
	/* a refused metric or event it names is not a number, as one not counted */
	for (i = 0; i < e->ns; i++) {
		if (e->res[i] == R_EVENT) {
			k = find_event(ms, e->spell[i]);
			if (k < 0)
				e->res[i] = R_NONE;
			else
				e->idx[i] = k;
		} else if (e->res[i] == R_REF) {
			counted(ms, ms->ex[e->idx[i]]);
		}
	}
	return 0;
}

static int add_event(struct pmc_metrics *ms, const char *spell)
{
	int i = find_event(ms, spell);
	char **ev;

	if (i >= 0)
		return i;
	ev = realloc(ms->events, (ms->nevents + 1) * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ms->events = ev;
	ev[ms->nevents] = strdup(spell);
	if (!ev[ms->nevents])
		return -ENOMEM;
	return (int)ms->nevents++;
}

/* The events of @d and of the metrics it references, into the set's list. */
static int collect(struct pmc_metrics *ms, int d, unsigned char *seen)
{
	struct mexpr *e = ms->ex[d];
	int i, r;

	if (seen[d])
		return 0;
	seen[d] = 1;
	for (i = 0; i < e->ns; i++) {
		if (e->res[i] == R_EVENT) {
			r = add_event(ms, e->spell[i]);
			if (r < 0)
				return r;
			e->idx[i] = r;
		} else if (e->res[i] == R_REF) {
			r = collect(ms, e->idx[i], seen);
			if (r)
				return r;
		}
	}
	return 0;
}

static int add_root(struct pmc_metrics *ms, int d)
{
	struct root *r;
	unsigned int i;

	for (i = 0; i < ms->nroots; i++) {
		if (ms->roots[i].def == d)
			return 0;
	}
	r = realloc(ms->roots, (ms->nroots + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	ms->roots = r;
	r = &r[ms->nroots++];
	r->def = d;
	return 0;
}

void pmc_metrics_close(struct pmc_metrics *ms)
{
	unsigned int i;

	if (!ms)
		return;
	for (i = 0; ms->ex && i < ms->ndefs; i++)
		mexpr_free(ms->ex[i]);
	for (i = 0; ms->thr && i < ms->ndefs; i++)
		mexpr_free(ms->thr[i]);
	free(ms->thr);
	for (i = 0; i < ms->nevents; i++)
		free(ms->events[i]);
	free(ms->events);
	free(ms->ex);
	free(ms->roots);
	free(ms->owned);
	free(ms);
}

int pmc_metrics_open_defs(const struct pmc_pe_model *m, const struct pmc_metric_def *defs,
			  unsigned int n, const char *list, const struct pmc_metric_env *env,
			  struct pmc_metrics **out, char *err, size_t errlen)
{
	struct pmc_metrics *ms = calloc(1, sizeof(*ms));
	unsigned char *seen = NULL;
	const char *p = list;
	unsigned int i;
	int ret = 0;

	if (!ms)
		return -ENOMEM;
	ms->m = m;
	ms->defs = defs;
	ms->ndefs = n;
	ms->env = *env;
	if (env->cpuid)
		snprintf(ms->cpuid, sizeof(ms->cpuid), "%s", env->cpuid);
	ms->ex = calloc(n ? n : 1, sizeof(*ms->ex));
	ms->thr = calloc(n ? n : 1, sizeof(*ms->thr));
	seen = calloc(n ? n : 1, 1);
	if (!ms->ex || !ms->thr || !seen) {
		ret = -ENOMEM;
		goto fail;
	}
	if (!*list) {
		ret = pmc_error(-EINVAL, err, errlen, "empty metric list");
		goto fail;
	}
	/* each name of the list: the metrics of that name or group (metricgroup__add_metric()) */
	while (*p) {
		size_t len = strcspn(p, ",");
		bool found = false;

		for (i = 0; i < n; i++) {
			if (!match_names(defs[i].groups, p, len) && !match_names(defs[i].name, p, len))
				continue;
			found = true;
			ret = compile(ms, (int)i, err, errlen);
			if (!ret)
				ret = add_root(ms, (int)i);
			if (ret)
				goto fail;
		}
		if (!found) {
			ret = pmc_error(-EINVAL, err, errlen,
					"no metric or metric group '%.*s' for this model (see pmcctl list --metrics)",
					(int)len, p);
			goto fail;
		}
		p += len;
		if (*p == ',' && !*++p) {
			ret = pmc_error(-EINVAL, err, errlen, "empty name at the end of the metric list");
			goto fail;
		}
	}
	for (i = 0; i < ms->nroots; i++) {
		if (!ms->ex[ms->roots[i].def]->refused) {
			ret = collect(ms, ms->roots[i].def, seen);
			if (ret)
				goto fail;
		}
	}
	/* after every root's events: a threshold reads only those */
	for (i = 0; i < ms->nroots; i++) {
		if (!ms->ex[ms->roots[i].def]->refused) {
			ret = compile_threshold(ms, ms->roots[i].def);
			if (ret)
				goto fail;
		}
	}
	free(seen);
	*out = ms;
	return 0;
fail:
	free(seen);
	pmc_metrics_close(ms);
	return ret;
}

static void pe_def(const struct pmc_pe_metric *pm, struct pmc_metric_def *d)
{
	d->name = pmc_pe_str(pm->name);
	d->expr = pmc_pe_str(pm->expr);
	d->groups = pmc_pe_str(pm->groups);
	d->scale_unit = pmc_pe_str(pm->scale_unit);
	d->desc = pmc_pe_str(pm->desc);
	d->threshold = pmc_pe_str(pm->threshold);
	d->unit = pm->unit;
	d->grouping = pm->grouping;
}

/* The model's metrics as definitions (one array the set owns). */
static int model_defs(const struct pmc_pe_model *m, struct pmc_metric_def **out)
{
	struct pmc_metric_def *d = calloc(m->nr_metrics ? m->nr_metrics : 1, sizeof(*d));
	unsigned int i;

	if (!d)
		return -ENOMEM;
	for (i = 0; i < m->nr_metrics; i++)
		pe_def(&pmc_pe_metrics[m->first_metric + i], &d[i]);
	*out = d;
	return 0;
}

static const struct pmc_pe_model *find_model(const char *cpuid)
{
	return cpuid ? pmc_pe_model_find(cpuid) : pmc_pe_this_model();
}

int pmc_metrics_open(const char *cpuid, const char *list, const struct pmc_metric_env *env,
		     struct pmc_metrics **out, char *err, size_t errlen)
{
	const struct pmc_pe_model *m = find_model(cpuid);
	struct pmc_metric_env e = *env;
	struct pmcdrv_info info;
	char id[64] = "";

	if (!m)
		return pmc_error(-ENODEV, err, errlen,
				 "the kernel's data has no metrics for this CPU model%s%s", cpuid ? " " : "",
				 cpuid ? cpuid : "");
	if (!e.cpuid) {
		if (cpuid)
			e.cpuid = cpuid;
		else if (secure_getenv("PMCDRV_FORCE_CPUID"))
			e.cpuid = secure_getenv("PMCDRV_FORCE_CPUID");
		else if (!pmc_cpuid_info(&info, NULL) && !pmc_pe_cpuid_str(&info, id, sizeof(id)))
			e.cpuid = id;
	}
	return pmc_metrics_open_model(m, list, &e, out, err, errlen);
}

int pmc_metrics_open_model(const struct pmc_pe_model *m, const char *list,
			   const struct pmc_metric_env *env, struct pmc_metrics **out, char *err,
			   size_t errlen)
{
	struct pmc_metric_def *defs;
	int ret = model_defs(m, &defs);

	if (ret)
		return ret;
	ret = pmc_metrics_open_defs(m, defs, m->nr_metrics, list, env, out, err, errlen);
	if (ret)
		free(defs);
	else
		(*out)->owned = defs;
	return ret;
}

unsigned int pmc_metrics_nr_events(const struct pmc_metrics *ms)
{
	return ms->nevents;
}

const char *pmc_metrics_event(const struct pmc_metrics *ms, unsigned int i)
{
	return i < ms->nevents ? ms->events[i] : NULL;
}

unsigned int pmc_metrics_nr(const struct pmc_metrics *ms)
{
	return ms->nroots;
}

static void def_info(const struct pmc_metric_def *d, struct pmc_metric_info *mi)
{
	char *end;

	memset(mi, 0, sizeof(*mi));
	mi->name = d->name;
	mi->groups = d->groups;
	mi->desc = d->desc;
	mi->expr = d->expr;
	mi->pmu = d->unit < ARRAY_SIZE(unit_pmus) ? unit_pmus[d->unit] : "?";
	/* perf_pmu__convert_scale(): the number, then the unit */
	mi->scale = strtod(d->scale_unit, &end);
	mi->unit = end;
	if (end == d->scale_unit)
		mi->scale = 1.0;
}

int pmc_metrics_info(const struct pmc_metrics *ms, unsigned int i, struct pmc_metric_info *mi)
{
	const struct mexpr *e;

	if (i >= ms->nroots)
		return -ERANGE;
	def_info(&ms->defs[ms->roots[i].def], mi);
	e = ms->ex[ms->roots[i].def];
	mi->refused = e->refused;
	mi->duration_time = e->dur;
	return 0;
}

static bool uses(const struct pmc_metrics *ms, int d, int ev, unsigned char *seen)
{
	const struct mexpr *e = ms->ex[d];
	int i;

	if (seen[d] || !e || e->refused)
		return false;
	seen[d] = 1;
	for (i = 0; i < e->ns; i++) {
		if (e->res[i] == R_EVENT && e->idx[i] == ev)
			return true;
		if (e->res[i] == R_REF && uses(ms, e->idx[i], ev, seen))
			return true;
	}
	return false;
}

int pmc_metrics_grouping(const struct pmc_metrics *ms, unsigned int i)
{
	if (i >= ms->nroots)
		return -ERANGE;
	return (int)ms->defs[ms->roots[i].def].grouping;
}

int pmc_metrics_uses(const struct pmc_metrics *ms, unsigned int i, unsigned int ev)
{
	unsigned char *seen;
	bool r;

	if (i >= ms->nroots || ev >= ms->nevents)
		return -ERANGE;
	seen = calloc(ms->ndefs, 1);
	if (!seen)
		return -ENOMEM;
	r = uses(ms, ms->roots[i].def, (int)ev, seen);
	free(seen);
	return r;
}

/* ---- evaluation: expr.y without compute_ids ------------------------------ */

static double eval_def(struct pmc_metrics *ms, int d);

static double eval_node(struct pmc_metrics *ms, const struct mexpr *e, int ni)
{
	const struct node *nd = &e->n[ni];
	double a, b, k;

	switch (nd->kind) {
	case N_NUM:
	case N_HAS:
	case N_CPUID:
		return nd->num;
	case N_LIT:
		return lit_value(&ms->env, nd->s);
	case N_ID:
	case N_SRC:
		/* a name not found (not needed, or refused) is NAN, as in expr.y's handle_id() */
		switch (e->res[nd->s]) {
		case R_EVENT:
			return nd->kind == N_SRC ? 1.0 : ms->counts[e->idx[nd->s]];
		case R_TOOL:
			return nd->kind == N_SRC ? 1.0 : ms->duration;
		case R_REF:
			/* a threshold's metric whose events the set does not count: unknown */
			if (nd->kind == N_SRC || ms->ex[e->idx[nd->s]]->counted < 0)
				return NAN;
			return eval_def(ms, e->idx[nd->s]);
		default:
			return NAN;
		}
	case N_NEG:
		return -eval_node(ms, e, nd->a);
	case N_IF:
		a = eval_node(ms, e, nd->a);
		k = eval_node(ms, e, nd->b);
		b = eval_node(ms, e, nd->c);
		return zero(k) ? b : a;
	case N_MIN:
		a = eval_node(ms, e, nd->a);
		b = eval_node(ms, e, nd->b);
		return a < b ? a : b;
	case N_MAX:
		a = eval_node(ms, e, nd->a);
		b = eval_node(ms, e, nd->b);
		return a > b ? a : b;
	case N_DRATIO:
		a = eval_node(ms, e, nd->a);
		b = eval_node(ms, e, nd->b);
		return zero(b) ? 0.0 : a / b;
	default:
		break;
	}
	a = eval_node(ms, e, nd->a);
	b = eval_node(ms, e, nd->b);
	switch (nd->op) {
	case '|':
	case '&': {
		bool is_or = nd->op == '|';

		if (is_const(a) && is_const(b))
			return is_or ? !(zero(a) && zero(b)) : !zero(a) && !zero(b);
		if (is_const(a) || is_const(b)) {
			double kk = is_const(a) ? a : b, other = is_const(a) ? b : a;

			if (zero(kk) == is_or)
				return other;
			return is_or ? 1 : 0;
		}
		return NAN;
	}
	case '^':
		return is_const(a) && is_const(b) ? zero(a) != zero(b) : NAN;
	case '/':
		return zero(b) ? NAN : a / b;
	case '%':
		if (isnan(a) || isnan(b))
			return NAN;
		if (zero(b) || !(long)b) {
			ms->evalret = -EDOM;
			return NAN;
		}
		return (double)((long)a % (long)b);
	default:
		if (isnan(a) || isnan(b))
			return NAN;
		switch (nd->op) {
		case '<': return a < b;
		case '>': return a > b;
		case '+': return a + b;
		case '-': return a - b;
		default: return a * b;
		}
	}
}

/* A referenced metric, once per evaluation (expr.c's EXPR_ID_DATA__REF_VALUE). */
static double eval_def(struct pmc_metrics *ms, int d)
{
	struct mexpr *e = ms->ex[d];

	if (!e->evals) {
		e->evals = true;
		e->val = eval_node(ms, e, e->root);
	}
	return e->val;
}

/* A new round of evaluation over @counts: no metric's value is cached. */
static void eval_round(struct pmc_metrics *ms, const double *counts, double duration_s)
{
	unsigned int d;

	for (d = 0; d < ms->ndefs; d++) {
		if (ms->ex[d])
			ms->ex[d]->evals = false;
	}
	ms->counts = counts;
	ms->duration = duration_s;
	ms->evalret = 0;
}

int pmc_metrics_eval(struct pmc_metrics *ms, unsigned int i, const double *counts,
		     double duration_s, double *value)
{
	struct mexpr *e;

	if (i >= ms->nroots)
		return -ERANGE;
	e = ms->ex[ms->roots[i].def];
	if (e->refused)
		return -EOPNOTSUPP;
	eval_round(ms, counts, duration_s);
	*value = eval_def(ms, ms->roots[i].def);
	return ms->evalret;
}

const char *pmc_metrics_threshold_expr(const struct pmc_metrics *ms, unsigned int i)
{
	if (i >= ms->nroots || !ms->thr[ms->roots[i].def])
		return NULL;
	return ms->defs[ms->roots[i].def].threshold;
}

int pmc_metrics_threshold(struct pmc_metrics *ms, unsigned int i, const double *counts,
			  double duration_s)
{
	const struct mexpr *t;
	double v;

	if (i >= ms->nroots)
		return -ERANGE;
	t = ms->thr[ms->roots[i].def];
	if (!t)
		return -ENODATA;
	eval_round(ms, counts, duration_s);
	v = eval_node(ms, t, t->root);
	if (ms->evalret || isnan(v))
		return -EDOM;
	return !zero(v);
}

int pmc_metric_list(const char *cpuid, pmc_metric_fn fn, void *arg)
{
	const struct pmc_pe_model *m = find_model(cpuid);
	struct pmc_metric_def d;
	struct pmc_metric_info mi;
	unsigned int i;
	int ret;

	if (!m)
		return -ENODEV;
	for (i = 0; i < m->nr_metrics; i++) {
		pe_def(&pmc_pe_metrics[m->first_metric + i], &d);
		def_info(&d, &mi);
		ret = fn(&mi, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the literals' values on this machine (expr.c, smt.c, tsc.c) ------- */

static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* How many different values file @what of the online CPUs' topology has (perf's *_cpus_lists). */
static double distinct_lists(const char *what, long ncpus)
{
	char (*seen)[128] = calloc((size_t)ncpus, sizeof(*seen));
	char path[128], buf[128], online[8];
	long cpu, n = 0, j;

	if (!seen)
		return NAN;
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/online", cpu);
		if (read_line(path, online, sizeof(online)) && online[0] == '0')
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%ld/topology/%s", cpu, what);
		if (!read_line(path, buf, sizeof(buf)))
			continue;
		for (j = 0; j < n && strcmp(seen[j], buf); j++)
			;
		if (j == n)
			strcpy(seen[n++], buf);
	}
	free(seen);
	return (double)n;
}

static double tsc_freq(void)
{
	unsigned int a, b, c, d;
	FILE *f;
	char line[512];
	double ghz = 0;

	/* CPUID leaf 0x15 when it enumerates the TSC, else the model name's "@ x.xxGHz" */
	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid_count(0x15, 0, a, b, c, d);
		(void)d;
		if (a && b && c)
			return (double)c * (double)b / (double)a;
	}
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f)) {
		const char *at = strstr(line, " @ ");

		if (!strncmp(line, "model name", 10) && at && sscanf(at, " @ %lfGHz", &ghz) == 1)
			break;
		ghz = 0;
	}
	fclose(f);
	return ghz * 1e9;
}

void pmc_metric_env_init(struct pmc_metric_env *env, bool system_wide)
{
	char buf[256];
	long conf = sysconf(_SC_NPROCESSORS_CONF), v;
	const char *p;

	memset(env, 0, sizeof(*env));
	if (read_line("/sys/devices/system/cpu/smt/active", buf, sizeof(buf)))
		env->smt_on = atoi(buf) == 1;
	else if (read_line("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", buf, sizeof(buf)))
		env->smt_on = strpbrk(buf, ",-") != NULL;
	/* core_wide: system-wide and every CPU (pmcctl stat -a counts them all) */
	env->core_wide = system_wide;
	env->num_cpus = (double)conf;
	if (read_line("/sys/devices/system/cpu/present", buf, sizeof(buf))) {
		p = buf + strlen(buf);
		while (p > buf && isdigit((unsigned char)p[-1]))
			p--;
		v = atol(p);
		env->num_cpus = (double)(v + 1);
	}
	env->num_cpus_online = (double)sysconf(_SC_NPROCESSORS_ONLN);
	env->num_cores = distinct_lists("core_cpus_list", conf);
	env->num_dies = distinct_lists("die_cpus_list", conf);
	env->num_packages = distinct_lists("package_cpus_list", conf);
	env->slots = read_line("/sys/bus/event_source/devices/cpu/caps/slots", buf, sizeof(buf)) ?
		     atof(buf) : NAN;
	env->system_tsc_freq = tsc_freq();
	env->has_pmem = access("/sys/firmware/acpi/tables/NFIT", F_OK) == 0;
}
