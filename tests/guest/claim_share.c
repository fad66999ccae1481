// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU claim is held only while some session counts, and root can end
 * any session (docs/design.md "The PMU claim", docs/security.md):
 *
 * - a session that stops counting (DISABLE, all its tasks gone, CONFIG with
 *   no ATTACH) lets go of the PMU once the claim's linger (1 s) is over,
 *   and perf_events then counts;
 * - ENABLE claims it back, and counts exactly as before the release; while
 *   perf holds the PMU, ENABLE fails with EBUSY and the session stays
 *   disabled, readable, and enables once perf is gone;
 * - PMCDRV_IOC_SESSIONS names each session's opener, state and events (the
 *   events hidden from another user);
 * - PMCDRV_IOC_REVOKE: refused as nobody (EPERM); as root, the owner's every
 *   later call fails with EOWNERDEAD, the claim and a CPU session's CPU are
 *   given back; ESRCH and EALREADY.
 *
 * usage: claim_share PERF LOOP  (Debian's perf, build/progs/loop); needs a PMU
 */
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pmcdev.h"

#define LINGER_MS	3000	/* the claim's 1 s linger, with room for a loaded guest */

static const char *dev = "/dev/pmcdrv";
static const char *perf, *loop;
static struct check_state st;

static struct pmcdrv_config ins_config(void)
{
	struct pmcdrv_config c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.event_size = sizeof(c.events[0]);
	c.flags = PMCDRV_CONFIG_NO_INHERIT;
	c.nr_events = 1;
	c.events[0].type = PMCDRV_EVENT_HW;
	c.events[0].flags = PMCDRV_EVF_USER;
	c.events[0].event = 0xc0;
	return c;
}

static int claimed(void)
{
	struct pmcdrv_info in;
	int fd = pmcdev_open(dev), e;

	memset(&in, 0, sizeof(in));
	in.size = sizeof(in);
	e = pmcdev_io(fd, PMCDRV_IOC_INFO, &in);
	close(fd);
	return e ? -e : !!(in.flags & PMCDRV_INFO_CLAIMED);
}

static int wait_unclaimed(void)
{
	struct pmcdrv_info in;
	int fd = pmcdev_open(dev), e = pmcdev_wait_unclaimed(fd, LINGER_MS, &in);

	close(fd);
	return e;
}

#define MAX_LISTED	64

/* SESSIONS into @e (MAX_LISTED entries): how many it filled, or -errno. */
static int list_sessions(int fd, struct pmcdrv_session_info *e)
{
	struct pmcdrv_sessions req;
	int err;

	memset(&req, 0, sizeof(req));
	req.size = sizeof(req);
	req.nr_entries = MAX_LISTED;
	req.entry_size = sizeof(*e);
	req.entries = (unsigned long)e;
	err = pmcdev_io(fd, PMCDRV_IOC_SESSIONS, &req);
	if (err)
		return -err;
	return req.nr_sessions < MAX_LISTED ? (int)req.nr_sessions : MAX_LISTED;
}

/* The session with @id as SESSIONS describes it to the caller: 0, or the errno (ENOENT: absent). */
static int describe(int fd, __u64 id, struct pmcdrv_session_info *out)
{
	struct pmcdrv_session_info *e = calloc(MAX_LISTED, sizeof(*e));
	int i, n, err = ENOMEM;

	if (!e)
		return err;
	n = list_sessions(fd, e);
	err = n < 0 ? -n : ENOENT;
	for (i = 0; i < n; i++) {
		if (e[i].id == id) {
			*out = e[i];
			err = 0;
		}
	}
	free(e);
	return err;
}

/* The id of the session on @fd: the newest session whose opener is this process. */
static __u64 own_id(int fd)
{
	struct pmcdrv_session_info *e = calloc(MAX_LISTED, sizeof(*e));
	__u64 id = 0;
	int i, n;

	if (!e)
		return 0;
	n = list_sessions(fd, e);
	for (i = 0; i < n; i++)
		if (e[i].pid == getpid() && e[i].id > id)
			id = e[i].id;
	free(e);
	return id;
}

/* A new session of instructions:u on *@fd, configured: 0 or the errno. */
static int config_session(int *fd)
{
	struct pmcdrv_config c = ins_config();

	*fd = pmcdev_open(dev);
	return pmcdev_io(*fd, PMCDRV_IOC_CONFIG, &c);
}

/*
 * A new session of instructions:u on *@fd, configured and attached to this
 * thread (@cpu < 0) or as a CPU session of CPU @cpu (configured inheriting,
 * as pmcctl stat does): 0 or the errno of the step that failed.
 */
static int new_session(int *fd, int cpu)
{
	struct pmcdrv_config c = ins_config();
	int e;

	if (cpu < 0) {
		e = config_session(fd);
		return e ? e : pmcdev_attach(*fd, 0, 0);
	}
	c.flags = 0;
	*fd = pmcdev_open(dev);
	e = pmcdev_io(*fd, PMCDRV_IOC_CONFIG, &c);
	return e ? e : pmcdev_attach_cpu(*fd, cpu);
}

static int revoke_id(int fd, __u64 id)
{
	struct pmcdrv_revoke r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.id = id;
	return pmcdev_io(fd, PMCDRV_IOC_REVOKE, &r);
}

/*
 * The event of a line of perf's -x, output (its third field), if it is
 * instructions:u or, on a hybrid part, one core type's row of it.
 */
static bool is_instructions_u(const char *line)
{
	static const char *const names[] = {
		"instructions:u,", "cpu_core/instructions:u/,", "cpu_atom/instructions:u/,",
	};
	const char *f = strchr(line, ',');
	size_t i;

	f = f ? strchr(f + 1, ',') : NULL;
	for (i = 0; f && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(f + 1, names[i], strlen(names[i])))
			return true;
	return false;
}

/*
 * perf stat --no-scale -x, -e instructions:u -- LOOP @n: perf's count (on a
 * hybrid part the sum of its counted per-type rows, raw: perf scales each by
 * its own type's running time, tests/lib/guest.sh's perf_raw), or -1 with
 * its output in @why.
 */
static long long perf_count(const char *n, char *why, size_t len)
{
	char cmd[512], line[512];
	long long v = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s stat --no-scale -x, -e instructions:u -- %s %s 2>&1 >/dev/null",
		 perf, loop, n);
	why[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		if (is_instructions_u(line) && line[0] >= '0' && line[0] <= '9')
			v = (v < 0 ? 0 : v) + strtoll(line, NULL, 10);
		else if (!why[0])
			snprintf(why, len, "%.*s", (int)(len ? len - 1 : 0), line);
	}
	pclose(p);
	return v;
}

