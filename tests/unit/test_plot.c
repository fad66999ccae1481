// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmcctl plot (user/pmcctl/plot.c).  The input files are
 * written by pmcctl's own JSON writers (report_print() and
 * report_print_topdown() with -I's interval set), so what plot reads cannot
 * drift from what stat writes.  Checked: a two-phase run (a compute phase,
 * then a branchy one) read back exactly, the data file and gnuplot script
 * held against golden files (the JSON fixture too, which tests/plot-check.sh
 * renders), per-CPU lines summed, --topdown's columns, selection by name,
 * and the errors (whole-run output, no intervals, not JSON, unknown names,
 * a picture that is neither PNG nor SVG).
 *
 * Linked into the one unit binary; main() calls register_plot_tests().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "json_check.h"
#include "libpmc.h"
#include "plot.h"
#include "report.h"
#include "unit.h"

static char dir[] = "/tmp/pmcctl-plot-test.XXXXXX";

/* The two-phase run: 12 intervals of 100 ms computing, 8 branchy, a last one of 40 ms. */
#define PH_N		21
#define PH_COMPUTE	12

struct phase {
	double ipc, branches, misses;	/* per cycle */
	double td[4];			/* retiring, bad speculation, frontend, backend: % */
};

static const struct phase compute = { 3.0, 0.2, 0.0002, { 72, 3, 8, 17 } };
static const struct phase branchy = { 0.8, 0.18, 0.016, { 22, 46, 14, 18 } };

/*
 * What 'pmcctl stat -a -I 100 -j -M tma_retiring,...' writes for the run,
 * into @f: cycles, instructions (with IPC), branches and branch-misses per
 * interval, each interval's cycles a little different (deterministic), and
 * the four level-1 shares as metrics of the cycles row.
 */
static void write_phases(FILE *f)
{
	static const char *const td_names[] = { "tma_retiring", "tma_bad_speculation", "tma_frontend_bound",
						 "tma_backend_bound" };
	struct report_row rows[4];
	struct report_metric m[4];
	struct pmc_evlist ev = { .n = 0 };
	struct report r = { .format = REPORT_JSON, .target = "'system wide'", .runs = 1 };
	char err[256];
	unsigned int i, k;

	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, "cycles,instructions,branches,branch-misses", err,
					       sizeof(err)), 0);
	for (i = 0; i < PH_N; i++) {
		const struct phase *ph = i < PH_COMPUTE ? &compute : &branchy;
		double len = i == PH_N - 1 ? 0.04 : 0.1;
		double cycles = round(len * 2.5e9 * (1 + 0.01 * (double)((i * 7) % 5)));
		double skew = 0.5 * (double)((i * 3) % 4) - 0.75;	/* shares move a little */

		r.interval = 0.1 * i + len + 0.000123;
		r.elapsed = len;
		r.time_running = len * 2e9;
		rows[0] = (struct report_row){ .ev = &ev.ev[0], .value = cycles };
		rows[1] = (struct report_row){ .ev = &ev.ev[1], .value = round(cycles * ph->ipc) };
		rows[2] = (struct report_row){ .ev = &ev.ev[2], .value = round(cycles * ph->branches) };
		rows[3] = (struct report_row){ .ev = &ev.ev[3], .value = round(cycles * ph->misses) };
		for (k = 0; k < 4; k++)
			m[k] = (struct report_metric){ .row = 0, .name = td_names[k], .unit = "%", .scaled = true,
						       .value = ph->td[k] + (k == 0 ? skew : k == 3 ? -skew : 0) };
		r.metrics = m;
		r.nr_metrics = 4;
		report_print(f, &r, rows, 4);
	}
}

static char *write_file(const char *name, void (*fn)(FILE *f))
{
	static char path[8][160];
	static unsigned int next;
	char *p = path[next++ % 8];
	FILE *f;

	snprintf(p, 160, "%s/%s", dir, name);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fn(f);
	fclose(f);
	return p;
}

