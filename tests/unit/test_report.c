// SPDX-License-Identifier: GPL-2.0
/*
 * Golden-output tests of pmcctl's count reports (pmcctl/report.c): fixed
 * inputs, with real pmc_evsel entries from pmc_evlist_parse(), are printed
 * in text, CSV and JSON into a memory stream and compared byte for byte
 * with tests/unit/golden/NAME.  Every JSON line is also checked to be one
 * valid JSON object (a strict parser here, and jq when it is installed).
 *
 * PMCDRV_UPDATE_GOLDEN=1 rewrites the golden files from the current
 * output instead of comparing (docs/testing.md).
 *
 * Linked into the one unit binary; main() (main.c) calls
 * register_report_tests(), which adds the "report" suite.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpmc.h"
#include "unit.h"
#include "report.h"

#define MAX_ROWS	64

/* ---- golden files ------------------------------------------------------- */

/* tests/unit/golden from the project root, or next to build/tests/unit. */
static const char *golden_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	struct stat st;
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "tests/unit/golden");
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%.*s/../../tests/unit/golden",
				 (int)(sizeof(dir) - 32), exe);
		}
	}
	return dir;
}

static bool update_mode(void)
{
	const char *v = getenv("PMCDRV_UPDATE_GOLDEN");

	return v && *v && strcmp(v, "0");
}

/* The whole file, NUL-terminated; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = n + 4096 + 1);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static bool write_file(const char *path, const char *data, size_t len)
{
	char tmp[PATH_MAX + 256];
	FILE *f;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return false;
	ok = fwrite(data, 1, len, f) == len;
	ok = !fclose(f) && ok;
	if (ok && rename(tmp, path))
		ok = false;
	if (!ok)
		unlink(tmp);
	return ok;
}

/* ---- a readable mismatch: first difference, then one unified hunk -------- */

struct lines {
	const char **at;	/* start of each line */
	size_t *len;		/* without its '\n' */
	size_t n;
};

static void split_lines(const char *s, size_t slen, struct lines *l)
{
	size_t i, start = 0, cap = 1;

	for (i = 0; i < slen; i++)
		cap += s[i] == '\n';
	l->at = calloc(cap, sizeof(*l->at));
	l->len = calloc(cap, sizeof(*l->len));
	l->n = 0;
	if (!l->at || !l->len)
		return;
	for (i = 0; i <= slen; i++) {
		if (i == slen && i == start)
			break;		/* nothing after the last '\n' */
		if (i == slen || s[i] == '\n') {
			l->at[l->n] = s + start;
			l->len[l->n++] = i - start;
			start = i + 1;
		}
	}
}

