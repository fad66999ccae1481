// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmcctl report (user/pmcctl/merge.c).  The input files are
 * written by pmcctl's own writers (report_print() and region_report_print()
 * in JSON, mpi_json_identity()), so the format the report reads cannot
 * drift from the one run and stat write.  Checked: exact sums, min, max,
 * mean and imbalance per event, metric and region; column order by rank;
 * mixed event sets (merged with a note, or refused with --strict);
 * different CPU models; missing values; per-CPU lines adding up; errors
 * naming file and line; the text, CSV and JSON output (JSON parsed back by
 * the strict checker and jq).
 *
 * Linked into the one unit binary; main() calls register_merge_tests().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_check.h"
#include "libpmc.h"
#include "merge.h"
#include "mpi.h"
#include "regions.h"
#include "report.h"
#include "unit.h"

static char dir[] = "/tmp/pmcctl-merge-test.XXXXXX";
static char files[8][128];

/*
 * File @i: what 'pmcctl run -j --regions' writes for rank @rank (-1: no
 * launcher) on @host with @model: @events with @values, then the region
 * table @regions (libpmc's machine form, may be NULL).
 */
static const char *write_run(unsigned int i, int rank, const char *host, const char *model,
			     const char *events, const double *values, const char *regions)
{
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report r = { .format = REPORT_JSON, .sep = ",", .target = "'app'", .runs = 1,
			    .interval = -1, .time_running = 1e6 };
	struct pmc_evlist ev = { .n = 0 };
	struct mpi_rank m = { .rank = rank, .rank_var = "PMI_RANK", .local_rank = rank, .local_var =
			      "MPI_LOCALRANKID", .local_size = 2, .world_size = 2 };
	char err[256];
	unsigned int k;
	FILE *f;

	snprintf(files[i], sizeof(files[i]), "%s/r.%u.json", dir, i);
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, events, err, sizeof(err)), 0);
	f = fopen(files[i], "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	snprintf(m.host, sizeof(m.host), "%s", host);
	if (rank >= 0)
		mpi_json_identity(f, &m, 1000 + rank, model);
	for (k = 0; k < ev.n; k++)
		rows[k] = (struct report_row){ .ev = &ev.ev[k], .value = values[k] };
	report_print(f, &r, rows, ev.n);
	if (regions) {
		struct region_table *t = calloc(1, sizeof(*t));

		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_EQUAL_FATAL(region_table_add(t, regions, strlen(regions), err, sizeof(err)), 0);
		region_report_print(f, &r, &ev, t, 1, NULL);
		free(t);
	}
	fclose(f);
	return files[i];
}

static const struct merge_row *find(const struct merge *m, const char *region, const char *name)
{
	unsigned int i;

	for (i = 0; i < m->n_rows; i++)
		if (!strcmp(m->rows[i].name, name) &&
		    ((!region && !m->rows[i].region) ||
		     (region && m->rows[i].region && !strcmp(region, m->rows[i].region))))
			return &m->rows[i];
	return NULL;
}

static int merge_n(struct merge *m, unsigned int n, bool strict, char *err)
{
	char *argv[8];
	unsigned int i;

	for (i = 0; i < n; i++)
		argv[i] = files[i];
	return merge_files(m, argv, n, strict, err, 512);
}

static char *print(const struct merge *m, enum report_format fmt, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	merge_print(f, m, fmt, ",");
	fclose(f);
	return buf;
}