static char *text_of(void (*fn)(FILE *f, const void *arg), const void *arg, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static const struct plot_series *find(const struct plot *p, bool metric, const char *name)
{
	unsigned int i;

	for (i = 0; i < p->n_s; i++)
		if (p->s[i].metric == metric && !strcmp(p->s[i].name, name))
			return &p->s[i];
	return NULL;
}

static void data_of(FILE *f, const void *p)
{
	plot_data(f, p);
}

static void script_of(FILE *f, const void *p)
{
	char err[256];

	CU_ASSERT_EQUAL(plot_script(f, p, "DATA", "phases.png", err, sizeof(err)), 0);
}

static void fixture_of(FILE *f, const void *unused)
{
	(void)unused;
	write_phases(f);
}

/* The two phases read back exactly; the JSON, data and script as the golden files have them. */
static void test_phases(void)
{
	const struct plot_series *s;
	struct plot p;
	char err[512], *path, *text;
	size_t len;
	unsigned int i;

	text = text_of(fixture_of, NULL, &len);
	golden_check_at(__FILE__, __LINE__, "plot-phases-json.txt", text, len);
	CU_ASSERT(json_lines_ok_at(__FILE__, __LINE__, "plot-phases-json.txt", text, len));
	free(text);

	path = write_file("phases.json", write_phases);
	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_t, PH_N);
	CU_ASSERT_DOUBLE_EQUAL(p.t[0], 0.100123, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p.t[PH_N - 1], 2.040123, 1e-9);
	CU_ASSERT_EQUAL(p.n_notes, 0);
	/* 4 events, IPC and the four shares */
	CU_ASSERT_EQUAL(p.n_s, 9);
	CU_ASSERT_STRING_EQUAL(p.s[0].name, "cycles");
	CU_ASSERT(plot_has_topdown(&p));
	CU_ASSERT_EQUAL(plot_panels(&p), 6);	/* the stack, 4 events, IPC */
	s = find(&p, false, "cycles");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->v[0], 250000000);
	CU_ASSERT_EQUAL(s->v[1], 255000000);
	CU_ASSERT_EQUAL(s->v[PH_N - 1], round(0.04 * 2.5e9 * 1.0));
	s = find(&p, false, "branch-misses");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->v[0], 50000);
	CU_ASSERT_EQUAL(s->v[PH_COMPUTE], round(260000000 * 0.016));	/* interval 12: 1.04 * 250e6 cycles */
	s = find(&p, true, "insn per cycle");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->unit, "");
	for (i = 0; i < PH_N; i++)
		CU_ASSERT_DOUBLE_EQUAL(s->v[i], i < PH_COMPUTE ? 3.0 : 0.8, 1e-6);
	s = find(&p, true, "tma_bad_speculation");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->unit, "%");
	CU_ASSERT_EQUAL(s->v[0], 3);
	CU_ASSERT_EQUAL(s->v[PH_N - 1], 46);
	CU_ASSERT_EQUAL(p.td[PLOT_TD_RETIRING], 1);	/* after cycles, whose line carries the first */
	CU_ASSERT_EQUAL(p.td[PLOT_TD_BE_BOUND], 4);

	text = text_of(data_of, &p, &len);
	golden_check_at(__FILE__, __LINE__, "plot-phases-data.txt", text, len);
	free(text);
	text = text_of(script_of, &p, &len);
	golden_check_at(__FILE__, __LINE__, "plot-phases-script.txt", text, len);
	free(text);
	plot_free(&p);
	unlink(path);
}