static bool line_eq(const struct lines *a, size_t i, const struct lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

/* A line in C-string quotes, so trailing blanks and tabs show. */
static void put_quoted(FILE *f, const char *s, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_hunk_line(FILE *f, char mark, const struct lines *l, size_t i)
{
	fprintf(f, "%c%.*s\n", mark, (int)l->len[i], l->at[i]);
}

/*
 * Describe how @got differs from @exp: the first differing line and column,
 * both lines quoted, then the changed region as one unified-diff hunk (the
 * lines between the common head and the common tail, with context).
 */
static void print_mismatch(FILE *f, const char *path, const char *exp, size_t elen,
			   const char *got, size_t glen)
{
	enum { CONTEXT = 2, MAX_SHOWN = 12 };
	struct lines e, g;
	size_t head = 0, tail = 0, col = 0, i, from, after, e_to, g_to;

	split_lines(exp, elen, &e);
	split_lines(got, glen, &g);
	if (!e.at || !e.len || !g.at || !g.len) {
		fprintf(f, "golden mismatch: %s (out of memory describing it)\n", path);
		goto out;
	}
	while (head < e.n && head < g.n && line_eq(&e, head, &g, head))
		head++;
	while (tail < e.n - head && tail < g.n - head &&
	       line_eq(&e, e.n - 1 - tail, &g, g.n - 1 - tail))
		tail++;
	e_to = e.n - tail;
	g_to = g.n - tail;

	fprintf(f, "\ngolden mismatch: %s\n", path);
	if (head < e.n && head < g.n) {
		while (col < e.len[head] && col < g.len[head] &&
		       e.at[head][col] == g.at[head][col])
			col++;
		fprintf(f, "first difference: line %zu, column %zu\n  expected: ", head + 1, col + 1);
		put_quoted(f, e.at[head], e.len[head]);
		fputs("\n  got:      ", f);
		put_quoted(f, g.at[head], g.len[head]);
		fputc('\n', f);
	} else if (e.n != g.n) {
		fprintf(f, "first difference: line %zu: %s\n", head + 1,
			e.n > g.n ? "expected more lines" : "got more lines");
	} else {
		fputs("first difference: the last line's newline\n", f);
	}
	from = head > CONTEXT ? head - CONTEXT : 0;
	after = tail < CONTEXT ? tail : CONTEXT;
	fprintf(f, "--- %s\n+++ got\n@@ -%zu,%zu +%zu,%zu @@\n", path, from + 1,
		e_to - from + after, from + 1, g_to - from + after);
	for (i = from; i < head; i++)
		put_hunk_line(f, ' ', &e, i);
	for (i = head; i < e_to && i < head + MAX_SHOWN; i++)
		put_hunk_line(f, '-', &e, i);
	if (e_to > head + MAX_SHOWN)
		fprintf(f, "-... (%zu more)\n", e_to - head - MAX_SHOWN);
	for (i = head; i < g_to && i < head + MAX_SHOWN; i++)
		put_hunk_line(f, '+', &g, i);
	if (g_to > head + MAX_SHOWN)
		fprintf(f, "+... (%zu more)\n", g_to - head - MAX_SHOWN);
	for (i = e_to; i < e_to + after; i++)
		put_hunk_line(f, ' ', &e, i);
	fputs("to accept the new output: PMCDRV_UPDATE_GOLDEN=1 make unit (then review git diff)\n", f);
out:
	free(e.at);
	free(e.len);
	free(g.at);
	free(g.len);
}

static void golden_assert(bool ok, unsigned int line, const char *msg)
{
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, msg, __FILE__, "", CU_FALSE);
}

/*
 * Compare @got with the golden file @name; in update mode write it instead
 * (only when it changed).  Returns whether the output matched.
 */
static bool golden_check(unsigned int line, const char *name, const char *got, size_t glen)
{
	char path[PATH_MAX + 128], msg[2 * PATH_MAX];
	char *exp;
	size_t elen = 0;
	bool same;

	snprintf(path, sizeof(path), "%s/%.100s", golden_dir(), name);
	exp = read_file(path, &elen);
	same = exp && elen == glen && !memcmp(exp, got, glen);
	if (!same && update_mode()) {
		same = write_file(path, got, glen);
		printf("\ngolden: %s %s\n", same ? "updated" : "CANNOT WRITE", path);
		snprintf(msg, sizeof(msg), "golden %s could not be written", name);
	} else if (!exp) {
		snprintf(msg, sizeof(msg), "golden %s: cannot read %s (%s); create it with PMCDRV_UPDATE_GOLDEN=1",
			 name, path, strerror(errno));
		printf("\n%s\n", msg);
	} else if (!same) {
		print_mismatch(stdout, path, exp, elen, got, glen);
		snprintf(msg, sizeof(msg), "golden %s differs (diff above)", name);
	} else {
		snprintf(msg, sizeof(msg), "golden %s", name);
	}
	fflush(stdout);
	golden_assert(same, line, msg);
	free(exp);
	return same;
}

/* ---- a strict JSON checker (RFC 8259), one value per line ------------------ */

struct json_in {
	const char *p, *end;
	int depth;
};

static bool json_value(struct json_in *in);

static void json_ws(struct json_in *in)
{
	while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\r' || *in->p == '\n'))
		in->p++;
}

static bool json_peek(const struct json_in *in, char c)
{
	return in->p < in->end && *in->p == c;
}

static bool json_eat(struct json_in *in, char c)
{
	if (!json_peek(in, c))
		return false;
	in->p++;
	return true;
}

static bool json_is_digit(const struct json_in *in)
{
	return in->p < in->end && *in->p >= '0' && *in->p <= '9';
}

static bool json_digits(struct json_in *in)
{
	if (!json_is_digit(in))
		return false;
	while (json_is_digit(in))
		in->p++;
	return true;
}

static bool json_string_tok(struct json_in *in)
{
	int i;

	if (!json_eat(in, '"'))
		return false;
	while (in->p < in->end) {
		unsigned char c = (unsigned char)*in->p++;

		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (in->p >= in->end)
			return false;
		c = (unsigned char)*in->p++;
		if (c == 'u') {
			for (i = 0; i < 4; i++, in->p++) {
				if (in->p >= in->end || !strchr("0123456789abcdefABCDEF", *in->p) || !*in->p)
					return false;
			}
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return false;
		}
	}
	return false;
}

static bool json_number(struct json_in *in)
{
	json_eat(in, '-');
	if (json_eat(in, '0')) {
		if (json_is_digit(in))
			return false;	/* no leading zeros */
	} else if (!json_digits(in)) {
		return false;
	}
	if (json_eat(in, '.') && !json_digits(in))
		return false;
	if (json_eat(in, 'e') || json_eat(in, 'E')) {
		if (!json_eat(in, '+'))
			json_eat(in, '-');
		if (!json_digits(in))
			return false;
	}
	return true;
}

static bool json_literal(struct json_in *in, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(in->end - in->p) < n || memcmp(in->p, word, n))
		return false;
	in->p += n;
	return true;
}

