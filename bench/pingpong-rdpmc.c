// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong-rdpmc MODE EVENTS ROUNDS [CPU [WARMUP_MS]]: B7 of bench/, the
 * ping-pong of bench/pingpong.c between two processes that both count
 * EVENTS (pmcctl's -e syntax, hardware events) on themselves and may read
 * them with RDPMC: both address spaces have perf_rdpmc_allowed set, so
 * every switch is into an address space that may execute RDPMC (but with
 * pmcdrv-ioctl, the same between two sessions without RDPMC).
 *
 *   none           no counting and no page: the same ping-pong, the baseline
 *   pmcdrv         after the fork each process opens its own libpmc session
 *                  (no inherit), attaches to itself and maps its self-read
 *                  page (pmc_self_open()): every switch goes from one session
 *                  to another into an RDPMC-capable address space, where
 *                  pmcdrv zeroes the counters the other session left
 *   pmcdrv-shared  one session, inherited: opened and attached in the parent
 *                  before the fork; each process maps its own self-read page
 *                  after it: every switch is between two tasks of one session
 *   pmcdrv-ioctl   as pmcdrv, but no self-read page: each process reads its
 *                  session with the READ ioctl, and no address space may
 *                  execute RDPMC: every switch goes from one session to
 *                  another, with nothing to scrub
 *   perf           after the fork each process perf_event_open()s EVENTS on
 *                  itself (one group, pid 0, any CPU, no inherit) and maps
 *                  each event's page (bench/perfself.h), which sets its
 *                  perf_rdpmc_allowed: perf zeroes its dirty counters as the
 *                  CPU switches to either address space
 *
 * The parent pins itself to CPU (default 0) before the fork; both set up
 * their counting after it, then the child says it is ready and the
 * ping-pong of bench/pingpong.c runs: WARMUP_MS ms (default 50; at least
 * one round trip), then ROUNDS timed round trips of two context switches
 * each.  Each process reads its own counts through RDPMC (libpmc's
 * pmc_self_read() on the page, or perf's page loop; the RDPMC path must be
 * available, else exit 1), or pmcdrv-ioctl with the READ ioctl, before and
 * after the timed round trips, outside the timed part, and fails unless
 * its first event moved: the switch path
 * is what is measured, not the reads.  The child learns that the parent is
 * done from a last byte, so its exit is not timed either.  Prints one line,
 * bench/pingpong.c's with three more fields:
 *
 *   pingpong rounds=N warmup_rounds=W ns=T ns_per_round=T/N mode=M events=E self_per_round=S
 *
 * S: the parent's first event, as its own RDPMC reads give it, per timed
 * round trip (0 with mode none).  Under QEMU's -icount shift=0 a guest ns
 * is one retired guest instruction: T is an instruction-count proxy.  The
 * task name is "pingpong-rdpmc" (bench/lib/msrtrace.sh takes it).
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "perfself.h"

enum mode { M_NONE, M_PMCDRV, M_SHARED, M_IOCTL, M_PERF };

static const char *const mode_name[] = {
	[M_NONE] = "none", [M_PMCDRV] = "pmcdrv", [M_SHARED] = "pmcdrv-shared",
	[M_IOCTL] = "pmcdrv-ioctl", [M_PERF] = "perf",
};

/* One process's counting: a libpmc self-reader, or perf fds and their pages. */
struct counting {
	enum mode mode;
	unsigned int n;
	struct pmc_session *s;		/* M_PMCDRV, M_IOCTL: its own; M_SHARED: the parent's */
	struct pmc_self *r;
	int fds[PMCDRV_MAX_EVENTS];
	const volatile struct perf_event_mmap_page *pg[PMCDRV_MAX_EVENTS];
};

static const char *who = "parent";

static void die(const char *what)
{
	fprintf(stderr, "pingpong-rdpmc: %s: %s: %s\n", who, what, strerror(errno));
	exit(1);
}

static void die_err(const char *what, int err)
{
	errno = -err;
	die(what);
}

#include "pingpong.h"

/* A session with the events of @l (hardware only), attached to the calling thread. */
static struct pmc_session *session_open(const struct pmc_evlist *l, bool inherit)
{
	struct pmc_session *s;
	unsigned int i;
	int err;

	err = pmc_session_open(NULL, &s);
	if (err)
		die_err("open /dev/pmcdrv", err);
	pmc_session_set_inherit(s, inherit);
	for (i = 0; i < l->n; i++) {
		err = pmc_session_add(s, &l->ev[i].ev);
		if (err < 0)
			die_err(l->ev[i].name, err);
	}
	err = pmc_session_attach(s, 0, 0);
	if (err)
		die_err("attach", err);
	return s;
}

/* The calling process's counting, after the fork (@shared: M_SHARED's session). */
static void counting_start(struct counting *c, const struct pmc_evlist *l,
			   struct pmc_session *shared)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned int i;
	int err;
	void *p;

	switch (c->mode) {
	case M_NONE:
		return;
	case M_IOCTL:
		c->s = session_open(l, false);
		return;
	case M_PMCDRV:
	case M_SHARED:
		c->s = c->mode == M_SHARED ? shared : session_open(l, false);
		err = pmc_self_open(c->s, &c->r);
		if (err)
			die_err("pmc_self_open", err);
		if (!pmc_self_fast(c->r)) {
			errno = EOPNOTSUPP;
			die("the self-read page offers no RDPMC path");
		}
		return;
	case M_PERF:
		for (i = 0; i < c->n; i++) {
			c->fds[i] = perf_open(&l->ev[i], i ? c->fds[0] : -1);
			if (c->fds[i] < 0)
				die(l->ev[i].name);
			p = mmap(NULL, page, PROT_READ, MAP_SHARED, c->fds[i], 0);
			if (p == MAP_FAILED)
				die("perf mmap");
			c->pg[i] = p;
			if (!c->pg[i]->cap_user_rdpmc || !c->pg[i]->index) {
				errno = EOPNOTSUPP;
				die("the perf page offers no RDPMC");
			}
		}
		return;
	}
}

