// SPDX-License-Identifier: GPL-2.0
/* pmcctl report: saved run/stat JSON outputs merged into one table per rank. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"
#include "merge.h"
#include "output.h"

/* One value of one file before the merge. */
struct item {
	char *region;		/* NULL: the whole run */
	char *name;
	enum merge_kind kind;
	double v;
	bool counted;		/* false: "<not counted>" */
};

struct parsed {
	struct item *it;
	unsigned int n, cap;
};

static bool streq0(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Add @v to the file's item (@region, @name, @kind), a new one if it has none yet. */
static int item_add(struct parsed *p, const char *region, const char *name, enum merge_kind kind, double v,
		    bool counted)
{
	struct item *it;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		it = &p->it[i];
		if (it->kind == kind && streq0(it->region, region) && !strcmp(it->name, name)) {
			it->v += v;
			it->counted = it->counted && counted;
			return 0;
		}
	}
	if (p->n == p->cap) {
		unsigned int cap = p->cap ? 2 * p->cap : 16;
		struct item *n = realloc(p->it, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->it = n;
		p->cap = cap;
	}
	it = &p->it[p->n];
	it->region = region ? strdup(region) : NULL;
	it->name = strdup(name);
	if (!it->name || (region && !it->region)) {
		free(it->region);
		free(it->name);
		return -ENOMEM;
	}
	it->kind = kind;
	it->v = v;
	it->counted = counted;
	p->n++;
	return 0;
}

static void parsed_free(struct parsed *p)
{
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		free(p->it[i].region);
		free(p->it[i].name);
	}
	free(p->it);
	memset(p, 0, sizeof(*p));
}

/* A metric-value / metric-unit pair of @o as a metric of @region; 0 if @o has none. */
static int add_metric(struct parsed *p, json_object *o, const char *region)
{
	const char *unit = jr_str(o, "metric-unit");
	double v;

	if (!unit || !jr_num(o, "metric-value", &v))
		return 0;
	return item_add(p, region, unit, MERGE_METRIC, v, true);
}