/* '{' members '}' or '[' elements ']'; object keys must be strings and unique. */
static bool json_container(struct json_in *in, bool object)
{
	enum { MAX_KEYS = 64 };
	const char *keys[MAX_KEYS];
	size_t klen[MAX_KEYS], nkeys = 0, i;
	char close = object ? '}' : ']';

	in->p++;
	if (++in->depth > 32)
		return false;
	json_ws(in);
	if (json_eat(in, close))
		goto done;
	for (;;) {
		json_ws(in);
		if (object) {
			const char *k = in->p;

			if (!json_string_tok(in))
				return false;
			for (i = 0; i < nkeys; i++) {
				if (klen[i] == (size_t)(in->p - k) && !memcmp(keys[i], k, klen[i]))
					return false;	/* duplicate key */
			}
			if (nkeys < MAX_KEYS) {
				keys[nkeys] = k;
				klen[nkeys++] = (size_t)(in->p - k);
			}
			json_ws(in);
			if (!json_eat(in, ':'))
				return false;
		}
		if (!json_value(in))
			return false;
		json_ws(in);
		if (json_eat(in, close))
			goto done;
		if (!json_eat(in, ','))
			return false;
	}
done:
	in->depth--;
	return true;
}

static bool json_value(struct json_in *in)
{
	json_ws(in);
	if (in->p >= in->end)
		return false;
	switch (*in->p) {
	case '{':
		return json_container(in, true);
	case '[':
		return json_container(in, false);
	case '"':
		return json_string_tok(in);
	case 't':
		return json_literal(in, "true");
	case 'f':
		return json_literal(in, "false");
	case 'n':
		return json_literal(in, "null");
	default:
		return json_number(in);
	}
}

/* Is s[0..n) exactly one JSON object (blanks around it allowed)? */
static bool json_object_line(const char *s, size_t n)
{
	struct json_in in = { s, s + n, 0 };

	json_ws(&in);
	if (!json_peek(&in, '{') || !json_value(&in))
		return false;
	json_ws(&in);
	return in.p == in.end;
}

/* Every line of @text is one JSON object; names the first bad line. */
static bool json_lines_ok(const char *what, const char *text, size_t len, unsigned int line)
{
	struct lines l;
	char msg[512];
	size_t i;
	bool ok = true;

	split_lines(text, len, &l);
	if (!l.at || !l.len)
		ok = false;
	for (i = 0; ok && i < l.n; i++) {
		if (!json_object_line(l.at[i], l.len[i])) {
			ok = false;
			snprintf(msg, sizeof(msg), "%s line %zu is not one valid JSON object: %.*s",
				 what, i + 1, (int)(l.len[i] > 300 ? 300 : l.len[i]), l.at[i]);
			printf("\n%s\n", msg);
		}
	}
	if (ok && (!len || text[len - 1] != '\n')) {
		ok = false;
		snprintf(msg, sizeof(msg), "%s does not end in a newline", what);
	}
	if (ok)
		snprintf(msg, sizeof(msg), "%s: every line is one JSON object", what);
	golden_assert(ok, line, msg);
	free(l.at);
	free(l.len);
	return ok;
}

