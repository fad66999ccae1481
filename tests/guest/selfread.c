// SPDX-License-Identifier: GPL-2.0
/*
 * selfread: the self-read page and PMCDRV_IOC_READ_SELF (libpmc's
 * pmc_self_*), in the guest.  With the emulated PMU (detected by INFO):
 *
 *  - exact: a session disabled before ATTACH, enabled once the reader is
 *    open, then disabled again: the page, READ_SELF and READ give the same
 *    values (one thread, no inherit); while counting, page <= READ_SELF <=
 *    page; one page read costs the same user instructions every time;
 *  - per thread: two threads of one inheriting session, each with its own
 *    page; one runs a counted loop, the other's count hardly moves;
 *  - preempted and migrated: threads flip their affinity between CPUs
 *    while reading, with untracked spinners on both CPUs: every read is
 *    monotonic, and after DISABLE the page equals READ_SELF exactly;
 *  - RDPMC per thread: in a process where one thread mapped its page, the
 *    threads without one fault on every RDPMC, whether they share a CPU
 *    with it, run on another or migrate, beside another process's
 *    spinners; the page's thread faults once it unmapped it;
 *  - no other session's counts: after another process counted every
 *    counter of CPU 0 and blocked, a thread that maps its page there reads
 *    0 from every counter but its own, and no more than its own count;
 *  - fork while reading: the inherited reader says -ECHILD, the child has
 *    no page and RDPMC raises SIGSEGV there, its own reader is fast and
 *    monotonic; the parent's reads stay monotonic meanwhile;
 *  - bad input: PROT_WRITE (EPERM), MAP_PRIVATE, offset, length (EINVAL),
 *    mprotect to writable (EACCES), a thread the session does not track
 *    (ESRCH, also READ_SELF), before ATTACH (EBADFD), a CPU session
 *    (EOPNOTSUPP);
 *  - perf's dirty counters: after perf counted on a CPU, a loop there
 *    preempted by another process reads its exact count, from its page;
 *    and from READ when the other process may use RDPMC without a page of
 *    its own (rdpmc=2, or forked while perf's page was mapped);
 *  - fallback: software events only, and hardware + software: not fast,
 *    values from READ_SELF equal READ's (one thread).
 * Without a PMU: the fallback, bad input and software-event parts.
 * Prints "selfread-figure: ..." lines: user instructions and guest ns per
 * read.  Run as root.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "counters.h"
#include "libpmc.h"

static struct check_state st;
static bool have_pmu;
static unsigned int num_gp, num_fixed;
static long page_size;

#define HW_EVENTS	"instructions:u,cycles:u,r00c0:u"	/* fixed 0, fixed 1, GP */

static void die(const char *what, int err)
{
	printf("FAIL: %s: %s\n", what, strerror(-err));
	exit(1);
}

/* A session of @events (pmcctl's -e syntax), not yet attached. */
static struct pmc_session *session(const char *events, bool inherit)
{
	struct pmc_session *s;
	struct pmc_evlist l;
	char msg[256];
	unsigned int i;
	int err;

	memset(&l, 0, sizeof(l));
	if (pmc_evlist_parse(&l, events, msg, sizeof(msg))) {
		printf("FAIL: parse %s: %s\n", events, msg);
		exit(1);
	}
	err = pmc_session_open(NULL, &s);
	if (err)
		die("open /dev/pmcdrv", err);
	for (i = 0; i < l.n; i++)
		if (pmc_session_add(s, &l.ev[i].ev) < 0)
			die("add", -E2BIG);
	pmc_session_set_inherit(s, inherit);
	err = pmc_session_config(s);
	if (err)
		die(events, err);
	return s;
}

static void attach_self(struct pmc_session *s)
{
	int err = pmc_session_attach(s, 0, 0);

	if (err)
		die("attach", err);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* k iterations of dec/jnz: exactly 2k + c user instructions. */
static void spin(long k)
{
	__asm__ __volatile__("1: dec %0\n\tjnz 1b" : "+r"(k) : : "cc");
}

static jmp_buf segv_jmp;

static void on_segv(int sig)
{
	(void)sig;
	longjmp(segv_jmp, 1);
}

/* Does RDPMC of GP counter 0 fault here? */
static bool rdpmc_faults(void)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	volatile bool faulted = false;
	uint32_t lo, hi;

	sigaction(SIGSEGV, &sa, &old);
	if (setjmp(segv_jmp) == 0)
		__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0));
	else
		faulted = true;
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}

/* ---- exactness ----------------------------------------------------------------- */

/* @va, @vb: arrays of uint64_t or __u64 (one size, two spellings). */
static void same_values(const char *name, const void *va, const void *vb, unsigned int n)
{
	const uint64_t *a = va, *b = vb;
	unsigned int i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	CHECK(&st, i == n, name, "event %u: %llu vs %llu", i, (unsigned long long)a[i],
	      (unsigned long long)b[i]);
}

