// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest security tests (docs/security.md) of the ways one user could
 * read another's counts or count a privileged program, run as root by
 * tests/guest/65-security.sh.  Every attacker below is the unprivileged
 * user nobody (65534) on a file root opened (what devmode=0666 gives);
 * the victim V is root's process counting all counters of CPU 0 (on Skylake
 * 4 GP + 3 fixed; on a hybrid part the 6 GP + 3 its core types share) in
 * user mode.  Each check asserts:
 *
 *  - RDPMC of stopped counters: nobody CONFIGs, ATTACHes and DISABLEs a
 *    session, maps its self-read page on CPU 0, switches once through V's
 *    address space (V counts 50 ms meanwhile), then RDPMCs every counter:
 *    each reads 0 (nothing of V's, and nothing of its own: it is
 *    disabled).  The same with the session armed for enable-on-exec (if
 *    the mmap is refused, RDPMC must fault or read 0).  A child of a
 *    process with perf's RDPMC page mapped (perf_rdpmc_allowed copied into
 *    it), with no page or session of its own: 0 or SIGSEGV, never V's.
 *  - MADV_DOFORK of the page: madvise() fails with EINVAL (the mapping is
 *    VM_IO); either way, after a fork where the child unmaps and closes
 *    and the parent unmaps and closes, the child (no page, no session)
 *    reads 0 or faults on every counter after V counted, never V's
 *    counts.  Fork while munmap: one thread maps and unmaps its page in a
 *    loop while another forks (bounded); no child reads a non-zero
 *    counter after a switch from V, which spins on CPU 0 counting.
 *  - fork/ATTACH race: while a process P tracked by an inheriting session
 *    S1 forks (1,000 perf dummy events with .task=1 on P widen the
 *    window), nobody loops ATTACHing a second session S2 to P's next pid:
 *    it never succeeds (EEXIST, or EAGAIN if the fork takes over a
 *    second); the child execs a setuid-root spin: neither S2 nor S1 counts
 *    it, S1 reports SECURE_EXEC; after the child exited, neither session
 *    still holds it (no stale context).  With the debug build's
 *    debug_fork_delay_ms parameter, the same with the fork probe held
 *    200 ms (the race won every time before); otherwise a SKIP.
 *  - permission checks racing exit: nobody ATTACHes to its own children
 *    as they exit, for 2 s: every ATTACH gives 0 or ESRCH, and the kernel
 *    log gains no KASAN/BUG/WARNING line.  Only the debug lane's KASAN
 *    sees the use-after-free of the target's mm this races for; elsewhere
 *    it checks the errnos.  With the debug build's debug_perm_delay_ms,
 *    each check holds 20 ms between reading the target's mm and reading
 *    its dumpability, so the child's exit_mm() runs inside the window
 *    unless the check holds task_lock() (as it must).
 *  - confused deputy: a kernel-mode CONFIG root made at paranoid 2,
 *    ATTACHed by nobody holding the fd: EACCES; a user-mode CONFIG root
 *    made at paranoid 3, ATTACHed by nobody without the group opt-in:
 *    EACCES (at paranoid 1, the kernel-mode one is allowed: the control).
 *  - paranoid 3 as Debian's kernel has it: CAP_PERFMON without
 *    CAP_SYS_ADMIN is refused CONFIG (EACCES); CAP_SYS_ADMIN is allowed.
 *
 * Without a PMU (INFO), the RDPMC cases print SKIP lines.
 *
 * Usage: security_leaks SUID-COPY [CASE...]  (a setuid-root copy of this
 *        program; CASEs: disabled enable-on-exec perf-child dofork
 *        fork-munmap deputy sys-admin attach-exit fork-attach, default all)
 *        security_leaks --spin MS   (what the setuid copy runs)
 * Environment: SECURITY_LEAKS_H1_TRIES (at most this many forks, default
 * 200), SECURITY_LEAKS_H1_ALL=1 (do not stop once the race was won: to
 * measure how often it is won), SECURITY_LEAKS_H1_DUMMIES (perf dummy
 * events P opens, default 1,000).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "counters.h"
#include "pmcdev.h"
#include "libpmc.h"

#define NOBODY		65534
#define MAX_CTRS	16
#define V_CPU		0
#define SPIN_MS		50
#define DELAY_PARAM	"/sys/module/pmcdrv/parameters/debug_fork_delay_ms"
#define PERM_DELAY_PARAM	"/sys/module/pmcdrv/parameters/debug_perm_delay_ms"

static struct check_state st;
static const char *dev = PMC_DEFAULT_DEVICE;
static const char *suid_copy;
static bool have_pmu;
static unsigned int num_gp, num_fixed, ncpus;
static long page_size;
static char **only;	/* the cases to run (argv), or NULL: all */

/* Run case @name?  All of them unless some were named on the command line. */
static bool want(const char *name)
{
	char **p;

	if (!only || !*only)
		return true;
	for (p = only; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/* ---- small helpers ------------------------------------------------------------------- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* k > 0 iterations of dec/jnz: 2k user instructions, 2k ns under the project's QEMU. */
static void spin(long k)
{
	__asm__ __volatile__("1: dec %0\n\tjnz 1b" : "+r"(k) : : "cc");
}

static void spin_ms(unsigned int ms)
{
	spin(ms * 500000L);
}

/* Spin @ms of this thread's CPU time (what the setuid copy runs). */
static int spin_cpu_ms(unsigned int ms)
{
	struct timespec ts;

	do {
		spin(50000);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	} while (ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000 < ms);
	return 0;
}

static bool put(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

static bool get(int fd, void *p, size_t n)
{
	size_t done = 0;
	ssize_t r;

	while (done < n) {
		r = read(fd, (char *)p + done, n - done);
		if (r <= 0)
			return false;
		done += (size_t)r;
	}
	return true;
}

static void become(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid) ||
	    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		_exit(99);
}

static int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int set_paranoid(int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d\n", v);
	return write_file("/proc/sys/kernel/perf_event_paranoid", buf);
}



/* CONFIG of instructions:u (plus task-clock with @clock); @flags: PMCDRV_CONFIG_*. */
static struct pmcdrv_config hw_config(uint32_t flags, uint32_t evf, bool clock)
{
	struct pmcdrv_config c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.flags = flags;
	c.event_size = sizeof(c.events[0]);
	c.nr_events = 1;
	c.events[0].type = PMCDRV_EVENT_HW;
	c.events[0].event = 0xc0;
	c.events[0].flags = evf;
	if (clock) {
		c.nr_events = 2;
		c.events[1].type = PMCDRV_EVENT_SW;
		c.events[1].sw_id = PMCDRV_SW_TASK_CLOCK;
	}
	return c;
}

/* ---- RDPMC of every counter ---------------------------------------------------------- */

static __thread sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jmp, 1);
}

