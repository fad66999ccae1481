// SPDX-License-Identifier: GPL-2.0
/*
 * Stress and abuse helpers for tests/guest/75-abuse.sh.
 *   abuse_sessions many NSESS LOOP N [EXPECT]
 *       NSESS sessions open at once, each attached (ENABLE_ON_EXEC) to its
 *       own child that then execs LOOP N; all count instructions:u (task-clock
 *       without a PMU).  Every count equals EXPECT (or each other when EXPECT
 *       is absent); every session reports EXITED and one task at most.
 *   abuse_sessions pool K
 *       An inheriting task-clock session on ourselves, SCHED_FIFO on CPU 0,
 *       forks K children that exit at once while every unbound workqueue
 *       worker is confined to CPU 0 (the kernel's workqueue cpumask, put
 *       back after): the pool's refill work has no CPU to run on meanwhile,
 *       so the pool runs dry: lost_tasks > 0 and LOST_TASKS are
 *       reported.  A second burst after the refill had time to run loses
 *       nothing more.
 *   abuse_sessions owner LOOP N
 *       An owner process opens a session, attaches to a child that runs LOOP N,
 *       and exits while the child runs; the child must finish with exit 0.
 *   abuse_sessions close K
 *       An inheriting session on a child that forks K children (waves of 5,
 *       1 ms apart, so the pool keeps up) which all block: the session is
 *       closed with them all tracked (close untracks in batches,
 *       docs/design.md "Latency bounds").  After it none is tracked: a new
 *       session attaches to the same task; then they all exit normally.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "libpmc.h"

static struct check_state st;
static bool have_pmu;

static void add_event(struct pmc_session *s)
{
	struct pmcdrv_event clk = { .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	struct pmcdrv_event ins = { .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER, .event = 0xc0 };

	pmc_session_add(s, have_pmu ? &ins : &clk);
}

/* A child that waits until @go is written or closed, then execs LOOP N. */
static pid_t gated_child(int go[2], const char *loop, const char *n)
{
	pid_t p = fork();
	char c;

	if (p)
		return p;
	close(go[1]);
	if (read(go[0], &c, 1) < 0)
		_exit(97);
	execl(loop, loop, n, (char *)NULL);
	_exit(98);
}