static void test_exact(void)
{
	struct pmc_session *s = session(HW_EVENTS, false);
	uint64_t p1[3], p2[3], p3[3], d[1000], te1, te2, te3;
	struct pmcdrv_read self, all;
	struct pmc_self *r;
	unsigned int i, same = 0;
	long long t0, t1;
	int err;

	/* Disabled before ATTACH: the session and the thread start together at ENABLE. */
	pmc_session_disable(s);
	attach_self(s);
	err = pmc_self_open(s, &r);
	if (err)
		die("pmc_self_open", err);
	CHECK(&st, pmc_self_fast(r), "hardware events: the reader uses the page and RDPMC",
	      "pmc_self_fast is false");
	pmc_session_enable(s);
	spin(100000);
	pmc_self_read(r, p1, 3, NULL, NULL);
	pmc_session_read_self(s, &self);
	pmc_self_read(r, p2, 3, NULL, NULL);
	CHECK(&st, p1[0] <= self.values[0] && self.values[0] <= p2[0] && p1[0] >= 200000,
	      "counting: page <= READ_SELF <= page", "%llu %llu %llu", (unsigned long long)p1[0],
	      (unsigned long long)self.values[0], (unsigned long long)p2[0]);
	/*
	 * The time is live on the page too (PMCDRV_SELF_TIME_TSC): READ_SELF
	 * folds the page, and the page read after it is later still, not the
	 * fold's time.  The time is at least the spin's instructions (guest ns =
	 * guest instructions: -icount shift=0).
	 */
	pmc_self_read(r, p1, 3, &te1, NULL);
	spin(100000);
	pmc_self_read(r, p2, 3, &te2, NULL);
	pmc_session_read_self(s, &self);
	pmc_self_read(r, p3, 3, &te3, NULL);
	CHECK(&st, te2 - te1 + 500 >= p2[0] - p1[0] && te2 <= self.time_enabled &&
		   self.time_enabled < te3,
	      "counting: the page's time is live: page <= READ_SELF < page, covering the instructions",
	      "page %llu (+%llu instructions) %llu, READ_SELF %llu, page %llu",
	      (unsigned long long)te1, (unsigned long long)(p2[0] - p1[0]),
	      (unsigned long long)te2, (unsigned long long)self.time_enabled,
	      (unsigned long long)te3);
	/* One page read costs the same user instructions every time (exact PMU). */
	pmc_self_read(r, p1, 1, NULL, NULL);
	for (i = 0; i < 1000; i++) {
		pmc_self_read(r, p2, 1, NULL, NULL);
		d[i] = p2[0] - p1[0];
		p1[0] = p2[0];
	}
	/* d[0] includes the loop's entry: the rest are one read and one iteration each. */
	for (i = 1; i < 1000; i++)
		same += d[i] == d[1];
	CHECK(&st, same >= 990 && d[1] > 0 && d[1] < 200,
	      "one page read: the same user instructions every time", "%u of 999 equal, %llu",
	      same, (unsigned long long)d[1]);
	printf("selfread-figure: one page read of 1 event, with the loop around it = %llu user instructions (instructions:u, exact)\n",
	       (unsigned long long)d[1]);
	t0 = now_ns();
	for (i = 0; i < 1000; i++)
		pmc_self_read(r, p3, 1, NULL, NULL);
	t1 = now_ns();
	printf("selfread-figure: page+rdpmc read of 1 event = %.1f guest ns\n", (t1 - t0) / 1000.0);
	t0 = now_ns();
	for (i = 0; i < 1000; i++)
		pmc_self_read(r, p3, 3, NULL, NULL);
	t1 = now_ns();
	printf("selfread-figure: page+rdpmc read of 3 events = %.1f guest ns\n", (t1 - t0) / 1000.0);
	t0 = now_ns();
	for (i = 0; i < 1000; i++)
		pmc_session_read_self(s, &self);
	t1 = now_ns();
	printf("selfread-figure: PMCDRV_IOC_READ_SELF of 3 events = %.1f guest ns\n",
	       (t1 - t0) / 1000.0);
	spin(50000);
	pmc_session_disable(s);
	pmc_self_read(r, p3, 3, &te3, NULL);
	pmc_session_read_self(s, &self);
	pmc_session_read(s, &all);
	same_values("disabled: page == READ_SELF, every event", p3, self.values, 3);
	CHECK(&st, te3 == self.time_enabled, "disabled: page's time == READ_SELF's",
	      "%llu vs %llu", (unsigned long long)te3, (unsigned long long)self.time_enabled);
	same_values("disabled, one thread: READ_SELF == READ, every event", self.values,
		    all.values, 3);
	pmc_self_read(r, p1, 3, NULL, NULL);
	same_values("disabled: the page does not move", p1, p3, 3);
	pmc_self_close(r);
	pmc_session_close(s);
}

/* ---- threads: per thread, preempted, migrated ---------------------------------------- */

#define NTHREADS	2

struct worker {
	struct pmc_session *s;
	pthread_barrier_t *bar;
	int id;
	long reads;
	bool monotonic;
	bool exact;
	bool fast;
	uint64_t before, after;	/* instructions:u around phase 1 */
	char why[160];
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct pmcdrv_read self;
	uint64_t v[3], last[3] = { 0 };
	struct pmc_self *r;
	long k;
	int i;

	w->monotonic = true;
	if (pmc_self_open(w->s, &r)) {
		snprintf(w->why, sizeof(w->why), "pmc_self_open failed");
		w->monotonic = false;
		pthread_barrier_wait(w->bar);
		pthread_barrier_wait(w->bar);
		pthread_barrier_wait(w->bar);
		return NULL;
	}
	w->fast = pmc_self_fast(r);
	/* Phase 1: thread 0 runs a counted loop, thread 1 sleeps. */
	pthread_barrier_wait(w->bar);
	pmc_self_read(r, v, 1, NULL, NULL);
	w->before = v[0];
	if (w->id == 0)
		spin(1000000);
	else
		usleep(100000);
	pmc_self_read(r, v, 1, NULL, NULL);
	w->after = v[0];
	/* Phase 2: read while flipping CPUs, beside untracked spinners. */
	for (k = 0; k < w->reads; k++) {
		if (k % 200 == 0)
			pin((int)((k / 200 + w->id) & 1));
		if (pmc_self_read(r, v, 3, NULL, NULL))
			break;
		for (i = 0; i < 3; i++)
			if (v[i] < last[i] && w->monotonic) {
				w->monotonic = false;
				snprintf(w->why, sizeof(w->why), "read %ld event %d: %llu after %llu",
					 k, i, (unsigned long long)v[i],
					 (unsigned long long)last[i]);
			}
		memcpy(last, v, sizeof(last));
	}
	pthread_barrier_wait(w->bar);	/* main disables the session */
	pthread_barrier_wait(w->bar);
	pmc_self_read(r, v, 3, NULL, NULL);
	pmc_session_read_self(w->s, &self);
	w->exact = !memcmp(v, self.values, sizeof(v));
	if (!w->exact)
		snprintf(w->why, sizeof(w->why), "page %llu, READ_SELF %llu",
			 (unsigned long long)v[0], (unsigned long long)self.values[0]);
	pthread_barrier_wait(w->bar);
	pmc_self_close(r);
	return NULL;
}