/* A fixed run of user instructions between two ioctls. */
static void spin(unsigned long n)
{
	asm volatile("1: dec %0; jnz 1b" : "+r"(n));
}

static unsigned long long value(int fd)
{
	struct pmcdrv_read r;

	return pmcdev_read(fd, &r) ? ~0ULL : r.values[0];
}

/* ENABLE, spin, DISABLE: what the session counted in between (~0 on an error). */
static unsigned long long counted(int fd)
{
	unsigned long long v0 = value(fd);

	if (pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL))
		return ~0ULL;
	spin(100000);
	if (pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL))
		return ~0ULL;
	return value(fd) - v0;
}

/*
 * A disabled session lets go of the PMU; perf counts; ENABLE claims it back
 * and counts exactly what it counted before the release.
 */
static void test_disabled_lets_go(void)
{
	struct pmcdrv_session_info d;
	unsigned long long held, back;
	char why[256];
	long long pv;
	int fd, e;
	__u64 id;

	e = new_session(&fd, -1);
	CHECK(&st, !e, "disabled: CONFIG instructions:u, ATTACH self", "%s", strerror(e));
	if (e) {
		close(fd);
		return;
	}
	id = own_id(fd);
	e = describe(fd, id, &d);
	CHECK(&st, !e && (d.flags & PMCDRV_SESSION_COUNTING) && claimed() == 1,
	      "counting: SESSIONS says COUNTING, INFO says CLAIMED", "errno %d, flags %#x", e, d.flags);
	/* Counted from DISABLE to DISABLE while the claim lingers: the reference. */
	e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	held = e ? ~0ULL : counted(fd);
	CHECK(&st, held != ~0ULL && held >= 100000, "ENABLE/spin/DISABLE counts the spin",
	      "%llu", held);
	CHECK(&st, claimed() == 1, "just disabled: the claim lingers", "%d", claimed());
	e = wait_unclaimed();
	CHECK(&st, !e, "disabled: the PMU is let go within 3 s", "%s", strerror(e));
	e = describe(fd, id, &d);
	CHECK(&st, !e && !(d.flags & (PMCDRV_SESSION_COUNTING | PMCDRV_SESSION_ENABLED)) &&
	      (d.flags & PMCDRV_SESSION_ATTACHED) && d.nr_tasks == 1,
	      "disabled: SESSIONS says attached, 1 task, neither enabled nor counting",
	      "errno %d, flags %#x, tasks %u", e, d.flags, d.nr_tasks);
	pv = perf_count("000100000", why, sizeof(why));
	CHECK(&st, pv > 0, "disabled session: root's perf stat -e instructions:u counts",
	      "perf: %s", why);
	back = counted(fd);
	CHECK(&st, back == held, "ENABLE after the release: claims the PMU back, counts exactly as before",
	      "%llu, before %llu", back, held);
	close(fd);
	CHECK(&st, !wait_unclaimed(), "closed: the PMU is let go", "still claimed");
}