/* A region object: its calls, msec, events and top-down metrics. */
static int add_region(struct parsed *p, json_object *o, const char *region)
{
	json_object *arr, *e;
	const char *name;
	double v;
	size_t i;
	int ret = 0;

	if (jr_num(o, "calls", &v))
		ret = item_add(p, region, "calls", MERGE_REGION_STAT, v, true);
	if (!ret && jr_num(o, "msec", &v))
		ret = item_add(p, region, "msec", MERGE_REGION_STAT, v, true);
	arr = jr_get(o, "events");
	for (i = 0; !ret && arr && json_object_is_type(arr, json_type_array) &&
		    i < json_object_array_length(arr); i++) {
		e = json_object_array_get_idx(arr, i);
		name = jr_str(e, "event");
		if (name && jr_num(e, "counter-value", &v))
			ret = item_add(p, region, name, MERGE_EVENT, v, true);
	}
	arr = jr_get(o, "topdown");
	for (i = 0; !ret && arr && json_object_is_type(arr, json_type_array) &&
		    i < json_object_array_length(arr); i++)
		ret = add_metric(p, json_object_array_get_idx(arr, i), region);
	return ret;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* The identity object of 'pmcctl run' under an MPI launcher (mpi.h). */
static int add_identity(struct merge_input *in, json_object *o)
{
	const char *host = jr_str(o, "host"), *model = jr_str(o, "cpu-model");

	free(in->host);
	free(in->cpu_model);
	in->host = dup_or_null(host);
	in->cpu_model = dup_or_null(model);
	in->rank = jr_int(o, "rank");
	in->local_rank = jr_int(o, "local-rank");
	in->world_size = jr_int(o, "world-size");
	return (host && !in->host) || (model && !in->cpu_model) ? -ENOMEM : 0;
}

/* One line: what kind of object it is, and its values into @p. */
static int parse_object(struct merge_input *in, struct parsed *p, json_object *o, bool *known)
{
	const char *event = jr_str(o, "event"), *region = jr_str(o, "region");
	bool per_part = jr_get(o, "cpu") || jr_get(o, "interval");
	json_object *cv;
	double v;
	int ret;

	*known = true;
	if (region)
		return add_region(p, o, region);
	if (event) {
		cv = jr_get(o, "counter-value");
		if (cv && json_object_is_type(cv, json_type_string))
			ret = item_add(p, NULL, event, MERGE_EVENT, 0, false);	/* "<not counted>" */
		else if (jr_num(o, "counter-value", &v))
			ret = item_add(p, NULL, event, MERGE_EVENT, v, true);
		else
			return *known = false, 0;
		/* A ratio does not add up over CPUs or intervals: only a total's. */
		return ret ? ret : per_part ? 0 : add_metric(p, o, NULL);
	}
	if (jr_get(o, "rank-variable") && jr_get(o, "host"))
		return add_identity(in, o);
	if (jr_get(o, "metric-unit"))
		return per_part ? 0 : add_metric(p, o, NULL);
	*known = false;
	return 0;
}

static int parse_file(struct merge_input *in, struct parsed *p, char *err, size_t errlen)
{
	FILE *f = fopen(in->file, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int ln = 0, objects = 0;
	enum json_tokener_error jerr;
	json_object *o;
	bool known;
	int ret = 0;

	if (!f)
		return jr_fail(err, errlen, errno == ENOENT ? -ENOENT : -EIO, "%s: %s", in->file, strerror(errno));
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		ln++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		o = json_tokener_parse_verbose(line, &jerr);
		if (!o || !json_object_is_type(o, json_type_object)) {
			ret = jr_fail(err, errlen, -EINVAL, "%s:%u: not a JSON object (%s): give the output of "
				   "'pmcctl run -j' or 'pmcctl stat -j'", in->file, ln,
				   o ? "another JSON value" : json_tokener_error_desc(jerr));
			json_object_put(o);
			break;
		}
		ret = parse_object(in, p, o, &known);
		json_object_put(o);
		if (ret == -ENOMEM)
			jr_fail(err, errlen, ret, "out of memory");
		else if (!ret && !known)
			ret = jr_fail(err, errlen, -EINVAL, "%s:%u: a JSON object that is neither an event, a metric, "
				   "a region nor a rank's identity of 'pmcctl run -j' or 'pmcctl stat -j'",
				   in->file, ln);
		objects++;
	}
	if (!ret && ferror(f))
		ret = jr_fail(err, errlen, -EIO, "%s: %s", in->file, strerror(errno));
	if (!ret && !objects)
		ret = jr_fail(err, errlen, -EINVAL, "%s: empty: no counts in it", in->file);
	free(line);
	fclose(f);
	return ret;
}

static int note(struct merge *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int note(struct merge *m, const char *fmt, ...)
{
	char **n = realloc(m->notes, (m->n_notes + 1) * sizeof(*n));
	va_list ap;
	int k;

	if (!n)
		return -ENOMEM;
	m->notes = n;
	va_start(ap, fmt);
	k = vasprintf(&n[m->n_notes], fmt, ap);
	va_end(ap);
	if (k < 0)
		return -ENOMEM;
	m->n_notes++;
	return 0;
}

/* Append ", NAME" (or "NAME" first) to the growing string *s. */
static int list_add(char **s, const char *name)
{
	char *n;

	if (asprintf(&n, "%s%s%s", *s ? *s : "", *s ? ", " : "", name) < 0)
		return -ENOMEM;
	free(*s);
	*s = n;
	return 0;
}

static bool has_event(const struct parsed *p, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->it[i].kind == MERGE_EVENT && !p->it[i].region && !strcmp(p->it[i].name, name))
			return true;
	return false;
}

/* Is whole-run event @name in every file? */
static bool common_event(const struct parsed *p, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!has_event(&p[i], name))
			return false;
	return true;
}

/*
 * Events not in every file: dropped with a note per file, or refused with
 * @strict.  An event is known by its name; its region rows go with it.
 */
static int event_sets(struct merge *m, const struct parsed *p, bool strict, char *err, size_t errlen)
{
	unsigned int i, j;
	char *list;
	int ret = 0;

	for (i = 0; i < m->n_in && !ret; i++) {
		list = NULL;
		for (j = 0; j < p[i].n && !ret; j++)
			if (p[i].it[j].kind == MERGE_EVENT && !p[i].it[j].region &&
			    !common_event(p, m->n_in, p[i].it[j].name))
				ret = list_add(&list, p[i].it[j].name);
		if (!ret && list) {
			if (strict)
				ret = jr_fail(err, errlen, -EINVAL, "the files count different events: %s has %s, "
					   "which not every other file has (without --strict the report merges "
					   "the events all files have)", m->in[i].file, list);
			else
				ret = note(m, "merged on the events every file has: dropped %s of %s", list,
					   m->in[i].file);
		}
		free(list);
	}
	return ret;
}