static pid_t spinner(int cpu)
{
	pid_t pid = fork();

	if (pid == 0) {
		pin(cpu);
		for (;;)
			spin(1000000);
	}
	return pid;
}

static void spinners_stop(pid_t a, pid_t b)
{
	kill(a, SIGKILL);
	kill(b, SIGKILL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
}

static void test_threads(void)
{
	struct worker w[NTHREADS];
	pthread_t th[NTHREADS];
	pthread_barrier_t bar;
	struct pmc_session *s;
	pid_t spin0, spin1;
	char name[96];
	int i;

	/* Untracked: forked before the attach. */
	spin0 = spinner(0);
	spin1 = spinner(1);
	s = session(HW_EVENTS, true);
	attach_self(s);
	pthread_barrier_init(&bar, NULL, NTHREADS + 1);
	for (i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .s = s, .bar = &bar, .id = i, .reads = 20000 };
		pthread_create(&th[i], NULL, worker_fn, &w[i]);
	}
	pthread_barrier_wait(&bar);	/* phase 1 and 2 run */
	pthread_barrier_wait(&bar);	/* every thread is done reading */
	pmc_session_disable(s);
	pthread_barrier_wait(&bar);	/* they compare */
	pthread_barrier_wait(&bar);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	spinners_stop(spin0, spin1);
	for (i = 0; i < NTHREADS; i++) {
		snprintf(name, sizeof(name), "thread %d: its own reader is fast", i);
		CHECK(&st, w[i].fast, name, "pmc_self_fast is false");
		snprintf(name, sizeof(name),
			 "thread %d: 20000 reads while migrating and preempted, monotonic", i);
		CHECK(&st, w[i].monotonic, name, "%s", w[i].why);
		snprintf(name, sizeof(name), "thread %d: after DISABLE, page == READ_SELF", i);
		CHECK(&st, w[i].exact, name, "%s", w[i].why);
	}
	CHECK(&st, w[0].after - w[0].before >= 2000000 && w[0].after - w[0].before < 2010000,
	      "per thread: the looping thread counts its 2,000,000 loop instructions",
	      "%llu", (unsigned long long)(w[0].after - w[0].before));
	CHECK(&st, w[1].after - w[1].before < 100000,
	      "per thread: the sleeping thread does not count the other's loop", "%llu",
	      (unsigned long long)(w[1].after - w[1].before));
	pthread_barrier_destroy(&bar);
	pmc_session_close(s);
}

/* ---- RDPMC per thread -------------------------------------------------------------------- */

static __thread sigjmp_buf tl_segv;

static void on_segv_tl(int sig)
{
	(void)sig;
	siglongjmp(tl_segv, 1);
}

/* Does RDPMC of GP counter 0 fault in this thread?  (on_segv_tl is installed.) */
static bool rdpmc_faults_tl(void)
{
	uint32_t lo, hi;

	if (sigsetjmp(tl_segv, 1) == 0) {
		__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0));
		return false;
	}
	return true;
}

#define PCE_TRIES 3000

struct pce_thread {
	const char *what;
	struct pmc_session *s;
	pthread_barrier_t *bar;
	bool page;		/* maps its own page, after the others started */
	int cpu;		/* pinned there; -1: flips between CPUs 0 and 1 */
	int faults;		/* RDPMCs that faulted, of PCE_TRIES */
	bool open_failed, closed_faults;
};

/*
 * Each try comes after a yield, a sleep or a loop, so the thread is
 * switched out and back in (beside its siblings and another process's
 * spinners: switches within the process and between address spaces).
 */
static void *pce_fn(void *arg)
{
	struct pce_thread *t = arg;
	struct pmc_self *r = NULL;
	int k;

	if (t->cpu >= 0)
		pin(t->cpu);
	pthread_barrier_wait(t->bar);
	if (t->page && pmc_self_open(t->s, &r))
		t->open_failed = true;
	for (k = 0; k < PCE_TRIES; k++) {
		if (t->cpu < 0 && k % 100 == 0)
			pin((k / 100) & 1);
		if (k % 3 == 0)
			sched_yield();
		else if (k % 3 == 1)
			usleep(20);
		else
			spin(5000);
		t->faults += rdpmc_faults_tl();
	}
	pthread_barrier_wait(t->bar);
	if (r) {
		pmc_self_close(r);
		t->closed_faults = rdpmc_faults_tl();
	}
	return NULL;
}