/* While perf holds the PMU, ENABLE fails with EBUSY, cleanly; it works once perf is gone. */
static void test_enable_busy(void)
{
	struct pmcdrv_read r;
	struct pmcdrv_info in;
	int fd, pipefd[2], e, i, status;
	unsigned long long v;
	pid_t perf_pid;
	char done;

	e = new_session(&fd, -1);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	if (!e)
		e = wait_unclaimed();
	CHECK(&st, !e, "busy: a disabled self session, PMU let go", "%s", strerror(e));
	if (e || pipe(pipefd)) {
		close(fd);
		return;
	}
	/* perf holds its hardware event while its command waits on the pipe. */
	perf_pid = fork();
	if (perf_pid == 0) {
		dup2(pipefd[0], 0);
		close(pipefd[1]);
		execlp(perf, perf, "stat", "-o", "/dev/null", "-e", "instructions:u", "--",
		       "sh", "-c", "read x", (char *)NULL);
		_exit(127);
	}
	close(pipefd[0]);
	for (i = 0; i < 500; i++) {
		memset(&in, 0, sizeof(in));
		in.size = sizeof(in);
		if (pmcdev_io(fd, PMCDRV_IOC_INFO, &in) || in.in_use_reserved)
			break;
		usleep(10000);
	}
	CHECK(&st, in.in_use_reserved, "busy: perf holds the PMU (INFO in_use_reserved)",
	      "%#llx", (unsigned long long)in.in_use_reserved);
	e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	CHECK(&st, e == EBUSY, "busy: ENABLE while perf holds the PMU -> EBUSY", "errno %d", e);
	e = pmcdev_read(fd, &r);
	CHECK(&st, !e && !(r.flags & PMCDRV_READ_ENABLED) && claimed() == 0,
	      "busy: the session stays disabled and readable, nothing claimed",
	      "errno %d, flags %#x", e, r.flags);
	done = '\n';
	if (write(pipefd[1], &done, 1) != 1)
		kill(perf_pid, SIGKILL);
	close(pipefd[1]);
	waitpid(perf_pid, &status, 0);
	v = counted(fd);
	CHECK(&st, v != ~0ULL && v >= 100000, "busy: perf gone, ENABLE claims the PMU and counts",
	      "%llu", v);
	close(fd);
}

