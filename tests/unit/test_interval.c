// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of -I's intervals (user/pmcctl/interval.c), what stat and run
 * share: -I's parsing and bounds, when the next interval is due after a
 * late wake-up, one event's delta between two reads, and the intervals of
 * a run printed through an interval_out into a memory stream: text, CSV
 * (-x,) and JSON against golden files (interval-read-*.txt), the last,
 * partial interval and the empty one left out, multiplexed deltas scaled
 * on their own, --plot's JSON copy and --topdown's header.
 *
 * Linked into the one unit binary; main() calls register_interval_tests().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "interval.h"
#include "json_check.h"
#include "libpmc.h"
#include "pmcctl.h"
#include "report.h"
#include "unit.h"

/* ---- -I MS ---------------------------------------------------------------- */

/*
 * interval_parse(@arg) as 'pmcctl stat -I @arg' calls it, with standard
 * error in a temporary file: its return, and in @err what it printed.
 */
static int parse_quiet(const char *arg, long *ms, char *err, size_t len)
{
	FILE *tmp = tmpfile();
	int saved, ret;
	size_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tmp);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	CU_ASSERT_FATAL(saved >= 0);
	CU_ASSERT_FATAL(dup2(fileno(tmp), STDERR_FILENO) == STDERR_FILENO);
	ret = interval_parse(arg, ms, "stat");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);	/* no FATAL assertion while stderr is the file */
	close(saved);
	rewind(tmp);
	n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return ret;
}

static void test_parse(void)
{
	static const struct {
		const char *arg;
		long ms;	/* 0: refused */
	} t[] = {
		{ "10", 10 },
		{ "100", 100 },
		{ "1000", 1000 },
		{ "86400000", 86400000 },	/* a day, INTERVAL_MAX_MS */
		{ "", 0 },
		{ "abc", 0 },
		{ "10x", 0 },
		{ "1e3", 0 },
		{ "-5", 0 },
		{ "0", 0 },
		{ "9", 0 },
		{ "86400001", 0 },
		{ "9223372036854775807", 0 },	/* LONG_MAX: a long, but too many ms */
		{ "9223372036854775808", 0 },	/* LONG_MAX + 1: strtol's ERANGE */
		{ "99999999999999999999999", 0 },
	};
	char arg[32], err[256], want[256];
	size_t i;
	long ms;
	int ret;

	/* the rule the message gives */
	CU_ASSERT_EQUAL(INTERVAL_MIN_MS, 10);
	CU_ASSERT_EQUAL(INTERVAL_MAX_MS, 86400000L);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ms = -1;
		ret = parse_quiet(t[i].arg, &ms, err, sizeof(err));
		if (t[i].ms) {
			CU_ASSERT_EQUAL(ret, 0);
			CU_ASSERT_EQUAL(ms, t[i].ms);
			CU_ASSERT_STRING_EQUAL(err, "");
			continue;
		}
		if (ret != -EINVAL || ms != -1)
			printf("\n-I '%s': %d, ms %ld\n", t[i].arg, ret, ms);
		CU_ASSERT_EQUAL(ret, -EINVAL);
		CU_ASSERT_EQUAL(ms, -1);	/* left alone when refused */
		snprintf(want, sizeof(want),
			 "pmcctl stat: -I '%s': give milliseconds from 10 to 86400000\n", t[i].arg);
		CU_ASSERT_STRING_EQUAL(err, want);
	}

	/* The bounds from the macros: just inside and just outside. */
	snprintf(arg, sizeof(arg), "%d", INTERVAL_MIN_MS);
	CU_ASSERT(parse_quiet(arg, &ms, err, sizeof(err)) == 0 && ms == INTERVAL_MIN_MS);
	snprintf(arg, sizeof(arg), "%d", INTERVAL_MIN_MS - 1);
	CU_ASSERT_EQUAL(parse_quiet(arg, &ms, err, sizeof(err)), -EINVAL);
	snprintf(arg, sizeof(arg), "%ld", INTERVAL_MAX_MS);
	CU_ASSERT(parse_quiet(arg, &ms, err, sizeof(err)) == 0 && ms == INTERVAL_MAX_MS);
	snprintf(arg, sizeof(arg), "%ld", INTERVAL_MAX_MS + 1);
	CU_ASSERT_EQUAL(parse_quiet(arg, &ms, err, sizeof(err)), -EINVAL);
}