static void test_thread_pce(void)
{
	struct pce_thread t[] = {
		{ .what = "the thread with a page (CPU 0)", .page = true, .cpu = 0 },
		{ .what = "a thread without a page beside it on CPU 0", .cpu = 0 },
		{ .what = "a thread without a page on CPU 1", .cpu = 1 },
		{ .what = "a thread without a page flipping CPUs", .cpu = -1 },
	};
	const unsigned int n = sizeof(t) / sizeof(t[0]);
	struct sigaction sa = { .sa_handler = on_segv_tl }, old;
	pthread_t th[sizeof(t) / sizeof(t[0])];
	pthread_barrier_t bar;
	struct pmc_session *s;
	pid_t spin0, spin1;
	char name[160];
	unsigned int i;

	spin0 = spinner(0);
	spin1 = spinner(1);
	sigaction(SIGSEGV, &sa, &old);
	s = session(HW_EVENTS, true);
	attach_self(s);
	pthread_barrier_init(&bar, NULL, n);
	for (i = 0; i < n; i++) {
		t[i].s = s;
		t[i].bar = &bar;
		pthread_create(&th[i], NULL, pce_fn, &t[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	spinners_stop(spin0, spin1);
	sigaction(SIGSEGV, &old, NULL);
	CHECK(&st, !t[0].open_failed, "RDPMC per thread: the first thread maps its page", "pmc_self_open failed");
	for (i = 0; i < n; i++) {
		int want = t[i].page ? 0 : PCE_TRIES;

		snprintf(name, sizeof(name), "RDPMC per thread: %s: %d of %d RDPMCs fault", t[i].what,
			 want, PCE_TRIES);
		CHECK(&st, t[i].faults == want, name, "%d faulted", t[i].faults);
	}
	CHECK(&st, t[0].closed_faults, "RDPMC per thread: after its page is unmapped, RDPMC faults there too",
	      "RDPMC worked");
	pthread_barrier_destroy(&bar);
	pmc_session_close(s);
}

/* ---- no other session's counts through RDPMC ------------------------------------------- */

/* RDPMC of counter @ecx (bit 30: fixed) in this thread; on_segv_tl installed. */
static bool rdpmc_tl(uint32_t ecx, uint64_t *val)
{
	uint32_t lo, hi;

	if (sigsetjmp(tl_segv, 1))
		return false;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	*val = (uint64_t)hi << 32 | lo;
	return true;
}

/*
 * Another process counts every counter of CPU 0 in its own session and
 * blocks there (its counts stay in the stopped counters); then this
 * thread, counting one GP event on CPU 0, maps its page: every counter but
 * its own reads 0, and its own no more than its own count.
 */
static void test_stale(void)
{
	struct sigaction sa = { .sa_handler = on_segv_tl }, old;
	int go[2], done[2], status, bad = 0;
	struct pmcdrv_read rd;
	struct pmc_session *s;
	struct pmc_self *r;
	char c = 0, why[256] = "";
	uint64_t v, own = 0;
	unsigned int i;
	pid_t pid;

	if (pipe(go) || pipe(done))
		die("pipe", -errno);
	pin(0);
	s = session(gp_only_event(), false);	/* GP counter 0 (cmask 1: no fixed counter) */
	attach_self(s);
	pid = fork();
	if (pid == 0) {
		struct pmc_session *t = session(all_counters(), false);

		attach_self(t);
		spin(1000000);
		if (write(done[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	if (read(done[0], &c, 1) != 1)
		die("the other process", -EIO);
	sigaction(SIGSEGV, &sa, &old);
	if (pmc_self_open(s, &r))
		die("pmc_self_open", -EIO);
	for (i = 0; i < num_gp + num_fixed; i++) {
		uint32_t ecx = i < num_gp ? i : (1U << 30) | (i - num_gp);

		if (!rdpmc_tl(ecx, &v)) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), " RDPMC 0x%x faulted;", ecx);
			bad++;
		} else if (ecx == 0) {
			own = v;
		} else if (v) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), " counter 0x%x reads %llu;",
				 ecx, (unsigned long long)v);
			bad++;
		}
	}
	pmc_session_read(s, &rd);
	sigaction(SIGSEGV, &old, NULL);
	CHECK(&st, !bad, "RDPMC: after another session counted on this CPU, every counter but the thread's own reads 0",
	      "%s", why);
	CHECK(&st, own <= rd.values[0],
	      "RDPMC: the thread's own counter holds no more than its own count",
	      "raw %llu, its count %llu", (unsigned long long)own, (unsigned long long)rd.values[0]);
	pmc_self_close(r);
	if (write(go[1], &c, 1) != 1)
		die("the other process", -EIO);
	waitpid(pid, &status, 0);
	CHECK(&st, WIFEXITED(status) && WEXITSTATUS(status) == 0, "RDPMC: the other process counted",
	      "status 0x%x", status);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	pmc_session_close(s);
}

/*
 * A CPU session counts every counter of CPU 0 (root's pmcctl stat -C 0)
 * while this thread, counting one GP event there, maps its page: the CPU
 * session is held off while the thread runs, so every counter but the
 * thread's own reads 0 through RDPMC, the thread's count is exact, and
 * the CPU session reports the time it was held off (time_running below
 * time_enabled, flag MULTIPLEXED) without a count of the thread's loop.
 */
static void test_stale_cpu_session(void)
{
	struct sigaction sa = { .sa_handler = on_segv_tl }, old;
	struct pmcdrv_read rd0, rd, c0, c1;
	struct pmc_session *s, *cs;
	struct pmc_self *r;
	char why[256] = "";
	uint64_t v, before[1], after[1];
	unsigned int i;
	int bad = 0, err;

	pin(0);
	cs = session(all_counters(), false);
	err = pmc_session_attach_cpu(cs, 0);
	if (err)
		die("CPU session attach", err);
	s = session(gp_only_event(), false);
	attach_self(s);
	sigaction(SIGSEGV, &sa, &old);
	if (pmc_self_open(s, &r))
		die("pmc_self_open", -EIO);
	spin(100000);
	pmc_session_read(cs, &c0);
	for (i = 0; i < num_gp + num_fixed; i++) {
		uint32_t ecx = i < num_gp ? i : (1U << 30) | (i - num_gp);

		if (!rdpmc_tl(ecx, &v)) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), " RDPMC 0x%x faulted;", ecx);
			bad++;
		} else if (ecx != 0 && v) {
			snprintf(why + strlen(why), sizeof(why) - strlen(why), " counter 0x%x reads %llu;",
				 ecx, (unsigned long long)v);
			bad++;
		}
	}
	sigaction(SIGSEGV, &old, NULL);
	CHECK(&st, !bad, "RDPMC beside a CPU session: every counter but the thread's own reads 0", "%s", why);
	pmc_session_read(s, &rd0);
	pmc_self_read(r, before, 1, NULL, NULL);
	spin(1000000);
	pmc_self_read(r, after, 1, NULL, NULL);
	pmc_session_read(cs, &c1);
	pmc_session_read(s, &rd);
	CHECK(&st, after[0] - before[0] >= 1000000 * 2ULL && after[0] - before[0] < 1000000 * 2ULL + 1000,
	      "beside a CPU session: the thread's page counts its loop (2 per iteration, a few more)",
	      "%llu", (unsigned long long)(after[0] - before[0]));
	CHECK(&st, (c1.flags & PMCDRV_READ_MULTIPLEXED) &&
	      c1.time_running - c0.time_running + 1000000 < c1.time_enabled - c0.time_enabled,
	      "the CPU session is held off while the thread runs: its running time trails its enabled time",
	      "enabled +%llu running +%llu flags 0x%x",
	      (unsigned long long)(c1.time_enabled - c0.time_enabled),
	      (unsigned long long)(c1.time_running - c0.time_running), c1.flags);
	CHECK(&st, c1.values[0] - c0.values[0] < 1000000,
	      "the CPU session did not count the thread's loop of 2,000,000 instructions",
	      "+%llu", (unsigned long long)(c1.values[0] - c0.values[0]));
	/* Before its page it yielded to the CPU session (sched.c): from the page on, no more. */
	CHECK(&st, rd.time_running - rd0.time_running == rd.time_enabled - rd0.time_enabled &&
	      rd.time_enabled > rd0.time_enabled,
	      "beside a CPU session: with its page the thread's session is on its counters all the time",
	      "enabled +%llu running +%llu", (unsigned long long)(rd.time_enabled - rd0.time_enabled),
	      (unsigned long long)(rd.time_running - rd0.time_running));
	pmc_self_close(r);
	pmc_session_close(s);
	pmc_session_close(cs);
}

