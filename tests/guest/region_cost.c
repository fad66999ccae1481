// SPDX-License-Identifier: GPL-2.0
/*
 * region_cost [-e EVENTS] N...: the cost of one empty pmc_region_begin/end
 * pair in user-mode instructions, measured by the region API itself on
 * instructions:u (the first event of EVENTS, default instructions:u): for
 * each N, region "outer" wraps N pairs of region "empty", so outer's count
 * is N*K + C, where K is one pair plus this loop's own increment and
 * branch, and C what outer's own begin and end count of themselves.  A
 * software event in EVENTS (task-clock) makes every read PMCDRV_IOC_READ_SELF
 * (the fallback path).  Prints
 *   region_cost path=ioctl|rdpmc
 *   n=N insns=X calls=M        (M: the pairs of "empty" that completed)
 * tests/guest/62-regions.sh checks that X is exactly N*K + C, with K from
 * tests/guest/region-cost.conf.  X is the least of REPEATS runs: a
 * self-read whose page changed under it (a switch, fold or migration in
 * the middle of it) is retried, which costs user instructions; that only
 * ever adds to X, so the least run is the one without a retry.
 *
 * region_cost --fork EVENTS: regions across fork(), per process: the parent
 * begins "parent", forks (fork(), then syscall(SYS_fork), which runs no
 * pthread_atfork handler); each child counts region "loop" around the same
 * loop as the parent, and ending "parent" in the child is -ENOENT.  Prints
 *   fork: how=fork|sysfork child=COUNT end-parent=ERRNO
 *   fork: parent=COUNT
 * (COUNT: the first event's count of "loop").
 *
 * region_cost --early EVENTS: a thread created before the set-up is not
 * tracked: its first begin fails.  Prints
 *   early: begin=ERRNO message=MESSAGE
 *
 * region_cost --perf N: the regions' cost target: guest ns (= guest instructions
 * under QEMU -icount shift=0) of one perf PERF_EVENT_IOC_ENABLE +
 * PERF_EVENT_IOC_DISABLE pair on an instructions:u event, and of one empty
 * region pair (instructions:u, this process's own session, opened after
 * perf's event is closed), the least over 20 batches of N.  Prints
 *   perf-ioctl-pair ns=T
 *   region-pair path=P ns=T
 *
 * region_cost --time: a region's time against its instructions:u (guest
 * ns and guest instructions are the same unit under QEMU -icount
 * shift=0) and against the CLOCK_MONOTONIC time around it: region "short"
 * around about 100,000 instructions, 20 times, each call on its own (well
 * inside one time slice: the page is not updated between its begin and
 * end), and region "long" around work with three 20 ms sleeps in it
 * (switches out and in: the sleeps are not the thread's time).  Prints
 *   time path=rdpmc|ioctl
 *   short insns=X ns=T wall_ns=W            (20 lines)
 *   long insns=X ns=T slept_ns=S wall_ns=W
 * where W is the monotonic time from before the region's begin to after
 * its end, and S the monotonic time spent in the three nanosleep calls.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"

#define EMPTY "empty"
#define REPEATS 5

static int fail(const char *what)
{
	fprintf(stderr, "region_cost: %s: %s\n", what, pmc_region_error());
	return 1;
}

/* The same work in parent and children: its user instructions do not depend on data. */
static __attribute__((noinline)) void work(void)
{
	volatile unsigned long x = 0;
	int i;

	for (i = 0; i < 10000; i++)
		x += (unsigned long)i;
}

/* About 5 * @n user instructions, whatever the data. */
static __attribute__((noinline)) void work_n(long n)
{
	volatile unsigned long x = 0;
	long i;

	for (i = 0; i < n; i++)
		x += (unsigned long)i;
}

static long long now_ns(void);

static int time_test(void)
{
	struct pmc_region_config cfg = { .events = "instructions:u" };
	const struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	struct pmc_region_stats st;
	long long t0, w0, slept = 0;
	int i;

	if (pmc_region_init(&cfg) || pmc_region_begin("short") || pmc_region_end("short"))
		return fail("set-up");
	printf("time path=%s\n", pmc_region_fast() == 1 ? "rdpmc" : "ioctl");
	for (i = 0; i < 20; i++) {
		pmc_region_reset();
		w0 = now_ns();
		if (pmc_region_begin("short"))
			return fail("begin short");
		work_n(20000);
		if (pmc_region_end("short"))
			return fail("end short");
		t0 = now_ns();
		if (pmc_region_get("short", &st))
			return fail("get short");
		printf("short insns=%llu ns=%llu wall_ns=%lld\n", (unsigned long long)st.values[0],
		       (unsigned long long)st.time_ns, t0 - w0);
	}
	w0 = now_ns();
	if (pmc_region_begin("long"))
		return fail("begin long");
	for (i = 0; i < 3; i++) {
		work_n(200000);
		t0 = now_ns();
		nanosleep(&nap, NULL);
		slept += now_ns() - t0;
	}
	work_n(200000);
	if (pmc_region_end("long"))
		return fail("end long");
	t0 = now_ns();
	if (pmc_region_get("long", &st))
		return fail("get long");
	printf("long insns=%llu ns=%llu slept_ns=%lld wall_ns=%lld\n",
	       (unsigned long long)st.values[0], (unsigned long long)st.time_ns, slept, t0 - w0);
	return 0;
}