/* Two ranks written in reverse order; instructions 1e6 and 3e6; a region run twice as often on rank 1. */
static void test_two_ranks(void)
{
	static const double v1[] = { 3000000, 1500000 }, v0[] = { 1000000, 1000000 };
	struct merge m;
	const struct merge_row *r;
	char err[512], *out;
	size_t len;

	write_run(0, 1, "n1", "GenuineIntel-6-55", "instructions:u,cycles:u", v1,
		  "pmcdrv-regions 1 11 2\nr 11 11 4 2000000 600000 300000 work\n");
	write_run(1, 0, "n1", "GenuineIntel-6-55", "instructions:u,cycles:u", v0,
		  "pmcdrv-regions 1 10 2\nr 10 10 2 1000000 200000 100000 work\n");
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 2, true, err), 0);
	CU_ASSERT_EQUAL(m.n_in, 2);
	CU_ASSERT_STRING_EQUAL(m.in[0].label, "n1:0");	/* rank order, not argument order */
	CU_ASSERT_STRING_EQUAL(m.in[1].label, "n1:1");
	CU_ASSERT_EQUAL(m.n_notes, 0);
	r = find(&m, NULL, "instructions:u");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->kind, MERGE_EVENT);
	CU_ASSERT_EQUAL(r->v[0], 1000000);
	CU_ASSERT_EQUAL(r->v[1], 3000000);
	CU_ASSERT_EQUAL(r->sum, 4000000);
	CU_ASSERT_EQUAL(r->min, 1000000);
	CU_ASSERT_EQUAL(r->max, 3000000);
	CU_ASSERT_EQUAL(r->mean, 2000000);
	CU_ASSERT_EQUAL(r->imbalance, 1.5);
	/* IPC, the metric run prints beside instructions: 1.0 and 2.0, no sum. */
	r = find(&m, NULL, "insn per cycle");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->kind, MERGE_METRIC);
	CU_ASSERT_DOUBLE_EQUAL(r->v[0], 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->v[1], 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->imbalance, 2.0 / 1.5, 1e-9);
	r = find(&m, "work", "instructions:u");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->sum, 800000);
	CU_ASSERT_EQUAL(r->min, 200000);
	CU_ASSERT_EQUAL(r->max, 600000);
	CU_ASSERT_EQUAL(r->mean, 400000);
	CU_ASSERT_EQUAL(r->imbalance, 1.5);
	r = find(&m, "work", "calls");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->sum, 6);
	r = find(&m, "work", "msec");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_DOUBLE_EQUAL(r->max, 2.0, 1e-9);
	/* Whole-run events first, then metrics, then the region's rows. */
	CU_ASSERT_STRING_EQUAL(m.rows[0].name, "instructions:u");
	CU_ASSERT_PTR_NULL(m.rows[m.n_rows - 5].region);
	CU_ASSERT_PTR_NOT_NULL(m.rows[m.n_rows - 1].region);

	out = print(&m, REPORT_JSON, &len);
	CU_ASSERT(json_object_line(out, len));	/* the strict checker: one JSON document */
	if (have_jq()) {
		char cmd[256];
		FILE *p;
		int ok = 0;

		snprintf(cmd, sizeof(cmd), "jq -e '.rows[0].event == \"instructions:u\" and .rows[0].sum == 4000000 "
			 "and .rows[0].imbalance == 1.5 and .ranks[1].label == \"n1:1\"' >/dev/null");
		p = popen(cmd, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		fwrite(out, 1, len, p);
		ok = pclose(p);
		CU_ASSERT_EQUAL(ok, 0);
	} else {
		unit_skip("report -j through jq", "jq is not installed (tests/deps.sh)");
	}
	free(out);
	out = print(&m, REPORT_CSV, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "region,name,kind,n1:0,n1:1,sum,min,max,mean,imbalance\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n,instructions:u,event,1000000,3000000,4000000,1000000,3000000,"
				      "2000000,1.500000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n,insn per cycle,metric,1,2,,1,2,1.500000,1.333333\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\nwork,calls,region,2,4,6,2,4,3,1.333333\n"));
	free(out);
	out = print(&m, REPORT_TEXT, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n event                        n1:0      n1:1       sum       min       max"
				      "      mean imbalance\n instructions:u          1,000,000 3,000,000 4,000,000 "
				      "1,000,000 3,000,000 2,000,000     1.500\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n insn per cycle (metric)     1.000     2.000         -     1.000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n region work:\n"));
	free(out);
	merge_free(&m);
}

