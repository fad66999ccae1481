// SPDX-License-Identifier: GPL-2.0
/*
 * Golden-output tests of pmcctl's count reports (user/pmcctl/report.c): fixed
 * inputs, with real pmc_evsel entries from pmc_evlist_parse(), are printed
 * in text, CSV and JSON into a memory stream and compared byte for byte
 * with tests/unit/golden/NAME.  Every JSON line is also checked to be one
 * valid JSON object (tests/lib/json_check.c: a strict parser, and jq).
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
#include <fcntl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "libpmc.h"
#include "unit.h"
#include "report.h"
#include "hybrid.h"
#include "topdown.h"
#include <math.h>

#include "golden.h"
#include "json_check.h"

#define MAX_ROWS	64

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

/* --topdown's level 1 of @fx, with its header, as report_print_topdown() prints it (@gp: topdown.h). */
static char *render_topdown_gp(const struct fixture *fx, struct td_gp *gp)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	report_print_topdown(f, &fx->r, fx->rows, fx->n, 1, gp, true);
	CU_ASSERT_FATAL(!fclose(f));
	return buf;
}

/* The same with PERF_METRICS's rows. */
static char *render_topdown(const struct fixture *fx)
{
	return render_topdown_gp(fx, NULL);
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
	golden_assert_at(!bad, __FILE__, line, msg);
}