static int loop_count(uint64_t *count)
{
	struct pmc_region_stats st;

	if (pmc_region_begin("loop"))
		return fail("begin loop");
	work();
	if (pmc_region_end("loop"))
		return fail("end loop");
	if (pmc_region_get("loop", &st))
		return fail("get loop");
	*count = st.values[0];
	return 0;
}

static int fork_child(const char *how)
{
	uint64_t c;
	int err;

	if (loop_count(&c))
		return 1;
	err = pmc_region_end("parent");
	printf("fork: how=%s child=%llu end-parent=%s\n", how, (unsigned long long)c,
	       err == -ENOENT ? "ENOENT" : err ? strerror(-err) : "0");
	fflush(stdout);
	return 0;
}

static int fork_test(const char *events)
{
	struct pmc_region_config cfg = { .events = events };
	static const char *const how[2] = { "fork", "sysfork" };
	uint64_t c;
	int i, status, rc = 0;
	pid_t pid;

	if (pmc_region_init(&cfg))
		return fail("set-up");
	if (pmc_region_begin("parent"))
		return fail("begin parent");
	for (i = 0; i < 2; i++) {
		fflush(stdout);
		pid = i ? (pid_t)syscall(SYS_fork) : fork();
		if (pid < 0) {
			perror("region_cost: fork");
			return 1;
		}
		if (!pid)
			exit(fork_child(how[i]));
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	}
	if (loop_count(&c) || pmc_region_end("parent"))
		return fail("parent");
	printf("fork: parent=%llu\n", (unsigned long long)c);
	return rc;
}

static pthread_barrier_t early_go;

static void *early_thread(void *arg)
{
	int err;

	(void)arg;
	pthread_barrier_wait(&early_go);	/* main() has set up */
	err = pmc_region_begin("early");
	printf("early: begin=%s message=%s\n", err == -ESRCH ? "ESRCH" : err ? strerror(-err) : "0",
	       pmc_region_error());
	return NULL;
}

static int early_test(const char *events)
{
	struct pmc_region_config cfg = { .events = events };
	pthread_t t;
	int err;

	pthread_barrier_init(&early_go, NULL, 2);
	if (pthread_create(&t, NULL, early_thread, NULL))
		return 1;
	err = pmc_region_init(&cfg);
	pthread_barrier_wait(&early_go);
	pthread_join(t, NULL);
	return err ? fail("set-up") : 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int perf_test(long n)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1, .exclude_hv = 1, .disabled = 1,
	};
	struct pmc_region_config cfg = { .events = "instructions:u" };
	long long t0, t1, best = -1;
	int fd, b;
	long i;

	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "region_cost: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	for (b = 0; b < 20; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
			ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		}
		t1 = now_ns();
		if (best < 0 || t1 - t0 < best)
			best = t1 - t0;
	}
	close(fd);	/* pmcdrv and perf exclude each other on the counters */
	printf("perf-ioctl-pair ns=%.1f\n", (double)best / n);
	if (pmc_region_init(&cfg) || pmc_region_begin(EMPTY) || pmc_region_end(EMPTY))
		return fail("region set-up");
	best = -1;
	for (b = 0; b < 20; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			pmc_region_begin(EMPTY);
			pmc_region_end(EMPTY);
		}
		t1 = now_ns();
		if (best < 0 || t1 - t0 < best)
			best = t1 - t0;
	}
	printf("region-pair path=%s ns=%.1f\n", pmc_region_fast() == 1 ? "rdpmc" : "ioctl",
	       (double)best / n);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmc_region_config cfg = { .events = "instructions:u" };
	struct pmc_region_stats outer, empty;
	unsigned long long best, best_calls;
	int a = 1, err, r;
	long n, i;

	if (argc == 3 && !strcmp(argv[1], "--fork"))
		return fork_test(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--early"))
		return early_test(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "--time"))
		return time_test();
	if (argc == 3 && !strcmp(argv[1], "--perf"))
		return perf_test(atol(argv[2]));
	if (argc > 2 && !strcmp(argv[1], "-e")) {
		cfg.events = argv[2];
		a = 3;
	}
	err = pmc_region_init(&cfg);
	if (err)
		return fail("set-up");
	/* Warm up: the first pairs allocate and fill the name caches. */
	if (pmc_region_begin("outer") || pmc_region_begin(EMPTY) || pmc_region_end(EMPTY) ||
	    pmc_region_end("outer"))
		return fail("warm-up");
	printf("region_cost path=%s\n", pmc_region_fast() == 1 ? "rdpmc" : "ioctl");
	for (; a < argc; a++) {
		n = atol(argv[a]);
		best = ~0ULL;
		best_calls = 0;
		for (r = 0; r < REPEATS; r++) {
			pmc_region_reset();
			/* Nothing in the loop but the pair: its errors show as missing calls below. */
			pmc_region_begin("outer");
			for (i = 0; i < n; i++) {
				pmc_region_begin(EMPTY);
				pmc_region_end(EMPTY);
			}
			pmc_region_end("outer");
			if (pmc_region_get("outer", &outer))
				return fail("outer");
			if (n && pmc_region_get(EMPTY, &empty))
				return fail(EMPTY);
			if (outer.values[0] < best) {
				best = outer.values[0];
				best_calls = n ? empty.calls : 0;
			}
		}
		printf("n=%ld insns=%llu calls=%llu\n", n, best, best_calls);
	}
	return 0;
}