/* Different CPU models (from the identity objects): a note, or refused with @strict. */
static int models(struct merge *m, bool strict, char *err, size_t errlen)
{
	const struct merge_input *first = NULL;
	char *list = NULL, *one;
	unsigned int i;
	bool differ = false;
	int ret = 0;

	for (i = 0; i < m->n_in; i++) {
		if (!m->in[i].cpu_model)
			continue;
		if (!first)
			first = &m->in[i];
		else if (strcmp(first->cpu_model, m->in[i].cpu_model))
			differ = true;
	}
	if (!differ)
		return 0;
	for (i = 0; i < m->n_in && !ret; i++) {
		if (!m->in[i].cpu_model)
			continue;
		if (asprintf(&one, "%s %s", m->in[i].label, m->in[i].cpu_model) < 0)
			return -ENOMEM;
		ret = list_add(&list, one);
		free(one);
	}
	if (!ret && strict)
		ret = jr_fail(err, errlen, -EINVAL, "the files come from different CPU models (%s); without "
			   "--strict the report merges them and says so", list);
	else if (!ret)
		ret = note(m, "the files come from different CPU models: %s", list);
	free(list);
	return ret;
}

static int input_cmp(const void *a, const void *b)
{
	const struct merge_input *x = a, *y = b;

	if ((x->rank >= 0) != (y->rank >= 0))
		return x->rank >= 0 ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->host ? x->host : "", y->host ? y->host : "");
}

static struct merge_row *row_of(struct merge *m, const struct item *it)
{
	struct merge_row *r;
	unsigned int i;

	for (i = 0; i < m->n_rows; i++) {
		r = &m->rows[i];
		if (r->kind == it->kind && streq0(r->region, it->region) && !strcmp(r->name, it->name))
			return r;
	}
	r = realloc(m->rows, (m->n_rows + 1) * sizeof(*r));
	if (!r)
		return NULL;
	m->rows = r;
	r = &m->rows[m->n_rows];
	memset(r, 0, sizeof(*r));
	r->region = it->region ? strdup(it->region) : NULL;
	r->name = strdup(it->name);
	r->kind = it->kind;
	r->v = calloc(m->n_in, sizeof(*r->v));
	r->have = calloc(m->n_in, sizeof(*r->have));
	m->n_rows++;
	if (!r->name || (it->region && !r->region) || !r->v || !r->have)
		return NULL;
	return r;
}

/* Whole-run rows first (events, then metrics), then each region's, in the order they come. */
static int row_rank(const struct merge_row *r)
{
	return r->region ? 2 : r->kind == MERGE_EVENT ? 0 : 1;
}

static int row_cmp_order(const void *a, const void *b)
{
	const struct merge_row *x = a, *y = b;

	return row_rank(x) - row_rank(y);
}

static void row_stats(struct merge_row *r, unsigned int n_in)
{
	unsigned int i;

	r->n = 0;
	r->sum = 0;
	r->min = r->max = r->mean = r->imbalance = NAN;
	for (i = 0; i < n_in; i++) {
		if (!r->have[i])
			continue;
		if (!r->n || r->v[i] < r->min)
			r->min = r->v[i];
		if (!r->n || r->v[i] > r->max)
			r->max = r->v[i];
		r->sum += r->v[i];
		r->n++;
	}
	if (!r->n)
		return;
	r->mean = r->sum / r->n;
	if (r->mean != 0)
		r->imbalance = r->max / r->mean;
}

/* The rows: every file's items under the common events, then statistics and notes on gaps. */
static int build_rows(struct merge *m, struct parsed *p)
{
	struct merge_row *r;
	struct item *it;
	unsigned int i, j;
	char *list;
	int ret = 0;

	for (i = 0; i < m->n_in; i++) {
		for (j = 0; j < p[i].n; j++) {
			it = &p[i].it[j];
			if (it->kind == MERGE_EVENT && !common_event(p, m->n_in, it->name))
				continue;
			r = row_of(m, it);
			if (!r)
				return -ENOMEM;
			r->v[i] = it->v;
			r->have[i] = it->counted;
		}
	}
	/* Stable: insertion order within each rank of rows. */
	for (i = 1; i < m->n_rows; i++) {
		struct merge_row t = m->rows[i];

		for (j = i; j > 0 && row_cmp_order(&m->rows[j - 1], &t) > 0; j--)
			m->rows[j] = m->rows[j - 1];
		m->rows[j] = t;
	}
	for (i = 0; i < m->n_rows && !ret; i++) {
		r = &m->rows[i];
		row_stats(r, m->n_in);
		if (r->n == m->n_in)
			continue;
		/* A region a file lacks: one note for all its rows. */
		if (r->region && i && m->rows[i - 1].region && !strcmp(r->region, m->rows[i - 1].region) &&
		    !memcmp(r->have, m->rows[i - 1].have, m->n_in * sizeof(*r->have)))
			continue;
		list = NULL;
		for (j = 0; j < m->n_in && !ret; j++)
			if (!r->have[j])
				ret = list_add(&list, m->in[j].label);
		if (!ret && r->region)
			ret = note(m, "region '%s' has no values from %s", r->region, list);
		else if (!ret)
			ret = note(m, "%s has no value from %s", r->name, list);
		free(list);
	}
	return ret;
}