/* ---- the next interval ---------------------------------------------------- */

/*
 * The intervals stay on their grid (t0 + k * interval): a wake-up on time
 * or late makes the next one the first boundary after it, so the ones it
 * missed are skipped rather than printed late one after another (the
 * header says: as perf does).  A wake-up exactly on a boundary is that
 * boundary's interval: the next is one later.  Binary fractions, so exact.
 */
static void test_next_due(void)
{
	static const struct {
		const char *what;
		double next, interval, t, want;
	} t[] = {
		{ "not due yet", 1.0, 0.5, 0.75, 1.0 },
		{ "on time, a little after", 1.0, 0.5, 1.0625, 1.5 },
		{ "exactly on the boundary", 1.0, 0.5, 1.0, 1.5 },
		{ "late: 1.5, 2.0 and 2.5 skipped", 1.0, 0.5, 2.75, 3.0 },
		{ "late, exactly on a later boundary", 1.0, 0.5, 2.5, 3.0 },
		{ "late by less than an interval", 1.0, 0.5, 1.4375, 1.5 },
		{ "no -I: interval 0", 1.0, 0, 5.0, 1.0 },
		{ "a negative interval", 1.0, -0.5, 5.0, 1.0 },
	};
	double t0 = 12345.678, got;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		got = interval_next_due(t[i].next, t[i].interval, t[i].t);
		if (got != t[i].want)
			printf("\n%s: %.17g, want %.17g\n", t[i].what, got, t[i].want);
		CU_ASSERT_DOUBLE_EQUAL(got, t[i].want, 0);
	}
	/* -I 100 from a real clock's start, woken 250 ms late: the next after it, not 0.2 */
	got = interval_next_due(t0 + 0.1, 0.1, t0 + 0.35);
	CU_ASSERT_DOUBLE_EQUAL(got, t0 + 0.4, 1e-9);
	CU_ASSERT(got > t0 + 0.35);
}

/* ---- one event's delta ---------------------------------------------------- */

static void test_delta(void)
{
	struct pmcdrv_read prev = { .nr_events = 3 }, now = { .nr_events = 3 }, d;

	prev.values[0] = 100;
	prev.values[1] = 1000;
	prev.values[2] = 5;
	prev.times[1] = (struct pmcdrv_read_time){ 2000, 1500 };
	prev.time_enabled = 9999;
	prev.time_running = 8888;
	now = prev;
	now.values[0] = 150;
	now.values[1] = 1600;
	now.times[1] = (struct pmcdrv_read_time){ 3000, 2100 };
	now.time_enabled = 19999;
	now.time_running = 18888;
	now.nr_tasks = 4;
	now.flags = PMCDRV_READ_ENABLED | PMCDRV_READ_ATTACHED | PMCDRV_READ_MULTIPLEXED;

	memset(&d, 0xa5, sizeof(d));
	interval_delta(&now, &prev, 1, &d);
	CU_ASSERT_EQUAL(d.nr_events, 1);
	CU_ASSERT_EQUAL(d.values[0], 600);
	CU_ASSERT_EQUAL(d.times[0].time_enabled, 1000);
	CU_ASSERT_EQUAL(d.times[0].time_running, 600);
	/* Of the flags only MULTIPLEXED (count_value() scales by it); the rest is zero. */
	CU_ASSERT_EQUAL(d.flags, PMCDRV_READ_MULTIPLEXED);
	CU_ASSERT_EQUAL(d.values[1], 0);
	CU_ASSERT_EQUAL(d.times[1].time_enabled, 0);
	CU_ASSERT_EQUAL(d.time_enabled, 0);
	CU_ASSERT_EQUAL(d.time_running, 0);
	CU_ASSERT_EQUAL(d.nr_tasks, 0);

	/* Another event: its own value and times (none here). */
	interval_delta(&now, &prev, 0, &d);
	CU_ASSERT_EQUAL(d.values[0], 50);
	CU_ASSERT_EQUAL(d.times[0].time_enabled, 0);
	CU_ASSERT_EQUAL(d.times[0].time_running, 0);
	interval_delta(&now, &prev, 2, &d);
	CU_ASSERT_EQUAL(d.values[0], 0);

	/* now's flags count, not prev's: a session no longer multiplexing is not scaled. */
	prev.flags = PMCDRV_READ_MULTIPLEXED;
	now.flags = PMCDRV_READ_ENABLED | PMCDRV_READ_EXITED;
	interval_delta(&now, &prev, 1, &d);
	CU_ASSERT_EQUAL(d.flags, 0);
	CU_ASSERT_EQUAL(d.values[0], 600);
}