struct rdpmc_result {
	int err;		/* a step before the reads failed: errno; see 'what' */
	char what[64];
	int madvise_err;	/* H3: madvise(MADV_DOFORK)'s errno, -1 if it succeeded */
	int mmap_err;		/* errno of the mmap of the page, 0 if mapped */
	uint32_t faulted;	/* bit i: counter i raised SIGSEGV */
	uint64_t v[MAX_CTRS];
};

static uint32_t ctr_ecx(unsigned int i)
{
	return i < num_gp ? i : (1U << 30) | (i - num_gp);
}

/* RDPMC of counter @ecx; false if it raised SIGSEGV (on_segv installed). */
static bool rdpmc_one(uint32_t ecx, uint64_t *val)
{
	uint32_t lo, hi;

	if (sigsetjmp(segv_jmp, 1))
		return false;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	*val = (uint64_t)hi << 32 | lo;
	return true;
}

/* RDPMC of counters 0..num_gp-1 and 0x40000000..+num_fixed-1 into @r. */
static void rdpmc_all(struct rdpmc_result *r)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	for (i = 0; i < num_gp + num_fixed && i < MAX_CTRS; i++)
		if (!rdpmc_one(ctr_ecx(i), &r->v[i]))
			r->faulted |= 1U << i;
	sigaction(SIGSEGV, &old, NULL);
}

/* Counters that read non-zero (not faulted); @why gets them listed. */
static int nonzero_ctrs(const struct rdpmc_result *r, char *why, size_t len)
{
	unsigned int i;
	int n = 0;

	why[0] = 0;
	for (i = 0; i < num_gp + num_fixed && i < MAX_CTRS; i++) {
		if (r->faulted & (1U << i))
			continue;
		if (r->v[i])
			n++;
		snprintf(why + strlen(why), len - strlen(why), " 0x%x=%llu", ctr_ecx(i),
			 (unsigned long long)r->v[i]);
	}
	if (r->faulted)
		snprintf(why + strlen(why), len - strlen(why), " (faulted: mask 0x%x)", r->faulted);
	return n;
}

static void check_zero(const char *name, const struct rdpmc_result *r)
{
	char why[512];
	int n;

	if (r->err) {
		CHECK(&st, false, name, "%s failed: %s", r->what, strerror(r->err));
		return;
	}
	n = nonzero_ctrs(r, why, sizeof(why));
	CHECK(&st, n == 0, name, "%d counter(s) not 0, RDPMC read:%s", n, why);
}

/* ---- V: root's process counting all counters on CPU 0 ---------------------------------- */

struct victim {
	pid_t pid;
	int go[2], done[2];	/* a byte to go[1]: V counts SPIN_MS, then a byte to done[1] */
};

static bool victim_pipes(struct victim *v)
{
	return !pipe(v->go) && !pipe(v->done);
}

/*
 * Fork V on CPU 0, counting all counters in a session of its own; it
 * spins SPIN_MS counted and blocks, then again for each byte on go ('s':
 * spin for ever).  Returns once it blocked the first time.
 */
static bool victim_start(struct victim *v)
{
	char c = 0;

	v->pid = fork();
	if (v->pid == 0) {
		struct pmc_session *s;
		struct pmc_evlist l;
		char msg[256];
		unsigned int i;

		pin(V_CPU);
		memset(&l, 0, sizeof(l));
		if (pmc_evlist_parse(&l, all_counters(), msg, sizeof(msg)) || pmc_session_open(NULL, &s))
			_exit(1);
		for (i = 0; i < l.n; i++)
			if (pmc_session_add(s, &l.ev[i].ev) < 0)
				_exit(1);
		pmc_session_set_inherit(s, false);
		if (pmc_session_config(s) || pmc_session_attach(s, 0, 0))
			_exit(1);
		for (c = 'g'; c != 'q'; ) {
			if (c == 's')
				for (;;)
					spin(1000000);
			spin_ms(SPIN_MS);
			if (!put(v->done[1], &c, 1) || !get(v->go[0], &c, 1))
				break;
		}
		_exit(0);
	}
	/*
	 * V's ends are V's alone: if V fails (a CONFIG refused with EBUSY while
	 * perf holds the PMU, say), the read below sees EOF, not a hang.
	 */
	close(v->done[1]);
	close(v->go[0]);
	v->done[1] = v->go[0] = -1;
	if (v->pid < 0 || !get(v->done[0], &c, 1)) {
		CHECK(&st, false, "V counts all counters of CPU 0", "V did not start");
		return false;
	}
	return true;
}

/* Make V count SPIN_MS on CPU 0 while this process, on CPU 0, waits: one switch through V. */
static bool victim_round(struct victim *v)
{
	char c = 'g';

	return put(v->go[1], &c, 1) && get(v->done[0], &c, 1);
}

static void victim_stop(struct victim *v)
{
	unsigned int i;

	if (v->pid > 0) {
		kill(v->pid, SIGKILL);
		wait_status(v->pid);
	}
	for (i = 0; i < 2; i++) {
		if (v->go[i] >= 0)
			close(v->go[i]);
		if (v->done[i] >= 0)
			close(v->done[i]);
	}
	v->pid = 0;
}

/* ---- RDPMC of stopped counters: a disabled or armed session's page --------------------- */

#define STEP(r, e, w)	do { int e_ = (e); if (e_) { (r)->err = e_; snprintf((r)->what, sizeof((r)->what), "%s", (w)); goto out; } } while (0)

/* As nobody on CPU 0: CONFIG; ATTACH (@attach_flags); DISABLE if @disable; mmap; switch; RDPMC. */
static void stopped_reader(int fd, uint32_t attach_flags, bool disable, struct victim *v,
			   struct rdpmc_result *r)
{
	struct pmcdrv_config c = hw_config(PMCDRV_CONFIG_NO_INHERIT, PMCDRV_EVF_USER, false);
	void *p;

	pin(V_CPU);
	STEP(r, pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c), "CONFIG");
	STEP(r, pmcdev_attach(fd, 0, attach_flags), "ATTACH");
	if (disable)
		STEP(r, pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL), "DISABLE");
	p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, PMCDRV_SELF_MMAP_OFFSET);
	r->mmap_err = p == MAP_FAILED ? errno : 0;
	if (!attach_flags)	/* the armed session may refuse the page: then it is vacuous */
		STEP(r, r->mmap_err, "mmap of the page");
	STEP(r, victim_round(v) ? 0 : EIO, "a switch through V");
	rdpmc_all(r);
out:
	return;
}