static bool have_jq(void)
{
	static int have = -1;

	if (have < 0) {
		have = system("command -v jq >/dev/null 2>&1") == 0;
		if (!have)
			printf("\nnote: jq not installed; JSON checked by the built-in parser only\n");
	}
	return have;
}

/*
 * Run jq -c type over @text: count the values that are objects and the
 * other outputs (other types, error messages).  jq's exit status, or -1.
 */
static int jq_types(const char *text, size_t len, size_t *objects, size_t *others)
{
	char tmpl[] = "/tmp/pmcdrv-report-XXXXXX", cmd[128], out[64];
	FILE *p;
	int fd, st;

	*objects = *others = 0;
	fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmpl);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "jq -c type < %s 2>&1", tmpl);
	fflush(stdout);
	p = popen(cmd, "r");
	while (p && fgets(out, sizeof(out), p)) {
		if (!strcmp(out, "\"object\"\n"))
			(*objects)++;
		else
			(*others)++;
	}
	st = p ? pclose(p) : -1;
	unlink(tmpl);
	return st;
}

/*
 * A second opinion from jq, when installed (tests/deps.sh installs it):
 * as many objects as lines, and nothing else.
 */
static void jq_check(const char *what, const char *text, size_t len, size_t nlines,
		     unsigned int line)
{
	size_t objects, others;
	char msg[256];
	int st;

	if (!have_jq())
		return;
	st = jq_types(text, len, &objects, &others);
	snprintf(msg, sizeof(msg), "jq: %s: %zu lines, %zu objects, %zu other outputs, status %d",
		 what, nlines, objects, others, st);
	if (st != 0 || others || objects != nlines)
		printf("\n%s\n", msg);
	golden_assert(st == 0 && !others && objects == nlines, line, msg);
}

/* ---- fixtures ----------------------------------------------------------- */

struct fixture {
	struct pmc_evlist ev;
	struct report_row rows[MAX_ROWS];
	unsigned int n;
	struct report r;
};

/* A run of 'pmcctl run' counting one command once. */
static void fx_init(struct fixture *fx, const char *events)
{
	char err[256] = "";

	memset(fx, 0, sizeof(*fx));
	if (pmc_evlist_parse(&fx->ev, events, err, sizeof(err))) {
		printf("\nfixture events '%s': %s\n", events, err);
		CU_FAIL_FATAL("fixture events do not parse");
	}
	fx->r = (struct report){
		.format = REPORT_TEXT,
		.sep = ",",
		.target = "'./workload --size 64'",
		.runs = 1,
		.interval = -1,
		.time_running = 1234567,
		.elapsed = 0.0025,
		.have_rusage = true,
		.utime = 0.001,
		.stime = 0.0015,
	};
}

/* 'pmcctl stat': system wide, no rusage, one second. */
static void fx_init_stat(struct fixture *fx, const char *events, const char *target)
{
	fx_init(fx, events);
	fx->r.target = target;
	fx->r.have_rusage = false;
	fx->r.elapsed = 1.000456789;
	fx->r.time_running = 1000456789;
}

static void fx_row(struct fixture *fx, unsigned int ev, const char *cpu, double value, double spread)
{
	CU_ASSERT_FATAL(ev < fx->ev.n && fx->n < MAX_ROWS);
	fx->rows[fx->n++] = (struct report_row){
		.ev = &fx->ev.ev[ev],
		.cpu = cpu,
		.value = value,
		.spread_pct = spread,
	};
}

/* One row per event, in order, with these values. */
static void fx_rows(struct fixture *fx, const double *values, unsigned int n)
{
	unsigned int i;

	CU_ASSERT_FATAL(n == fx->ev.n);
	for (i = 0; i < n; i++)
		fx_row(fx, i, NULL, values[i], 0);
}

/* Two rows per event, CPU0 then CPU1, as -A prints them: v[2 * event + cpu]. */
static void fx_rows_per_cpu(struct fixture *fx, const double *v, unsigned int n)
{
	static const char *const cpus[] = { "CPU0", "CPU1" };
	unsigned int i;

	CU_ASSERT_FATAL(n == 2 * fx->ev.n);
	for (i = 0; i < n; i++)
		fx_row(fx, i / 2, cpus[i % 2], v[i], 0);
}