/* ---- intervals printed -------------------------------------------------- */

struct fixture {
	struct count_opts c;
	struct interval_out io;
	FILE *f;
	char *buf;
	size_t len;
};

#define T0	1000.0

/* An interval_out of 'pmcctl run -I 500' counting @events in @fmt, into a memory stream. */
static void fx_init(struct fixture *fx, const char *events, enum report_format fmt)
{
	char err[256] = "";

	memset(fx, 0, sizeof(*fx));
	if (pmc_evlist_parse(&fx->c.events, events, err, sizeof(err))) {
		printf("\nfixture events '%s': %s\n", events, err);
		CU_FAIL_FATAL("fixture events do not parse");
	}
	fx->c.json = fmt == REPORT_JSON;
	fx->c.csv_sep = fmt == REPORT_CSV ? "," : NULL;
	fx->f = open_memstream(&fx->buf, &fx->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fx->f);
	fx->io = (struct interval_out){
		.f = fx->f,
		.c = &fx->c,
		.target = "'./app'",
		.cmd = "run",
		.interval = 0.5,
	};
}

/* What has been printed so far (the stream flushed: buf and len are current). */
static size_t fx_len(struct fixture *fx)
{
	CU_ASSERT_FATAL(!fflush(fx->f));
	return fx->len;
}

/* The output, NUL-terminated: the caller frees it. */
static char *fx_end(struct fixture *fx, size_t *len)
{
	CU_ASSERT_FATAL(!fclose(fx->f));
	*len = fx->len;
	return fx->buf;
}

/*
 * Counting from T0: @r1 read at T0 + @t1, then @r2 at T0 + @t2 (the final
 * read when @last); what @fx printed, from interval_begin() on, must be @want.
 */
static void two_reads(struct fixture *fx, const struct pmcdrv_read *r1, double t1,
		      const struct pmcdrv_read *r2, double t2, bool last, const char *want)
{
	size_t len;
	char *out;

	interval_begin(&fx->io, T0, false);
	interval_print_read(&fx->io, r1, T0 + t1, false);
	interval_print_read(&fx->io, r2, T0 + t2, last);
	out = fx_end(fx, &len);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
}

/* A read of the session: every event counted all the time enabled (@ns). */
static struct pmcdrv_read read_at(const unsigned long long *v, unsigned int n,
				  unsigned long long ns)
{
	struct pmcdrv_read r = { .nr_events = n, .time_enabled = ns, .time_running = ns,
				 .flags = PMCDRV_READ_ENABLED | PMCDRV_READ_ATTACHED };
	unsigned int e;

	for (e = 0; e < n; e++) {
		r.values[e] = v[e];
		r.times[e] = (struct pmcdrv_read_time){ ns, ns };
	}
	return r;
}

/*
 * run -I 500 of task-clock, cycles and instructions (the reads cumulative,
 * as the session gives them): intervals ending at 0.5 s and 1.0 s, then the
 * command exits at 1.25 s and the final read is the last, partial interval.
 * Each interval's own length is its elapsed time: task-clock's 250 ms are
 * 0.500 CPUs utilized in the second, 1.000 in the last.  As perf stat -I
 * prints them: the time since the start leads every line, text has perf
 * 6.1's column line once at the start and no header or summary.  The last,
 * partial interval is pmcctl's own (perf leaves it out; docs/pmcctl.1).
 */