static void test_stopped(const char *name, uint32_t attach_flags, bool disable)
{
	struct rdpmc_result r;
	struct victim v;
	int fd, p[2];
	pid_t pid;

	if (!victim_pipes(&v) || pipe(p))
		return;
	if (!victim_start(&v))
		goto out;
	fd = pmcdev_open(dev);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		memset(&r, 0, sizeof(r));
		become(NOBODY, NOBODY);
		stopped_reader(fd, attach_flags, disable, &v, &r);
		_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
	}
	close(fd);
	close(p[1]);
	memset(&r, 0, sizeof(r));
	if (!get(p[0], &r, sizeof(r))) {
		r.err = EIO;
		snprintf(r.what, sizeof(r.what), "the reader");
	}
	wait_status(pid);
	close(p[0]);
	if (attach_flags && r.mmap_err && !r.err)
		printf("NOTE: %s: the mmap was refused (%s): RDPMC must fault or read 0\n", name,
		       strerror(r.mmap_err));
	check_zero(name, &r);
out:
	victim_stop(&v);
}

/* ---- H2: a child of a process with perf's RDPMC page -------------------------------------- */

static void test_perf_child(void)
{
	const char *name = "RDPMC in a child of a process with perf's page mapped (no page or session of its own), after V counted: 0 or SIGSEGV";
	struct rdpmc_result r;
	struct victim v;
	int p[2], ready[2], start[2];
	char c = 0;
	pid_t pid;

	if (!victim_pipes(&v) || pipe(p) || pipe(ready) || pipe(start))
		return;
	/* The reader and its child first: perf's event needs the PMU free of pmcdrv's claim. */
	pid = fork();
	if (pid == 0) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1, .exclude_hv = 1,
		};
		void *page = MAP_FAILED;
		int pfd, closed[2];
		pid_t child;

		close(p[0]);
		close(ready[0]);
		/*
		 * start's write end is the parent's alone, and V's ends of its
		 * pipes V's: their close is the EOF the parent and this child
		 * wait for if V fails (held here, they hung both).
		 */
		close(start[1]);
		close(v.done[1]);
		close(v.go[0]);
		v.done[1] = v.go[0] = -1;
		memset(&r, 0, sizeof(r));
		become(NOBODY, NOBODY);
		pin(V_CPU);
		pfd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (pfd >= 0)
			page = mmap(NULL, page_size, PROT_READ, MAP_SHARED, pfd, 0);
		if (page == MAP_FAILED) {
			r.err = errno;
			snprintf(r.what, sizeof(r.what), "perf_event_open and mmap");
			put(ready[1], &c, 1);
			_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
		}
		if (pipe(closed)) {
			r.err = errno;
			snprintf(r.what, sizeof(r.what), "pipe");
			put(ready[1], &c, 1);
			_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
		}
		child = fork();
		if (child == 0) {
			close(pfd);
			close(closed[0]);
			close(closed[1]);	/* perf's event has no fd left but the parent's */
			/* V starts now; wait until it has counted once, then switch through it. */
			if (!get(start[0], &c, 1) || !victim_round(&v)) {
				r.err = EIO;
				snprintf(r.what, sizeof(r.what), "a switch through V");
			} else {
				rdpmc_all(&r);
			}
			_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
		}
		munmap(page, page_size);
		close(pfd);
		/*
		 * V's session can claim the PMU only once perf's event is freed:
		 * after the child closed its copy of the fd too (EOF here).
		 */
		close(closed[1]);
		get(closed[0], &c, 1);
		put(ready[1], &c, 1);
		_exit(wait_status(child));
	}
	close(p[1]);
	close(ready[1]);
	memset(&r, 0, sizeof(r));
	if (get(ready[0], &c, 1) && victim_start(&v))
		put(start[1], &c, 1);	/* V counted once and blocks: the child's round */
	close(start[1]);	/* EOF for the child if V did not start */
	start[1] = -1;
	if (!get(p[0], &r, sizeof(r))) {
		r.err = EIO;
		snprintf(r.what, sizeof(r.what), "the reader");
	}
	wait_status(pid);
	close(p[0]);
	close(ready[0]);
	close(start[0]);
	check_zero(name, &r);
	victim_stop(&v);
}

/* ---- H3: MADV_DOFORK ---------------------------------------------------------------- */

static void test_dofork(void)
{
	struct rdpmc_result r;
	struct victim v;
	int fd, p[2];
	pid_t pid;

	if (!victim_pipes(&v) || pipe(p))
		return;
	if (!victim_start(&v))
		goto done;
	fd = pmcdev_open(dev);
	pid = fork();
	if (pid == 0) {
		struct pmcdrv_config c = hw_config(PMCDRV_CONFIG_NO_INHERIT, PMCDRV_EVF_USER, false);
		int q[2], w[2];
		char ch = 0;
		pid_t child;
		void *m;

		close(p[0]);
		memset(&r, 0, sizeof(r));
		become(NOBODY, NOBODY);
		pin(V_CPU);
		STEP(&r, pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c), "CONFIG");
		STEP(&r, pmcdev_attach(fd, 0, 0), "ATTACH");
		m = mmap(NULL, page_size, PROT_READ, MAP_SHARED, fd, PMCDRV_SELF_MMAP_OFFSET);
		STEP(&r, m == MAP_FAILED ? errno : 0, "mmap of the page");
		r.madvise_err = madvise(m, page_size, MADV_DOFORK) ? errno : -1;
		STEP(&r, pipe(q) || pipe(w) ? errno : 0, "pipe");
		child = fork();
		if (child == 0) {
			/* The child: close, unmap, wait for the parent to do the same. */
			close(fd);
			munmap(m, page_size);
			if (!put(q[1], &ch, 1) || !get(w[0], &ch, 1) || !victim_round(&v)) {
				r.err = EIO;
				snprintf(r.what, sizeof(r.what), "the child's steps");
			} else {
				rdpmc_all(&r);
			}
			_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
		}
		if (child < 0 || !get(q[0], &ch, 1))
			STEP(&r, EIO, "fork");
		munmap(m, page_size);
		close(fd);
		put(w[1], &ch, 1);
		_exit(wait_status(child));
out:
		_exit(put(p[1], &r, sizeof(r)) ? 0 : 1);
	}
	close(fd);
	close(p[1]);
	memset(&r, 0, sizeof(r));
	if (!get(p[0], &r, sizeof(r))) {
		r.err = EIO;
		snprintf(r.what, sizeof(r.what), "the reader");
	}
	wait_status(pid);
	close(p[0]);
	CHECK(&st, r.madvise_err == EINVAL, "madvise(MADV_DOFORK) of the self-read page -> EINVAL",
	      "%s", r.madvise_err < 0 ? "it succeeded" : strerror(r.madvise_err));
	check_zero("after MADV_DOFORK, fork, both unmap and close: the child's RDPMC after V counted reads 0 or faults",
		   &r);
done:
	victim_stop(&v);
}

/* ---- H3: fork while munmap ------------------------------------------------------------- */

#define FM_ITERS	2000
#define FM_MS		5000