/* The first event's count, read through RDPMC (the READ ioctl with M_IOCTL; 0 with mode none). */
static uint64_t counting_read(struct counting *c)
{
	uint64_t v[PMCDRV_MAX_EVENTS];
	struct pmcdrv_read r;
	unsigned int i;
	int err;

	switch (c->mode) {
	case M_NONE:
		return 0;
	case M_IOCTL:
		memset(&r, 0, sizeof(r));
		err = pmc_session_read(c->s, &r);
		if (err)
			die_err("pmc_session_read", err);
		return r.values[0];
	case M_PMCDRV:
	case M_SHARED:
		err = pmc_self_read(c->r, v, c->n, NULL, NULL);
		if (err)
			die_err("pmc_self_read", err);
		return v[0];
	case M_PERF:
		for (i = 0; i < c->n; i++)
			v[i] = perf_page_read(c->pg[i]);
		return v[0];
	}
	return 0;
}

/* The counts moved between @a and @b (a first event that counts anything does). */
static void counting_check(const struct counting *c, uint64_t a, uint64_t b)
{
	if (c->mode != M_NONE && b <= a) {
		errno = EIO;
		die("the first event did not count");
	}
}

int main(int argc, char **argv)
{
	int to_child[2], to_parent[2], status;
	long long rounds, warm, warmup_ms = 50, i, ns;
	struct pmc_session *shared = NULL;
	struct counting cnt;
	uint64_t a, b;
	struct pmc_evlist l;
	cpu_set_t set;
	unsigned int k;
	int cpu = 0;
	pid_t pid;
	char c;

	memset(&cnt, 0, sizeof(cnt));
	if (argc < 4 || argc > 6 || (rounds = atoll(argv[3])) <= 0)
		goto usage;
	for (k = 0; k < sizeof(mode_name) / sizeof(mode_name[0]); k++)
		if (!strcmp(argv[1], mode_name[k]))
			break;
	if (k == sizeof(mode_name) / sizeof(mode_name[0]))
		goto usage;
	cnt.mode = k;
	if (argc >= 5)
		cpu = atoi(argv[4]);
	if (argc == 6)
		warmup_ms = atoll(argv[5]);
	if (perf_hw_evlist(&l, argv[2], "pingpong-rdpmc"))
		return 2;
	cnt.n = cnt.mode == M_NONE ? 0 : l.n;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (pipe(to_child) || pipe(to_parent))
		die("pipe");
	if (cnt.mode == M_SHARED)
		shared = session_open(&l, true);	/* the child is tracked from its fork */
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		who = "child";
		counting_start(&cnt, &l, shared);
		a = counting_read(&cnt);
		xwrite(to_parent[1], 'r');
		/* warm-up rounds ('w'), then the timed ones ('x'), then 'q' */
		do {
			xread(to_child[0], &c);
			xwrite(to_parent[1], c);
		} while (c == 'w');
		for (i = 1; i < rounds; i++) {
			xread(to_child[0], &c);
			xwrite(to_parent[1], c);
		}
		xread(to_child[0], &c);
		b = counting_read(&cnt);
		counting_check(&cnt, a, b);
		_exit(0);
	}
	counting_start(&cnt, &l, shared);
	xread(to_parent[0], &c);	/* the child counts too */
	warm = pingpong_warmup(to_child[1], to_parent[0], warmup_ms);
	a = counting_read(&cnt);
	ns = pingpong_timed(to_child[1], to_parent[0], rounds);
	b = counting_read(&cnt);
	counting_check(&cnt, a, b);
	xwrite(to_child[1], 'q');
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = ECHILD;
		die("the child failed");
	}
	printf("pingpong rounds=%lld warmup_rounds=%lld ns=%lld ns_per_round=%.1f mode=%s events=%u self_per_round=%.1f\n",
	       rounds, warm, ns, (double)ns / rounds, mode_name[cnt.mode], cnt.n,
	       (double)(b - a) / rounds);
	return 0;
usage:
	fprintf(stderr, "usage: pingpong-rdpmc none|pmcdrv|pmcdrv-shared|pmcdrv-ioctl|perf EVENTS ROUNDS [CPU [WARMUP_MS]]\n");
	return 2;
}