static const char three_events[] = "task-clock,cycles,instructions";
static const unsigned long long reads[3][3] = {
	{ 500000000, 1000000000, 2000000000 },
	{ 750000000, 1600000000, 2300000000 },
	{ 1000000000, 1700000000, 2500000000 },
};
static const double read_t[3] = { T0 + 0.5, T0 + 1.0, T0 + 1.25 };
static const unsigned long long read_ns[3] = { 500000000, 750000000, 1000000000 };

static char *run_intervals(enum report_format fmt, FILE *plot_json, size_t *len)
{
	struct fixture fx;
	struct pmcdrv_read r;
	unsigned int i;

	fx_init(&fx, three_events, fmt);
	fx.io.plot_json = plot_json;
	interval_begin(&fx.io, T0, false);
	CU_ASSERT_DOUBLE_EQUAL(fx.io.next, T0 + 0.5, 0);
	for (i = 0; i < 3; i++) {
		r = read_at(reads[i], 3, read_ns[i]);
		interval_print_read(&fx.io, &r, read_t[i], i == 2);
		CU_ASSERT(!memcmp(&fx.io.prev, &r, sizeof(r)));
		CU_ASSERT_DOUBLE_EQUAL(fx.io.t_last, read_t[i], 0);
	}
	/* due at 1.0 + 0.5: the last read at 1.25 was before it */
	CU_ASSERT_DOUBLE_EQUAL(fx.io.next, T0 + 1.5, 0);
	return fx_end(&fx, len);
}

static void test_print_read(void)
{
	static const struct {
		enum report_format fmt;
		const char *golden;
	} t[] = {
		{ REPORT_TEXT, "interval-read-text.txt" },
		{ REPORT_CSV, "interval-read-csv.txt" },
		{ REPORT_JSON, "interval-read-json.txt" },
	};
	size_t i, len;
	char *out;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		out = run_intervals(t[i].fmt, NULL, &len);
		golden_check_at(__FILE__, __LINE__, t[i].golden, out, len);
		if (t[i].fmt == REPORT_JSON)
			CU_ASSERT(json_lines_ok_at(__FILE__, __LINE__, t[i].golden, out, len));
		free(out);
	}
}

/*
 * The last interval is printed only when something happened in it (a
 * count, or time on a CPU), so the intervals sum to the whole count with
 * no line of zeros at the end.  An interval before the last is printed
 * even when empty.  (Both are pmcctl's: perf stat -I leaves the last,
 * partial interval out altogether; docs/pmcctl.1.)
 */
static void test_last_interval(void)
{
	static const unsigned long long v1[2] = { 1000, 2000 }, zero[2] = { 0, 0 };
	struct pmcdrv_read r0 = read_at(zero, 2, 0), r1 = read_at(v1, 2, 1000000), r2;
	struct fixture fx;
	size_t before, len;
	char *out;

	fx_init(&fx, "cycles,instructions", REPORT_CSV);
	interval_begin(&fx.io, T0, false);
	CU_ASSERT_EQUAL(fx_len(&fx), 0);	/* CSV has no column line */
	/* An empty interval that is not the last: printed, zeros. */
	interval_print_read(&fx.io, &r0, T0 + 0.5, false);
	before = fx_len(&fx);
	CU_ASSERT_STRING_EQUAL(fx.buf, "     0.500000000,0,,cycles,0,100.00\n"
				       "     0.500000000,0,,instructions,0,100.00\n");
	interval_print_read(&fx.io, &r1, T0 + 1.0, false);
	CU_ASSERT(fx_len(&fx) > before);
	/* The last one empty: nothing printed, but the state moves on. */
	before = fx_len(&fx);
	interval_print_read(&fx.io, &r1, T0 + 1.125, true);
	CU_ASSERT_EQUAL(fx_len(&fx), before);
	CU_ASSERT_DOUBLE_EQUAL(fx.io.t_last, T0 + 1.125, 0);

	/* A last interval where the task ran but counted nothing: printed. */
	r2 = r1;
	r2.times[0].time_enabled += 1000;
	r2.times[1].time_enabled += 1000;
	interval_print_read(&fx.io, &r2, T0 + 1.25, true);
	out = fx_end(&fx, &len);
	CU_ASSERT_STRING_EQUAL(out + before, "     1.250000000,0,,cycles,0,100.00\n"
					     "     1.250000000,0,,instructions,0,100.00\n");
	free(out);
}