/* A session whose tasks have all exited lets go; so does one configured and never attached. */
static void test_idle_sessions(void)
{
	struct pmcdrv_session_info d;
	int fd, fd2, pipefd[2], e, status;
	pid_t child;
	__u64 id;

	if (pipe(pipefd))
		return;
	child = fork();
	if (child == 0) {
		char x;

		close(pipefd[1]);
		_exit(read(pipefd[0], &x, 1) < 0);
	}
	close(pipefd[0]);
	e = config_session(&fd);
	if (!e)
		e = pmcdev_attach(fd, child, 0);
	CHECK(&st, !e && claimed() == 1, "exited: a session counting a child holds the claim",
	      "%s", strerror(e));
	close(pipefd[1]);
	waitpid(child, &status, 0);
	e = wait_unclaimed();
	CHECK(&st, !e, "exited: its only task gone, the PMU is let go within 3 s", "%s", strerror(e));
	id = own_id(fd);
	e = describe(fd, id, &d);
	CHECK(&st, !e && d.nr_tasks == 0 && !(d.flags & PMCDRV_SESSION_COUNTING) &&
	      (d.flags & PMCDRV_SESSION_ENABLED),
	      "exited: SESSIONS says enabled, no task, not counting", "errno %d, flags %#x, tasks %u",
	      e, d.flags, d.nr_tasks);
	e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	CHECK(&st, !e && claimed() == 1, "exited: ENABLE again takes the claim", "%s", strerror(e));
	e = wait_unclaimed();
	CHECK(&st, !e, "exited: ... and gives it back, no task to count", "%s", strerror(e));
	close(fd);

	e = config_session(&fd2);
	CHECK(&st, !e && claimed() == 1, "configured: CONFIG checks the PMU (claimed for now)",
	      "%s", strerror(e));
	e = wait_unclaimed();
	CHECK(&st, !e, "configured, never attached: the PMU is let go within 3 s", "%s",
	      strerror(e));
	e = pmcdev_attach(fd2, 0, 0);
	CHECK(&st, !e && claimed() == 1, "configured: a later ATTACH claims it back", "%s",
	      strerror(e));
	close(fd2);
}

/* Run @fn as nobody (uid and gid 65534) in a child: its exit status, or -1. */
static int as_nobody(int (*fn)(int fd, __u64 id), int fd, __u64 id)
{
	int status;
	pid_t p = fork();

	if (p == 0) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(100);
		_exit(fn(fd, id));
	}
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int nobody_revoke(int fd, __u64 id)
{
	return revoke_id(fd, id);
}

/* 0: root's session @id is listed, opener and state shown, events hidden; else 1. */
static int nobody_lists(int fd, __u64 id)
{
	struct pmcdrv_session_info d;

	if (describe(fd, id, &d))
		return 1;
	return !(d.uid == 0 && d.nr_events == 1 && (d.flags & PMCDRV_SESSION_EVENTS_HIDDEN) &&
		 d.events[0].event == 0 && (d.flags & PMCDRV_SESSION_COUNTING));
}