static void check_one(struct fixture *fx, enum report_format fmt, const char *sep,
		      const char *golden, unsigned int line)
{
	char path[PATH_MAX + 128], *out, *exp;
	size_t len, elen = 0;
	struct text_lines l;

	fx->r.format = fmt;
	fx->r.sep = sep;
	out = render(fx, &len);
	golden_check_at(__FILE__, line, golden, out, len);
	if (fmt == REPORT_TEXT)
		no_trailing_blanks(golden, out, len, line);
	if (fmt == REPORT_JSON && json_lines_ok_at(__FILE__, line, golden, out, len)) {
		split_lines(out, len, &l);
		jq_check_at(__FILE__, line, golden, out, len, l.n);
		free(l.at);
		free(l.len);
	}
	/* A JSON golden file that differs must itself be valid, line by line. */
	if (fmt == REPORT_JSON) {
		snprintf(path, sizeof(path), "%s/%.100s", golden_dir(), golden);
		exp = read_file(path, &elen);
		if (exp && (elen != len || memcmp(exp, out, len)))
			json_lines_ok_at(__FILE__, line, path, exp, elen);
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
 * A multiplexed session (perf's print_running_std()): a count on the
 * counters part of the time is followed by its share, "(41.67%)"; one never
 * on them is "<not counted>" with no share; one on them all the time, or of
 * a session that fits, has none.  CSV/JSON carry each row's own runtime and
 * percentage.
 */
static void test_multiplexed(void)
{
	static const double v[] = { 1234567, 200001234, 0, 400002468 };
	struct fixture fx;

	fx_init(&fx, "task-clock,instructions:u,cycles:u,cycles:k");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.rows[1].mux = true;
	fx.rows[1].time_running = 514403;
	fx.rows[1].running_pct = 41.6667;
	fx.rows[2].mux = true;
	fx.rows[2].not_counted = true;
	fx.rows[3].mux = true;
	fx.rows[3].time_running = 1234567;
	fx.rows[3].running_pct = 100;
	CHECK_ALL(&fx, "multiplexed");
}

/*
 * An instructions row that never got a counter has no IPC beside it, as
 * perf prints none beside "<not counted>", although cycles counted.
 */
static void test_ipc_not_counted(void)
{
	static const double v[] = { 0, 400002468 };
	enum report_format fmt;
	struct fixture fx;
	char *out;
	size_t len;

	fx_init(&fx, "instructions,cycles");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.rows[0].mux = true;
	fx.rows[0].not_counted = true;
	fx.rows[1].mux = true;
	fx.rows[1].time_running = 1234567;
	fx.rows[1].running_pct = 50;
	for (fmt = REPORT_TEXT; fmt <= REPORT_JSON; fmt++) {
		fx.r.format = fmt;
		fx.r.sep = ",";
		out = render(&fx, &len);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "<not counted>"));
		CU_ASSERT_PTR_NULL(strstr(out, "insn per cycle"));
		free(out);
	}
}

/*
 * -M: a metric in the # column of its first event, a second one of the
 * same row on a line of its own, a ScaleUnit's "%8.1f UNIT  NAME", and a
 * metric without a value (n/a, CSV empty, JSON null).
 */
static void test_metrics(void)
{
	static const double v[] = { 3000, 2000, 1000 };
	static const struct report_metric m[] = {
		{ .row = 0, .name = "tma_info_thread_ipc", .unit = "", .value = 1.5 },
		{ .row = 0, .name = "tma_retiring", .unit = "%", .scaled = true, .value = 37.5 },
		{ .row = 2, .name = "tma_info_core_flopc", .unit = "", .value = NAN },
	};
	struct fixture fx;

	fx_init(&fx, "branches,branch-misses,r01c2");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.metrics = m;
	fx.r.nr_metrics = ARRAY_SIZE(m);
	CHECK_ALL(&fx, "metrics");
	fx.r.interval = 1.0;
	CHECK_ALL(&fx, "metrics-interval");
}

/*
 * The text of @fx written to a terminal (a pseudo-terminal's far end), with
 * TERM and NO_COLOR as given (NULL: unset).
 */
static char *render_tty(const struct fixture *fx, const char *term, const char *no_color)
{
	char *old_term = getenv("TERM") ? strdup(getenv("TERM")) : NULL;
	char *old_nc = getenv("NO_COLOR") ? strdup(getenv("NO_COLOR")) : NULL;
	char *buf = calloc(1, 8192), *name;
	int master, slave;
	size_t len = 0;
	ssize_t k;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	master = posix_openpt(O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(master >= 0 && !grantpt(master) && !unlockpt(master));
	name = ptsname(master);
	CU_ASSERT_PTR_NOT_NULL_FATAL(name);
	slave = open(name, O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(slave >= 0);
	{
		struct termios t;

		/* raw: no "\n" -> "\r\n" on the way */
		CU_ASSERT_FATAL(!tcgetattr(slave, &t));
		cfmakeraw(&t);
		CU_ASSERT_FATAL(!tcsetattr(slave, TCSANOW, &t));
	}
	term ? setenv("TERM", term, 1) : unsetenv("TERM");
	no_color ? setenv("NO_COLOR", no_color, 1) : unsetenv("NO_COLOR");
	f = fdopen(slave, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	report_print(f, &fx->r, fx->rows, fx->n);
	CU_ASSERT_FATAL(!fclose(f));
	old_term ? setenv("TERM", old_term, 1) : unsetenv("TERM");
	old_nc ? setenv("NO_COLOR", old_nc, 1) : unsetenv("NO_COLOR");
	free(old_term);
	free(old_nc);
	while (len < 8191 && (k = read(master, buf + len, 8191 - len)) > 0)
		len += (size_t)k;	/* EIO once the far end is closed and read */
	close(master);
	return buf;
}

/*
 * MetricThreshold: JSON names it ("beyond", "within"; nothing when not
 * decided); CSV and text in a file are as without; text on a terminal has
 * the value in perf's red or green, the columns as wide; not with NO_COLOR
 * or TERM=dumb.
 */
static void test_metric_thresholds(void)
{
	static const double v[] = { 3000, 2000, 1000 };
	static const struct report_metric m[] = {
		{ .row = 0, .name = "tma_info_thread_ipc", .unit = "", .value = 1.5 },
		{ .row = 0, .name = "tma_retiring", .unit = "%", .scaled = true, .value = 37.5,
		  .threshold = REPORT_THRESHOLD_BEYOND },
		{ .row = 2, .name = "tma_frontend_bound", .unit = "%", .scaled = true, .value = 10.0,
		  .threshold = REPORT_THRESHOLD_WITHIN },
	};
	struct fixture fx;
	char *plain, *tty, *p;

	fx_init(&fx, "branches,branch-misses,r01c2");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	fx.r.metrics = m;
	fx.r.nr_metrics = ARRAY_SIZE(m);
	CHECK_ALL(&fx, "metrics-threshold");
	fx.r.format = REPORT_TEXT;
	tty = render_tty(&fx, "xterm", NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(tty, "\033[31m    37.5\033[m %  tma_retiring"));
	CU_ASSERT_PTR_NOT_NULL(strstr(tty, "\033[32m    10.0\033[m %  tma_frontend_bound"));
	/* no colour for IPC (no threshold); without the escapes, the file's text */
	CU_ASSERT_PTR_NOT_NULL(strstr(tty, "#     1.50 tma_info_thread_ipc"));
	while ((p = strstr(tty, "\033[")))
		memmove(p, strchr(p, 'm') + 1, strlen(strchr(p, 'm') + 1) + 1);
	{
		size_t len;

		plain = render(&fx, &len);
	}
	CU_ASSERT_STRING_EQUAL(tty, plain);
	free(tty);
	tty = render_tty(&fx, "xterm", "1");
	CU_ASSERT_STRING_EQUAL(tty, plain);
	free(tty);
	tty = render_tty(&fx, "dumb", NULL);
	CU_ASSERT_STRING_EQUAL(tty, plain);
	free(tty);
	free(plain);
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

	CU_ASSERT_TRUE_FATAL(have_jq());
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

/* --topdown: perf's metrics from the topdown events, and their metric-only CSV. */
static void test_topdown(void)
{
	/* The emulated Sapphire Rapids' loop.S: of 16 slots 2, 2, 3, 9; level 2: 1, 1, 1, 3 */
	static const double v[] = { 1600000, 200000, 200000, 300000, 900000,
				    100000, 100000, 100000, 300000 };
	static const double want[] = { 12.5, 12.5, 18.75, 56.25, 6.25, 6.25, 6.25, 6.25,
				       6.25, 12.5, 18.75, 37.5 };
	struct td_value t[16];
	struct fixture fx;
	char *out;
	int i, m;

	fx_init(&fx, "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound,"
		     "topdown-heavy-ops,topdown-br-mispredict,topdown-fetch-lat,topdown-mem-bound}:u");
	fx_rows(&fx, v, ARRAY_SIZE(v));
	m = report_topdown_metrics(fx.rows, fx.n, 2, NULL, t);
	CU_ASSERT_EQUAL_FATAL(m, 12);
	for (i = 0; i < m; i++)
		CU_ASSERT_DOUBLE_EQUAL(t[i].pct, want[i], 1e-9);
	CU_ASSERT_STRING_EQUAL(t[0].unit, "Retiring");
	CU_ASSERT_STRING_EQUAL(t[5].unit, "Light Operations");
	CU_ASSERT_STRING_EQUAL(t[11].unit, "Core Bound");
	CU_ASSERT_EQUAL(report_topdown_metrics(fx.rows, fx.n, 1, NULL, t), 4);
	/* perf's full_td(): fewer than two non-zero level-1 metrics, no breakdown */
	fx.rows[1].value = fx.rows[2].value = fx.rows[3].value = 0;
	CU_ASSERT_EQUAL(report_topdown_metrics(fx.rows, fx.n, 2, NULL, t), 0);
	fx.rows[1].value = 200000;
	fx.rows[2].value = 200000;
	fx.rows[3].value = 300000;
	fx.r.format = REPORT_CSV;
	out = render_topdown(&fx);
	/* an empty line where text has the names, as perf 6.1 prints it */
	CU_ASSERT_STRING_EQUAL(out, "\n12.5,12.5,18.8,56.2,\n");
	free(out);
}

/* stat --topdown with -I and -A: each CPU's own metrics, the interval's time first. */
static void test_topdown_interval_per_cpu(void)
{
	/* CPU0 as test_topdown's loop; CPU1 all retiring but a quarter back-end bound */
	static const double v0[] = { 1600000, 200000, 200000, 300000, 900000 };
	static const double v1[] = { 800000, 150000, 0, 0, 50000 };
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	unsigned int e;
	FILE *f;

	fx_init_stat(&fx, "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,"
			  "topdown-be-bound}", "'system wide'");
	for (e = 0; e < 5; e++) {
		fx_row(&fx, e, "CPU0", v0[e], 0);
		fx_row(&fx, e, "CPU1", v1[e], 0);
	}
	fx.r.interval = 1.000123456;
	fx.r.format = REPORT_CSV;
	f = open_memstream(&out, &len);
	CU_ASSERT_FATAL(f != NULL);
	report_print_topdown(f, &fx.r, fx.rows, fx.n, 1, NULL, true);
	fx.r.interval = 2.000123456;
	report_print_topdown(f, &fx.r, fx.rows, fx.n, 1, NULL, false);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(out,
		"            time,cpu,Retiring,Bad Speculation,Frontend Bound,Backend Bound,\n"
		"     1.000123456,CPU0,12.5,12.5,18.8,56.2,\n"
		"     1.000123456,CPU1,75.0,0.0,0.0,25.0,\n"
		"     2.000123456,CPU0,12.5,12.5,18.8,56.2,\n"
		"     2.000123456,CPU1,75.0,0.0,0.0,25.0,\n");
	free(out);

	/* Text, -I alone: the names after perf's time column, then the sum's percentages */
	fx.n = 0;
	for (e = 0; e < 5; e++)
		fx_row(&fx, e, NULL, v0[e] + v1[e], 0);
	fx.r.format = REPORT_TEXT;
	fx.r.interval = 1.000123456;
	out = NULL;
	out = render_topdown(&fx);
	CU_ASSERT_STRING_EQUAL(out,
		"#           time             Retiring      Bad Speculation       Frontend Bound        Backend Bound \n"
		"     1.000123456                19.4%                11.1%                16.7%                52.8% \n");
	free(out);
}

/* td_gp_open() for @cpuid with SMT @smt and #core_wide @core_wide; NULL when it refuses (*ret). */
static struct td_gp *td_open(const char *cpuid, int smt, int core_wide, int *ret)
{
	struct pmc_metric_env env;
	struct td_gp *td;
	char err[512] = "";

	pmc_metric_env_init(&env, false);
	env.smt_on = smt;
	env.core_wide = core_wide;
	*ret = td_gp_open(&td, cpuid, &env, NULL, err, sizeof(err));
	return td;
}

/*
 * A hybrid part's rows by core type: raw, adding up to the sum; where the
 * events took turns, each type's row scaled by its own time there (never
 * the whole time), the sum their sum, and an event of one core type its
 * type's estimate, with its share of its type's time and the type's of all.
 */
static void test_type_rows(void)
{
	static struct run_result res;
	static struct type_acc ta;
	struct pmc_evsel ev[2] = {
		{ .name = "instructions:u", .ev = { .type = PMCDRV_EVENT_HW, .event = 0xc0 } },
		{ .name = "cpu_atom/INST_RETIRED.ANY_P/:u",
		  .ev = { .type = PMCDRV_EVENT_HW, .event = 0xc0, .core_type = PMCDRV_CORE_TYPE_ATOM } },
	};
	struct report_row sum[2] = { { .ev = &ev[0], .value = 999 }, { .ev = &ev[1], .value = 999 } };
	struct report_row rows[2 * (PMCDRV_MAX_CORE_TYPES + 1)];
	struct pmc_evsel tev[2 * PMCDRV_MAX_CORE_TYPES];
	unsigned int n;

	res.nr_types = 2;
	res.types[0] = (struct pmcdrv_read_type){ .cpuid_1a = 0x40000001, .time_enabled = 1000,
						  .values = { 400, 0 } };
	res.types[1] = (struct pmcdrv_read_type){ .cpuid_1a = 0x20000001, .time_enabled = 3000,
						  .values = { 300, 300 } };
	res.type_running[0][0] = 500;	/* on a counter half the P-core's time */
	res.type_running[1][0] = 1500;
	res.type_running[1][1] = 1000;	/* a third of the E-core's */

	/* Not taking turns: raw, the sum as it is */
	type_acc_add(&ta, &res, 2, false);
	n = type_rows(0, false, &ta, sum, 2, rows, tev);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT(!strcmp(rows[0].ev->name, "cpu_core/instructions:u/") && rows[0].value == 400);
	CU_ASSERT(!strcmp(rows[1].ev->name, "cpu_atom/instructions:u/") && rows[1].value == 300);
	CU_ASSERT(rows[2].value == 999 && !rows[0].mux && !rows[1].mux);
	CU_ASSERT(rows[3].typed && rows[3].value == 999 && fabs(rows[3].running_pct - 75) < 1e-9);

	/* Taking turns: each type by its own times, the sum theirs */
	memset(&ta, 0, sizeof(ta));
	type_acc_add(&ta, &res, 2, true);
	n = type_rows(0, false, &ta, sum, 2, rows, tev);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT(rows[0].value == 800 && rows[0].mux && fabs(rows[0].running_pct - 50) < 1e-9);
	CU_ASSERT(rows[1].value == 600 && rows[1].mux && fabs(rows[1].running_pct - 50) < 1e-9);
	CU_ASSERT_EQUAL(rows[2].value, 1400);
	/* perf would say 300 x 4000 / 1000 = 1200 for the E-core event: 900 here */
	CU_ASSERT(rows[3].typed && rows[3].mux && rows[3].value == 900);
	CU_ASSERT(fabs(rows[3].running_pct - 100.0 / 3) < 1e-9 && fabs(rows[3].type_pct - 75) < 1e-9);
	/* --cputype atom: its row alone, and the typed one; --hybrid-merge: the estimates' sum */
	n = type_rows(PMCDRV_CORE_TYPE_ATOM, false, &ta, sum, 2, rows, tev);
	CU_ASSERT(n == 2 && rows[0].value == 600 && rows[1].value == 900);
	n = type_rows(0, true, &ta, sum, 2, rows, tev);
	CU_ASSERT(n == 2 && rows[0].value == 1400 && rows[1].value == 900);

	/* A type with time but never on a counter: <not counted>; no time there: raw 0 */
	res.type_running[1][0] = 0;
	res.types[0].time_enabled = 0;
	memset(&ta, 0, sizeof(ta));
	type_acc_add(&ta, &res, 2, true);
	n = type_rows(0, false, &ta, sum, 2, rows, tev);
	CU_ASSERT(rows[1].not_counted && rows[1].value == 0);
	CU_ASSERT(rows[0].mux && !rows[0].not_counted && rows[0].value == 0 &&
		  rows[0].running_pct == 0);
}

/*
 * --topdown without PERF_METRICS: level 1 from the model's TopdownL1
 * metrics in the kernel's data (topdown.c), with SMT off the core-wide
 * clocks (topdown.h); the event names resolve for the model forced.
 */
static void test_topdown_gp(void)
{
	/*
	 * The emulated Skylake's loop.S (tests/qemu/README.md): N = 1e6
	 * instructions, J = N / 2 Jcc; THREAD 2N, IDQ N + J, ISSUED N + J,
	 * RETIRE_SLOTS N, RECOVERY J.
	 */
	static const struct {
		const char *name;
		double v;
	} skl_counts[] = {
		{ "CPU_CLK_UNHALTED.THREAD", 2e6 }, { "IDQ_UOPS_NOT_DELIVERED.CORE", 1.5e6 },
		{ "UOPS_ISSUED.ANY", 1.5e6 }, { "UOPS_RETIRED.RETIRE_SLOTS", 1e6 },
		{ "INT_MISC.RECOVERY_CYCLES", 5e5 },
	};
	static const double want[] = { 12.5, 31.25, 18.75, 37.5 };
	static const char *const units[] = { "Retiring", "Bad Speculation", "Frontend Bound",
					     "Backend Bound" };
	static const char *const skl_cpuids[] = { "GenuineIntel-6-5E-3", "GenuineIntel-6-55-4",
						  "GenuineIntel-6-3C-3" };
	struct td_value t[16];
	struct fixture fx;
	struct td_gp *td;
	unsigned int i, k, c;
	char *out;
	int ret;

	for (c = 0; c < ARRAY_SIZE(skl_cpuids); c++) {
		setenv("PMCDRV_FORCE_CPUID", skl_cpuids[c], 1);
		td = td_open(skl_cpuids[c], 0, 1, &ret);
		CU_ASSERT_EQUAL_FATAL(ret, 0);
		/* one group of the five events, whatever the data's order */
		fx_init(&fx, td_gp_events(td));
		CU_ASSERT_EQUAL(fx.ev.n, 5);
		CU_ASSERT_EQUAL(fx.ev.nr_groups, 1);
		for (i = 0; i < fx.ev.n; i++) {
			for (k = 0; k < ARRAY_SIZE(skl_counts); k++) {
				struct pmc_evlist one;
				char err[256];

				memset(&one, 0, sizeof(one));
				CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&one, skl_counts[k].name, err,
								       sizeof(err)), 0);
				one.ev[0].ev.group = fx.ev.ev[i].ev.group;
				if (!memcmp(&one.ev[0].ev, &fx.ev.ev[i].ev, sizeof(one.ev[0].ev)))
					break;
			}
			CU_ASSERT_FATAL(k < ARRAY_SIZE(skl_counts));
			fx_row(&fx, i, NULL, skl_counts[k].v, 0);
		}
		CU_ASSERT_EQUAL_FATAL(report_topdown_metrics(fx.rows, fx.n, 1, td, t), 4);
		for (i = 0; i < 4; i++) {
			CU_ASSERT_DOUBLE_EQUAL(t[i].pct, want[i], 1e-9);
			CU_ASSERT_STRING_EQUAL(t[i].unit, units[i]);
		}
		/* no level 2 without PERF_METRICS; none without the metrics */
		CU_ASSERT_EQUAL(report_topdown_metrics(fx.rows, fx.n, 2, td, t), 0);
		CU_ASSERT_EQUAL(report_topdown_metrics(fx.rows, fx.n, 1, NULL, t), 0);
		/* :u rows count the same events */
		for (i = 0; i < fx.ev.n; i++)
			fx.ev.ev[i].ev.flags = (fx.ev.ev[i].ev.flags & ~PMCDRV_EVF_KERNEL) | PMCDRV_EVF_USER;
		CU_ASSERT_EQUAL(td_gp_level1(td, fx.rows, fx.n, t), 4);
		/* cycles 0: perf's division by zero, no metric */
		for (i = 0; i < fx.n && fx.rows[i].value != 2e6; i++)
			;
		CU_ASSERT_FATAL(i < fx.n);
		fx.rows[i].value = 0;
		CU_ASSERT_EQUAL(td_gp_level1(td, fx.rows, fx.n, t), 0);
		fx.rows[i].value = 2e6;
		/* an event missing, or never on a counter (multiplexed): none */
		CU_ASSERT_EQUAL(td_gp_level1(td, fx.rows, fx.n - 1, t), 0);
		fx.rows[0].not_counted = true;
		CU_ASSERT_EQUAL(td_gp_level1(td, fx.rows, fx.n, t), 0);
		fx.rows[0].not_counted = false;
		if (c == 2) {
			/* Haswell: INT_MISC.RECOVERY_CYCLES is 0x0d/0x03 with cmask 1, from the data */
			CU_ASSERT_PTR_NOT_NULL(strstr(td_gp_events(td), "INT_MISC.RECOVERY_CYCLES"));
			for (i = 0; i < fx.ev.n && fx.ev.ev[i].ev.event != 0x0d; i++)
				;
			CU_ASSERT_FATAL(i < fx.ev.n);
			CU_ASSERT_EQUAL(fx.ev.ev[i].ev.umask, 0x03);
			CU_ASSERT_EQUAL(fx.ev.ev[i].ev.cmask, 1);
			fx.r.format = REPORT_CSV;
			fx.r.target = "'system wide'";
			fx.r.have_rusage = false;
			out = render_topdown_gp(&fx, td);
			CU_ASSERT_STRING_EQUAL(out, "\n12.5,31.2,18.8,37.5,\n");
			free(out);
		}
		td_gp_close(td);

		/* SMT on: the data's formulas count both threads (AnyThread): refused, named */
		CU_ASSERT_PTR_NULL(td_open(skl_cpuids[c], 1, 0, &ret));
		CU_ASSERT_EQUAL(ret, -EOPNOTSUPP);
		/* a task with SMT off as perf counts it: two clock events more, the same formula */
		td = td_open(skl_cpuids[c], 0, 0, &ret);
		CU_ASSERT_EQUAL(ret, 0);
		CU_ASSERT_PTR_NOT_NULL(td ? strstr(td_gp_events(td), "ONE_THREAD_ACTIVE") : NULL);
		td_gp_close(td);
	}
	/* a model the data does not have */
	setenv("PMCDRV_FORCE_CPUID", "GenuineIntel-6-01-1", 1);
	CU_ASSERT_PTR_NULL(td_open("GenuineIntel-6-01-1", 0, 1, &ret));
	CU_ASSERT_EQUAL(ret, -ENODEV);
	unsetenv("PMCDRV_FORCE_CPUID");
}

void register_report_tests(void)
{
	static const struct unit_test jq_tests[] = {
		{ "jq check tells objects from the rest", test_jq_checker },
	};
	static const struct unit_test tests[] = {
		{ "JSON checker rejects bad JSON", test_json_checker },
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
		{ "multiplexed: (xx.xx%), <not counted>", test_multiplexed },
		{ "no IPC beside a <not counted> instructions row", test_ipc_not_counted },
		{ "-M metrics: the # column, lines of their own, n/a", test_metrics },
		{ "-M: MetricThreshold in JSON, colour on a terminal only", test_metric_thresholds },
		{ "events by code, long names, big counts", test_raw_names },
		{ "--topdown: perf's metrics, metric-only CSV", test_topdown },
		{ "stat --topdown -I -A: per CPU, per interval", test_topdown_interval_per_cpu },
		{ "--topdown from general-purpose events", test_topdown_gp },
		{ "hybrid rows: raw, and each type's estimate when taking turns", test_type_rows },
	};
	UNIT_ADD_SUITE("report", tests);
	/* Without jq this would pass with no assertion: say it is skipped instead. */
	if (have_jq())
		UNIT_ADD_SUITE("report (jq)", jq_tests);
	else
		unit_skip("report (jq): jq check tells objects from the rest", "jq is not installed (make deps)");
}
