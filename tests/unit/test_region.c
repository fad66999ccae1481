// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the region API, user/libpmc/region.c, on a fake self-reader
 * (each read of a thread advances its counts by 1, 2, 3, ... per event and
 * its time by 10 ns, so every region's totals are known exactly): counts
 * and nesting, every error with its errno and message, the table and
 * nesting limits, threads, a name buffer reused for another name, read
 * failures, fork; and pmcctl's side (user/pmcctl/regions.c): the machine form
 * written by libpmc read back, malformed tables refused with the line
 * named, and the report in text, CSV and JSON.
 *
 * Linked into the one unit binary; main() calls register_region_tests().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hybrid.h"
#include "json_check.h"
#include "libpmc.h"
#include "metrics.h"
#include "region-internal.h"
#include "regions.h"
#include "unit.h"

#define NEV 3

struct fake_reader {
	uint64_t k;	/* reads so far */
};

static int fake_read_err;	/* the next reads fail with it */
static int fake_echild_once;	/* the next read is -ECHILD, the following ones not */

static int fake_open(void *ctx, void **reader)
{
	(void)ctx;
	*reader = calloc(1, sizeof(struct fake_reader));
	return *reader ? 0 : -ENOMEM;
}

static int fake_read(void *reader, uint64_t *vals, unsigned int n, uint64_t *time_ns)
{
	struct fake_reader *r = reader;
	unsigned int i;

	if (fake_read_err)
		return fake_read_err;
	if (fake_echild_once) {
		fake_echild_once = 0;
		return -ECHILD;
	}
	r->k++;
	for (i = 0; i < n; i++)
		vals[i] = r->k * (i + 1);
	*time_ns = r->k * 10;
	return 0;
}

static void fake_close(void *reader)
{
	free(reader);
}

static const struct pmc_region_backend fake = {
	.open = fake_open,
	.read = fake_read,
	.close = fake_close,
};

static const char *const names[NEV] = { "instructions", "cycles", "branches" };

static void setup(void)
{
	fake_read_err = 0;
	CU_ASSERT_EQUAL_FATAL(pmc_region_init_backend(&fake, NULL, NEV, names, NULL), 0);
}

/* Region @name has @calls calls in @threads threads, and each pair read @per times apart. */
static void expect(const char *name, uint64_t calls, unsigned int threads, uint64_t per)
{
	struct pmc_region_stats st;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(pmc_region_get(name, &st), 0);
	CU_ASSERT_EQUAL(st.calls, calls);
	CU_ASSERT_EQUAL(st.threads, threads);
	CU_ASSERT_EQUAL(st.nr_events, NEV);
	CU_ASSERT_EQUAL(st.time_ns, calls * per * 10);
	for (i = 0; i < NEV; i++)
		CU_ASSERT_EQUAL(st.values[i], calls * per * (i + 1));
}

static void expect_err(int ret, int err, const char *fragment)
{
	CU_ASSERT_EQUAL(ret, err);
	if (!strstr(pmc_region_error(), fragment)) {
		printf("\n    message '%s' lacks '%s'\n", pmc_region_error(), fragment);
		CU_FAIL("message");
	}
}

static void test_counts(void)
{
	int i;

	setup();
	CU_ASSERT_EQUAL(pmc_region_nr_events(), NEV);
	CU_ASSERT_STRING_EQUAL(pmc_region_event_name(1), "cycles");
	CU_ASSERT_PTR_NULL(pmc_region_event_name(NEV));
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
		CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	}
	expect("a", 3, 1, 1);
	CU_ASSERT_EQUAL(pmc_region_reset(), 0);
	expect("a", 0, 0, 1);
	pmc_region_teardown();
}

