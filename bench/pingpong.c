// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong N [CPU [WARMUP_MS]]: the context-switch workload of bench/.
 *
 * Pins itself to CPU (default 0), forks one child (which inherits the
 * affinity) and bounces one byte through two pipes: parent writes, child
 * reads and writes back, parent reads.  Both block in read(), so on one CPU
 * every round trip is exactly two context switches (parent -> child, child
 * -> parent).  It first bounces for WARMUP_MS ms (default 50; at least one
 * round trip), then N more times, timed.  Prints one line:
 *
 *   pingpong rounds=N warmup_rounds=W ns=T ns_per_round=T/N
 *
 * T is CLOCK_MONOTONIC around the N timed round trips in the parent.  Under
 * QEMU's -icount shift=0 a guest ns is one retired instruction of the guest,
 * so T is an instruction-count proxy of the cost.  The warm-up matters: in
 * the guest the first ~30 ms after the fork cost about 18% less per round
 * trip than the steady state that follows (10.8k against 13.2k ns), so a
 * short unwarmed run would mix both.  The child learns that the warm-up is
 * over from the byte's value.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

#include "pingpong.h"

/*
 * Move the calling process into the cgroup v2 directory named by the
 * environment variable @var, if set (bench/msr-guard.sh's cgroup cases:
 * PINGPONG_CGROUP_PARENT before the fork, PINGPONG_CGROUP_CHILD in the child).
 */
static void join_cgroup(const char *var)
{
	const char *dir = getenv(var);
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fputs("0", f) < 0 || fclose(f))
		die(path);
}

int main(int argc, char **argv)
{
	int to_child[2], to_parent[2], status;
	long long rounds, warm = 0, warmup_ms = 50, i, t0, t1, end;
	cpu_set_t set;
	int cpu = 0;
	pid_t pid;
	char c;

	if (argc < 2 || argc > 4 || (rounds = atoll(argv[1])) <= 0) {
		fprintf(stderr, "usage: pingpong ROUNDS [CPU [WARMUP_MS]]\n");
		return 2;
	}
	if (argc >= 3)
		cpu = atoi(argv[2]);
	if (argc == 4)
		warmup_ms = atoll(argv[3]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (pipe(to_child) || pipe(to_parent))
		die("pipe");
	join_cgroup("PINGPONG_CGROUP_PARENT");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		join_cgroup("PINGPONG_CGROUP_CHILD");
		/* warm-up rounds ('w'), then the timed ones ('x') */
		do {
			xread(to_child[0], &c);
			xwrite(to_parent[1], c);
		} while (c == 'w');
		for (i = 1; i < rounds; i++) {
			xread(to_child[0], &c);
			xwrite(to_parent[1], c);
		}
		_exit(0);
	}
	end = now_ns() + warmup_ms * 1000000;
	do {				/* at least one: both tasks have run */
		xwrite(to_child[1], 'w');
		xread(to_parent[0], &c);
		warm++;
	} while (now_ns() < end);
	t0 = now_ns();
	for (i = 0; i < rounds; i++) {
		xwrite(to_child[1], 'x');
		xread(to_parent[0], &c);
	}
	t1 = now_ns();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("child");
	printf("pingpong rounds=%lld warmup_rounds=%lld ns=%lld ns_per_round=%.1f\n", rounds, warm,
	       t1 - t0, (double)(t1 - t0) / rounds);
	return 0;
}