/*
 * A multiplexed session: each interval is scaled by its own deltas of
 * time enabled and running, as the final counts are (docs/pmcctl.1), not
 * by the totals since the start.  Interval 2:
 * instructions 600 in 600 of 1000 ns is 1000 at 60% (the totals would give
 * 3600 * 2000 / 1600 - 3000 = 1500); cycles, not on a counter in it at all,
 * is <not counted> (and no IPC from it).
 */
static void test_multiplexed(void)
{
	struct pmcdrv_read r1 = { .nr_events = 2, .time_enabled = 1000, .time_running = 1000 }, r2;
	struct fixture fx;

	r1.flags = PMCDRV_READ_ENABLED | PMCDRV_READ_MULTIPLEXED;
	r1.values[0] = 1000;
	r1.times[0] = (struct pmcdrv_read_time){ 1000, 500 };
	r1.values[1] = 3000;
	r1.times[1] = (struct pmcdrv_read_time){ 1000, 1000 };
	r2 = r1;
	r2.times[0] = (struct pmcdrv_read_time){ 2000, 500 };
	r2.values[1] = 3600;
	r2.times[1] = (struct pmcdrv_read_time){ 2000, 1600 };
	r2.time_enabled = r2.time_running = 2000;

	fx_init(&fx, "cycles,instructions", REPORT_TEXT);
	two_reads(&fx, &r1, 1, &r2, 2, true,
		"#           time             counts unit events\n"
		"     1.000000000              2,000      cycles                                                               (50.00%)\n"
		"     1.000000000              3,000      instructions                     #    1.50  insn per cycle\n"
		"     2.000000000      <not counted>      cycles\n"
		"     2.000000000              1,000      instructions                                                         (60.00%)\n");

	/* --no-scale: the raw deltas, each with its own runtime and share */
	fx_init(&fx, "cycles,instructions", REPORT_CSV);
	fx.c.no_scale = true;
	two_reads(&fx, &r1, 1, &r2, 2, false,
		  "     1.000000000,1000,,cycles,500,50.00\n"
		  "     1.000000000,3000,,instructions,1000,100.00,3.00,insn per cycle\n"
		  "     2.000000000,<not counted>,,cycles,0,0.00\n"
		  "     2.000000000,600,,instructions,600,60.00\n");
}

/* --plot: every interval once more as JSON, exactly as -j prints it; the format is kept. */
static void test_plot_copy(void)
{
	char *plot = NULL, *json, *text;
	size_t plot_len = 0, json_len, text_len;
	FILE *pf = open_memstream(&plot, &plot_len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(pf);
	text = run_intervals(REPORT_TEXT, pf, &text_len);
	CU_ASSERT_FATAL(!fclose(pf));
	json = run_intervals(REPORT_JSON, NULL, &json_len);
	CU_ASSERT_EQUAL(plot_len, json_len);
	CU_ASSERT_STRING_EQUAL(plot, json);
	/* still text on -o's stream, after the JSON copies */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "     1.250000000        100,000,000      cycles"));
	CU_ASSERT_PTR_NULL(strchr(text, '{'));
	free(plot);
	free(json);
	free(text);
}

/*
 * interval_print_rows() as stat calls it: each interval flushed as it is
 * printed (-o's file is read while counting: a real, fully buffered file
 * here, read past its FILE), and the caller's report keeps its format
 * after --plot's JSON copy.
 */