struct fm_state {
	int fd;
	volatile int stop;
	int maps, map_errs;
};

static void *fm_mapper(void *arg)
{
	struct fm_state *f = arg;
	void *m;

	while (!f->stop) {
		m = mmap(NULL, page_size, PROT_READ, MAP_SHARED, f->fd, PMCDRV_SELF_MMAP_OFFSET);
		if (m == MAP_FAILED) {
			f->map_errs++;
			continue;
		}
		f->maps++;
		spin(2000);
		munmap(m, page_size);
		spin(2000);
	}
	return NULL;
}

/* A child of the forking thread: RDPMC after a switch through V (spinning on CPU 0). */
static int fm_child(int leaks)
{
	struct rdpmc_result r;
	struct timespec ts = { 0, 2000000 };
	char why[512];

	memset(&r, 0, sizeof(r));
	pin(V_CPU);
	nanosleep(&ts, NULL);	/* V runs; the wake-up switches back from it */
	rdpmc_all(&r);
	if (nonzero_ctrs(&r, why, sizeof(why))) {
		put(leaks, &r, sizeof(r));	/* non-blocking: the root keeps the first */
		return 2;
	}
	return r.faulted == (1U << (num_gp + num_fixed)) - 1 ? 0 : 1;
}

struct fm_forker {
	struct fm_state *f;
	int leaks;
	int counts[4];		/* children that faulted, read 0, leaked, failed */
	int forks;
};

static void *fm_fork_loop(void *arg)
{
	struct fm_forker *k = arg;
	long long t0 = now_ms();
	pid_t child;
	int s;

	pin(V_CPU);
	while (k->forks < FM_ITERS && now_ms() - t0 < FM_MS) {
		child = fork();
		if (child == 0)
			_exit(fm_child(k->leaks));
		if (child < 0)
			break;
		k->forks++;
		s = wait_status(child);
		k->counts[s >= 0 && s <= 2 ? s : 3]++;
	}
	k->f->stop = 1;
	return NULL;
}

static void test_fork_munmap(void)
{
	const char *name = "fork while another thread unmaps the page: no child reads V's counts after a switch";
	struct fm_forker k;
	struct rdpmc_result first;
	struct victim v;
	int fd, p[2], lk[2];
	char c = 's', why[512];
	pid_t pid;

	if (!victim_pipes(&v) || pipe(p) || pipe(lk))
		return;
	if (!victim_start(&v))
		goto out;
	put(v.go[1], &c, 1);	/* V spins on CPU 0, counting, until killed */
	fd = pmcdev_open(dev);
	pid = fork();
	if (pid == 0) {
		struct pmcdrv_config cfg = hw_config(PMCDRV_CONFIG_NO_INHERIT, PMCDRV_EVF_USER, false);
		struct fm_state f = { .fd = fd };
		pthread_t th;

		close(p[0]);
		close(lk[0]);
		fcntl(lk[1], F_SETFL, O_NONBLOCK);
		memset(&k, 0, sizeof(k));
		k.f = &f;
		k.leaks = lk[1];
		become(NOBODY, NOBODY);
		pin(ncpus > 1 ? 1 : 0);
		if (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &cfg) || pmcdev_attach(fd, 0, 0)) {
			k.counts[3] = -1;
			_exit(put(p[1], &k, sizeof(k)) ? 0 : 1);
		}
		/* This thread, the tracked one, maps and unmaps; a new one forks beside V. */
		if (pthread_create(&th, NULL, fm_fork_loop, &k))
			_exit(1);
		fm_mapper(&f);
		pthread_join(th, NULL);
		printf("security_leaks-figure: fork while munmap: %d forks, %d maps (%d refused)\n",
		       k.forks, f.maps, f.map_errs);
		_exit(put(p[1], &k, sizeof(k)) ? 0 : 1);
	}
	close(fd);
	close(p[1]);
	close(lk[1]);
	memset(&k, 0, sizeof(k));
	if (!get(p[0], &k, sizeof(k)))
		k.counts[3] = -2;
	wait_status(pid);
	memset(&first, 0, sizeof(first));
	why[0] = 0;
	if (k.counts[2] && get(lk[0], &first, sizeof(first)))
		nonzero_ctrs(&first, why, sizeof(why));
	close(p[0]);
	close(lk[0]);
	if (k.counts[3] < 0)
		CHECK(&st, false, name, "CONFIG or ATTACH failed (%d)", k.counts[3]);
	else
		CHECK(&st, k.counts[2] == 0 && k.counts[3] == 0 && k.forks > 0, name,
		      "%d forks: %d children faulted, %d read 0, %d read non-zero counters, %d failed; the first read:%s",
		      k.forks, k.counts[0], k.counts[1], k.counts[2], k.counts[3], why);
out:
	victim_stop(&v);
}

/* ---- H1: fork/ATTACH race ------------------------------------------------------------- */

#define H1_SPIN_MS	100
#define H1_DUMMIES	1000

/*
 * P: nobody, on CPU 0, tracked by S1 (inheriting, fd1) with 1,000 perf
 * dummy events (.task=1) on itself; it forks on request.  B (one per try):
 * nobody, on CPU 1, with a fresh session S2 (no inherit), ATTACHing S2 to
 * the pid P's next child will get until that is not ESRCH.
 */
struct h1 {
	pid_t p;
	int to_p[2], from_p[2];
	int dummies, want_dummies;
	bool clock_only;	/* no PMU: task-clock alone */
	/* over the tries */
	int tries, won, eexist, eagain, invalid, other, other_err, first_win;
	bool exec_done;
	struct pmcdrv_read s1, s2;	/* after the exec try's child exited */
	struct pmcdrv_read s1_before;	/* S1 before that child's exec */
	int s2_attach;		/* ATTACH errno in the exec try */
	int exec_status;
	int exits, exits_won;	/* tries whose child exited without exec (those won) */
	int stale;		/* of those, after which a session still tracked it */
	char stale_why[160];
};