/* ---- fork while reading ----------------------------------------------------------------- */

static int child_main(struct pmc_session *s, struct pmc_self *inherited)
{
	struct pmcdrv_read self;
	uint64_t v[3], last[3] = { 0 }, a[3], b[3];
	struct pmc_self *r;
	int k, i, bad = 0;

	if (pmc_self_read(inherited, v, 1, NULL, NULL) != -ECHILD) {
		printf("FAIL: fork: the inherited reader does not say ECHILD\n");
		bad = 1;
	}
	if (!rdpmc_faults()) {
		printf("FAIL: fork: RDPMC works in a child without a page\n");
		bad = 1;
	}
	if (pmc_self_open(s, &r) || !pmc_self_fast(r)) {
		printf("FAIL: fork: the child's own reader is not fast\n");
		return 1;
	}
	for (k = 0; k < 5000; k++) {
		if (k % 100 == 0)
			pin(k / 100 & 1);
		pmc_self_read(r, v, 3, NULL, NULL);
		for (i = 0; i < 3; i++)
			if (v[i] < last[i])
				bad = 1;
		memcpy(last, v, sizeof(last));
	}
	pmc_self_read(r, a, 3, NULL, NULL);
	pmc_session_read_self(s, &self);
	pmc_self_read(r, b, 3, NULL, NULL);
	if (!(a[0] <= self.values[0] && self.values[0] <= b[0]))
		bad = 1;
	pmc_self_close(r);
	return bad;
}

static void test_fork(void)
{
	struct pmc_session *s = session(HW_EVENTS, true);
	uint64_t v[3], last[3] = { 0 };
	struct pmc_self *r;
	bool mono = true;
	int status, k, i, forks = 0, ok = 0;
	pid_t pid;

	attach_self(s);
	if (pmc_self_open(s, &r))
		die("pmc_self_open", -EIO);
	for (k = 0; k < 20000; k++) {
		if (k % 2000 == 0) {
			pid = fork();
			if (pid == 0)
				_exit(child_main(s, r));
			forks++;
			if (pid > 0 && waitpid(pid, &status, WNOHANG) == pid)
				ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
		}
		if (k % 300 == 0)
			pin(k / 300 & 1);
		pmc_self_read(r, v, 3, NULL, NULL);
		for (i = 0; i < 3; i++)
			if (v[i] < last[i])
				mono = false;
		memcpy(last, v, sizeof(last));
	}
	while ((pid = wait(&status)) > 0)
		ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	CHECK(&st, mono, "fork while reading: the parent's reads are monotonic", "decreased");
	CHECK(&st, ok == forks,
	      "fork: children get ECHILD from the inherited reader, SIGSEGV on RDPMC, and read their own page monotonically",
	      "%d of %d children passed", ok, forks);
	pmc_self_close(r);
	pmc_session_close(s);
}

/* ---- bad input ------------------------------------------------------------------------- */