static void test_nesting(void)
{
	setup();
	CU_ASSERT_EQUAL(pmc_region_begin("outer"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("inner"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("inner"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("inner"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("inner"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("outer"), 0);
	expect("inner", 2, 1, 1);
	expect("outer", 1, 1, 5);	/* reads 1 and 6 */
	pmc_region_teardown();
}

static void test_errors(void)
{
	char longname[PMC_REGION_NAME_MAX + 1];
	struct pmc_region_stats st;

	CU_ASSERT_EQUAL(pmc_region_get("a", &st), -ENODEV);
	CU_ASSERT_EQUAL(pmc_region_print(stdout), -ENODEV);
	CU_ASSERT_EQUAL(pmc_region_reset(), -ENODEV);
	CU_ASSERT_EQUAL(pmc_region_nr_events(), 0);
	setup();
	CU_ASSERT_EQUAL(pmc_region_init_backend(&fake, NULL, NEV, names, NULL), -EALREADY);
	expect_err(pmc_region_init(NULL), -EALREADY, "already set up");
	expect_err(pmc_region_end("never"), -ENOENT, "'never': it is not open in this thread");
	CU_ASSERT_EQUAL(pmc_region_begin("z"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("z"), 0);
	expect_err(pmc_region_end("z"), -ENOENT, "'z': it is not open");
	CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
	expect_err(pmc_region_begin("a"), -EALREADY, "open in this thread already");
	CU_ASSERT_EQUAL(pmc_region_begin("b"), 0);
	expect_err(pmc_region_end("a"), -EPROTO, "region 'b', begun inside it, is still open; end 'b' first");
	CU_ASSERT_EQUAL(pmc_region_end("b"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	expect("a", 1, 1, 3);
	memset(longname, 'x', sizeof(longname));
	longname[PMC_REGION_NAME_MAX] = '\0';
	expect_err(pmc_region_begin(longname), -ENAMETOOLONG, "at most 63 characters");
	longname[PMC_REGION_NAME_MAX - 1] = '\0';
	CU_ASSERT_EQUAL(pmc_region_begin(longname), 0);	/* 63: the longest */
	CU_ASSERT_EQUAL(pmc_region_end(longname), 0);
	expect_err(pmc_region_begin(""), -EINVAL, "empty");
	expect_err(pmc_region_begin(NULL), -EINVAL, "NULL");
	expect_err(pmc_region_end(NULL), -EINVAL, "NULL");
	expect_err(pmc_region_begin("tab\there"), -EINVAL, "not printable ASCII (byte 3, 0x09)");
	expect_err(pmc_region_get("nope", &st), -ENOENT, "no region 'nope'");
	/* A failed read: begin fails, end closes the region without counting. */
	fake_read_err = -EIO;
	expect_err(pmc_region_begin("c"), -EIO, "reading the counters");
	fake_read_err = 0;
	CU_ASSERT_EQUAL(pmc_region_begin("c"), 0);
	fake_read_err = -EIO;
	expect_err(pmc_region_end("c"), -EIO, "ended without counting");
	fake_read_err = 0;
	expect_err(pmc_region_end("c"), -ENOENT, "not open");
	expect("c", 0, 0, 1);
	pmc_region_teardown();
}

static void test_limits(void)
{
	char name[32];
	int i;

	setup();
	for (i = 0; i < PMC_REGION_MAX; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		CU_ASSERT_EQUAL_FATAL(pmc_region_begin(name), 0);
		CU_ASSERT_EQUAL_FATAL(pmc_region_end(name), 0);
	}
	expect_err(pmc_region_begin("one-too-many"), -ENOSPC, "the table holds 256 regions");
	CU_ASSERT_EQUAL(pmc_region_begin("r7"), 0);	/* known names still work */
	CU_ASSERT_EQUAL(pmc_region_end("r7"), 0);
	expect("r7", 2, 1, 1);
	/* The name buffer held 256 names in turn: each pair went to its own region. */
	expect("r255", 1, 1, 1);
	for (i = 0; i < PMC_REGION_DEPTH_MAX; i++) {
		snprintf(name, sizeof(name), "r%d", i);
		CU_ASSERT_EQUAL_FATAL(pmc_region_begin(name), 0);
	}
	expect_err(pmc_region_begin("r100"), -EOVERFLOW, "32 regions are open in this thread");
	for (i = PMC_REGION_DEPTH_MAX - 1; i >= 0; i--) {
		snprintf(name, sizeof(name), "r%d", i);
		CU_ASSERT_EQUAL_FATAL(pmc_region_end(name), 0);
	}
	pmc_region_teardown();
}

#define THREADS	4
#define PAIRS	1000

static void *thread_fn(void *arg)
{
	char own[32];
	long fails = 0;
	int i;

	snprintf(own, sizeof(own), "own-%ld", (long)(intptr_t)arg);
	for (i = 0; i < PAIRS; i++) {
		fails += pmc_region_begin("shared") != 0;
		fails += pmc_region_begin(own) != 0;
		fails += pmc_region_end(own) != 0;
		fails += pmc_region_end("shared") != 0;
	}
	/* Ending another thread's open region is not possible: this thread has none. */
	fails += pmc_region_end("shared") != -ENOENT;
	return (void *)fails;
}

static void test_threads(void)
{
	pthread_t th[THREADS];
	void *fails;
	char own[32];
	int i;

	setup();
	FILE *null = fopen("/dev/null", "w");
	struct pmc_region_stats st;

	CU_ASSERT_PTR_NOT_NULL_FATAL(null);
	for (i = 0; i < THREADS; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&th[i], NULL, thread_fn, (void *)(intptr_t)i), 0);
	/* Summing and printing while the threads count (a data race here shows under TSan). */
	for (i = 0; i < 200; i++) {
		int err = pmc_region_get("shared", &st);

		CU_ASSERT(err == 0 || err == -ENOENT);
		CU_ASSERT_EQUAL(pmc_region_print(null), 0);
	}
	fclose(null);
	for (i = 0; i < THREADS; i++) {
		CU_ASSERT_EQUAL(pthread_join(th[i], &fails), 0);
		CU_ASSERT_PTR_NULL(fails);
	}
	expect("shared", THREADS * PAIRS, THREADS, 3);
	for (i = 0; i < THREADS; i++) {
		snprintf(own, sizeof(own), "own-%d", i);
		expect(own, PAIRS, 1, 1);
	}
	pmc_region_teardown();
}

static void test_fork(void)
{
	pid_t pid;
	int status;

	setup();
	CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("open"), 0);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct pmc_region_stats st;
		int bad = 0;

		/* The child starts empty, with nothing open, and counts on its own. */
		bad |= pmc_region_get("a", &st) != 0 || st.calls != 0;
		bad |= pmc_region_end("open") != -ENOENT;
		bad |= pmc_region_begin("a") != 0 || pmc_region_end("a") != 0;
		bad |= pmc_region_get("a", &st) != 0 || st.calls != 1 || st.values[0] != 1;
		_exit(bad);
	}
	CU_ASSERT_FATAL(pid > 0);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_EQUAL(pmc_region_end("open"), 0);
	expect("a", 1, 1, 1);
	pmc_region_teardown();
}

/*
 * A reader that answers -ECHILD (a child of syscall(SYS_fork), which runs no
 * pthread_atfork handler, holds its parent's readers): begin starts the
 * process's table anew with a reader of its own; ending a region begun
 * before is -ENOENT and forgets the parent's blocks.
 */
static void test_echild(void)
{
	setup();
	CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("open"), 0);
	/* Every reader open now is "the parent's": each read of it is -ECHILD. */
	fake_read_err = -ECHILD;
	expect_err(pmc_region_end("open"), -ENOENT, "it was begun in the parent process");
	fake_read_err = 0;
	expect("a", 0, 0, 1);
	CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	expect("a", 1, 1, 1);
	/* The same in begin: a new reader, and the region counts from it. */
	CU_ASSERT_EQUAL(pmc_region_begin("open"), 0);
	fake_echild_once = 1;
	CU_ASSERT_EQUAL(pmc_region_begin("b"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("b"), 0);
	expect("b", 1, 1, 1);
	expect("a", 0, 0, 1);
	expect_err(pmc_region_end("open"), -ENOENT, "not open in this thread");
	pmc_region_teardown();
}

/* Everything @fn writes to a memory stream, NUL-terminated; free() it. */
static char *capture_print(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pmc_region_print(f), 0);
	fclose(f);
	return buf;
}

static void test_print(void)
{
	char *out;

	setup();
	CU_ASSERT_EQUAL(pmc_region_begin("matmul"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("matmul"), 0);
	out = capture_print();
	CU_ASSERT_STRING_EQUAL(out,
		"region threads        calls           msec     instructions           cycles         branches\n"
		"matmul       1            1       0.000010                1                2                3\n");
	free(out);
	pmc_region_teardown();
}

/* The machine form written by libpmc, read back by pmcctl. */
static void test_round_trip(void)
{
	static struct region_table t;
	char err[256], *buf;
	int fd = memfd_create("regions", 0);
	off_t len;

	CU_ASSERT_FATAL(fd >= 0);
	setup();
	CU_ASSERT_EQUAL(pmc_region_begin("with blanks"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("with blanks"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("b"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("b"), 0);
	CU_ASSERT_EQUAL(pmc_region_write_table(fd), 0);
	CU_ASSERT_EQUAL(pmc_region_write_table(fd), 0);	/* a second process, say */
	pmc_region_teardown();
	len = lseek(fd, 0, SEEK_CUR);
	buf = calloc(1, (size_t)len + 1);
	CU_ASSERT_EQUAL_FATAL(pread(fd, buf, (size_t)len, 0), len);
	close(fd);
	memset(&t, 0, sizeof(t));
	CU_ASSERT_EQUAL(region_table_add(&t, buf, (size_t)len, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(t.tables, 2);
	CU_ASSERT_EQUAL(t.nr_events, NEV);
	CU_ASSERT_EQUAL_FATAL(t.n, 2);
	CU_ASSERT_STRING_EQUAL(t.rows[0].name, "with blanks");
	CU_ASSERT_STRING_EQUAL(t.rows[1].name, "b");
	CU_ASSERT_EQUAL(t.rows[1].threads, 2);
	CU_ASSERT_EQUAL(t.rows[1].calls, 2);
	CU_ASSERT_EQUAL(t.rows[1].values[2], 6);
	CU_ASSERT_EQUAL(t.rows[1].time_ns, 20);
	CU_ASSERT_STRING_EQUAL(t.error, "");
	free(buf);
}

static void test_bad_tables(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "r 1 1 1 1 1 a\n", "line 1: no 'pmcdrv-regions 1' header" },
		{ "pmcdrv-regions 1 5\n", "line 1: the header needs PID NEVENTS" },
		{ "pmcdrv-regions 1 5 33\n", "line 1: NEVENTS is not a number from 0 to 32" },
		{ "pmcdrv-regions 1 5 1\nr 1 2 3 4 5 x", "line 2: the last line is cut short" },
		{ "pmcdrv-regions 1 5 2\nr 1 2 3 4 5 x\n", "line 2: value 2 of 2 is missing" },
		{ "pmcdrv-regions 1 5 1\nr 1 2 3 x\n", "line 2: a region record needs PID TID CALLS TIME_NS" },
		{ "pmcdrv-regions 1 5 1\nr 1 2 3 4 5 \n", "line 2: the region name is empty" },
		{ "pmcdrv-regions 1 5 1\nq 1\n", "line 2: not a region record" },
		{ "pmcdrv-regions 1 5 1\npmcdrv-regions 1 6 2\n", "line 2: a table of 2 events after tables of 1" },
		{ "pmcdrv-regions 1 5 1\nr 1 2 99999999999999999999 4 5 a\n", "line 2: a region record needs" },
	};
	static const char etable[] = "pmcdrv-regions 1 5 0\ne 5 cannot open /dev/pmcdrv\n";
	static struct region_table t;
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memset(&t, 0, sizeof(t));
		err[0] = '\0';
		CU_ASSERT_EQUAL(region_table_add(&t, bad[i].text, strlen(bad[i].text), err, sizeof(err)), -EINVAL);
		if (strncmp(err, bad[i].msg, strlen(bad[i].msg))) {
			printf("\n    table %u: '%s', expected '%s'\n", i, err, bad[i].msg);
			CU_FAIL("message");
		}
	}
	/* An error record is kept, not refused. */
	memset(&t, 0, sizeof(t));
	CU_ASSERT_EQUAL(region_table_add(&t, etable, strlen(etable), err, sizeof(err)), 0);
	CU_ASSERT_STRING_EQUAL(t.error, "cannot open /dev/pmcdrv");
	CU_ASSERT_EQUAL(t.tables, 1);
	CU_ASSERT_EQUAL(t.n, 0);
}

static char *report(enum report_format fmt, const struct region_table *t, const struct pmc_evlist *ev,
		    unsigned int runs, size_t *len)
{
	struct report r = { .format = fmt, .sep = ";", .target = "'./prog'" };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	region_report_print(f, &r, ev, t, runs, NULL);
	fclose(f);
	return buf;
}

static void test_report(void)
{
	static const char text[] =
		"pmcdrv-regions 1 10 2\n"
		"r 10 10 2 3000000 2000000 4000000 multiply\n"
		"r 10 11 2 1000000 1000000 2000000 multiply\n"
		"r 10 10 1 500 100 200 init \"x\"\n";
	static struct region_table t;
	struct pmc_evlist ev = { .n = 0 };
	char err[256], *out;
	size_t len;

	memset(&t, 0, sizeof(t));
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&ev, "instructions:u,cycles:u", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(region_table_add(&t, text, strlen(text), err, sizeof(err)), 0);
	out = report(REPORT_TEXT, &t, &ev, 1, &len);
	if (getenv("PMCDRV_SHOW"))
		fputs(out, stdout);
	CU_ASSERT_STRING_EQUAL(out,
		" Regions of './prog':\n\n"
		" region    threads          calls         msec     instructions:u           cycles:u\n"
		" multiply        2              4        4.000          3,000,000          6,000,000\n"
		" init \"x\"        1              1        0.001                100                200\n\n");
	free(out);
	out = report(REPORT_TEXT, &t, &ev, 2, &len);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, " Regions of './prog' (means of 2 runs):\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, " multiply        1              2        2.000          1,500,000"));
	free(out);
	out = report(REPORT_CSV, &t, &ev, 1, &len);
	CU_ASSERT_STRING_EQUAL(out,
		"region;multiply;2;4;4.000000;3000000;instructions:u\n"
		"region;multiply;2;4;4.000000;6000000;cycles:u\n"
		"region;init \"x\";1;1;0.000500;100;instructions:u\n"
		"region;init \"x\";1;1;0.000500;200;cycles:u\n");
	free(out);
	out = report(REPORT_JSON, &t, &ev, 1, &len);
	CU_ASSERT_STRING_EQUAL(out,
		"{\"region\": \"multiply\", \"threads\": 2, \"calls\": 4, \"msec\": 4.000000, \"events\": ["
		"{\"event\": \"instructions:u\", \"counter-value\": 3000000.000000}, "
		"{\"event\": \"cycles:u\", \"counter-value\": 6000000.000000}]}\n"
		"{\"region\": \"init \\\"x\\\"\", \"threads\": 1, \"calls\": 1, \"msec\": 0.000500, \"events\": ["
		"{\"event\": \"instructions:u\", \"counter-value\": 100.000000}, "
		"{\"event\": \"cycles:u\", \"counter-value\": 200.000000}]}\n");
	json_lines_ok_at(__FILE__, __LINE__, "regions JSON", out, len);
	jq_check_at(__FILE__, __LINE__, "regions JSON", out, len, 2);
	free(out);
}

/* The session set-up's failures: their errno and message, kept for later calls, tried again by init. */
static void test_setup_errors(void)
{
	struct pmc_region_config bad_fd = { .report = "999", .device = "/nonexistent/pmcdrv" };
	struct pmc_region_config bad_dev = { .report = "/nonexistent/report", .device = "/nonexistent/pmcdrv" };
	struct pmc_region_config bad_ev = { .events = "instructions:p", .device = "/dev/null" };

	expect_err(pmc_region_init(&bad_fd), -EBADF, "PMCDRV_REGIONS=999: file descriptor 999 is not open for writing");
	/* The first begin does not try again: same error, same message, in this thread too. */
	expect_err(pmc_region_begin("x"), -EBADF, "file descriptor 999");
	/* An explicit init tries again (twice: the report path of the first is not leaked). */
	expect_err(pmc_region_init(&bad_dev), -ENOENT, "cannot open /nonexistent/pmcdrv: No such file or directory; load pmcdrv");
	expect_err(pmc_region_init(&bad_dev), -ENOENT, "cannot open /nonexistent/pmcdrv");
	expect_err(pmc_region_init(&bad_ev), -EINVAL, "PMCDRV_REGIONS_EVENTS / events: ");
	pmc_region_teardown();
}

/*
 * Metrics of regions (Skylake's data, forced): tma_info_thread_ipc from
 * the fake's counts (each pair counts 1 instruction and 2 cycles: 0.5),
 * a refused metric, and the set-up's errors.
 */
#define SKL_CPUID "GenuineIntel-6-5E-3"

static const char *const mnames[NEV] = { "INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD", "branches" };
static const char *const nocycles[NEV] = { "INST_RETIRED.ANY", "branches", "llc-misses" };

static void test_metrics(void)
{
	struct pmc_metric_info mi;
	double v = -1;
	char *out;
	int i;

	setenv("PMCDRV_FORCE_CPUID", SKL_CPUID, 1);
	fake_read_err = 0;
	CU_ASSERT_EQUAL_FATAL(pmc_region_init_backend(&fake, NULL, NEV, mnames,
						      "tma_info_thread_ipc,tma_info_system_dram_bw_use"), 0);
	CU_ASSERT_EQUAL(pmc_region_nr_metrics(), 2);
	CU_ASSERT_EQUAL(pmc_region_metric_info(0, &mi), 0);
	CU_ASSERT_STRING_EQUAL(mi.name, "tma_info_thread_ipc");
	CU_ASSERT_PTR_NULL(mi.refused);
	CU_ASSERT_EQUAL(pmc_region_metric_info(1, &mi), 0);
	CU_ASSERT_PTR_NOT_NULL(mi.refused);
	expect_err(pmc_region_metric_info(2, &mi), -ERANGE, "no metric 2 (2 asked for)");
	expect_err(pmc_region_metric("a", 0, &v), -ENOENT, "no region 'a'");
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(pmc_region_begin("a"), 0);
		CU_ASSERT_EQUAL(pmc_region_end("a"), 0);
	}
	CU_ASSERT_EQUAL(pmc_region_metric("a", 0, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.5, 1e-12);
	expect_err(pmc_region_metric("a", 1, &v), -EOPNOTSUPP,
		   "metric 'tma_info_system_dram_bw_use' cannot be computed: ");
	expect_err(pmc_region_metric("a", 2, &v), -ERANGE, "no metric 2");
	/* a region begun but never ended has no counts: 0 / 0 is no value */
	CU_ASSERT_EQUAL(pmc_region_begin("open"), 0);
	CU_ASSERT_EQUAL(pmc_region_metric("open", 0, &v), 0);
	CU_ASSERT(isnan(v));
	CU_ASSERT_EQUAL(pmc_region_end("open"), 0);
	out = capture_print();
	CU_ASSERT_STRING_EQUAL(out,
		"region threads        calls           msec INST_RETIRED.ANY CPU_CLK_UNHALTED.THREAD"
		"         branches tma_info_thread_ipc\n"
		"a            1            3       0.000030                3                       6"
		"                9                0.50\n"
		"open         1            1       0.000010                1                       2"
		"                3                0.50\n");
	free(out);
	pmc_region_teardown();
	CU_ASSERT_EQUAL(pmc_region_nr_metrics(), 0);
	expect_err(pmc_region_metric("a", 0, &v), -ENODEV, "not set up");

	/* The set-up's errors: nothing is set up after them. */
	expect_err(pmc_region_init_backend(&fake, NULL, NEV, mnames, "no_such_metric"), -EINVAL,
		   "PMCDRV_REGIONS_METRICS / metrics 'no_such_metric': ");
	expect_err(pmc_region_init_backend(&fake, NULL, NEV, nocycles, "tma_info_thread_ipc"), -EINVAL,
		   "the metrics need the event CPU_CLK_UNHALTED.THREAD, which the session does not count");
	CU_ASSERT_EQUAL(pmc_region_nr_events(), 0);
	CU_ASSERT_EQUAL(pmc_region_nr_metrics(), 0);
	pmc_region_teardown();
	/* perf's generic names count the same as the model's: instructions is INST_RETIRED.ANY */
	CU_ASSERT_EQUAL(pmc_region_init_backend(&fake, NULL, NEV, names, "tma_info_thread_ipc"), 0);
	CU_ASSERT_EQUAL(pmc_region_begin("g"), 0);
	CU_ASSERT_EQUAL(pmc_region_end("g"), 0);
	CU_ASSERT_EQUAL(pmc_region_metric("g", 0, &v), 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 0.5, 1e-12);
	pmc_region_teardown();
	unsetenv("PMCDRV_FORCE_CPUID");
}

/* pmcctl run --regions -M: each region's metric in the text, CSV and JSON reports. */
static void test_report_metrics(void)
{
	static const char text[] =
		"pmcdrv-regions 1 10 2\n"
		"r 10 10 2 3000000 2000000 4000000 multiply\n"
		"r 10 10 1 500 100 0 idle\n";
	static struct region_table t;
	static struct count_opts co;
	struct count_metrics cm;
	struct report r = { .format = REPORT_TEXT, .sep = ";", .target = "'./prog'" };
	char err[256], *out = NULL;
	size_t len;
	FILE *f;
	int fmt;

	setenv("PMCDRV_FORCE_CPUID", SKL_CPUID, 1);
	memset(&t, 0, sizeof(t));
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup(&cm, &co, "tma_info_thread_ipc", false, "run"), 0);
	CU_ASSERT_EQUAL_FATAL(co.events.n, 2);
	CU_ASSERT_EQUAL_FATAL(region_table_add(&t, text, strlen(text), err, sizeof(err)), 0);
	for (fmt = 0; fmt < 3; fmt++) {
		r.format = fmt == 0 ? REPORT_TEXT : fmt == 1 ? REPORT_CSV : REPORT_JSON;
		f = open_memstream(&out, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		region_report_print(f, &r, &co.events, &t, 1, &cm);
		fclose(f);
		if (getenv("PMCDRV_SHOW"))
			fputs(out, stdout);
		if (r.format == REPORT_TEXT) {
			CU_ASSERT_PTR_NOT_NULL(strstr(out,
				"\n region multiply:\n"
				"                                                         #     0.50 tma_info_thread_ipc\n"
				" region idle:\n"
				"                                                         #      n/a tma_info_thread_ipc\n\n"));
		} else if (r.format == REPORT_CSV) {
			CU_ASSERT_STRING_EQUAL(out,
				"region;multiply;1;2;3.000000;2000000;INST_RETIRED.ANY;0.50;tma_info_thread_ipc\n"
				"region;multiply;1;2;3.000000;4000000;CPU_CLK_UNHALTED.THREAD;;\n"
				"region;idle;1;1;0.000500;100;INST_RETIRED.ANY;;tma_info_thread_ipc\n"
				"region;idle;1;1;0.000500;0;CPU_CLK_UNHALTED.THREAD;;\n");
		} else {
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"events\": [{\"event\": \"INST_RETIRED.ANY\", "
				"\"counter-value\": 2000000.000000}, {\"event\": \"CPU_CLK_UNHALTED.THREAD\", "
				"\"counter-value\": 4000000.000000}], \"metrics\": [{\"metric-value\": 0.500000, "
				"\"metric-unit\": \"tma_info_thread_ipc\"}]}\n"));
			CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"metrics\": [{\"metric-value\": null, "
				"\"metric-unit\": \"tma_info_thread_ipc\"}]}\n"));
			json_lines_ok_at(__FILE__, __LINE__, "regions -M JSON", out, len);
			jq_check_at(__FILE__, __LINE__, "regions -M JSON", out, len, 2);
		}
		free(out);
		out = NULL;
	}
	count_metrics_close(&cm);
	unsetenv("PMCDRV_FORCE_CPUID");
}

/* A Skylake-like PMU for count_metrics_setup_pmu(): 4 GP counters, 3 fixed, every event available. */
static void skl_info(struct pmcdrv_info *info)
{
	memset(info, 0, sizeof(*info));
	info->perfmon_version = 4;
	info->num_gp = 4;
	info->gp_width = 48;
	info->num_fixed = 3;
	info->fixed_width = 48;
	info->events_len = 7;
	info->events_avail = 0x7f;
	info->avail_mask = 0xfULL | (0x7ULL << 32);
}

/*
 * run -M's refusal by this PMU (metric_refused()): on a PMU whose CPUID.0AH
 * marks branch misses unavailable (the guest's default model), a metric of
 * BR_MISP_RETIRED.ALL_BRANCHES is refused naming it; the IPC is not; a PMU
 * that says nothing (no perfmon) refuses nothing; libpmc's own reasons come first.
 */
static void test_metric_refused(void)
{
	struct pmc_metric_env env;
	struct pmc_metrics *ms = NULL;
	struct pmc_metric_info mi;
	struct pmc_arch_perfmon pm, none;
	struct pmcdrv_info info;
	char err[512], buf[512];
	const char *why;
	unsigned int i, seen = 0;

	setenv("PMCDRV_FORCE_CPUID", SKL_CPUID, 1);
	skl_info(&info);
	info.perfmon_version = 2;
	info.events_avail = 0x7f & ~(1U << 6);	/* bit 6: branch misses retired */
	hybrid_perfmon_from_info(&info, &pm);
	info.perfmon_version = 0;
	hybrid_perfmon_from_info(&info, &none);
	info.perfmon_version = 2;
	pmc_metric_env_init(&env, false);
	CU_ASSERT_EQUAL_FATAL(pmc_metrics_open(SKL_CPUID, "tma_info_thread_ipc,tma_info_bad_spec_ipmispredict,"
					       "tma_info_system_dram_bw_use", &env, &ms, err, sizeof(err)), 0);
	for (i = 0; i < pmc_metrics_nr(ms); i++) {
		CU_ASSERT_EQUAL_FATAL(pmc_metrics_info(ms, i, &mi), 0);
		why = metric_refused(ms, i, &pm, buf, sizeof(buf));
		if (!strcmp(mi.name, "tma_info_thread_ipc")) {
			CU_ASSERT_PTR_NULL(why);
			seen++;
		} else if (!strcmp(mi.name, "tma_info_bad_spec_ipmispredict")) {
			CU_ASSERT_PTR_NOT_NULL_FATAL(why);
			CU_ASSERT_STRING_EQUAL(why, "its event BR_MISP_RETIRED.ALL_BRANCHES cannot be counted here: "
					       "CPUID.0AH marks this architectural event unavailable on this CPU");
			/* no PMU at all: the count says so, not each metric */
			CU_ASSERT_PTR_NULL(metric_refused(ms, i, &none, buf, sizeof(buf)));
			CU_ASSERT_PTR_NULL(metric_refused(ms, i, NULL, buf, sizeof(buf)));
			seen++;
		} else if (!strcmp(mi.name, "tma_info_system_dram_bw_use")) {
			CU_ASSERT_PTR_NOT_NULL(why);
			CU_ASSERT_PTR_EQUAL(why, mi.refused);
			seen++;
		}
	}
	CU_ASSERT_EQUAL(seen, 3);
	pmc_metrics_close(ms);
	unsetenv("PMCDRV_FORCE_CPUID");
}

/* The list index of metric @name's event @ev in @cm, or -1. */
static int metric_event_at(const struct count_metrics *cm, const char *name, const char *ev)
{
	struct pmc_metric_info mi;
	unsigned int k, i;

	for (k = 0; k < cm->nr; k++) {
		pmc_metrics_info(cm->ms, cm->idx[k], &mi);
		if (strcmp(mi.name, name))
			continue;
		for (i = 0; i < cm->nev; i++)
			if (!strcmp(pmc_metrics_event(cm->ms, i), ev))
				return cm->map[k * cm->nev + i] == UINT_MAX ? -1 : (int)cm->map[k * cm->nev + i];
	}
	return -1;
}

/*
 * run -M's placement of the metrics' events (perf's metricgroup.c): shared
 * when they all fit the counters; else each grouped metric in a group of
 * its own events (INST_RETIRED.ANY then counted once per group), a metric
 * whose events are all in an earlier group reusing it, a NO_GROUP_EVENTS
 * metric's events shared; each metric's value from its own group's counts.
 */
static void test_metric_groups(void)
{
	static struct count_opts co;
	struct count_metrics cm;
	struct pmcdrv_info info;
	char err[256];
	struct report_row rows[PMCDRV_MAX_EVENTS];
	struct report r = { .format = REPORT_TEXT };
	unsigned int i, n_inst;
	int up, ipc, cpi, slots, ipc_clk, cpi_clk, j;
	bool ok;

	setenv("PMCDRV_FORCE_CPUID", SKL_CPUID, 1);
	skl_info(&info);
	/* Fits: 2 fixed events, shared, no group. */
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup_pmu(&cm, &co, "tma_info_thread_ipc,tma_info_thread_cpi",
						      false, &info, "run"), 0);
	CU_ASSERT_EQUAL(co.events.n, 2);
	CU_ASSERT_FALSE(cm.grouped);
	CU_ASSERT_EQUAL(co.events.ev[0].ev.group + co.events.ev[1].ev.group, 0);
	count_metrics_close(&cm);

	/* 4 GP events of -e and the metrics' RETIRE_SLOTS: 5 GP events for 4 counters. */
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&co.events, "r01c4,r02c4,r04c4,r08c4", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup_pmu(&cm, &co, "tma_info_thread_uoppi,tma_info_thread_ipc,"
						      "tma_info_thread_cpi", false, &info, "run"), 0);
	CU_ASSERT_TRUE(cm.grouped);
	/* -e's 4, uoppi's group {RETIRE_SLOTS, INST}, ipc's {INST, CLK}; cpi reuses ipc's */
	CU_ASSERT_EQUAL(co.events.n, 8);
	CU_ASSERT_EQUAL(co.events.nr_groups, 2);
	for (i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(co.events.ev[i].ev.group, 0);
	for (i = n_inst = 0; i < co.events.n; i++)
		n_inst += !strcmp(co.events.ev[i].name, "INST_RETIRED.ANY");
	CU_ASSERT_EQUAL(n_inst, 2);
	up = metric_event_at(&cm, "tma_info_thread_uoppi", "INST_RETIRED.ANY");
	slots = metric_event_at(&cm, "tma_info_thread_uoppi", "UOPS_RETIRED.RETIRE_SLOTS");
	ipc = metric_event_at(&cm, "tma_info_thread_ipc", "INST_RETIRED.ANY");
	ipc_clk = metric_event_at(&cm, "tma_info_thread_ipc", "CPU_CLK_UNHALTED.THREAD");
	cpi = metric_event_at(&cm, "tma_info_thread_cpi", "INST_RETIRED.ANY");
	cpi_clk = metric_event_at(&cm, "tma_info_thread_cpi", "CPU_CLK_UNHALTED.THREAD");
	CU_ASSERT_FATAL(up >= 4 && slots >= 4 && ipc >= 4 && ipc_clk >= 4);
	CU_ASSERT_NOT_EQUAL(up, ipc);
	CU_ASSERT_EQUAL(co.events.ev[up].ev.group, co.events.ev[slots].ev.group);
	CU_ASSERT_EQUAL(co.events.ev[ipc].ev.group, co.events.ev[ipc_clk].ev.group);
	CU_ASSERT_NOT_EQUAL(co.events.ev[up].ev.group, co.events.ev[ipc].ev.group);
	CU_ASSERT_NOT_EQUAL(co.events.ev[up].ev.group, 0);
	CU_ASSERT_EQUAL(cpi, ipc);
	CU_ASSERT_EQUAL(cpi_clk, ipc_clk);
	/* Each metric from its own group's counts: INST 1000 in uoppi's group, 900 in ipc's. */
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < co.events.n; i++)
		rows[i] = (struct report_row){ .ev = &co.events.ev[i], .value = 1, .running_pct = 100 };
	rows[up].value = 1000;
	rows[slots].value = 1500;
	rows[ipc].value = 900;
	rows[ipc_clk].value = 1800;
	count_metrics_eval(&cm, rows, co.events.n, 1.0, &r, "run");
	CU_ASSERT_EQUAL_FATAL(r.nr_metrics, 3);
	for (j = 0, ok = true; j < (int)r.nr_metrics; j++) {
		double want = !strcmp(r.metrics[j].name, "tma_info_thread_uoppi") ? 1.5 :
			      !strcmp(r.metrics[j].name, "tma_info_thread_ipc") ? 0.5 : 2.0;

		ok &= fabs(r.metrics[j].value - want) < 1e-9;
	}
	CU_ASSERT_TRUE(ok);
	count_metrics_close(&cm);

	/* Unknown PMU: nothing to fit, shared as before. */
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&co.events, "r01c4,r02c4,r04c4,r08c4", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup_pmu(&cm, &co, "tma_info_thread_uoppi,tma_info_thread_ipc",
						      false, NULL, "run"), 0);
	CU_ASSERT_FALSE(cm.grouped);
	CU_ASSERT_EQUAL(co.events.n, 7);
	count_metrics_close(&cm);

	/*
	 * 2 GP counters: NO_GROUP_EVENTS (tma_info_branches_jump) shares its
	 * events, with a group's member too; tma_bad_speculation's weak group
	 * (3 GP events) is too big for the counters and broken up.
	 */
	info.num_gp = 2;
	info.avail_mask = 0x3ULL | (0x7ULL << 32);
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup_pmu(&cm, &co, "tma_info_inst_mix_ipbranch,"
						      "tma_info_branches_jump,tma_info_inst_mix_ipload,"
						      "tma_bad_speculation", false, &info, "run"), 0);
	CU_ASSERT_TRUE(cm.grouped);
	j = metric_event_at(&cm, "tma_info_branches_jump", "BR_INST_RETIRED.ALL_BRANCHES");
	CU_ASSERT_FATAL(j >= 0);
	CU_ASSERT_EQUAL(j, metric_event_at(&cm, "tma_info_inst_mix_ipbranch", "BR_INST_RETIRED.ALL_BRANCHES"));
	CU_ASSERT_NOT_EQUAL(co.events.ev[j].ev.group, 0);
	j = metric_event_at(&cm, "tma_info_branches_jump", "BR_INST_RETIRED.NEAR_CALL");
	CU_ASSERT_FATAL(j >= 0);
	CU_ASSERT_EQUAL(co.events.ev[j].ev.group, 0);
	j = metric_event_at(&cm, "tma_bad_speculation", "UOPS_ISSUED.ANY");
	CU_ASSERT_FATAL(j >= 0);
	CU_ASSERT_EQUAL(co.events.ev[j].ev.group, 0);
	j = metric_event_at(&cm, "tma_info_inst_mix_ipload", "MEM_INST_RETIRED.ALL_LOADS");
	CU_ASSERT_FATAL(j >= 0);
	CU_ASSERT_NOT_EQUAL(co.events.ev[j].ev.group, 0);
	count_metrics_close(&cm);
	unsetenv("PMCDRV_FORCE_CPUID");
}