static void test_print_rows(void)
{
	static const char want[] = "#           time             counts unit events\n"
				   "     0.500000000                 42      cycles\n";
	struct report_row row;
	struct fixture fx;
	struct report r;
	char *plot = NULL, got[256], *out;
	size_t plot_len = 0, len;
	FILE *pf = open_memstream(&plot, &plot_len), *f = tmpfile();
	ssize_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fx_init(&fx, "cycles", REPORT_TEXT);
	fx.io.f = f;
	fx.io.plot_json = pf;
	interval_begin(&fx.io, T0, false);
	r = interval_report(&fx.io, T0 + 0.5);
	row = (struct report_row){ .ev = &fx.c.events.ev[0], .value = 42 };
	interval_print_rows(&fx.io, &r, &row, 1, true);
	CU_ASSERT_EQUAL(r.format, REPORT_TEXT);
	n = pread(fileno(f), got, sizeof(got) - 1, 0);
	CU_ASSERT_FATAL(n >= 0);
	got[n] = '\0';
	CU_ASSERT_STRING_EQUAL(got, want);
	fclose(f);
	CU_ASSERT_FATAL(!fclose(pf));
	CU_ASSERT_STRING_EQUAL(plot, "{\"interval\": 0.500000000, \"event\": \"cycles\", "
				     "\"counter-value\": 42.000000, \"unit\": \"\", "
				     "\"event-runtime\": 0, \"pcnt-running\": 100.00}\n");
	out = fx_end(&fx, &len);	/* fx's own stream, unused */
	CU_ASSERT_EQUAL(len, 0);
	free(out);
	free(plot);
}

/* interval_report(): the time since the start, the interval's own length, the format. */
static void test_report_fields(void)
{
	struct fixture fx;
	struct report r;
	char *out;
	size_t len;

	fx_init(&fx, "cycles", REPORT_CSV);
	fx.io.t0 = T0;
	fx.io.t_last = T0 + 1.5;
	r = interval_report(&fx.io, T0 + 1.75);
	CU_ASSERT_EQUAL(r.format, REPORT_CSV);
	CU_ASSERT_STRING_EQUAL(r.sep, ",");
	CU_ASSERT_STRING_EQUAL(r.target, "'./app'");
	CU_ASSERT_EQUAL(r.runs, 1);
	CU_ASSERT_DOUBLE_EQUAL(r.interval, 1.75, 0);
	CU_ASSERT_DOUBLE_EQUAL(r.elapsed, 0.25, 0);
	out = fx_end(&fx, &len);
	free(out);
}

/*
 * --topdown: no column line at the start (interval_begin()); its own,
 * naming the metrics, comes with the first interval only.
 */
static void test_topdown_first(void)
{
	/* test_report.c's loop: 12.5%, 12.5%, 18.75%, 56.25% */
	static const unsigned long long v1[5] = { 1600000, 200000, 200000, 300000, 900000 };
	static const unsigned long long v2[5] = { 3200000, 400000, 400000, 600000, 1800000 };
	struct pmcdrv_read r1 = read_at(v1, 5, 1000000), r2 = read_at(v2, 5, 2000000);
	struct fixture fx;

	fx_init(&fx, "{slots,topdown-retiring,topdown-bad-spec,topdown-fe-bound,topdown-be-bound}:u",
		REPORT_TEXT);
	fx.io.topdown = true;
	fx.io.td_level = 1;
	/* the whole output: no text column line before the first interval's */
	two_reads(&fx, &r1, 0.5, &r2, 1.0, true,
		"#           time             Retiring      Bad Speculation       Frontend Bound        Backend Bound \n"
		"     0.500000000                12.5%                12.5%                18.8%                56.2% \n"
		"     1.000000000                12.5%                12.5%                18.8%                56.2% \n");
}

void register_interval_tests(void)
{
	static const struct unit_test tests[] = {
		{ "-I MS: bounds, garbage, the message", test_parse },
		{ "next due: on time, late, on a boundary", test_next_due },
		{ "one event's delta: value, times, flags", test_delta },
		{ "run -I: text, CSV, JSON with the last interval", test_print_read },
		{ "the last interval: not when empty", test_last_interval },
		{ "multiplexed: each interval scaled on its own", test_multiplexed },
		{ "--plot: the same intervals as JSON", test_plot_copy },
		{ "interval_print_rows(): flushed, the format kept", test_print_rows },
		{ "interval_report(): time, length, format", test_report_fields },
		{ "--topdown: its header with the first interval", test_topdown_first },
	};
	UNIT_ADD_SUITE("interval", tests);
}