static int map_err(struct pmc_session *s, size_t len, int prot, int flags, off_t off)
{
	void *p = mmap(NULL, len, prot, flags, pmc_session_fd(s), off);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

struct untracked {
	struct pmc_session *s;
	int map_errno;
	int read_err;
};

static void *untracked_fn(void *arg)
{
	struct untracked *u = arg;
	struct pmcdrv_read rd;

	u->map_errno = map_err(u->s, page_size, PROT_READ, MAP_SHARED, 0);
	u->read_err = pmc_session_read_self(u->s, &rd);
	return NULL;
}

static void test_errors(const char *events)
{
	struct pmc_session *s = session(events, false);
	struct untracked u = { .s = s };
	struct pmcdrv_read rd;
	pthread_t th;
	void *p;
	int e;

	e = map_err(s, page_size, PROT_READ, MAP_SHARED, 0);
	CHECK(&st, e == EBADFD, "mmap before ATTACH: EBADFD", "%s", strerror(e));
	e = -pmc_session_read_self(s, &rd);
	CHECK(&st, e == EBADFD, "READ_SELF before ATTACH: EBADFD", "%s", strerror(e));
	attach_self(s);
	e = map_err(s, page_size, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(&st, e == EPERM, "mmap PROT_WRITE: EPERM", "%s", e ? strerror(e) : "mapped");
	e = map_err(s, page_size, PROT_READ, MAP_PRIVATE, 0);
	CHECK(&st, e == EINVAL, "mmap MAP_PRIVATE: EINVAL", "%s", e ? strerror(e) : "mapped");
	e = map_err(s, page_size, PROT_READ, MAP_SHARED, page_size);
	CHECK(&st, e == EINVAL, "mmap at offset one page: EINVAL", "%s", e ? strerror(e) : "mapped");
	e = map_err(s, 2 * page_size, PROT_READ, MAP_SHARED, 0);
	CHECK(&st, e == EINVAL, "mmap of two pages: EINVAL", "%s", e ? strerror(e) : "mapped");
	p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, pmc_session_fd(s), 0);
	CHECK(&st, p != MAP_FAILED, "mmap read-only by the tracked thread", "%s", strerror(errno));
	if (p != MAP_FAILED) {
		e = mprotect(p, page_size, PROT_READ | PROT_WRITE) ? errno : 0;
		CHECK(&st, e == EACCES, "mprotect of the page to writable: EACCES", "%s",
		      e ? strerror(e) : "allowed");
		CHECK(&st, ((struct pmcdrv_self_page *)p)->version == PMCDRV_SELF_PAGE_VERSION &&
		      ((struct pmcdrv_self_page *)p)->size == sizeof(struct pmcdrv_self_page),
		      "the page has its version and size", "version %u size %u",
		      ((struct pmcdrv_self_page *)p)->version, ((struct pmcdrv_self_page *)p)->size);
		munmap(p, page_size);
	}
	/* No inherit: a thread created after the attach is not tracked. */
	pthread_create(&th, NULL, untracked_fn, &u);
	pthread_join(th, NULL);
	CHECK(&st, u.map_errno == ESRCH, "mmap by a thread the session does not track: ESRCH",
	      "%s", u.map_errno ? strerror(u.map_errno) : "mapped");
	CHECK(&st, u.read_err == -ESRCH, "READ_SELF by a thread the session does not track: ESRCH",
	      "%s", strerror(-u.read_err));
	pmc_session_close(s);
}

static void test_cpu_session(const char *events)
{
	struct pmc_session *s = session(events, false);
	struct pmcdrv_read rd;
	struct pmc_self *r;
	uint64_t v[1];
	int e, err;

	err = pmc_session_attach_cpu(s, 0);
	if (err) {
		printf("FAIL: CPU session attach: %s\n", strerror(-err));
		pmc_session_close(s);
		return;
	}
	e = map_err(s, page_size, PROT_READ, MAP_SHARED, 0);
	CHECK(&st, e == EOPNOTSUPP, "mmap of a CPU session: EOPNOTSUPP", "%s", strerror(e));
	e = -pmc_session_read_self(s, &rd);
	CHECK(&st, e == EOPNOTSUPP, "READ_SELF of a CPU session: EOPNOTSUPP", "%s", strerror(e));
	err = pmc_self_open(s, &r);
	CHECK(&st, !err && !pmc_self_fast(r) && !pmc_self_read(r, v, 1, NULL, NULL),
	      "a CPU session's reader reads the session through READ", "%s", strerror(-err));
	if (!err)
		pmc_self_close(r);
	pmc_session_close(s);
}

/* ---- fallback: software events ---------------------------------------------------------- */

static void test_fallback(const char *events, unsigned int n, const char *what)
{
	struct pmc_session *s = session(events, false);
	uint64_t v[4], last[4] = { 0 };
	struct pmcdrv_read self, all;
	struct pmc_self *r;
	char name[128];
	unsigned int i;
	bool mono = true;
	int k, err;

	pmc_session_disable(s);
	attach_self(s);
	err = pmc_self_open(s, &r);
	if (err)
		die("pmc_self_open", err);
	snprintf(name, sizeof(name), "%s: the reader falls back to READ_SELF", what);
	CHECK(&st, !pmc_self_fast(r), name, "pmc_self_fast is true");
	pmc_session_enable(s);
	for (k = 0; k < 200; k++) {
		if (k % 20 == 0)
			pin(k / 20 & 1);
		pmc_self_read(r, v, n, NULL, NULL);
		for (i = 0; i < n; i++)
			mono &= v[i] >= last[i];
		memcpy(last, v, sizeof(last));
	}
	snprintf(name, sizeof(name), "%s: reads while migrating are monotonic", what);
	CHECK(&st, mono, name, "decreased");
	pmc_session_disable(s);
	pmc_self_read(r, v, n, NULL, NULL);
	pmc_session_read_self(s, &self);
	pmc_session_read(s, &all);
	snprintf(name, sizeof(name), "%s, disabled: the reader == READ_SELF", what);
	same_values(name, v, self.values, n);
	/* task-clock is taken at slightly different instants: the others exactly. */
	for (i = 0; i < n; i++)
		if (all.values[i] == all.time_enabled &&
		    llabs((long long)(self.values[i] - all.values[i])) < 1000000)
			self.values[i] = all.values[i];
	snprintf(name, sizeof(name),
		 "%s, disabled, one thread: READ_SELF == READ (task-clock within 1 ms)", what);
	same_values(name, self.values, all.values, n);
	pmc_self_close(r);
	pmc_session_close(s);
}

/* perf's read() of one instructions:u event, for the figure (the PMU is free again). */
static void figure_perf_read(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	uint64_t v;
	long long t0, t1;
	int fd, i;

	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("selfread-figure: perf read() not measured: %s\n", strerror(errno));
		return;
	}
	if (read(fd, &v, sizeof(v)) == sizeof(v)) {
		t0 = now_ns();
		for (i = 0; i < 1000; i++)
			if (read(fd, &v, sizeof(v)) != sizeof(v))
				break;
		t1 = now_ns();
		printf("selfread-figure: perf read() of 1 event = %.1f guest ns\n", (t1 - t0) / 1000.0);
	}
	close(fd);
}

/*
 * perf counts here with instructions:u, cycles:u and r00c0:u (fixed 0,
 * fixed 1, a GP counter) and closes them, which marks those counters of
 * this CPU dirty (x86_pmu_del()).  How many of the 3 opened and read.
 */