/* Different event sets: the common ones, a note naming the rest; --strict refuses. */
static void test_mixed_events(void)
{
	static const double a[] = { 10, 20, 30 }, b[] = { 40, 50 };
	struct merge m;
	char err[512];

	write_run(0, 0, "n1", "GenuineIntel-6-55", "instructions:u,branches:u,cycles:u", a, NULL);
	write_run(1, 1, "n1", "GenuineIntel-6-55", "cycles:u,instructions:u", b, NULL);
	CU_ASSERT_EQUAL(merge_n(&m, 2, true, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "different events"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "has branches:u"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, files[0]));
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 2, false, err), 0);
	CU_ASSERT_PTR_NULL(find(&m, NULL, "branches:u"));
	CU_ASSERT_EQUAL(find(&m, NULL, "instructions:u")->sum, 60);
	CU_ASSERT_EQUAL(find(&m, NULL, "cycles:u")->sum, 70);
	CU_ASSERT_EQUAL_FATAL(m.n_notes, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.notes[0], "dropped branches:u of"));
	merge_free(&m);
}

/* Different CPU models: a note, or refused with --strict. */
static void test_models(void)
{
	static const double a[] = { 10 };
	struct merge m;
	char err[512];

	write_run(0, 0, "n1", "GenuineIntel-6-55", "instructions:u", a, NULL);
	write_run(1, 1, "n2", "GenuineIntel-6-8F", "instructions:u", a, NULL);
	CU_ASSERT_EQUAL(merge_n(&m, 2, true, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "n2:1 GenuineIntel-6-8F"));
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 2, false, err), 0);
	CU_ASSERT_EQUAL_FATAL(m.n_notes, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.notes[0], "different CPU models: n1:0 GenuineIntel-6-55, n2:1"));
	merge_free(&m);
}

/* Files without a rank: labelled by file name, in the order given; a region one lacks is "-". */
static void test_no_rank_and_gaps(void)
{
	static const double a[] = { 7 }, b[] = { 9 }, c[] = { 11 };
	struct merge m;
	const struct merge_row *r;
	char err[512], *out;
	size_t len;

	write_run(0, -1, "", NULL, "instructions:u", a, "pmcdrv-regions 1 1 1\nr 1 1 1 10 5 solve\n");
	write_run(1, -1, "", NULL, "instructions:u", b, NULL);
	write_run(2, -1, "", NULL, "instructions:u", c, "pmcdrv-regions 1 1 1\nr 1 1 1 10 8 solve\n");
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 3, false, err), 0);
	CU_ASSERT_STRING_EQUAL(m.in[0].label, "r.0.json");
	CU_ASSERT_STRING_EQUAL(m.in[2].label, "r.2.json");
	r = find(&m, NULL, "instructions:u");
	CU_ASSERT_EQUAL(r->sum, 27);
	CU_ASSERT_EQUAL(r->mean, 9);
	CU_ASSERT_DOUBLE_EQUAL(r->imbalance, 11.0 / 9, 1e-12);
	r = find(&m, "solve", "instructions:u");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->n, 2);
	CU_ASSERT_FALSE(r->have[1]);
	CU_ASSERT_EQUAL(r->sum, 13);
	CU_ASSERT_EQUAL(r->mean, 6.5);
	CU_ASSERT_EQUAL(m.n_notes, 1);	/* one for the region, not one per row */
	out = print(&m, REPORT_TEXT, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n instructions:u        5        -        8    13     5     8   6.5     1.231\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\n note: region 'solve' has no values from r.1.json\n\n"));
	free(out);
	merge_free(&m);
}