static char *render(const struct fixture *fx, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	report_print(f, &fx->r, fx->rows, fx->n);
	CU_ASSERT_FATAL(!fclose(f));
	return buf;
}

/* The first line (from 1) of @text that ends in a blank or a tab; 0 when none does. */
static size_t trailing_blank_line(const char *text, size_t len)
{
	size_t i, line = 1;

	for (i = 0; i < len; i++) {
		if (text[i] == '\n')
			line++;
		if ((text[i] == ' ' || text[i] == '\t') && (i + 1 == len || text[i + 1] == '\n'))
			return line;
	}
	return 0;
}

/* No line of @text ends in a blank: perf's padding stays only before something. */
static void no_trailing_blanks(const char *what, const char *text, size_t len, unsigned int line)
{
	size_t bad = trailing_blank_line(text, len);
	char msg[256];

	if (bad)
		snprintf(msg, sizeof(msg), "%s: line %zu ends in a blank or tab", what, bad);
	else
		snprintf(msg, sizeof(msg), "%s: no line ends in a blank", what);
	if (bad)
		printf("\n%s\n", msg);
	golden_assert(!bad, line, msg);
}

static void check_one(struct fixture *fx, enum report_format fmt, const char *sep,
		      const char *golden, unsigned int line)
{
	char path[PATH_MAX + 128], *out, *exp;
	size_t len, elen = 0;
	struct lines l;

	fx->r.format = fmt;
	fx->r.sep = sep;
	out = render(fx, &len);
	golden_check(line, golden, out, len);
	if (fmt == REPORT_TEXT)
		no_trailing_blanks(golden, out, len, line);
	if (fmt == REPORT_JSON && json_lines_ok(golden, out, len, line)) {
		split_lines(out, len, &l);
		jq_check(golden, out, len, l.n, line);
		free(l.at);
		free(l.len);
	}
	/* A JSON golden file that differs must itself be valid, line by line. */
	if (fmt == REPORT_JSON) {
		snprintf(path, sizeof(path), "%s/%.100s", golden_dir(), golden);
		exp = read_file(path, &elen);
		if (exp && (elen != len || memcmp(exp, out, len)))
			json_lines_ok(path, exp, elen, line);
		free(exp);
	}
	free(out);
}

/* NAME-text.txt, NAME-csv.txt (separator ","), NAME-json.txt. */
static void check_all(struct fixture *fx, const char *name, unsigned int line)
{
	char g[128];

	snprintf(g, sizeof(g), "%s-text.txt", name);
	check_one(fx, REPORT_TEXT, NULL, g, line);
	snprintf(g, sizeof(g), "%s-csv.txt", name);
	check_one(fx, REPORT_CSV, ",", g, line);
	snprintf(g, sizeof(g), "%s-json.txt", name);
	check_one(fx, REPORT_JSON, NULL, g, line);
}

#define CHECK_ALL(fx, name)			check_all((fx), (name), __LINE__)
#define CHECK_ONE(fx, fmt, sep, golden)		check_one((fx), (fmt), (sep), (golden), __LINE__)

/* perf stat's default set, as 'pmcctl run' without -e prints it. */
static const char default_events[] =
	"task-clock,context-switches,cpu-migrations,cycles,instructions,branches,branch-misses";

/* ---- cases -------------------------------------------------------------- */

/* One run: CPUs utilized beside task-clock, IPC beside instructions. */
static void test_run(void)
{
	static const double v[] = { 1234567, 3, 0, 2345678, 3456789, 654321, 12345 };
	struct fixture fx;

	fx_init(&fx, default_events);
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ALL(&fx, "run");
	/* A separator of several characters goes between every field. */
	CHECK_ONE(&fx, REPORT_CSV, "::", "run-csv-sep.txt");
}