/* --events and --metrics: only what they name; "topdown" the four; an unknown name said with what there is. */
static void test_select(void)
{
	struct plot p;
	char err[512], *path = write_file("sel.json", write_phases);

	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(plot_select(&p, "branch-misses,cycles", "topdown", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_s, 6);
	CU_ASSERT_STRING_EQUAL(p.s[0].name, "cycles");	/* the file's order */
	CU_ASSERT_STRING_EQUAL(p.s[5].name, "branch-misses");
	CU_ASSERT(plot_has_topdown(&p));
	CU_ASSERT_EQUAL(p.td[PLOT_TD_RETIRING], 1);
	CU_ASSERT_EQUAL(plot_panels(&p), 3);
	plot_free(&p);

	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(plot_select(&p, NULL, "tma_retiring", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_s, 1);
	CU_ASSERT(!plot_has_topdown(&p));	/* one share alone: a panel of its own */
	CU_ASSERT_EQUAL(plot_panels(&p), 1);
	plot_free(&p);

	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(plot_select(&p, "cycles,uops", NULL, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no event 'uops' in it (it has: cycles, instructions, branches, "
				      "branch-misses)"));
	CU_ASSERT_EQUAL(plot_select(&p, NULL, "IPC", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "no metric 'IPC' in it (it has: tma_retiring, tma_bad_speculation, "
				      "tma_frontend_bound, tma_backend_bound, insn per cycle)"));
	plot_free(&p);
	unlink(path);
}

/* stat -A -I: each CPU's count summed per interval; its per-CPU IPC left out with a note. */
static void write_per_cpu(FILE *f)
{
	struct pmc_evlist ev = { .n = 0 };
	struct report r = { .format = REPORT_JSON, .target = "'system wide'", .runs = 1, .time_running = 1e8 };
	struct report_row rows[4];
	char err[256];
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, "cycles,instructions", err, sizeof(err)), 0);
	for (i = 0; i < 3; i++) {
		r.interval = 0.1 * (i + 1);
		rows[0] = (struct report_row){ .ev = &ev.ev[0], .cpu = "CPU0", .value = 1000 + i };
		rows[1] = (struct report_row){ .ev = &ev.ev[0], .cpu = "CPU1", .value = 2000 };
		rows[2] = (struct report_row){ .ev = &ev.ev[1], .cpu = "CPU0", .value = 500 };
		rows[3] = (struct report_row){ .ev = &ev.ev[1], .cpu = "CPU1", .value = 4000,
					       .mux = true, .not_counted = i == 2 };
		report_print(f, &r, rows, 4);
	}
}

static void test_per_cpu(void)
{
	const struct plot_series *s;
	struct plot p;
	char err[512], *path = write_file("cpu.json", write_per_cpu);

	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_t, 3);
	CU_ASSERT_EQUAL(p.n_s, 2);
	s = find(&p, false, "cycles");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->v[0], 3000);
	CU_ASSERT_EQUAL(s->v[2], 3002);
	s = find(&p, false, "instructions");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(s->v[1], 4500);
	CU_ASSERT_EQUAL(s->v[2], 500);		/* CPU1 <not counted>: CPU0's alone */
	CU_ASSERT_EQUAL(p.n_notes, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.notes[0], "metrics of single CPUs (-A) are not drawn"));
	plot_free(&p);
	unlink(path);
}

/* stat --topdown -I -j: metric-only lines named as perf names its columns. */
static void write_topdown(FILE *f)
{
	struct pmc_evlist ev = { .n = 0 };
	struct report r = { .format = REPORT_JSON, .target = "'system wide'", .runs = 1 };
	struct report_row rows[5];
	char err[256];
	unsigned int i, k;

	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, "slots,topdown-retiring,topdown-bad-spec,"
					       "topdown-fe-bound,topdown-be-bound", err, sizeof(err)), 0);
	for (i = 0; i < 2; i++) {
		static const double v[2][5] = { { 1000, 500, 100, 150, 250 }, { 1000, 100, 600, 100, 200 } };

		r.interval = 0.5 * (i + 1);
		for (k = 0; k < 5; k++)
			rows[k] = (struct report_row){ .ev = &ev.ev[k], .value = v[i][k] };
		report_print_topdown(f, &r, rows, 5, 1, NULL, i == 0);
	}
}