static void h1_p_main(struct h1 *h, int fd1)
{
	struct pmcdrv_read r;
	int cp[2] = { -1, -1 }, i, v, fds = 0;
	pid_t child = -1;
	char c;

	pin(V_CPU);
	v = pmcdev_attach(fd1, 0, 0);
	for (i = 0; !v && i < h->want_dummies; i++) {
		struct perf_event_attr a = {
			.size = sizeof(a), .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY,
			.task = 1, .exclude_kernel = 1, .exclude_hv = 1,
		};

		if (syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) < 0)
			break;
		fds++;
	}
	if (!put(h->from_p[1], &v, sizeof(v)) || !put(h->from_p[1], &fds, sizeof(fds)))
		_exit(1);
	while (get(h->to_p[0], &c, 1)) {
		switch (c) {
		case 'n': {	/* the pid of the next fork */
			FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
			pid_t last;

			v = -1;
			if (!f || fscanf(f, "%d", &v) != 1)
				v = -1;
			if (f)
				fclose(f);
			/*
			 * Without CONFIG_CHECKPOINT_RESTORE (the debug lane's
			 * tinyconfig kernel) there is no ns_last_pid: the pid a
			 * throwaway child got is the last one given out.
			 */
			if (v < 0) {
				last = fork();
				if (last == 0)
					_exit(0);
				if (last > 0) {
					wait_status(last);
					v = last;
				}
			}
			v = v < 0 ? -1 : v + 1;
			break;
		}
		case 'f':	/* fork a child that waits for 'e' (exec) or 'x' (exit) */
			if (pipe(cp))
				_exit(1);
			child = fork();
			if (child == 0) {
				char ms[16];

				close(cp[1]);
				if (!get(cp[0], &c, 1) || c != 'e')
					_exit(0);
				snprintf(ms, sizeof(ms), "%u", H1_SPIN_MS);
				execl(suid_copy, suid_copy, "--spin", ms, (char *)NULL);
				_exit(97);
			}
			close(cp[0]);
			v = child;
			break;
		case 'e':
		case 'x':
			put(cp[1], &c, 1);
			close(cp[1]);
			v = wait_status(child);
			break;
		case 'r':
			v = pmcdev_read(fd1, &r);
			r.reserved[0] = (uint64_t)v;
			if (!put(h->from_p[1], &r, sizeof(r)))
				_exit(1);
			continue;
		default:
			_exit(0);
		}
		if (!put(h->from_p[1], &v, sizeof(v)))
			_exit(1);
	}
	_exit(0);
}

static int h1_ask(struct h1 *h, char c)
{
	int v = -1;

	if (!put(h->to_p[1], &c, 1) || !get(h->from_p[0], &v, sizeof(v)))
		return -1;
	return v;
}

static bool h1_start(struct h1 *h)
{
	struct pmcdrv_config c = hw_config(0, PMCDRV_EVF_USER, true);
	struct rlimit rl = { 4096, 4096 };
	int fd1, e = -1;

	if (h->clock_only)
		c = pmcdev_task_clock_config();
	if (pipe(h->to_p) || pipe(h->from_p))
		return false;
	setrlimit(RLIMIT_NOFILE, &rl);
	fd1 = pmcdev_open(dev);
	h->p = fork();
	if (h->p == 0) {
		close(h->to_p[1]);
		close(h->from_p[0]);
		/* nobody CONFIGs S1: the config is the attacker's own */
		become(NOBODY, NOBODY);
		if (pmcdev_io(fd1, PMCDRV_IOC_CONFIG, &c)) {
			e = errno;
			put(h->from_p[1], &e, sizeof(e));
			_exit(1);
		}
		h1_p_main(h, fd1);
	}
	close(fd1);
	close(h->to_p[0]);
	close(h->from_p[1]);
	if (!get(h->from_p[0], &e, sizeof(e)) || e || !get(h->from_p[0], &h->dummies, sizeof(int))) {
		CHECK(&st, false, "fork/ATTACH race: set-up (S1 attached to P)", "errno %d", e);
		return false;
	}
	if (h->dummies < h->want_dummies)
		printf("NOTE: fork/ATTACH race: P opened %d of %d perf dummy events\n", h->dummies,
		       h->want_dummies);
	return true;
}

static void h1_stop(struct h1 *h)
{
	char c = 'q';

	put(h->to_p[1], &c, 1);
	wait_status(h->p);
	close(h->to_p[1]);
	close(h->from_p[0]);
}

/* B: loop ATTACH(target) until not ESRCH, for 2 s at most; then READ on request. */
static void h1_b_main(int fd2, int in, int out, bool clock_only)
{
	struct pmcdrv_config c = hw_config(PMCDRV_CONFIG_NO_INHERIT, PMCDRV_EVF_USER, true);
	struct pmcdrv_read r;
	long long t0;
	int target, e, n = 0;
	char ch = 'l';

	if (clock_only) {
		c = pmcdev_task_clock_config();
		c.flags = PMCDRV_CONFIG_NO_INHERIT;
	}
	become(NOBODY, NOBODY);
	pin(ncpus > 1 ? 1 : 0);
	e = pmcdev_io(fd2, PMCDRV_IOC_CONFIG, &c);
	if (!put(out, &e, sizeof(e)) || e || !get(in, &target, sizeof(target)) || !put(out, &ch, 1))
		_exit(1);
	t0 = now_ms();
	do {
		e = pmcdev_attach(fd2, target, 0);
		n++;
	} while (e == ESRCH && ((n & 63) || now_ms() - t0 < 2000));
	if (!put(out, &e, sizeof(e)) || !get(in, &ch, 1))
		_exit(1);
	e = pmcdev_read(fd2, &r);
	r.reserved[0] = (uint64_t)e;
	_exit(put(out, &r, sizeof(r)) ? 0 : 1);
}

/* One try; @exec: the child execs the setuid spin (else only when the race is won first). */
static void h1_try(struct h1 *h, bool exec, bool keep_going)
{
	int fd2, tob[2], fromb[2], e = -1, target, child;
	struct pmcdrv_read r, r1;
	pid_t b;
	char c;

	if (pipe(tob) || pipe(fromb))
		return;
	fd2 = pmcdev_open(dev);
	b = fork();
	if (b == 0) {
		close(tob[1]);
		close(fromb[0]);
		h1_b_main(fd2, tob[0], fromb[1], h->clock_only);
	}
	close(fd2);
	close(tob[0]);
	close(fromb[1]);
	h->tries++;
	if (!get(fromb[0], &e, sizeof(e)) || e) {
		h->other++;
		h->other_err = e;
		goto out;
	}
	target = h1_ask(h, 'n');
	if (target <= 0 || !put(tob[1], &target, sizeof(target)) || !get(fromb[0], &c, 1)) {
		h->invalid++;
		goto out;
	}
	child = h1_ask(h, 'f');
	if (!get(fromb[0], &e, sizeof(e)))
		e = -1;
	if (child != target)
		h->invalid++;
	else if (e == 0)
		h->won++;
	else if (e == EEXIST)
		h->eexist++;
	else if (e == EAGAIN)
		h->eagain++;
	else if (e == ESRCH)
		h->invalid++;
	else {
		h->other++;
		h->other_err = e;
	}
	if (child == target && e == 0 && !h->first_win)
		h->first_win = h->tries;
	exec = !h->exec_done && (exec || (child == target && e == 0)) && suid_copy;
	if (exec) {
		c = 'r';
		memset(&h->s1_before, 0, sizeof(h->s1_before));
		if (!put(h->to_p[1], &c, 1) || !get(h->from_p[0], &h->s1_before, sizeof(h->s1_before)))
			h->s1_before.reserved[0] = EIO;
	}
	h->exec_status = h1_ask(h, exec ? 'e' : 'x');
	/* The child is gone: both sessions' view of it. */
	c = 'r';
	memset(&r, 0, sizeof(r));
	if (!put(tob[1], &c, 1) || !get(fromb[0], &r, sizeof(r)))
		r.reserved[0] = EIO;
	memset(&r1, 0, sizeof(r1));
	if (!put(h->to_p[1], &c, 1) || !get(h->from_p[0], &r1, sizeof(r1)))
		r1.reserved[0] = EIO;
	if (exec) {
		h->exec_done = true;
		h->s2_attach = e;
		h->s2 = r;
		h->s1 = r1;
	} else if (child == target) {
		h->exits++;
		h->exits_won += e == 0;
		if (r.nr_tasks || (r.flags & PMCDRV_READ_ATTACHED) || r1.nr_tasks != 1) {
			if (!h->stale++)
				snprintf(h->stale_why, sizeof(h->stale_why),
					 "try %d (ATTACH errno %d): S2 %u task(s), flags 0x%x; S1 %u task(s) (P alone: 1)",
					 h->tries, e, r.nr_tasks, r.flags, r1.nr_tasks);
		}
	}
	(void)keep_going;
out:
	close(tob[1]);
	close(fromb[0]);
	wait_status(b);
}