static int perf_count_here(void)
{
	static const uint64_t configs[3][2] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
		{ PERF_TYPE_RAW, 0xc0 },
	};
	int fd[3], i, n = 0;
	uint64_t v;

	for (i = 0; i < 3; i++) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = (uint32_t)configs[i][0],
			.config = configs[i][1], .exclude_kernel = 1, .exclude_hv = 1,
		};

		fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[i] >= 0)
			n++;
	}
	spin(100000);
	for (i = 0; i < 3; i++) {
		if (fd[i] >= 0 && read(fd[i], &v, sizeof(v)) != sizeof(v))
			n--;
	}
	for (i = 0; i < 3; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return n;
}

/*
 * perf_events' dirty counters: perf zeroes the counters it used and let go
 * when a CPU switches to an address space that may use RDPMC (Linux 6.1,
 * switch_mm_irqs_off() -> cr4_update_pce_mm() -> perf_clear_dirty_counters()),
 * after pmcdrv's switch probe.  perf counts on this CPU first
 * (perf_count_here()).  Then a pmcdrv session with the same events counts
 * a loop of this thread, which maps its page, while a process forked before
 * the mapping spins on the same CPU: the thread is switched out and back
 * into its address space, and perf's zeroing comes after pmcdrv restarted
 * the counters from their stopped values.  Before pmcdrv handled it (hw.c,
 * pmcd_hw_perf_clears()) the loop read about 13,000,000 of its 20,000,000
 * instructions (3 runs).
 */
static void test_perf_dirty(void)
{
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0, n;
	uint64_t before[3], after[3];
	struct pmcdrv_read rd;
	struct pmc_session *s;
	struct pmc_self *r;
	pid_t other;

	pin(cpu);
	n = perf_count_here();
	CHECK(&st, n == 3, "perf's dirty counters: perf counted 3 events on this CPU first",
	      "%d of 3 opened and read", n);
	other = spinner(cpu);
	s = session(HW_EVENTS, false);
	attach_self(s);
	if (pmc_self_open(s, &r))
		die("pmc_self_open", -EIO);
	pmc_self_read(r, before, 3, NULL, NULL);
	spin(10000000);
	pmc_self_read(r, after, 3, NULL, NULL);
	pmc_session_disable(s);
	pmc_session_read(s, &rd);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	CHECK(&st, after[0] - before[0] >= 20000000 && after[0] - before[0] < 20010000,
	      "perf's dirty counters: a loop of 20,000,000 instructions, preempted by another process, reads its count from the page",
	      "%llu", (unsigned long long)(after[0] - before[0]));
	CHECK(&st, after[2] - before[2] >= 20000000 && after[2] - before[2] < 20010000,
	      "perf's dirty counters: ... and from the GP counter",
	      "%llu", (unsigned long long)(after[2] - before[2]));
	CHECK(&st, rd.values[0] >= 20000000 && rd.values[0] < 21000000,
	      "perf's dirty counters: READ agrees", "%llu", (unsigned long long)rd.values[0]);
	pmc_self_close(r);
	pmc_session_close(s);
	pin(0);
}

/*
 * The PMU's sysfs attribute rdpmc (perf's RDPMC policy: 0, 1 or 2); -1 if
 * unreadable.  A hybrid part has it on each core type's PMU (cpu_core,
 * cpu_atom), one setting for all (x86_pmu.attr_rdpmc).
 */
#define RDPMC_SYSFS "/sys/bus/event_source/devices/cpu/rdpmc"
#define RDPMC_SYSFS_HYBRID "/sys/bus/event_source/devices/cpu_core/rdpmc"

static const char *rdpmc_sysfs(void)
{
	return access(RDPMC_SYSFS, F_OK) && !access(RDPMC_SYSFS_HYBRID, F_OK) ? RDPMC_SYSFS_HYBRID :
										 RDPMC_SYSFS;
}