static void test_topdown_columns(void)
{
	const struct plot_series *s;
	struct plot p;
	char err[512], *path = write_file("td.json", write_topdown);

	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_t, 2);
	CU_ASSERT(plot_has_topdown(&p));
	CU_ASSERT_EQUAL(plot_panels(&p), 1);
	s = find(&p, true, "Bad Speculation");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_STRING_EQUAL(s->unit, "%");
	CU_ASSERT_DOUBLE_EQUAL(s->v[0], 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(s->v[1], 60, 1e-9);
	CU_ASSERT_EQUAL(plot_select(&p, NULL, "topdown", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(p.n_s, 4);
	plot_free(&p);
	unlink(path);
}

static void write_whole_run(FILE *f)
{
	struct pmc_evlist ev = { .n = 0 };
	struct report r = { .format = REPORT_JSON, .target = "'app'", .runs = 1, .interval = -1 };
	struct report_row row;
	char err[256];

	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, "cycles", err, sizeof(err)), 0);
	row = (struct report_row){ .ev = &ev.ev[0], .value = 5 };
	report_print(f, &r, &row, 1);
}

static void write_empty(FILE *f)
{
	(void)f;
}

static void write_garbage(FILE *f)
{
	fputs("{\"interval\": 0.1, \"event\": \"cycles\", \"counter-value\": 1.0}\n\n"
	      "#           time             counts unit events\n", f);
}

static void write_backwards(FILE *f)
{
	fputs("{\"interval\": 0.2, \"event\": \"cycles\", \"counter-value\": 1.0}\n"
	      "{\"interval\": 0.1, \"event\": \"cycles\", \"counter-value\": 1.0}\n", f);
}

static void test_errors(void)
{
	struct plot p;
	char err[512], *path, script[64];
	FILE *f;

	path = write_file("whole.json", write_whole_run);
	CU_ASSERT_EQUAL(plot_read(&p, path, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "1 count without an interval: this is a whole run's output"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "pmcctl stat -a -I 100 -j -o"));
	unlink(path);
	path = write_file("empty.json", write_empty);
	CU_ASSERT_EQUAL(plot_read(&p, path, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "empty.json: no interval lines in it"));
	unlink(path);
	path = write_file("text.json", write_garbage);
	CU_ASSERT_EQUAL(plot_read(&p, path, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "text.json:3: not a JSON object"));
	unlink(path);
	path = write_file("back.json", write_backwards);
	CU_ASSERT_EQUAL(plot_read(&p, path, err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "back.json:2: an interval earlier than the one before it"));
	unlink(path);
	snprintf(script, sizeof(script), "%s/missing.json", dir);
	CU_ASSERT_EQUAL(plot_read(&p, script, err, sizeof(err)), -ENOENT);

	/* a picture gnuplot is not asked to draw */
	path = write_file("ok.json", write_phases);
	CU_ASSERT_EQUAL_FATAL(plot_read(&p, path, err, sizeof(err)), 0);
	f = fopen("/dev/null", "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(plot_script(f, &p, "DATA", "out.jpg", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "out.jpg: give a file name ending in .png or .svg"));
	CU_ASSERT_EQUAL(plot_script(f, &p, "DATA", "out.svg", err, sizeof(err)), 0);
	fclose(f);
	plot_free(&p);
	unlink(path);
}

static int setup(void)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

void register_plot_tests(void)
{
	static const struct unit_test tests[] = {
		{ "two phases: read exactly, data and script golden", test_phases },
		{ "--events, --metrics, unknown names", test_select },
		{ "-A: counts summed per interval", test_per_cpu },
		{ "--topdown's columns", test_topdown_columns },
		{ "errors", test_errors },
	};
	CU_pSuite s = CU_add_suite("plot", setup, teardown);
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(tests); i++)
		CU_add_test(s, tests[i].name, tests[i].fn);
}