static void h1_report(struct h1 *h, const char *how)
{
	char name[256];
	const uint64_t spin_ns = H1_SPIN_MS * 1000000ULL, little = spin_ns / 20;
	const struct pmcdrv_read *s2 = &h->s2, *s1 = &h->s1;
	unsigned int clk = h->clock_only ? 0 : 1;
	int valid = h->won + h->eexist + h->eagain;
	uint64_t d1[2];

	printf("security_leaks-figure: fork/ATTACH race%s: %d tries, %d won (first at try %d), %d EEXIST, %d EAGAIN, %d void, %d other (errno %d)\n",
	       how, h->tries, h->won, h->first_win, h->eexist, h->eagain, h->invalid, h->other,
	       h->other_err);
	snprintf(name, sizeof(name),
		 "fork/ATTACH race%s: a second session's ATTACH to the child being forked under an inheriting session never succeeds (EEXIST or EAGAIN)",
		 how);
	CHECK(&st, h->won == 0 && h->other == 0 && valid > 0, name,
	      "won %d of %d tries (first at try %d), %d EEXIST, %d EAGAIN, %d void, %d other (errno %d)",
	      h->won, h->tries, h->first_win, h->eexist, h->eagain, h->invalid, h->other,
	      h->other_err);
	if (!h->exec_done) {
		printf("SKIP: fork/ATTACH race%s: the setuid exec: %s\n", how,
		       suid_copy ? "no try reached it" : "no setuid-root copy of this program");
		return;
	}
	d1[0] = s1->values[0] - h->s1_before.values[0];
	d1[1] = s1->values[clk] - h->s1_before.values[clk];
	printf("security_leaks-figure: fork/ATTACH race%s: the setuid spin of %u ms: S2 (ATTACH errno %d) %llu instructions:u, task-clock %llu ns; S1 over the exec %llu instructions:u, task-clock %llu ns%s\n",
	       how, H1_SPIN_MS, h->s2_attach, h->clock_only ? 0ULL : (unsigned long long)s2->values[0],
	       (unsigned long long)s2->values[clk], h->clock_only ? 0ULL : (unsigned long long)d1[0],
	       (unsigned long long)d1[1], h->clock_only ? " (no PMU: task-clock only)" : "");
	snprintf(name, sizeof(name),
		 "fork/ATTACH race%s: neither session counts the setuid-root image the child execs (< 5%% of its spin's user-mode instructions; task-clock without a PMU)",
		 how);
	CHECK(&st, s2->reserved[0] == 0 && s1->reserved[0] == 0 && h->s1_before.reserved[0] == 0 &&
	      /*
	       * The image's own work is its user-mode instructions; task-clock also holds
	       * the exec's kernel work up to the exec probe (docs/security.md, "A setuid
	       * exec's first instructions": ~45 ms of a 100 ms spin on the KASAN kernel),
	       * so it decides only without a PMU.
	       */
	      (h->s2_attach || (h->clock_only ? s2->values[clk] < little : s2->values[0] < little)) &&
	      (h->clock_only ? d1[1] < little : d1[0] < little),
	      name, "of a %u ms spin (exit status %d): S2 (ATTACH errno %d) %llu instructions:u, task-clock %llu ns; S1 %llu instructions:u, task-clock %llu ns; READ errnos %llu %llu %llu",
	      H1_SPIN_MS, h->exec_status, h->s2_attach,
	      h->clock_only ? 0ULL : (unsigned long long)s2->values[0],
	      (unsigned long long)s2->values[clk], h->clock_only ? 0ULL : (unsigned long long)d1[0],
	      (unsigned long long)d1[1], (unsigned long long)s2->reserved[0],
	      (unsigned long long)s1->reserved[0], (unsigned long long)h->s1_before.reserved[0]);
	snprintf(name, sizeof(name),
		 "fork/ATTACH race%s: the inheriting session stops at the setuid exec (SECURE_EXEC)", how);
	CHECK(&st, s1->reserved[0] == 0 && (s1->flags & PMCDRV_READ_SECURE_EXEC), name,
	      "READ errno %llu, flags 0x%x", (unsigned long long)s1->reserved[0], s1->flags);
	snprintf(name, sizeof(name),
		 "fork/ATTACH race%s: after the exec'd child exited, no session still tracks it (S2: no task; S1: P alone)",
		 how);
	CHECK(&st, s2->nr_tasks == 0 && !(s2->flags & PMCDRV_READ_ATTACHED) && s1->nr_tasks == 1,
	      name, "S2: %u task(s), flags 0x%x; S1: %u task(s), flags 0x%x", s2->nr_tasks,
	      s2->flags, s1->nr_tasks, s1->flags);
	snprintf(name, sizeof(name),
		 "fork/ATTACH race%s: after a child that did not exec exited, no session still tracks it (no stale context)",
		 how);
	CHECK(&st, h->stale == 0 && h->exits > 0, name,
	      "%d of %d such tries (%d of them won) left a context: first %s", h->stale, h->exits,
	      h->exits_won, h->stale ? h->stale_why : "(no such try)");
}

