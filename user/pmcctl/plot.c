// SPDX-License-Identifier: GPL-2.0
/* pmcctl plot: an interval run's JSON read back as time series, and gnuplot's input drawn from them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "jsonread.h"
#include "plot.h"

/* The level-1 shares by their names: -M's tma_* metrics and --topdown's columns. */
static const struct {
	const char *metric, *topdown, *label, *colour;
} td_names[PLOT_TD_N] = {
	[PLOT_TD_RETIRING] = { "tma_retiring", "Retiring", "Retiring", "#2e8b57" },
	[PLOT_TD_BAD_SPEC] = { "tma_bad_speculation", "Bad Speculation", "Bad speculation", "#d62728" },
	[PLOT_TD_FE_BOUND] = { "tma_frontend_bound", "Frontend Bound", "Frontend bound", "#8064a2" },
	[PLOT_TD_BE_BOUND] = { "tma_backend_bound", "Backend Bound", "Backend bound", "#1f77b4" },
};

static int td_index(const char *name)
{
	int k;

	for (k = 0; k < PLOT_TD_N; k++)
		if (!strcmp(name, td_names[k].metric) || !strcmp(name, td_names[k].topdown))
			return k;
	return -1;
}

static int add_note(struct plot *p, const char *text)
{
	char **n;
	unsigned int i;

	for (i = 0; i < p->n_notes; i++)
		if (!strcmp(p->notes[i], text))
			return 0;
	n = realloc(p->notes, (p->n_notes + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->notes = n;
	n[p->n_notes] = strdup(text);
	if (!n[p->n_notes])
		return -ENOMEM;
	p->n_notes++;
	return 0;
}

/* The interval at @t: the last one, or a new one after it. */
static int time_index(struct plot *p, double t, unsigned int *idx)
{
	unsigned int i, cap;

	if (p->n_t && t == p->t[p->n_t - 1]) {
		*idx = p->n_t - 1;
		return 0;
	}
	if (p->n_t && t < p->t[p->n_t - 1])
		return -ERANGE;
	if (p->n_t == p->cap_t) {
		double *nt;

		cap = p->cap_t ? 2 * p->cap_t : 64;
		nt = realloc(p->t, cap * sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		p->t = nt;
		for (i = 0; i < p->n_s; i++) {
			double *v = realloc(p->s[i].v, cap * sizeof(*v));
			bool *h;

			if (!v)
				return -ENOMEM;
			p->s[i].v = v;
			h = realloc(p->s[i].have, cap * sizeof(*h));
			if (!h)
				return -ENOMEM;
			p->s[i].have = h;
		}
		p->cap_t = cap;
	}
	p->t[p->n_t] = t;
	for (i = 0; i < p->n_s; i++) {
		p->s[i].v[p->n_t] = 0;
		p->s[i].have[p->n_t] = false;
	}
	*idx = p->n_t++;
	return 0;
}

/* The series (@metric, @name), a new one (with no values yet) if the file had none. */
static struct plot_series *series(struct plot *p, bool metric, const char *name, const char *unit)
{
	struct plot_series *s, *n;
	unsigned int i;

	for (i = 0; i < p->n_s; i++)
		if (p->s[i].metric == metric && !strcmp(p->s[i].name, name))
			return &p->s[i];
	n = realloc(p->s, (p->n_s + 1) * sizeof(*n));
	if (!n)
		return NULL;
	p->s = n;
	s = &n[p->n_s];
	memset(s, 0, sizeof(*s));
	s->metric = metric;
	s->name = strdup(name);
	s->unit = strdup(unit);
	s->v = calloc(p->cap_t ? p->cap_t : 1, sizeof(*s->v));
	s->have = calloc(p->cap_t ? p->cap_t : 1, sizeof(*s->have));
	p->n_s++;
	if (!s->name || !s->unit || !s->v || !s->have)
		return NULL;
	if (metric) {
		int k = td_index(name);

		if (k >= 0 && p->td[k] < 0)
			p->td[k] = (int)(p->n_s - 1);
	}
	return s;
}

/*
 * A metric-unit as report.c writes it: "UNIT  NAME" with a ScaleUnit
 * ("%  tma_retiring"), else the name ("insn per cycle", "Retiring"), whose
 * top-down shares are percentages.
 */
static void split_metric(const char *mu, char *name, size_t nlen, char *unit, size_t ulen)
{
	const char *sp = strstr(mu, "  ");

	if (sp) {
		snprintf(unit, ulen, "%.*s", (int)(sp - mu), mu);
		snprintf(name, nlen, "%s", sp + 2);
	} else {
		snprintf(name, nlen, "%s", mu);
		snprintf(unit, ulen, "%s", td_index(mu) >= 0 ? "%" : "");
	}
}

/* A metric-value / metric-unit pair of @o at interval @ti; 0 if @o has none. */
static int add_metric(struct plot *p, json_object *o, unsigned int ti)
{
	const char *mu = jr_str(o, "metric-unit");
	char name[256], unit[64];
	struct plot_series *s;
	double v;

	if (!mu)
		return 0;
	if (jr_get(o, "cpu"))
		return add_note(p, "metrics of single CPUs (-A) are not drawn, only the events summed over the CPUs");
	split_metric(mu, name, sizeof(name), unit, sizeof(unit));
	s = series(p, true, name, unit);
	if (!s)
		return -ENOMEM;
	if (jr_num(o, "metric-value", &v)) {
		s->v[ti] = v;
		s->have[ti] = true;
	}
	return 0;
}

/* One line: an event count or a metric of an interval.  *known: false for anything else. */
static int parse_object(struct plot *p, json_object *o, bool *known, bool *no_interval)
{
	const char *event = jr_str(o, "event");
	struct plot_series *s;
	unsigned int ti;
	json_object *cv;
	double t, v;
	int ret;

	*known = true;
	*no_interval = false;
	if (jr_get(o, "rank-variable") && jr_get(o, "host"))
		return 0;	/* an MPI rank's identity */
	if (!event && !jr_get(o, "metric-unit")) {
		*known = false;
		return 0;
	}
	if (!jr_num(o, "interval", &t)) {
		*no_interval = true;
		return 0;
	}
	ret = time_index(p, t, &ti);
	if (ret)
		return ret;
	if (event) {
		cv = jr_get(o, "counter-value");
		if (!cv) {
			*known = false;
			return 0;
		}
		s = series(p, false, event, "");
		if (!s)
			return -ENOMEM;
		if (jr_num(o, "counter-value", &v)) {	/* else "<not counted>" */
			s->v[ti] += v;
			s->have[ti] = true;
		}
	}
	return add_metric(p, o, ti);
}

int plot_read(struct plot *p, const char *file, char *err, size_t errlen)
{
	FILE *f = fopen(file, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int ln = 0, whole = 0;
	enum json_tokener_error jerr;
	bool known, no_interval;
	json_object *o;
	int k, ret = 0;

	memset(p, 0, sizeof(*p));
	for (k = 0; k < PLOT_TD_N; k++)
		p->td[k] = -1;
	if (!f)
		return jr_fail(err, errlen, errno == ENOENT ? -ENOENT : -EIO, "%s: %s", file, strerror(errno));
	p->file = strdup(file);
	if (!p->file)
		ret = jr_fail(err, errlen, -ENOMEM, "out of memory");
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		ln++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		o = json_tokener_parse_verbose(line, &jerr);
		if (!o || !json_object_is_type(o, json_type_object)) {
			ret = jr_fail(err, errlen, -EINVAL, "%s:%u: not a JSON object (%s): give the output of "
				   "'pmcctl stat -I MS -j'", file, ln,
				   o ? "another JSON value" : json_tokener_error_desc(jerr));
			json_object_put(o);
			break;
		}
		ret = parse_object(p, o, &known, &no_interval);
		json_object_put(o);
		if (ret == -ENOMEM)
			jr_fail(err, errlen, ret, "out of memory");
		else if (ret == -ERANGE)
			ret = jr_fail(err, errlen, -EINVAL, "%s:%u: an interval earlier than the one before it: "
				   "one run per file", file, ln);
		else if (!ret && !known)
			ret = jr_fail(err, errlen, -EINVAL, "%s:%u: a JSON object that is neither an event nor a "
				   "metric of 'pmcctl stat -j'", file, ln);
		whole += no_interval;
	}
	if (!ret && ferror(f))
		ret = jr_fail(err, errlen, -EIO, "%s: %s", file, strerror(errno));
	free(line);
	fclose(f);
	if (!ret && whole)
		ret = jr_fail(err, errlen, -EINVAL, "%s: %u count%s without an interval: this is a whole run's "
			   "output; plot needs one recorded per interval: pmcctl stat -a -I 100 -j -o %s ...",
			   file, whole, whole > 1 ? "s" : "", file);
	else if (!ret && !p->n_t)
		ret = jr_fail(err, errlen, -EINVAL, "%s: no interval lines in it: record them with "
			   "pmcctl stat -a -I 100 -j -o %s ...", file, file);
	if (ret)
		plot_free(p);
	return ret;
}

void plot_free(struct plot *p)
{
	unsigned int i;

	for (i = 0; i < p->n_s; i++) {
		free(p->s[i].name);
		free(p->s[i].unit);
		free(p->s[i].v);
		free(p->s[i].have);
	}
	for (i = 0; i < p->n_notes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->s);
	free(p->t);
	free(p->file);
	memset(p, 0, sizeof(*p));
}

/* "a, b, c": the names of the series of one kind, into @buf. */
static void names(const struct plot *p, bool metric, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;
	int k;

	buf[0] = '\0';
	for (i = 0; i < p->n_s && n < len; i++) {
		if (p->s[i].metric != metric)
			continue;
		k = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", p->s[i].name);
		if (k < 0)
			break;
		n += (size_t)k;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* Mark the series @list names (of one kind) in @keep. */
static int mark(const struct plot *p, bool metric, const char *list, bool *keep, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok, have[2048];
	unsigned int i;
	bool found;
	int k, ret = 0;

	if (!copy)
		return jr_fail(err, errlen, -ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		found = false;
		if (metric && !strcmp(tok, "topdown")) {
			for (k = 0; k < PLOT_TD_N; k++)
				if (p->td[k] >= 0)
					keep[p->td[k]] = found = true;
		}
		for (i = 0; i < p->n_s; i++)
			if (p->s[i].metric == metric && !strcmp(p->s[i].name, tok))
				keep[i] = found = true;
		if (!found) {
			names(p, metric, have, sizeof(have));
			ret = jr_fail(err, errlen, -EINVAL, "%s: no %s '%s' in it (it has: %s)", p->file,
				   metric ? "metric" : "event", tok, have);
		}
	}
	free(copy);
	return ret;
}

int plot_select(struct plot *p, const char *events, const char *metrics, char *err, size_t errlen)
{
	bool *keep;
	unsigned int i, n = 0;
	int k, ret = 0;

	if (!events && !metrics)
		return 0;
	keep = calloc(p->n_s ? p->n_s : 1, sizeof(*keep));
	if (!keep)
		return jr_fail(err, errlen, -ENOMEM, "out of memory");
	if (events)
		ret = mark(p, false, events, keep, err, errlen);
	if (!ret && metrics)
		ret = mark(p, true, metrics, keep, err, errlen);
	if (ret) {
		free(keep);
		return ret;
	}
	for (k = 0; k < PLOT_TD_N; k++)
		p->td[k] = -1;
	for (i = 0; i < p->n_s; i++) {
		if (!keep[i]) {
			free(p->s[i].name);
			free(p->s[i].unit);
			free(p->s[i].v);
			free(p->s[i].have);
			continue;
		}
		p->s[n] = p->s[i];
		if (p->s[n].metric) {
			k = td_index(p->s[n].name);
			if (k >= 0 && p->td[k] < 0)
				p->td[k] = (int)n;
		}
		n++;
	}
	p->n_s = n;
	free(keep);
	return 0;
}

bool plot_has_topdown(const struct plot *p)
{
	int k;

	for (k = 0; k < PLOT_TD_N; k++)
		if (p->td[k] < 0)
			return false;
	return true;
}

/* Is series @i drawn in the stacked panel? */
static bool in_stack(const struct plot *p, unsigned int i)
{
	int k;

	if (!plot_has_topdown(p))
		return false;
	for (k = 0; k < PLOT_TD_N; k++)
		if (p->td[k] == (int)i)
			return true;
	return false;
}

unsigned int plot_panels(const struct plot *p)
{
	unsigned int i, n = plot_has_topdown(p);

	for (i = 0; i < p->n_s; i++)
		n += !in_stack(p, i);
	return n;
}

void plot_data(FILE *f, const struct plot *p)
{
	unsigned int i, j;

	fputs("#time\tlength", f);
	for (j = 0; j < p->n_s; j++)
		fprintf(f, "\t%s", p->s[j].name);
	fputc('\n', f);
	for (i = 0; i < p->n_t; i++) {
		fprintf(f, "%.9f\t%.9f", p->t[i], p->t[i] - (i ? p->t[i - 1] : 0));
		for (j = 0; j < p->n_s; j++) {
			if (p->s[j].have[i])
				fprintf(f, "\t%.6f", p->s[j].v[i]);
			else
				fputs("\tNaN", f);
		}
		fputc('\n', f);
	}
}

/* The smallest value of series @j, 0 when it has none. */
static double series_min(const struct plot *p, unsigned int j)
{
	double m = 0;
	unsigned int i;

	for (i = 0; i < p->n_t; i++)
		if (p->s[j].have[i] && p->s[j].v[i] < m)
			m = p->s[j].v[i];
	return m;
}

/* The data file's column of series @j. */
#define COL(j)	((j) + 3)

/* The panels' colours in turn. */
static const char *const line_colours[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b" };

/* One panel's x axis: labelled on the last panel only. */
static void x_axis(FILE *f, bool last)
{
	fprintf(f, "set xlabel %s\n", last ? "'time since the start (s)'" : "''");
}

/* column(a)+column(b)+... of the first @n shares, "0" for none. */
static void td_sum(FILE *f, const struct plot *p, int n)
{
	int j;

	if (!n)
		fputc('0', f);
	for (j = 0; j < n; j++)
		fprintf(f, "%scolumn(%d)", j ? "+" : "", COL(p->td[j]));
}

/*
 * Each interval is drawn over the time it covers, from its start (its end
 * minus its length) to its end: a box, so that a change of phase is an
 * edge at the interval where it happened, and the last, shorter interval
 * is as wide as it was long.
 */
#define X_BOX	"(column(1)-column(2)/2):%s:(column(1)-column(2)):1:"

static void stack_panel(FILE *f, const struct plot *p, const char *data, bool last)
{
	int k;

	fputs("\n# top-down level 1, stacked: each share of the pipeline slots, summing to 100%\n"
	      "set title 'Top-down level 1: where the pipeline slots went (stacked, % of slots)'\n"
	      "set ylabel '% of slots'\nset yrange [0:100]\nset format y '%g'\n"
	      "set key outside right top vertical Left reverse invert noautotitle\n", f);
	x_axis(f, last);
	fputs("plot ", f);
	for (k = 0; k < PLOT_TD_N; k++) {
		fputs(k ? ", \\\n     " : "", f);
		gp_quote(f, data);
		/* x, y, the interval's start and end, the shares below this one, and this one on top */
		fprintf(f, " using " X_BOX "(", "(0)");
		td_sum(f, p, k);
		fputs("):(", f);
		td_sum(f, p, k + 1);
		/* solid, with a border of its own colour: no seams between the intervals */
		fprintf(f, ") with boxxyerror lc rgb '%s' fs solid 1 border lc rgb '%s' title ",
			td_names[k].colour, td_names[k].colour);
		gp_quote(f, td_names[k].label);
	}
	fputs("\nset key off\n", f);
}

static void series_panel(FILE *f, const struct plot *p, unsigned int j, const char *data, unsigned int colour,
			 bool last)
{
	const struct plot_series *s = &p->s[j];
	const char *rgb = line_colours[colour % (sizeof(line_colours) / sizeof(line_colours[0]))];
	char title[512], y[64];

	if (s->metric)
		snprintf(title, sizeof(title), "%s%s%s%s", s->name, *s->unit ? " (" : "", s->unit,
			 *s->unit ? ")" : "");
	else
		snprintf(title, sizeof(title), "%s per second, in each interval", s->name);
	fprintf(f, "\n# %s %s\nset title ", s->metric ? "metric" : "event", s->name);
	gp_quote(f, title);
	fputs("\nset ylabel ", f);
	gp_quote(f, s->metric ? s->unit : "per second");
	fprintf(f, "\nset yrange [%s:*]\nset format y %s\n", series_min(p, j) < 0 ? "*" : "0",
		s->metric ? "'%g'" : "'%.1s%c'");
	x_axis(f, last);
	fputs("plot ", f);
	gp_quote(f, data);
	/* an event: its count over the interval's length; a metric as it is */
	if (s->metric)
		snprintf(y, sizeof(y), "(column(%d))", COL(j));
	else
		snprintf(y, sizeof(y), "(column(%d)/column(2))", COL(j));
	fprintf(f, " using " X_BOX "(0):%s with boxxyerror lc rgb '%s' fs solid 0.4 border lc rgb '%s' "
		"notitle\n", y, y, rgb, rgb);
}

int plot_script(FILE *f, const struct plot *p, const char *data, const char *out, char *err,
		size_t errlen)
{
	const char *dot = strrchr(out, '.'), *base = strrchr(p->file, '/');
	unsigned int panels = plot_panels(p), i, drawn = 0, colour = 0, pass;
	unsigned int height = 90 + 220 * panels, ms = p->n_t ? (unsigned int)lround(p->t[0] * 1000) : 0;
	char title[512];
	bool png;

	if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
		return jr_fail(err, errlen, -EINVAL, "%s: give a file name ending in .png or .svg", out);
	png = !strcmp(dot, ".png");
	if (!panels)
		return jr_fail(err, errlen, -EINVAL, "%s: nothing to draw", p->file);
	fprintf(f, "# pmcctl plot of %s: %u panel%s, %u interval%s\n", base ? base + 1 : p->file, panels,
		panels > 1 ? "s" : "",
		p->n_t, p->n_t > 1 ? "s" : "");
	if (png)
		fprintf(f, "set terminal pngcairo size 1100,%u noenhanced font ',10'\n", height);
	else
		fprintf(f, "set terminal svg size 1100,%u noenhanced font 'sans,10' background '#ffffff'\n", height);
	fputs("set output ", f);
	gp_quote(f, out);
	fputs("\nset datafile separator '\\t'\nset datafile missing 'NaN'\n", f);
	/* Every panel's frame at the same left and right: the time axes line up. */
	fputs("set lmargin at screen 0.09\nset rmargin at screen 0.80\n"
	      "set grid xtics ytics lc rgb '#d0d0d0'\nset key off\n", f);
	fprintf(f, "set xrange [0:%.9f]\n", p->n_t ? p->t[p->n_t - 1] : 1.0);
	snprintf(title, sizeof(title), "pmcctl plot: %s, %u intervals of %u ms", base ? base + 1 : p->file,
		 p->n_t, ms);
	fprintf(f, "set multiplot layout %u,1 title ", panels);
	gp_quote(f, title);
	fputs(" font ',12'\n", f);
	if (plot_has_topdown(p))
		stack_panel(f, p, data, ++drawn == panels);
	/* events first, then metrics, each in the file's order */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < p->n_s; i++)
			if (p->s[i].metric == (pass == 1) && !in_stack(p, i))
				series_panel(f, p, i, data, colour++, ++drawn == panels);
	fputs("\nunset multiplot\n", f);
	return 0;
}
