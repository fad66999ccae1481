// SPDX-License-Identifier: GPL-2.0
/*
 * A task to attach to (tests/guest/68-attach.sh): it blocks in read(2)
 * until released, so that pmcctl run -p/-t and perf stat -p attach while it
 * sleeps in the kernel; then it runs a loop of known length in user mode
 * and exits, without a libc instruction in between.
 *
 *   attach_target one N         the process blocks on stdin, then loops N
 *                               times and exit_group()s
 *   attach_target threads N0 N1 N2
 *                               thread T1 (created at start) blocks on a
 *                               pipe; main blocks on stdin; once released,
 *                               main wakes T1 (which loops N1 and exits
 *                               alone, as in 'one'), creates T2 (loops N2),
 *                               loops N0 and joins both
 *   attach_target many K N      K threads and main all block on stdin (one
 *                               byte each), then each loops N times and
 *                               exits alone: (K + 1) x (2N + 4) in all
 *   attach_target nodump        prctl(PR_SET_DUMPABLE, 0), print "ready",
 *                               sleep until killed
 *
 * After the read returns, the blocked task retires in user mode exactly
 * "mov; N x (dec; jnz); mov; xor; syscall": 2N + 4 instructions on the
 * emulated PMU, the same for 'one' and for T1.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* read(@fd, 1 byte): blocks; then @n loop rounds and the exit system call @nr. */
static void __attribute__((noreturn)) block_loop_exit(int fd, unsigned long n, long nr)
{
	char c;

	asm volatile("syscall\n\t"
		     "mov %[n], %%rcx\n\t"
		     "1: dec %%rcx\n\t"
		     "jnz 1b\n\t"
		     "mov %[nr], %%rax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n\t"
		     :
		     : "a"((long)SYS_read), "D"((long)fd), "S"(&c), "d"(1L), [n] "r"(n), [nr] "r"(nr)
		     : "rcx", "r11", "memory");
	__builtin_unreachable();
}

static void loop(unsigned long n)
{
	asm volatile("1: dec %0\n\t"
		     "jnz 1b\n\t"
		     : "+r"(n) : : "cc");
}

static unsigned long arg(const char *s)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || !n) {
		fprintf(stderr, "attach_target: '%s': give a count from 1\n", s);
		exit(2);
	}
	return n;
}

static int t1_fd;
static unsigned long t1_n, t2_n;

static void *t1_main(void *unused)
{
	(void)unused;
	block_loop_exit(t1_fd, t1_n, SYS_exit);
}

static void *many_main(void *unused)
{
	(void)unused;
	block_loop_exit(0, t1_n, SYS_exit);
}

static void *t2_main(void *unused)
{
	(void)unused;
	loop(t2_n);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t1, t2;
	int p[2], err;
	char c;

	if (argc == 3 && !strcmp(argv[1], "one"))
		block_loop_exit(0, arg(argv[2]), SYS_exit_group);
	if (argc == 4 && !strcmp(argv[1], "many")) {
		unsigned long k = arg(argv[2]), i;

		t1_n = arg(argv[3]);
		for (i = 0; i < k; i++) {
			err = pthread_create(&t1, NULL, many_main, NULL);
			if (err) {
				fprintf(stderr, "attach_target: pthread_create: %s\n", strerror(err));
				return 1;
			}
		}
		block_loop_exit(0, t1_n, SYS_exit);
	}
	if (argc == 2 && !strcmp(argv[1], "nodump")) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
			perror("attach_target: prctl");
			return 1;
		}
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (argc != 5 || strcmp(argv[1], "threads")) {
		fprintf(stderr, "usage: attach_target one N | threads N0 N1 N2 | many K N | nodump\n");
		return 2;
	}
	t1_n = arg(argv[3]);
	t2_n = arg(argv[4]);
	if (pipe(p)) {
		perror("attach_target: pipe");
		return 1;
	}
	t1_fd = p[0];
	err = pthread_create(&t1, NULL, t1_main, NULL);
	if (err) {
		fprintf(stderr, "attach_target: pthread_create: %s\n", strerror(err));
		return 1;
	}
	if (read(0, &c, 1) != 1 || write(p[1], "x", 1) != 1) {
		perror("attach_target: release");
		return 1;
	}
	err = pthread_create(&t2, NULL, t2_main, NULL);
	if (err) {
		fprintf(stderr, "attach_target: pthread_create: %s\n", strerror(err));
		return 1;
	}
	loop(arg(argv[2]));
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	return 0;
}