static void test_fork_attach_race(void)
{
	bool all = getenv("SECURITY_LEAKS_H1_ALL") && atoi(getenv("SECURITY_LEAKS_H1_ALL"));
	const char *e;
	int max;
	struct h1 h;
	long long t0;
	FILE *f;

	memset(&h, 0, sizeof(h));
	h.clock_only = !have_pmu;
	e = getenv("SECURITY_LEAKS_H1_DUMMIES");
	h.want_dummies = e ? atoi(e) : H1_DUMMIES;
	e = getenv("SECURITY_LEAKS_H1_TRIES");
	max = e ? atoi(e) : 200;
	if (!h1_start(&h))
		return;
	t0 = now_ms();
	/* Until one won race ended in the setuid exec and one in a plain exit. */
	while (h.tries < max && (all || !h.exec_done || !h.exits_won) &&
	       now_ms() - t0 < (all ? 600000 : 15000))
		h1_try(&h, false, all);
	if (!h.exec_done)
		h1_try(&h, true, all);	/* the setuid exec checks, with or without a won race */
	h1_report(&h, "");

	/* Deterministic: the debug build's fork probe waits 200 ms before its lock. */
	f = fopen(DELAY_PARAM, "r");
	if (!f) {
		printf("SKIP: fork/ATTACH race with the fork probe held 200 ms: no %s (only the debug-lane build has it)\n",
		       DELAY_PARAM);
	} else {
		fclose(f);
		memset(&h.tries, 0, sizeof(h) - offsetof(struct h1, tries));
		if (write_file(DELAY_PARAM, "200")) {
			CHECK(&st, false, "fork/ATTACH race: set debug_fork_delay_ms to 200", "%s",
			      strerror(errno));
		} else {
			while (h.tries < 3)
				h1_try(&h, h.tries == 1, false);
			if (write_file(DELAY_PARAM, "0"))
				CHECK(&st, false, "fork/ATTACH race: set debug_fork_delay_ms back to 0",
				      "%s", strerror(errno));
			h1_report(&h, " (fork probe held 200 ms)");
		}
	}
	h1_stop(&h);
}

/* ---- M1: permission checks racing exit ------------------------------------------------- */

/* KASAN/BUG/WARNING/Oops lines in the kernel log now. */
static int klog_bad_lines(void)
{
	int len = klogctl(10, NULL, 0), n, bad = 0;
	char *buf, *line, *save = NULL;

	if (len <= 0)
		return -1;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -1;
	n = klogctl(3, buf, len);
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		bad += strstr(line, "KASAN") || strstr(line, "BUG:") || strstr(line, "WARNING:") ||
		       strstr(line, "Oops") || strstr(line, "general protection") ||
		       strstr(line, "use-after-free");
	free(buf);
	return bad;
}

/*
 * As nobody, on CPU 0: fork a child that moves to CPU 1 and exits at once,
 * and ATTACH to it after a delay that follows the child's exit: longer
 * after an ATTACH that came before it, shorter after one that came after,
 * so that the ATTACHes cluster around the exit.  A session of its own
 * keeps pmcdrv's probes registered, so that each ATTACH is quick.  r[]:
 * attached, ESRCH, EPERM, other, the last other errno.
 */
static void attach_exit_loop(int fd, int *r)
{
	struct pmcdrv_config c = pmcdev_task_clock_config(), k = c;
	long long t0 = now_ms();
	int keep = open(dev, O_RDWR | O_CLOEXEC), e;
	long delay = 1000;
	pid_t child;

	pin(V_CPU);
	k.flags = PMCDRV_CONFIG_NO_INHERIT;	/* its children are not tracked by it */
	if (keep < 0 || pmcdev_io(keep, PMCDRV_IOC_CONFIG, &k) || pmcdev_attach(keep, 0, 0))
		_exit(1);
	while (now_ms() - t0 < 2000) {
		if (fd < 0) {
			fd = open(dev, O_RDWR | O_CLOEXEC);
			if (fd < 0 || pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c))
				_exit(1);
		}
		child = fork();
		if (child == 0) {
			pin(ncpus > 1 ? 1 : 0);
			_exit(0);
		}
		if (child < 0)
			break;
		spin(delay);
		e = pmcdev_attach(fd, child, 0);
		wait_status(child);
		if (e == 0 && delay < 100000000)
			delay *= 2;
		else if (e)
			delay = delay * 7 / 8 + 1;
		if (e == 0) {
			r[0]++;
			close(fd);
			fd = -1;
		} else if (e == ESRCH) {
			r[1]++;
		} else if (e == EPERM) {
			r[2]++;
		} else {
			r[3]++;
			r[4] = e;
		}
	}
	close(keep);
}

static void test_attach_exit(void)
{
	const char *name = "ATTACH to its own children as they exit, 2 s as nobody: only 0 or ESRCH, kernel log clean";
	struct stat sb;
	int before = klog_bad_lines(), after, p[2], r[5] = { 0, 0, 0, 0, 0 };
	bool held;
	pid_t pid;

	if (stat(dev, &sb) || chmod(dev, 0666) || pipe(p)) {
		CHECK(&st, false, name, "cannot open the device to nobody: %s", strerror(errno));
		return;
	}
	held = access(PERM_DELAY_PARAM, F_OK) == 0;
	if (held && write_file(PERM_DELAY_PARAM, "20")) {
		CHECK(&st, false, "ATTACH racing exit: set debug_perm_delay_ms to 20", "%s", strerror(errno));
		held = false;
	}
	printf("%s: the permission check %s\n", held ? "NOTE" : "SKIP",
	       held ? "holds 20 ms inside (debug_perm_delay_ms)" :
	       "is not held open: no " PERM_DELAY_PARAM " (only the debug-lane build has it)");
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		become(NOBODY, NOBODY);
		attach_exit_loop(-1, r);
		_exit(put(p[1], r, sizeof(r)) ? 0 : 1);
	}
	close(p[1]);
	if (!get(p[0], r, sizeof(r)))
		r[3] = -1;
	wait_status(pid);
	close(p[0]);
	chmod(dev, sb.st_mode & 07777);
	if (held && write_file(PERM_DELAY_PARAM, "0"))
		CHECK(&st, false, "ATTACH racing exit: set debug_perm_delay_ms back to 0", "%s", strerror(errno));
	after = klog_bad_lines();
	printf("security_leaks-figure: attach-exit: %d attached, %d ESRCH, %d EPERM, %d other\n",
	       r[0], r[1], r[2], r[3]);
	CHECK(&st, r[2] == 0 && r[3] == 0 && r[0] + r[1] > 0 && after == before, name,
	      "%d attached, %d ESRCH, %d EPERM, %d other (errno %d); kernel log: %d bad lines before, %d after",
	      r[0], r[1], r[2], r[3], r[4], before, after);
}

/* ---- L4: the confused deputy ----------------------------------------------------------- */