/* stat -A: per-CPU lines add up to the file's total; their metrics are left out. */
static void test_per_cpu_lines(void)
{
	static const char stat[] =
		"{\"cpu\": \"0\", \"event\": \"instructions\", \"counter-value\": 100.000000, \"unit\": \"\", "
		"\"event-runtime\": 1, \"pcnt-running\": 100.00, \"metric-value\": 0.5, \"metric-unit\": \"insn per cycle\"}\n"
		"{\"cpu\": \"1\", \"event\": \"instructions\", \"counter-value\": 250.000000, \"unit\": \"\", "
		"\"event-runtime\": 1, \"pcnt-running\": 100.00}\n";
	struct merge m;
	char err[512];
	FILE *f;

	snprintf(files[0], sizeof(files[0]), "%s/stat.json", dir);
	f = fopen(files[0], "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(stat, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 1, false, err), 0);
	CU_ASSERT_EQUAL(find(&m, NULL, "instructions")->sum, 350);
	CU_ASSERT_PTR_NULL(find(&m, NULL, "insn per cycle"));
	merge_free(&m);
}

static void write_text(unsigned int i, const char *text)
{
	FILE *f;

	snprintf(files[i], sizeof(files[i]), "%s/bad.%u.json", dir, i);
	f = fopen(files[i], "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void test_errors(void)
{
	static const double a[] = { 1 };
	struct merge m;
	char err[512];

	write_text(0, "\n Performance counter stats for 'true':\n");
	CU_ASSERT_EQUAL(merge_n(&m, 1, false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad.0.json:2: not a JSON object"));
	write_text(0, "[1, 2]\n");
	CU_ASSERT_EQUAL(merge_n(&m, 1, false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":1: not a JSON object (another JSON value)"));
	write_text(0, "{\"event\": \"x\", \"counter-value\": 1}\n{\"perf_event\": 3}\n");
	CU_ASSERT_EQUAL(merge_n(&m, 1, false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, ":2: a JSON object that is neither"));
	write_text(0, "");
	CU_ASSERT_EQUAL(merge_n(&m, 1, false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "empty"));
	snprintf(files[0], sizeof(files[0]), "%s/none.json", dir);
	CU_ASSERT_EQUAL(merge_n(&m, 1, false, err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "none.json: No such file"));
	/* Two files of the same rank on the same host. */
	write_run(0, 1, "n1", NULL, "instructions:u", a, NULL);
	write_run(1, 1, "n1", NULL, "instructions:u", a, NULL);
	CU_ASSERT_EQUAL(merge_n(&m, 2, false, err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "are both n1:1"));
	CU_ASSERT_EQUAL(merge_files(&m, NULL, 0, false, err, sizeof(err)), -EINVAL);
}

static void test_plot_data(void)
{
	static const double a[] = { 100 }, b[] = { 300 };
	struct merge m;
	char err[512], *buf = NULL;
	size_t len;
	FILE *f;

	write_run(0, 0, "n1", NULL, "instructions:u", a, NULL);
	write_run(1, 1, "n1", NULL, "instructions:u", b, NULL);
	CU_ASSERT_EQUAL_FATAL(merge_n(&m, 2, false, err), 0);
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(merge_plot_data(f, &m), 1);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "rank\tinstructions:u\nn1:0\t0.500000\nn1:1\t1.500000\n");
	free(buf);
	merge_free(&m);
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

void register_merge_tests(void)
{
	static const struct unit_test tests[] = {
		{ "two ranks: exact sum, min, max, mean, imbalance", test_two_ranks },
		{ "different events: common ones and a note, or --strict", test_mixed_events },
		{ "different CPU models: a note, or --strict", test_models },
		{ "files without a rank, a region one lacks", test_no_rank_and_gaps },
		{ "per-CPU lines add up", test_per_cpu_lines },
		{ "errors name the file and line", test_errors },
		{ "the plot's data relative to the mean", test_plot_data },
	};
	CU_pSuite s = CU_add_suite("merge", setup, teardown);
	size_t i;

	for (i = 0; s && i < ARRAY_SIZE(tests); i++)
		CU_add_test(s, tests[i].name, tests[i].fn);
}