static int rdpmc_mode(void)
{
	FILE *f = fopen(rdpmc_sysfs(), "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static bool set_rdpmc_mode(int v)
{
	FILE *f = fopen(rdpmc_sysfs(), "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%d\n", v) > 0;
	return fclose(f) == 0 && ok && rdpmc_mode() == v;
}

/* One byte through pipe @p (write end 1, read end 0); false on failure. */
static bool pipe_put(int p[2], char c)
{
	return write(p[1], &c, 1) == 1;
}

static bool pipe_get(int p[2], char *c)
{
	return read(p[0], c, 1) == 1;
}

/*
 * The same caught by a process other than pmcdrv's: a worker W is counted
 * while another process O, which may use RDPMC, preempts it.  @everywhere:
 * with rdpmc=2 (RDPMC for every process), where perf zeroes its dirty
 * counters at any switch of address space.  Otherwise O was forked while
 * this process had a perf_events page mapped: dup_mm() copied the mm's
 * perf_rdpmc_allowed into O without the mapping, and nothing takes it out
 * (Linux 6.1, kernel/fork.c and init_new_context()), so the kernel lets O
 * use RDPMC and zeroes perf's dirty counters as it switches to O.
 *
 * The CPU's first such switch after perf counted must come while pmcdrv
 * counts there: W and O, both pinned to CPU 1, run once and block before
 * perf counts in W (CPU 1's address space stays W's while it idles).
 * Attaching from CPU 0 keeps the text_poke() of the probes' registration,
 * which also switches address space (use_temporary_mm()), off CPU 1.
 * Without @everywhere a third process then runs on CPU 1, so that the
 * switch to O is not CPU 1's first switch of address space under the claim.
 * W is woken and counted first; O is woken 1 ms later and preempts it.
 * Before pmcdrv handled it, READ of W's 20,000,000 instructions gave about
 * 12,600,000 with rdpmc=2, and 2^48 + 10,400,000 with the forked process
 * (the shape of the wrap once seen in 62-regions), also when pmcdrv watched
 * only address spaces with pages of its own.
 */
static void perf_dirty_other(bool everywhere)
{
	const char *how = everywhere ? "perf's dirty counters, rdpmc=2"
				     : "perf's dirty counters, a process forked with perf's page";
	int old_mode = rdpmc_mode(), w_ready[2], w_go[2], o_ready[2], o_go[2], pfd = -1;
	char n = 0, c = 0, name[200];
	struct pmcdrv_read rd;
	struct pmc_session *s;
	void *page = MAP_FAILED;
	pid_t w, o, q;
	int err;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("SKIP: %s: needs 2 CPUs\n", how);
		return;
	}
	if (everywhere && !set_rdpmc_mode(2)) {
		snprintf(name, sizeof(name), "%s: set %s to 2", how, rdpmc_sysfs());
		CHECK(&st, false, name, "it reads %d", rdpmc_mode());
		return;
	}
	if (pipe(w_ready) || pipe(w_go) || pipe(o_ready) || pipe(o_go))
		die("pipe", -errno);
	pin(0);
	if (!everywhere) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1, .exclude_hv = 1,
		};

		pfd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (pfd >= 0)
			page = mmap(NULL, page_size, PROT_READ, MAP_SHARED, pfd, 0);
		snprintf(name, sizeof(name), "%s: perf's page mapped before the fork", how);
		CHECK(&st, page != MAP_FAILED, name, "perf_event_open %d, mmap: %s", pfd,
		      strerror(errno));
	}
	o = fork();
	if (o == 0) {
		if (pfd >= 0)
			close(pfd);	/* perf's event must go when the parent closes it */
		pin(1);
		if (!pipe_put(o_ready, rdpmc_faults() ? 0 : 1) || !pipe_get(o_go, &c))
			_exit(1);
		for (;;)
			spin(1000000);
	}
	if (!pipe_get(o_ready, &c))
		die("the other process", -EIO);
	snprintf(name, sizeof(name), "%s: the other process may use RDPMC", how);
	CHECK(&st, c == 1, name, "RDPMC faults there");
	if (page != MAP_FAILED)
		munmap(page, page_size);
	if (pfd >= 0)
		close(pfd);
	w = fork();
	if (w == 0) {
		pin(1);
		if (!pipe_put(w_ready, (char)perf_count_here()) || !pipe_get(w_go, &c))
			_exit(1);
		spin(10000000);
		_exit(0);
	}
	if (!pipe_get(w_ready, &n))
		die("the worker", -EIO);
	snprintf(name, sizeof(name), "%s: perf counted 3 events on CPU 1 first", how);
	CHECK(&st, n == 3, name, "%d of 3 opened and read", n);
	s = session(HW_EVENTS, false);
	err = pmc_session_attach(s, w, 0);
	if (err)
		die("attach the worker", err);
	if (!everywhere) {
		/*
		 * A third process switches CPU 1 to its address space first, as
		 * a busy machine would: only the switch to O's may zero.
		 */
		q = fork();
		if (q == 0) {
			pin(1);
			_exit(0);
		}
		waitpid(q, NULL, 0);
	}
	if (!pipe_put(w_go, 1))
		die("the worker", -EIO);
	usleep(1000);
	if (!pipe_put(o_go, 1))
		die("the other process", -EIO);
	waitpid(w, NULL, 0);
	kill(o, SIGKILL);
	waitpid(o, NULL, 0);
	err = pmc_session_read(s, &rd);
	if (err)
		die("READ", err);
	snprintf(name, sizeof(name),
		 "%s: READ of a loop of 20,000,000 instructions preempted by the other process",
		 how);
	CHECK(&st, rd.values[0] >= 20000000 && rd.values[0] < 21000000, name,
	      "%llu", (unsigned long long)rd.values[0]);
	snprintf(name, sizeof(name), "%s: ... and of the GP counter", how);
	CHECK(&st, rd.values[2] >= 20000000 && rd.values[2] < 21000000, name,
	      "%llu", (unsigned long long)rd.values[2]);
	pmc_session_close(s);
	close(w_ready[0]);
	close(w_ready[1]);
	close(w_go[0]);
	close(w_go[1]);
	close(o_ready[0]);
	close(o_ready[1]);
	close(o_go[0]);
	close(o_go[1]);
	if (everywhere) {
		snprintf(name, sizeof(name), "%s: rdpmc set back", how);
		CHECK(&st, set_rdpmc_mode(old_mode), name, "to %d: it reads %d", old_mode,
		      rdpmc_mode());
	}
}

static void test_no_page_segv(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(rdpmc_faults() ? 0 : 1);
	waitpid(pid, &status, 0);
	CHECK(&st, WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a process without a page: RDPMC raises SIGSEGV, as before", "RDPMC worked");
}

int main(void)
{
	struct pmcdrv_info info;
	struct pmc_session *s;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	page_size = sysconf(_SC_PAGESIZE);
	err = pmc_session_open(NULL, &s);
	if (err)
		die("open /dev/pmcdrv", err);
	err = pmc_session_info(s, &info);
	if (err)
		die("INFO", err);
	pmc_session_close(s);
	have_pmu = info.flags & PMCDRV_INFO_ARCH_PERFMON;
	num_gp = info.num_gp;
	num_fixed = info.num_fixed;
	pin(0);

	test_no_page_segv();
	test_errors(have_pmu ? HW_EVENTS : "task-clock");
	test_cpu_session(have_pmu ? "instructions:u" : "task-clock");
	test_fallback("task-clock,context-switches,cpu-migrations", 3, "software events only");
	if (have_pmu) {
		test_fallback("instructions:u,context-switches,cpu-migrations,task-clock", 4,
			      "hardware and software events");
		test_exact();
		test_threads();
		test_thread_pce();
		test_stale();
		test_stale_cpu_session();
		test_fork();
		test_perf_dirty();
		perf_dirty_other(true);
		perf_dirty_other(false);
		test_no_page_segv();
		figure_perf_read();
	}
	return check_summary(&st, "selfread");
}