/* -r 3: means and spreads computed from three runs as cmd_run does. */
static void test_repeat(void)
{
	static const double runs[3][7] = {
		{ 1200000, 2, 0, 2300000, 3456789, 654000, 12000 },
		{ 1250000, 3, 1, 2345678, 3456789, 654321, 12345 },
		{ 1300000, 4, 0, 2400000, 3456789, 654642, 12690 },
	};
	static const double elapsed[3] = { 0.0024, 0.0025, 0.0026 };
	struct stat_acc acc[7], t = { 0 };
	struct fixture fx;
	unsigned int r, i;

	fx_init(&fx, default_events);
	memset(acc, 0, sizeof(acc));
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 7; i++)
			acc_add(&acc[i], runs[r][i]);
		acc_add(&t, elapsed[r]);
	}
	for (i = 0; i < 7; i++)
		fx_row(&fx, i, NULL, acc[i].mean, acc_spread_pct(&acc[i]));
	fx.r.runs = 3;
	fx.r.elapsed = t.mean;
	fx.r.elapsed_spread_pct = acc_spread_pct(&t);
	CHECK_ALL(&fx, "repeat");
}

/*
 * -r 2 with the same counts and times in both runs: no spread is printed
 * (perf prints none when it is 0), CSV and JSON say 0.00, and the elapsed
 * time has two decimals.  A separator of several characters in CSV.
 */
static void test_repeat_no_spread(void)
{
	static const double v[] = { 2000000, 2000000, 1000000 };
	struct fixture fx;

	fx_init(&fx, "task-clock,instructions,cycles");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.runs = 2;
	CHECK_ALL(&fx, "repeat-no-spread");
	CHECK_ONE(&fx, REPORT_CSV, "::", "repeat-no-spread-csv-sep.txt");
}

/* stat -A: one row per event per CPU, IPC from the same CPU's cycles. */
static void test_stat_per_cpu(void)
{
	static const double v[] = {
		1000456789, 1000401234, 2000000000, 1000000000, 3000000000, 500000000,
	};
	struct fixture fx;

	fx_init_stat(&fx, "task-clock,cycles,instructions", "'system wide'");
	fx_rows_per_cpu(&fx, v, ARRAY_SIZE(v));
	CHECK_ALL(&fx, "stat-per-cpu");
}

/* -I in text: perf 6.1's header line, once; none in CSV and JSON. */
static void test_interval_header(void)
{
	static const struct {
		enum report_format format;
		bool per_cpu;
		const char *want;
	} t[] = {
		{ REPORT_TEXT, false, "#           time             counts unit events\n" },
		{ REPORT_TEXT, true, "#           time CPU                    counts unit events\n" },
		{ REPORT_CSV, false, "" },
		{ REPORT_JSON, true, "" },
	};
	size_t i, len;
	char *buf;
	FILE *f;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct report r = { .format = t[i].format, .sep = ",", .interval = 1 };

		buf = NULL;
		len = 0;
		f = open_memstream(&buf, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		report_interval_header(f, &r, t[i].per_cpu);
		fclose(f);
		CU_ASSERT_STRING_EQUAL(buf, t[i].want);
		free(buf);
	}
}

/* -I: the time since the start leads every line; no header or footer. */
static void test_interval(void)
{
	static const double v[] = { 1000456789, 2000000000, 3000000000 };
	struct fixture fx;

	fx_init_stat(&fx, "task-clock,cycles,instructions", "'system wide'");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.interval = 1.000123456;
	CHECK_ALL(&fx, "interval");
}

/* -I with -A: time, then CPU, then the count. */
static void test_interval_per_cpu(void)
{
	static const double v[] = { 1500, 2500, 3000, 1250 };
	struct fixture fx;

	fx_init_stat(&fx, "cycles,instructions", "'system wide'");
	fx_rows_per_cpu(&fx, v, ARRAY_SIZE(v));
	fx.r.interval = 12.5;
	CHECK_ALL(&fx, "interval-per-cpu");
}

/* instructions:u and cycles:u: the same modifiers, so IPC. */
static void test_ipc_same_modifiers(void)
{
	static const double v[] = { 3000000, 1200000 };
	struct fixture fx;

	fx_init(&fx, "instructions:u,cycles:u");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ALL(&fx, "ipc-same-mods");
}

/* instructions:u with cycles:k, and instructions (u+k) with cycles:u: no IPC. */
static void test_ipc_other_modifiers(void)
{
	static const double v[] = { 3000000, 1200000 };
	struct fixture fx;

	fx_init(&fx, "instructions:u,cycles:k");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ALL(&fx, "ipc-mixed-mods");

	fx_init(&fx, "instructions,cycles:u");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ONE(&fx, REPORT_TEXT, NULL, "ipc-default-vs-u-text.txt");
}