/* Root CONFIGs @c at paranoid @paranoid; nobody, holding the fd, ATTACHes itself: errno. */
static int deputy(int paranoid, const struct pmcdrv_config *c, int *config_err)
{
	struct pmcdrv_config copy = *c;
	int fd, p[2], e = 97;
	pid_t pid;

	*config_err = -1;
	if (set_paranoid(paranoid) || pipe(p))
		return -1;
	fd = pmcdev_open(dev);
	*config_err = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &copy);
	if (*config_err) {
		close(fd);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		become(NOBODY, NOBODY);
		e = pmcdev_attach(fd, 0, 0);
		_exit(put(p[1], &e, sizeof(e)) ? 0 : 1);
	}
	close(fd);
	close(p[1]);
	if (!get(p[0], &e, sizeof(e)))
		e = 97;
	wait_status(pid);
	close(p[0]);
	return e;
}

static void test_deputy(void)
{
	struct pmcdrv_config kern = hw_config(0, PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL, false);
	struct pmcdrv_config user = pmcdev_task_clock_config();
	int e, ce;

	if (have_pmu) {
		e = deputy(2, &kern, &ce);
		CHECK(&st, e == EACCES,
		      "paranoid 2: a kernel-mode CONFIG root made, ATTACHed by nobody holding the fd -> EACCES",
		      "root's CONFIG errno %d, nobody's ATTACH errno %d (%s)", ce, e,
		      e > 0 ? strerror(e) : "ok");
		e = deputy(1, &kern, &ce);
		CHECK(&st, e == 0,
		      "paranoid 1: a kernel-mode CONFIG root made, ATTACHed by nobody -> ok (the control)",
		      "root's CONFIG errno %d, nobody's ATTACH errno %d", ce, e);
	} else {
		printf("SKIP: confused deputy, kernel mode: no PMU in this guest\n");
	}
	e = deputy(3, &user, &ce);
	CHECK(&st, e == EACCES,
	      "paranoid 3: a user-mode CONFIG root made, ATTACHed by nobody without the group opt-in -> EACCES",
	      "root's CONFIG errno %d, nobody's ATTACH errno %d (%s)", ce, e, e > 0 ? strerror(e) : "ok");
	set_paranoid(2);
}

/* ---- L1: paranoid 3 needs CAP_SYS_ADMIN, as Debian's patch -------------------------------- */

/* As root without capability @drop: CONFIG of task-clock at paranoid 3, errno. */
static int config_without(int drop)
{
	int p[2], e = 97;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		struct pmcdrv_config c = pmcdev_task_clock_config();
		int fd = pmcdev_open(dev);

		close(p[0]);
		if (syscall(SYS_capget, &hdr, d))
			_exit(1);
		d[CAP_TO_INDEX(drop)].effective &= ~CAP_TO_MASK(drop);
		d[CAP_TO_INDEX(drop)].permitted &= ~CAP_TO_MASK(drop);
		d[CAP_TO_INDEX(drop)].inheritable &= ~CAP_TO_MASK(drop);
		if (syscall(SYS_capset, &hdr, d))
			e = 96;
		else
			e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
		_exit(put(p[1], &e, sizeof(e)) ? 0 : 1);
	}
	close(p[1]);
	if (!get(p[0], &e, sizeof(e)))
		e = 97;
	wait_status(pid);
	close(p[0]);
	return e;
}

static void test_sys_admin(void)
{
	int e;

	if (set_paranoid(3)) {
		printf("SKIP: paranoid 3 and CAP_SYS_ADMIN: cannot set the sysctl\n");
		return;
	}
	e = config_without(CAP_SYS_ADMIN);
	CHECK(&st, e == EACCES,
	      "paranoid 3: CAP_PERFMON without CAP_SYS_ADMIN is refused CONFIG -> EACCES (Debian's rule)",
	      "CONFIG errno %d (%s)", e, e > 0 ? strerror(e) : "ok");
	e = config_without(CAP_PERFMON);
	CHECK(&st, e == 0, "paranoid 3: CAP_SYS_ADMIN without CAP_PERFMON may CONFIG",
	      "CONFIG errno %d (%s)", e, strerror(e));
	set_paranoid(2);
}

/* ---- main ---------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct pmcdrv_info info;
	char old[16] = "";
	long long t0 = now_ms();
	struct stat sb;
	FILE *f;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "--spin"))
		return spin_cpu_ms((unsigned int)atoi(argv[2]));
	if (argc < 2) {
		fprintf(stderr, "usage: %s SUID-COPY [CASE...]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	only = argv + 2;
	if (!stat(argv[1], &sb) && sb.st_uid == 0 && (sb.st_mode & S_ISUID))
		suid_copy = argv[1];
	else
		printf("NOTE: %s is not setuid root: the setuid exec checks are SKIPs\n", argv[1]);
	page_size = sysconf(_SC_PAGESIZE);
	ncpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	fd = pmcdev_open(dev);
	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	have_pmu = !pmcdev_io(fd, PMCDRV_IOC_INFO, &info) && (info.flags & PMCDRV_INFO_ARCH_PERFMON) &&
		   info.num_gp;
	num_gp = info.num_gp;
	num_fixed = info.num_fixed;
	if (num_gp + num_fixed > MAX_CTRS)
		num_fixed = MAX_CTRS - num_gp;
	close(fd);

	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (!f || !fgets(old, sizeof(old), f)) {
		printf("FAIL: cannot read perf_event_paranoid\n");
		return 1;
	}
	fclose(f);
	if (set_paranoid(2))
		printf("NOTE: cannot set perf_event_paranoid 2\n");

	if (have_pmu) {
		if (want("disabled"))
			test_stopped("RDPMC with a disabled session's page, after a switch through V: every counter reads 0",
				     0, true);
		if (want("enable-on-exec"))
			test_stopped("RDPMC with an enable-on-exec session's page, after a switch through V: every counter 0 or SIGSEGV",
				     PMCDRV_ATTACH_ENABLE_ON_EXEC, false);
		if (want("perf-child"))
			test_perf_child();
		if (want("dofork"))
			test_dofork();
		if (want("fork-munmap"))
			test_fork_munmap();
	} else {
		static const char *const rdpmc_cases[] = {
			"RDPMC with a disabled session's page", "RDPMC with an enable-on-exec session's page",
			"RDPMC in a child of a process with perf's page", "MADV_DOFORK of the self-read page",
			"fork while another thread unmaps the page",
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(rdpmc_cases); i++)
			printf("SKIP: %s: no PMU in this guest (INFO: flags 0x%x, %u GP counters): nothing to read with RDPMC\n",
			       rdpmc_cases[i], info.flags, info.num_gp);
	}
	if (want("deputy"))
		test_deputy();
	if (want("sys-admin"))
		test_sys_admin();
	if (want("attach-exit"))
		test_attach_exit();
	if (want("fork-attach"))
		test_fork_attach_race();

	if (write_file("/proc/sys/kernel/perf_event_paranoid", old))
		perror("restoring perf_event_paranoid");
	printf("security_leaks-figure: run time %lld ms\n", now_ms() - t0);
	return check_summary(&st, "security_leaks");
}