/*
 * run -M on a PMU with PERF_METRICS (Sapphire Rapids' TopdownL1): the
 * topdown-* events, which count only in a group with topdown-slots, are
 * grouped with the metrics' TOPDOWN.SLOTS although they fit and are shared;
 * INT_MISC.UOP_DROPPING stays on its own.
 */
static void test_metric_td_group(void)
{
	static struct count_opts co;
	struct count_metrics cm;
	unsigned int i, g = 0, ntd = 0, nslots = 0;

	setenv("PMCDRV_FORCE_CPUID", "GenuineIntel-6-8F-4", 1);
	memset(&co, 0, sizeof(co));
	CU_ASSERT_EQUAL_FATAL(count_metrics_setup_pmu(&cm, &co, "TopdownL1", false, NULL, "run"), 0);
	CU_ASSERT_FALSE(cm.grouped);
	for (i = 0; i < co.events.n; i++) {
		const struct pmcdrv_event *e = &co.events.ev[i].ev;

		if (e->event == 0 && e->umask == 4) {
			nslots++;
			g = e->group;
		}
	}
	CU_ASSERT_EQUAL(nslots, 1);
	CU_ASSERT_NOT_EQUAL(g, 0);
	for (i = 0; i < co.events.n; i++) {
		const struct pmcdrv_event *e = &co.events.ev[i].ev;

		if (e->event == 0 && e->umask > 4) {	/* PERF_METRICS: pseudo umasks past slots */
			ntd++;
			CU_ASSERT_EQUAL(e->group, g);
		} else if (!strcmp(co.events.ev[i].name, "INT_MISC.UOP_DROPPING")) {
			CU_ASSERT_EQUAL(e->group, 0);
		}
	}
	CU_ASSERT_EQUAL(ntd, 4);
	count_metrics_close(&cm);
	unsetenv("PMCDRV_FORCE_CPUID");
}

static const struct unit_test tests[] = {
	{ "set-up errors", test_setup_errors },
	{ "counts and reset", test_counts },
	{ "nesting", test_nesting },
	{ "errors and messages", test_errors },
	{ "table and depth limits", test_limits },
	{ "threads", test_threads },
	{ "fork", test_fork },
	{ "-ECHILD: a fork without atfork handlers", test_echild },
	{ "pmc_region_print", test_print },
	{ "machine form round trip", test_round_trip },
	{ "malformed tables", test_bad_tables },
	{ "pmcctl report", test_report },
	{ "metrics of regions", test_metrics },
	{ "pmcctl report with -M", test_report_metrics },
	{ "run -M: a metric this PMU cannot count", test_metric_refused },
	{ "run -M: perf's groups when the events do not fit", test_metric_groups },
	{ "run -M: top-down events with topdown-slots", test_metric_td_group },
};

void register_region_tests(void)
{
	UNIT_ADD_SUITE("regions", tests);
}