static int many(int nsess, const char *loop, const char *n, const char *expect)
{
	struct rlimit rl = { .rlim_cur = (rlim_t)nsess + 64, .rlim_max = (rlim_t)nsess + 64 };
	struct pmc_session **s = calloc((size_t)nsess, sizeof(*s));
	pid_t *pid = calloc((size_t)nsess, sizeof(*pid));
	int go[2], i, err = 0, opened = 0, bad = 0, badexit = 0, status;
	uint64_t first = 0, want = expect ? strtoull(expect, NULL, 10) : 0;
	struct pmcdrv_read r;
	char why[160] = "";

	if (setrlimit(RLIMIT_NOFILE, &rl))
		perror("setrlimit");
	if (pipe(go))
		return 1;
	for (i = 0; i < nsess; i++) {
		pid[i] = gated_child(go, loop, n);
		if (pid[i] < 0) {
			CHECK(&st, 0, "many: fork", "fork %d: %s", i, strerror(errno));
			nsess = i;
			break;
		}
	}
	close(go[0]);
	for (i = 0; i < nsess; i++) {
		err = pmc_session_open(NULL, &s[i]);
		if (err)
			break;
		add_event(s[i]);
		err = pmc_session_attach(s[i], pid[i], PMCDRV_ATTACH_ENABLE_ON_EXEC);
		if (err) {
			pmc_session_close(s[i]);
			break;
		}
		opened++;
	}
	CHECK(&st, opened == nsess, "many: all sessions open, configured and attached at once",
	      "%d of %d: %s", opened, nsess, strerror(-err));
	close(go[1]);	/* every child execs the loop now */
	for (i = 0; i < nsess; i++) {
		waitpid(pid[i], &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			badexit++;
	}
	CHECK(&st, badexit == 0, "many: every child ran the loop and exited 0", "%d did not", badexit);
	for (i = 0; i < opened; i++) {
		memset(&r, 0, sizeof(r));
		if (pmc_session_read(s[i], &r) || !(r.flags & PMCDRV_READ_EXITED) || r.nr_tasks) {
			if (!bad++)
				snprintf(why, sizeof(why), "session %d: flags 0x%x tasks %u", i, r.flags,
					 r.nr_tasks);
			continue;
		}
		if (i == 0)
			first = r.values[0];
		if (have_pmu ? r.values[0] != (expect ? want : first) : r.values[0] == 0) {
			if (!bad++)
				snprintf(why, sizeof(why), "session %d: count %llu, want %llu", i,
					 (unsigned long long)r.values[0],
					 (unsigned long long)(expect ? want : first));
		}
	}
	CHECK(&st, bad == 0, have_pmu ? "many: every session's instructions:u exact, EXITED" :
	      "many: every session's task-clock > 0, EXITED", "%d bad; first: %s", bad, why);
	for (i = 0; i < opened; i++)
		pmc_session_close(s[i]);
	return 0;
}

static void msleep(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int burst(int k)
{
	int i, made = 0;

	for (i = 0; i < k; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			made++;
	}
	for (i = 0; i < made; i++)
		wait(NULL);
	return made;
}

/* The unbound workqueues' CPUs, the kernel's global mask (Documentation/core-api/workqueue.rst). */
#define WQ_UNBOUND_CPUMASK "/sys/devices/virtual/workqueue/cpumask"

/* Read @path's first line into @buf (its newline cut); 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return err;
}

/* Write @val to @path; 0 or -errno. */
static int write_str(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fputs(val, f) == EOF)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

static int pool(int k)
{
	struct sched_param sp = { .sched_priority = 10 }, zero = { 0 };
	struct pmc_session *s;
	struct pmcdrv_read r1, r2;
	char saved[256];
	cpu_set_t one;
	int err, made;

	err = pmc_session_open(NULL, &s);
	if (err) {
		CHECK(&st, 0, "pool: open", "%s", strerror(-err));
		return 0;
	}
	{
		struct pmcdrv_event clk = { .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };

		pmc_session_add(s, &clk);
	}
	/*
	 * The refill work runs on unbound workers: confine every unbound
	 * worker to CPU 0, where this task forks at SCHED_FIFO, so that none
	 * runs before the burst ends.  The other CPUs stay free for the
	 * kernel's own threads (on PREEMPT_RT, timers and RCU callbacks run in
	 * per-CPU threads that a spinner there would starve).
	 */
	err = read_line(WQ_UNBOUND_CPUMASK, saved, sizeof(saved));
	if (!err)
		err = write_str(WQ_UNBOUND_CPUMASK, "1");
	CHECK(&st, !err, "pool: unbound workqueues confined to CPU 0 (" WQ_UNBOUND_CPUMASK ")",
	      "%s", strerror(-err));
	if (err) {
		pmc_session_close(s);
		return 0;
	}
	err = pmc_session_attach(s, 0, 0);
	CHECK(&st, !err, "pool: inheriting session attached to itself", "%s", strerror(-err));
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (sched_setaffinity(0, sizeof(one), &one) || sched_setscheduler(0, SCHED_FIFO, &sp))
		perror("pool: affinity/SCHED_FIFO");
	/* Children inherit SCHED_FIFO and CPU 0: none runs before the burst ends. */
	made = 0;
	{
		pid_t *p = calloc((size_t)k, sizeof(*p));
		int i;

		for (i = 0; p && i < k; i++) {
			p[i] = fork();
			if (p[i] == 0)
				_exit(0);
			if (p[i] > 0)
				made++;
		}
		sched_setscheduler(0, SCHED_OTHER, &zero);
		err = write_str(WQ_UNBOUND_CPUMASK, saved);
		CHECK(&st, !err, "pool: unbound workqueues' CPUs put back", "%s to %s: %s",
		      WQ_UNBOUND_CPUMASK, saved, strerror(-err));
		for (i = 0; p && i < k; i++)
			if (p[i] > 0)
				waitpid(p[i], NULL, 0);
		free(p);
	}
	memset(&r1, 0, sizeof(r1));
	pmc_session_read(s, &r1);
	CHECK(&st, made == k && r1.lost_tasks > 0 && r1.lost_tasks <= (uint64_t)k &&
	      (r1.flags & PMCDRV_READ_LOST_TASKS) && r1.nr_tasks == 1,
	      "pool: a burst of forks runs the pool dry: lost_tasks > 0, LOST_TASKS set",
	      "forked %d of %d, lost_tasks %llu, flags 0x%x, tasks %u", made, k,
	      (unsigned long long)r1.lost_tasks, r1.flags, r1.nr_tasks);
	printf("pool: %d forks, lost_tasks %llu (pool target 32)\n", k,
	       (unsigned long long)r1.lost_tasks);
	/* The refill work runs now that we sleep; a burst of 16 fits the pool. */
	msleep(200);
	burst(16);
	memset(&r2, 0, sizeof(r2));
	pmc_session_read(s, &r2);
	CHECK(&st, r2.lost_tasks == r1.lost_tasks && r2.nr_tasks == 1,
	      "pool: refilled afterwards: 16 more forks all tracked",
	      "lost_tasks %llu -> %llu, tasks %u", (unsigned long long)r1.lost_tasks,
	      (unsigned long long)r2.lost_tasks, r2.nr_tasks);
	pmc_session_close(s);
	return 0;
}

static int owner(const char *loop, const char *n, bool killed)
{
	int go[2], status, sync[2];
	pid_t o, child = 0;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe(go) || pipe(sync))
		return 1;
	o = fork();
	if (o == 0) {
		struct pmc_session *s;
		pid_t c;
		int err;

		c = gated_child(go, loop, n);
		if (write(sync[1], &c, sizeof(c)) != sizeof(c))
			_exit(96);
		err = pmc_session_open(NULL, &s);
		if (!err) {
			add_event(s);
			err = pmc_session_attach(s, c, 0);
		}
		if (write(go[1], "x", 1) != 1)
			_exit(95);
		msleep(20);	/* the child runs its loop, counted */
		if (killed)
			pause();	/* killed by the parent below */
		_exit(err ? 1 : 0);	/* exit with the session open: close from exit */
	}
	close(go[0]);
	close(go[1]);
	if (read(sync[0], &child, sizeof(child)) != sizeof(child))
		child = 0;
	if (killed) {
		msleep(40);
		kill(o, SIGKILL);
	}
	waitpid(o, &status, 0);
	CHECK(&st, killed ? WIFSIGNALED(status) : (WIFEXITED(status) && !WEXITSTATUS(status)),
	      killed ? "owner: session owner killed while its task runs" :
		       "owner: session owner attached and exited while its task runs",
	      "status 0x%x", status);
	CHECK(&st, child > 0 && kill(child, 0) == 0, killed ? "owner (killed): tracked task still runs after" :
	      "owner: tracked task still runs after the owner exited", "pid %d", child);
	status = -1;
	if (child > 0)
		waitpid(child, &status, 0);
	CHECK(&st, WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      killed ? "owner (killed): the orphaned task finished normally" :
		       "owner: the orphaned task finished normally", "status 0x%x", status);
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The forking child of close_wide(): K blocked children, then reap them. */
static void close_wide_child(int k, int gate, int ready)
{
	int i, made = 0;
	char c;

	if (read(gate, &c, 1) != 1)	/* attached */
		_exit(97);
	for (i = 0; i < k; i++) {
		pid_t p = fork();

		if (p == 0) {
			close(ready);
			_exit(read(gate, &c, 1) == 0 ? 0 : 96);	/* EOF: the test is over */
		}
		if (p > 0)
			made++;
		if (i % 5 == 4)
			msleep(1);
	}
	if (write(ready, &made, sizeof(made)) != sizeof(made))
		_exit(95);
	while (wait(NULL) > 0)
		;
	_exit(0);
}

static int close_wide(int k)
{
	struct pmcdrv_event clk = { .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	struct pmc_session *s = NULL, *s2 = NULL;
	struct pmcdrv_read r;
	int gate[2], ready[2], made = -1, err, status = -1;
	double t;
	pid_t top;

	if (pipe(gate) || pipe(ready))
		return 1;
	top = fork();
	if (top == 0) {
		close(gate[1]);
		close(ready[0]);
		close_wide_child(k, gate[0], ready[1]);
	}
	close(gate[0]);
	close(ready[1]);
	err = pmc_session_open(NULL, &s);
	if (!err) {
		pmc_session_add(s, &clk);
		err = pmc_session_attach(s, top, 0);
	}
	CHECK(&st, !err, "close: inheriting session attached to the forking task", "%s", strerror(-err));
	if (write(gate[1], "g", 1) != 1 || read(ready[0], &made, sizeof(made)) != sizeof(made))
		made = -1;
	memset(&r, 0, sizeof(r));
	if (s)
		pmc_session_read(s, &r);
	CHECK(&st, made == k && r.nr_tasks + r.lost_tasks == (uint64_t)k + 1 &&
	      r.nr_tasks > (unsigned int)k / 2,
	      "close: thousands of tasks tracked at once (tracked + lost = forked + 1)",
	      "forked %d of %d, tracked %u, lost %llu", made, k, r.nr_tasks,
	      (unsigned long long)r.lost_tasks);
	t = now_ms();
	pmc_session_close(s);
	printf("close: a session with %u tracked tasks closed in %.1f ms\n", r.nr_tasks, now_ms() - t);
	/* Untracked, every one: the task it was attached to takes a new session. */
	err = pmc_session_open(NULL, &s2);
	if (!err) {
		pmc_session_add(s2, &clk);
		err = pmc_session_attach(s2, top, 0);
	}
	CHECK(&st, !err, "close: after the close, a new session attaches to the same task",
	      "%s", strerror(-err));
	memset(&r, 0, sizeof(r));
	if (s2)
		pmc_session_read(s2, &r);
	CHECK(&st, r.nr_tasks == 1, "close: the new session tracks that task alone (children not re-tracked)",
	      "tracked %u", r.nr_tasks);
	pmc_session_close(s2);
	close(gate[1]);		/* the children read EOF and exit */
	waitpid(top, &status, 0);
	CHECK(&st, WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "close: the children and their parent exited normally", "status 0x%x", status);
	close(ready[0]);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmcdrv_info info;
	enum pmc_decode_err derr;

	pmc_cpuid_info(&info, &derr);
	have_pmu = info.flags & PMCDRV_INFO_ARCH_PERFMON;
	if (argc >= 5 && !strcmp(argv[1], "many"))
		many(atoi(argv[2]), argv[3], argv[4], argc > 5 ? argv[5] : NULL);
	else if (argc == 3 && !strcmp(argv[1], "pool"))
		pool(atoi(argv[2]));
	else if (argc == 4 && !strcmp(argv[1], "owner")) {
		owner(argv[2], argv[3], false);
		owner(argv[2], argv[3], true);
	} else if (argc == 3 && !strcmp(argv[1], "close")) {
		close_wide(atoi(argv[2]));
	} else {
		fprintf(stderr, "usage: abuse_sessions many NSESS LOOP N [EXPECT] | pool K | owner LOOP N | close K\n");
		return 2;
	}
	return check_summary(&st, "abuse_sessions");
}