static void test_sessions_and_revoke(void)
{
	struct pmcdrv_config c = ins_config();
	const struct pmcdrv_self_page *page;
	struct pmcdrv_session_info d;
	struct pmcdrv_read r;
	void *p2;
	int fd, fd2, e;
	char comm[16] = "";
	FILE *f;
	__u64 id;

	e = new_session(&fd, -1);
	CHECK(&st, !e, "revoke: a counting self session", "%s", strerror(e));
	id = own_id(fd);
	f = fopen("/proc/self/comm", "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	e = describe(fd, id, &d);
	CHECK(&st, !e && d.pid == getpid() && d.uid == 0 && !strcmp(d.comm, comm) &&
	      d.nr_events == 1 && d.events[0].event == 0xc0 && d.nr_tasks == 1 &&
	      !(d.flags & PMCDRV_SESSION_EVENTS_HIDDEN),
	      "SESSIONS: names the opener (pid, uid, comm), its task and its events",
	      "errno %d: pid %d uid %u comm '%s' events %u (0x%x) tasks %u flags %#x", e, d.pid,
	      d.uid, d.comm, d.nr_events, d.events[0].event, d.nr_tasks, d.flags);
	e = as_nobody(nobody_lists, fd, id);
	CHECK(&st, e == 0, "SESSIONS as nobody: root's session listed, its events hidden",
	      "child status %d", e);
	e = as_nobody(nobody_revoke, fd, id);
	CHECK(&st, e == EPERM, "REVOKE as nobody -> EPERM", "status %d", e);
	e = pmcdev_read(fd, &r);
	CHECK(&st, !e && (r.flags & PMCDRV_READ_ENABLED), "... and the session still counts",
	      "errno %d", e);
	e = revoke_id(fd, ~0ULL);
	CHECK(&st, e == ESRCH, "REVOKE of no such session -> ESRCH", "errno %d", e);

	e = revoke_id(fd, id);
	CHECK(&st, e == 0, "REVOKE as root", "errno %d", e);
	e = revoke_id(fd, id);
	CHECK(&st, e == EALREADY, "REVOKE again -> EALREADY", "errno %d", e);
	e = pmcdev_read(fd, &r);
	CHECK(&st, e == EOWNERDEAD, "revoked: READ -> EOWNERDEAD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	CHECK(&st, e == EOWNERDEAD, "revoked: ENABLE -> EOWNERDEAD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_RESET, NULL);
	CHECK(&st, e == EOWNERDEAD, "revoked: RESET -> EOWNERDEAD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	CHECK(&st, e == EOWNERDEAD, "revoked: CONFIG -> EOWNERDEAD", "errno %d", e);
	e = pmcdev_attach(fd, 0, 0);
	CHECK(&st, e == EOWNERDEAD, "revoked: ATTACH -> EOWNERDEAD", "errno %d", e);
	e = describe(fd, id, &d);
	CHECK(&st, !e && (d.flags & PMCDRV_SESSION_REVOKED) && d.nr_tasks == 0 &&
	      !(d.flags & PMCDRV_SESSION_COUNTING),
	      "revoked: SESSIONS says REVOKED, no task, not counting", "errno %d, flags %#x",
	      e, d.flags);
	e = wait_unclaimed();
	CHECK(&st, !e, "revoked: the PMU is let go", "%s", strerror(e));
	close(fd);

	/* A self-read page of a revoked session stops counting; no new page. */
	e = new_session(&fd, -1);
	page = e ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(&st, page != MAP_FAILED && (page->flags & PMCDRV_SELF_COUNTING) && page->events[0].index,
	      "revoke: a self session's page counts (COUNTING, an RDPMC index)", "%s",
	      page == MAP_FAILED ? strerror(errno) : "flags or index clear");
	if (page != MAP_FAILED) {
		e = revoke_id(fd, own_id(fd));
		CHECK(&st, e == 0 && !(page->flags & PMCDRV_SELF_COUNTING) && !page->events[0].index,
		      "revoked: the mapped page stops counting (no COUNTING, index 0)",
		      "errno %d, flags %#x, index %u", e, page->flags, page->events[0].index);
		p2 = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
		CHECK(&st, p2 == MAP_FAILED && errno == EOWNERDEAD, "revoked: mmap -> EOWNERDEAD",
		      "%s", p2 == MAP_FAILED ? strerror(errno) : "mapped");
		if (p2 != MAP_FAILED)
			munmap(p2, 4096);
		munmap((void *)page, 4096);
	}
	close(fd);

	/* A CPU session's CPU is given back. */
	e = new_session(&fd, 0);
	CHECK(&st, !e, "revoke: a CPU session on CPU 0", "%s", strerror(e));
	id = own_id(fd);
	e = describe(fd, id, &d);
	CHECK(&st, !e && (d.flags & PMCDRV_SESSION_CPU) && d.cpu == 0,
	      "SESSIONS: a CPU session shows its CPU", "errno %d, flags %#x", e, d.flags);
	e = revoke_id(fd, id);
	CHECK(&st, e == 0, "REVOKE of a CPU session", "errno %d", e);
	e = new_session(&fd2, 0);
	CHECK(&st, !e, "revoked CPU session: CPU 0 is free for another", "%s", strerror(e));
	close(fd2);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: claim_share PERF LOOP\n");
		return 2;
	}
	perf = argv[1];
	loop = argv[2];
	test_disabled_lets_go();
	test_enable_busy();
	test_idle_sessions();
	test_sessions_and_revoke();
	return check_summary(&st, "claim_share");
}