/* No IPC when cycles counted 0, nor from another CPU's cycles. */
static void test_ipc_no_ratio(void)
{
	static const double v[] = { 1000, 0 };
	struct fixture fx;

	fx_init(&fx, "instructions,cycles");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ONE(&fx, REPORT_TEXT, NULL, "ipc-zero-cycles-text.txt");

	fx_init_stat(&fx, "instructions,cycles", "'CPU(s) 0-1'");
	fx_row(&fx, 0, "CPU0", 4000, 0);
	fx_row(&fx, 0, "CPU1", 3000, 0);
	fx_row(&fx, 1, "CPU0", 2000, 0);
	CHECK_ONE(&fx, REPORT_TEXT, NULL, "ipc-other-cpu-text.txt");
}

/* task-clock without an elapsed time: no CPUs utilized. */
static void test_clock_without_elapsed(void)
{
	static const double v[] = { 2500000 };
	struct fixture fx;

	fx_init(&fx, "task-clock");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.elapsed = 0;
	CHECK_ONE(&fx, REPORT_TEXT, NULL, "clock-no-elapsed-text.txt");
}

/* The note is text only: CSV and JSON stay pure data. */
static void test_note(void)
{
	static const double v[] = { 123456789, 98765432 };
	struct fixture fx;

	fx_init(&fx, "instructions,cycles");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.note = "The counts are of CPU 2: they include everything else that ran on it.";
	CHECK_ALL(&fx, "note");
}

/*
 * Events by code keep the user's spelling; 0x00c0 and r003c are
 * instructions and cycles, so IPC shows.  A long cpu/.../ name overflows
 * the name column, and so does a 16-digit count its column.
 */
static void test_raw_names(void)
{
	static const double v[] = { 1000000, 800000, 25, 1234567890123456.0 };
	struct fixture fx;

	fx_init(&fx, "0x00c0:u,r003c:u,cpu/event=0xc0,umask=0x0,cmask=1,inv/:u,0x01c4");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	CHECK_ALL(&fx, "raw-names");
}

/* ---- the checkers themselves must be able to fail ------------------------ */

static void test_json_checker(void)
{
	static const char *const good[] = {
		"{}",
		" {\"a\": 1} ",
		"{\"a\": -0.5e+10, \"b\": [true, false, null, \"x\\u00e9\\n\"], \"c\": {}}",
		"{\"event\": \"cycles\", \"counter-value\": 1234.000000, \"unit\": \"\"}",
	};
	static const char *const bad[] = {
		"", "[]", "\"s\"", "{", "{\"a\": 1,}", "{\"a\" 1}", "{a: 1}", "{'a': 1}",
		"{\"a\": nan}", "{\"a\": -nan}", "{\"a\": inf}", "{\"a\": 01}", "{\"a\": 1.}",
		"{\"a\": .5}", "{\"a\": 1e}", "{\"a\": +1}", "{\"a\": \"x\ty\"}", "{\"a\": \"\\x\"}",
		"{\"a\": \"\\u12g4\"}", "{\"a\": 1}{\"b\": 2}", "{\"a\": 1} x", "{\"a\": 1, \"a\": 2}",
		"{\"a\": tru}", "{\"a\": \"unterminated}",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		if (!json_object_line(good[i], strlen(good[i])))
			printf("\nJSON checker rejected good input %zu: %s\n", i, good[i]);
		CU_ASSERT_TRUE(json_object_line(good[i], strlen(good[i])));
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (json_object_line(bad[i], strlen(bad[i])))
			printf("\nJSON checker accepted bad input %zu: %s\n", i, bad[i]);
		CU_ASSERT_FALSE(json_object_line(bad[i], strlen(bad[i])));
	}
}

