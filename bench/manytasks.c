// SPDX-License-Identifier: GPL-2.0
/*
 * manytasks TASKS ROUNDS [CPU [WARMUP_MS [EVENTS]]]: B10 of bench/, the
 * switch cost and the close of a session as its tasks grow.
 *
 * TASKS tasks in all: the ping-pong pair of pingpong.c (this process and
 * one forked child, pinned to CPU, one byte through two pipes, WARMUP_MS
 * ms of warm-up, then ROUNDS timed round trips of two switches each) and
 * TASKS - 2 threads of this process that sleep in read() of a pipe the
 * whole time (16 KiB stacks).  Under `pmcctl run` every one of them is
 * tracked by that one session (inherited).  Prints
 *
 *   manytasks tasks=T rounds=N warmup_rounds=W ns=T ns_per_round=T/N
 *
 * With EVENTS, the process opens its own libpmc session on itself first
 * (inherited: the child and every thread join it) and, once the round
 * trips are done and every task still lives, closes it, timed:
 *
 *   manytasks-close tasks=T ns=WALL cpu_ns=ON_CPU
 *
 * WALL is CLOCK_MONOTONIC around pmc_session_close() (the close() whose
 * release untracks every task); ON_CPU the calling thread's run time over
 * it (CLOCK_THREAD_CPUTIME_ID), which leaves out waits (the RCU grace
 * period of the close).  Under QEMU's -icount shift=0 a guest ns is one
 * retired guest instruction.  Needs kernel.threads-max above TASKS.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libpmc.h"

static void die(const char *what)
{
	fprintf(stderr, "manytasks: %s: %s\n", what, strerror(errno));
	exit(1);
}

#include "pingpong.h"

static int sleep_fd[2];		/* the sleepers read [0] until it is closed at the end */

static void *sleeper(void *arg)
{
	char c;

	(void)arg;
	while (read(sleep_fd[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* The calling thread's run time in ns (CLOCK_THREAD_CPUTIME_ID: the scheduler's runtime). */
static long long run_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		die("clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* A libpmc session counting @events on this process and all it creates. */
static struct pmc_session *own_session(const char *events)
{
	struct pmc_session *s;
	struct pmc_evlist l;
	char msg[256];
	unsigned int i;
	int err;

	memset(&l, 0, sizeof(l));
	if (pmc_evlist_parse(&l, events, msg, sizeof(msg))) {
		fprintf(stderr, "manytasks: %s\n", msg);
		exit(2);
	}
	err = pmc_session_open(NULL, &s);
	for (i = 0; !err && i < l.n; i++)
		err = pmc_session_add(s, &l.ev[i].ev) < 0;
	if (!err)
		err = pmc_session_attach(s, 0, 0);
	if (err) {
		fprintf(stderr, "manytasks: the session: %s\n", strerror(err < 0 ? -err : EINVAL));
		exit(1);
	}
	return s;
}

int main(int argc, char **argv)
{
	long long tasks, rounds, warm, warmup_ms = 50, i, t0, t1, c0, c1;
	int to_child[2], to_parent[2], status, cpu = 0;
	struct pmc_session *s = NULL;
	pthread_attr_t attr;
	pthread_t *th;
	cpu_set_t set;
	pid_t pid;
	char c;

	if (argc < 3 || argc > 6 || (tasks = atoll(argv[1])) < 2 || (rounds = atoll(argv[2])) <= 0) {
		fprintf(stderr, "usage: manytasks TASKS>=2 ROUNDS [CPU [WARMUP_MS [EVENTS]]]\n");
		return 2;
	}
	if (argc >= 4)
		cpu = atoi(argv[3]);
	if (argc >= 5)
		warmup_ms = atoll(argv[4]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (argc == 6)
		s = own_session(argv[5]);
	if (pipe(to_child) || pipe(to_parent) || pipe(sleep_fd))
		die("pipe");
	/* The child first: a fork after the threads would copy their stacks' mappings. */
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		/* The session's last reference must be the parent's: its close is timed. */
		if (s)
			close(pmc_session_fd(s));
		close(sleep_fd[1]);
		/* warm-up rounds ('w'), the timed ones ('x'), then 'q': exit */
		do {
			xread(to_child[0], &c);
			if (c != 'q')
				xwrite(to_parent[1], c);
		} while (c != 'q');
		_exit(0);
	}
	th = calloc(tasks, sizeof(*th));
	if (!th || pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 16384))
		die("pthread_attr");
	for (i = 0; i < tasks - 2; i++) {
		errno = pthread_create(&th[i], &attr, sleeper, NULL);
		if (errno)
			die("pthread_create");
	}
	warm = pingpong_warmup(to_child[1], to_parent[0], warmup_ms);
	t1 = pingpong_timed(to_child[1], to_parent[0], rounds);
	printf("manytasks tasks=%lld rounds=%lld warmup_rounds=%lld ns=%lld ns_per_round=%.1f\n",
	       tasks, rounds, warm, t1, (double)t1 / rounds);
	if (s) {
		c0 = run_ns();
		t0 = now_ns();
		pmc_session_close(s);
		t1 = now_ns();
		c1 = run_ns();
		printf("manytasks-close tasks=%lld ns=%lld cpu_ns=%lld\n", tasks, t1 - t0, c1 - c0);
	}
	fflush(stdout);
	xwrite(to_child[1], 'q');
	close(sleep_fd[1]);
	for (i = 0; i < tasks - 2; i++)
		pthread_join(th[i], NULL);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("child");
	return 0;
}
