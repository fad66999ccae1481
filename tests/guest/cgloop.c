// SPDX-License-Identifier: GPL-2.0
/*
 * cgloop DIR N [DIR2 N2]: run a two-instruction loop N times in a child
 * born into cgroup DIR (clone3 with CLONE_INTO_CGROUP), which then, given
 * DIR2, moves itself there (writing its pid to DIR2/cgroup.procs) and runs
 * the loop N2 times.  The child's user-mode instructions in DIR are 2N
 * plus a constant of this program's code, and in DIR2 2N2 plus another:
 * the same path every time, so the counts of two runs differ by exactly
 * the loops' difference.  Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static __attribute__((noinline)) void spin(unsigned long n)
{
	if (n)
		__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
}

int main(int argc, char **argv)
{
	struct clone_args ca = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };
	unsigned long n, n2 = 0;
	char procs[4096], pid[32];
	int fd, pfd = -1, status, len = 0;
	long child;

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: cgloop DIR N [DIR2 N2]\n");
		return 1;
	}
	n = strtoul(argv[2], NULL, 10);
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "cgloop: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (argc == 5) {
		n2 = strtoul(argv[4], NULL, 10);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", argv[3]);
		pfd = open(procs, O_WRONLY | O_CLOEXEC);
		if (pfd < 0) {
			fprintf(stderr, "cgloop: %s: %s\n", procs, strerror(errno));
			return 1;
		}
	}
	ca.cgroup = (uint64_t)fd;
	child = syscall(SYS_clone3, &ca, sizeof(ca));
	if (child < 0) {
		fprintf(stderr, "cgloop: clone3 into %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (child == 0) {
		spin(n);
		if (pfd >= 0) {
			/* "0" is the writer itself: the same bytes every run. */
			pid[len++] = '0';
			if (write(pfd, pid, (size_t)len) != len)
				syscall(SYS_exit_group, 3);
			spin(n2);
		}
		syscall(SYS_exit_group, 0);
	}
	if (waitpid((pid_t)child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "cgloop: the child failed (status 0x%x)\n", status);
		return 1;
	}
	return 0;
}