/* jq, when there, counts objects and reports what is not one. */
static void test_jq_checker(void)
{
	static const char good[] = "{\"a\": 1}\n{}\n", other[] = "{}\n[1]\n", bad[] = "{\"a\": 1,}\n";
	size_t objects, others;

	if (!have_jq())
		return;
	CU_ASSERT_EQUAL(jq_types(good, strlen(good), &objects, &others), 0);
	CU_ASSERT_EQUAL(objects, 2);
	CU_ASSERT_EQUAL(others, 0);
	CU_ASSERT_EQUAL(jq_types(other, strlen(other), &objects, &others), 0);
	CU_ASSERT_EQUAL(objects, 1);
	CU_ASSERT_EQUAL(others, 1);
	CU_ASSERT_NOT_EQUAL(jq_types(bad, strlen(bad), &objects, &others), 0);
	CU_ASSERT_EQUAL(objects, 0);
}

/* The mismatch description names the first differing line and column. */
static void test_mismatch_message(void)
{
	static const char exp[] = "a\nb\nsame 1\nsame 2\nold line  \nz\n";
	static const char got[] = "a\nb\nsame 1\nsame 2\nold line\nnew\nz\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	print_mismatch(f, "x.txt", exp, strlen(exp), got, strlen(got));
	CU_ASSERT_FATAL(!fclose(f));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "first difference: line 5, column 9\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  expected: \"old line  \"\n  got:      \"old line\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "--- x.txt\n+++ got\n@@ -3,4 +3,5 @@\n same 1\n same 2\n"
					   "-old line  \n+old line\n+new\n z\n"));
	free(buf);
}

/* The trailing-blank check finds the line. */
static void test_trailing_blank_check(void)
{
	static const char ok[] = "a\n\n b\n", last[] = "a\nb ", tab[] = "a\nb\t\nc\n",
			  mid[] = "x\n  \ny\n";

	CU_ASSERT_EQUAL(trailing_blank_line(ok, strlen(ok)), 0);
	CU_ASSERT_EQUAL(trailing_blank_line("", 0), 0);
	CU_ASSERT_EQUAL(trailing_blank_line(last, strlen(last)), 2);
	CU_ASSERT_EQUAL(trailing_blank_line(tab, strlen(tab)), 2);
	CU_ASSERT_EQUAL(trailing_blank_line(mid, strlen(mid)), 2);
}

/* The running mean and the spread of the mean that -r prints. */
static void test_spread(void)
{
	struct stat_acc a = { 0 }, zero = { 0 };

	CU_ASSERT_DOUBLE_EQUAL(acc_spread_pct(&a), 0, 1e-12);
	acc_add(&a, 10);
	CU_ASSERT_DOUBLE_EQUAL(acc_sd(&a), 0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(acc_spread_pct(&a), 0, 1e-12);
	acc_add(&a, 20);
	acc_add(&a, 30);
	CU_ASSERT_DOUBLE_EQUAL(a.mean, 20, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(acc_sd(&a), 10, 1e-12);
	/* 100 * sd / sqrt(n) / mean = 100 * 10 / sqrt(3) / 20 */
	CU_ASSERT_DOUBLE_EQUAL(acc_spread_pct(&a), 28.867513459481287, 1e-9);
	acc_add(&zero, 0);
	acc_add(&zero, 0);
	CU_ASSERT_DOUBLE_EQUAL(acc_spread_pct(&zero), 0, 1e-12);
}

/* ---- registration --------------------------------------------------------- */

void register_report_tests(void)
{
	static const struct unit_test tests[] = {
		{ "JSON checker rejects bad JSON", test_json_checker },
		{ "jq check tells objects from the rest", test_jq_checker },
		{ "golden mismatch message", test_mismatch_message },
		{ "trailing-blank check finds the line", test_trailing_blank_check },
		{ "mean and spread", test_spread },
		{ "run: text, CSV (also ::), JSON", test_run },
		{ "run -r 3: spreads", test_repeat },
		{ "run -r 2: no spread", test_repeat_no_spread },
		{ "stat -A: per CPU", test_stat_per_cpu },
		{ "stat -I: intervals", test_interval },
		{ "stat -I -A", test_interval_per_cpu },
		{ "stat -I: column header", test_interval_header },
		{ "IPC: same modifiers", test_ipc_same_modifiers },
		{ "IPC: other modifiers, none", test_ipc_other_modifiers },
		{ "IPC: zero cycles, other CPU", test_ipc_no_ratio },
		{ "task-clock without elapsed time", test_clock_without_elapsed },
		{ "note: text only", test_note },
		{ "events by code, long names, big counts", test_raw_names },
	};
	UNIT_ADD_SUITE("report", tests);
}