int merge_files(struct merge *m, char **files, unsigned int n, bool strict, char *err, size_t errlen)
{
	struct parsed *p = NULL;
	unsigned int i, j;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	if (!n)
		return jr_fail(err, errlen, -EINVAL, "no files to report on");
	m->in = calloc(n, sizeof(*m->in));
	p = calloc(n, sizeof(*p));
	if (!m->in || !p) {
		free(p);
		return jr_fail(err, errlen, -ENOMEM, "out of memory");
	}
	m->n_in = n;
	for (i = 0; i < n && !ret; i++) {
		m->in[i].file = strdup(files[i]);
		m->in[i].rank = m->in[i].local_rank = m->in[i].world_size = -1;
		ret = m->in[i].file ? 0 : jr_fail(err, errlen, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n && !ret; i++)
		ret = parse_file(&m->in[i], &p[i], err, errlen);
	/* Columns in rank order; the parsed items move with their file. */
	for (i = 1; !ret && i < n; i++) {
		struct merge_input t = m->in[i];
		struct parsed tp = p[i];

		for (j = i; j > 0 && input_cmp(&m->in[j - 1], &t) > 0; j--) {
			m->in[j] = m->in[j - 1];
			p[j] = p[j - 1];
		}
		m->in[j] = t;
		p[j] = tp;
	}
	for (i = 0; i < n && !ret; i++) {
		struct merge_input *in = &m->in[i];
		const char *base = strrchr(in->file, '/');

		if (in->rank >= 0)
			ret = asprintf(&in->label, "%s:%d", in->host, in->rank) < 0;
		else
			in->label = strdup(base ? base + 1 : in->file), ret = !in->label;
		if (ret)
			ret = jr_fail(err, errlen, -ENOMEM, "out of memory");
		for (j = 0; j < i && !ret; j++)
			if (!strcmp(m->in[j].label, in->label))
				ret = jr_fail(err, errlen, -EINVAL, "%s and %s are both %s: give the files of one run "
					   "(one per rank)", m->in[j].file, in->file, in->label);
	}
	if (!ret)
		ret = event_sets(m, p, strict, err, errlen);
	if (!ret)
		ret = models(m, strict, err, errlen);
	for (i = 0; !ret && i < n; i++) {
		if (m->in[i].world_size > 0 && (unsigned int)m->in[i].world_size != n) {
			ret = note(m, "%u files, and the job had %d ranks", n, m->in[i].world_size);
			break;
		}
	}
	if (!ret)
		ret = build_rows(m, p);
	if (ret == -ENOMEM)
		jr_fail(err, errlen, ret, "out of memory");
	for (i = 0; i < n; i++)
		parsed_free(&p[i]);
	free(p);
	if (ret)
		merge_free(m);
	return ret;
}

void merge_free(struct merge *m)
{
	unsigned int i;

	for (i = 0; i < m->n_in; i++) {
		free(m->in[i].file);
		free(m->in[i].label);
		free(m->in[i].host);
		free(m->in[i].cpu_model);
	}
	for (i = 0; i < m->n_rows; i++) {
		free(m->rows[i].region);
		free(m->rows[i].name);
		free(m->rows[i].v);
		free(m->rows[i].have);
	}
	for (i = 0; i < m->n_notes; i++)
		free(m->notes[i]);
	free(m->in);
	free(m->rows);
	free(m->notes);
	memset(m, 0, sizeof(*m));
}

/* ---- the report ------------------------------------------------------------------ */

/* A number as CSV and JSON give it: integers whole, others to 6 decimals. */
static void fmt_exact(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.6f", v);
}

/* A cell of the text table: counts with thousands separators, ratios and msec to 3 decimals. */
static void fmt_text(const struct merge_row *r, double v, bool ratio, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (ratio || r->kind == MERGE_METRIC || (r->kind == MERGE_REGION_STAT && !strcmp(r->name, "msec")) ||
		 !strcmp(r->name, "task-clock") || v < 0)
		snprintf(buf, len, "%.3f", v);
	else if (v != floor(v)) {	/* a mean: its tenths after the grouped whole part */
		char tenths[32];

		snprintf(tenths, sizeof(tenths), "%.1f", v);
		fmt_thousands((uint64_t)strtoull(tenths, NULL, 10), buf, len);
		strncat(buf, strchr(tenths, '.'), len - strlen(buf) - 1);
	} else {
		fmt_thousands((uint64_t)llround(v), buf, len);
	}
}

#define NSTATS 5
static const char *const stat_names[NSTATS] = { "sum", "min", "max", "mean", "imbalance" };

static double stat_of(const struct merge_row *r, unsigned int k)
{
	if (!r->n)
		return NAN;
	switch (k) {
	case 0:
		return r->kind == MERGE_METRIC ? NAN : r->sum;	/* ratios do not add up */
	case 1:
		return r->min;
	case 2:
		return r->max;
	case 3:
		return r->mean;
	default:
		return r->imbalance;
	}
}

static const char *row_name(const struct merge_row *r, char *buf, size_t len)
{
	if (r->kind == MERGE_METRIC)
		snprintf(buf, len, "%s (metric)", r->name);
	else
		snprintf(buf, len, "%s", r->name);
	return buf;
}

static void print_text(FILE *f, const struct merge *m)
{
	unsigned int i, j, k, ncol = m->n_in + NSTATS;
	int namew = (int)strlen("event"), *w = calloc(ncol, sizeof(int)), len;
	const char *region = NULL;
	char buf[128], name[300];

	if (!w)
		return;
	for (j = 0; j < m->n_in; j++)
		w[j] = (int)strlen(m->in[j].label);
	for (k = 0; k < NSTATS; k++)
		w[m->n_in + k] = (int)strlen(stat_names[k]);
	for (i = 0; i < m->n_rows; i++) {
		const struct merge_row *r = &m->rows[i];

		len = (int)strlen(row_name(r, name, sizeof(name)));
		namew = len > namew ? len : namew;
		for (j = 0; j < ncol; j++) {
			if (j < m->n_in)
				fmt_text(r, r->have[j] ? r->v[j] : NAN, false, buf, sizeof(buf));
			else
				fmt_text(r, stat_of(r, j - m->n_in), j - m->n_in == 4, buf, sizeof(buf));
			len = (int)strlen(buf);
			w[j] = len > w[j] ? len : w[j];
		}
	}
	fprintf(f, "\n pmcctl report of %u file%s", m->n_in, m->n_in == 1 ? "" : "s");
	fputs(":\n", f);
	for (i = 0; i < m->n_notes; i++)
		fprintf(f, " note: %s\n", m->notes[i]);
	for (i = 0; i < m->n_rows; i++) {
		const struct merge_row *r = &m->rows[i];

		if (i == 0 || !streq0(region, r->region)) {
			region = r->region;
			if (region)
				fprintf(f, "\n region %s:\n", region);
			fprintf(f, "\n %-*s", namew, "event");
			for (j = 0; j < ncol; j++)
				fprintf(f, " %*s", w[j], j < m->n_in ? m->in[j].label : stat_names[j - m->n_in]);
			fputc('\n', f);
		}
		fprintf(f, " %-*s", namew, row_name(r, name, sizeof(name)));
		for (j = 0; j < ncol; j++) {
			if (j < m->n_in)
				fmt_text(r, r->have[j] ? r->v[j] : NAN, false, buf, sizeof(buf));
			else
				fmt_text(r, stat_of(r, j - m->n_in), j - m->n_in == 4, buf, sizeof(buf));
			fprintf(f, " %*s", w[j], buf);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(w);
}

static void print_csv(FILE *f, const struct merge *m, const char *s)
{
	unsigned int i, j, k;
	char buf[64];
	double v;

	for (i = 0; i < m->n_notes; i++)
		fprintf(f, "# note: %s\n", m->notes[i]);
	fprintf(f, "region%sname%skind", s, s);
	for (j = 0; j < m->n_in; j++)
		fprintf(f, "%s%s", s, m->in[j].label);
	for (k = 0; k < NSTATS; k++)
		fprintf(f, "%s%s", s, stat_names[k]);
	fputc('\n', f);
	for (i = 0; i < m->n_rows; i++) {
		const struct merge_row *r = &m->rows[i];

		fprintf(f, "%s%s%s%s%s", r->region ? r->region : "", s, r->name, s,
			r->kind == MERGE_METRIC ? "metric" : r->kind == MERGE_EVENT ? "event" : "region");
		for (j = 0; j < m->n_in + NSTATS; j++) {
			v = j < m->n_in ? (r->have[j] ? r->v[j] : NAN) : stat_of(r, j - m->n_in);
			buf[0] = '\0';
			if (!isnan(v))
				fmt_exact(v, buf, sizeof(buf));
			fprintf(f, "%s%s", s, buf);
		}
		fputc('\n', f);
	}
}

static json_object *jnum(double v)
{
	char buf[64];

	if (isnan(v))
		return NULL;	/* null */
	fmt_exact(v, buf, sizeof(buf));
	return v == floor(v) && fabs(v) < 1e15 ? json_object_new_int64((int64_t)v) :
						 json_object_new_double_s(v, buf);
}

static json_object *jint(int v)
{
	return v >= 0 ? json_object_new_int(v) : NULL;
}

static json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void print_json(FILE *f, const struct merge *m)
{
	json_object *doc = json_object_new_object(), *ranks = json_object_new_array(),
		    *rows = json_object_new_array(), *notes = json_object_new_array(), *o, *vals;
	unsigned int i, j, k;

	for (j = 0; j < m->n_in; j++) {
		const struct merge_input *in = &m->in[j];

		o = json_object_new_object();
		json_object_object_add(o, "label", jstr(in->label));
		json_object_object_add(o, "file", jstr(in->file));
		json_object_object_add(o, "host", jstr(in->host));
		json_object_object_add(o, "rank", jint(in->rank));
		json_object_object_add(o, "local-rank", jint(in->local_rank));
		json_object_object_add(o, "world-size", jint(in->world_size));
		json_object_object_add(o, "cpu-model", jstr(in->cpu_model));
		json_object_array_add(ranks, o);
	}
	for (i = 0; i < m->n_rows; i++) {
		const struct merge_row *r = &m->rows[i];

		o = json_object_new_object();
		json_object_object_add(o, "region", jstr(r->region));
		json_object_object_add(o, r->kind == MERGE_METRIC ? "metric" : "event", jstr(r->name));
		vals = json_object_new_array();
		for (j = 0; j < m->n_in; j++)
			json_object_array_add(vals, r->have[j] ? jnum(r->v[j]) : NULL);
		json_object_object_add(o, "values", vals);
		for (k = 0; k < NSTATS; k++)
			json_object_object_add(o, stat_names[k], jnum(stat_of(r, k)));
		json_object_array_add(rows, o);
	}
	for (i = 0; i < m->n_notes; i++)
		json_object_array_add(notes, json_object_new_string(m->notes[i]));
	json_object_object_add(doc, "ranks", ranks);
	json_object_object_add(doc, "rows", rows);
	json_object_object_add(doc, "notes", notes);
	fputs(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(doc);
}

void merge_print(FILE *f, const struct merge *m, enum report_format format, const char *sep)
{
	if (format == REPORT_JSON)
		print_json(f, m);
	else if (format == REPORT_CSV)
		print_csv(f, m, sep);
	else
		print_text(f, m);
}

static bool plotted(const struct merge_row *r)
{
	return r->kind != MERGE_METRIC && r->n && r->mean > 0;
}

unsigned int merge_plot_data(FILE *f, const struct merge *m)
{
	unsigned int i, j, cols = 0;

	fputs("rank", f);
	for (i = 0; i < m->n_rows; i++) {
		if (!plotted(&m->rows[i]))
			continue;
		if (m->rows[i].region)
			fprintf(f, "\t%s: %s", m->rows[i].region, m->rows[i].name);
		else
			fprintf(f, "\t%s", m->rows[i].name);
		cols++;
	}
	fputc('\n', f);
	for (j = 0; j < m->n_in; j++) {
		fputs(m->in[j].label, f);
		for (i = 0; i < m->n_rows; i++) {
			const struct merge_row *r = &m->rows[i];

			if (!plotted(r))
				continue;
			if (r->have[j])
				fprintf(f, "\t%.6f", r->v[j] / r->mean);
			else
				fputs("\tNaN", f);
		}
		fputc('\n', f);
	}
	return cols;
}
