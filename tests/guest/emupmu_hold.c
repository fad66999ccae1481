// SPDX-License-Identifier: GPL-2.0
/*
 * emupmu_hold READY-FILE: open one disabled hardware perf event on the last
 * online CPU, create READY-FILE, and wait until killed.
 *
 * Linux's perf NMI handler only looks at NMIs while at least one x86 perf
 * event exists (active_events); otherwise a PMI raised by counters that a
 * test programs by hand with wrmsr is an "unknown NMI" ("Uhhuh. NMI
 * received for unknown reason").  A disabled event is never scheduled, so
 * it occupies no counter, but it makes the handler claim the PMI: it
 * counts it in /proc/interrupts (PMI:) and acknowledges the overflow in
 * GLOBAL_OVF_CTRL.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int fd, rfd;

	if (argc != 2) {
		fprintf(stderr, "usage: emupmu_hold READY-FILE\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, -1, cpus > 1 ? (int)cpus - 1 : 0, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "emupmu_hold: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	rfd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (rfd < 0) {
		fprintf(stderr, "emupmu_hold: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(rfd);
	for (;;)
		pause();
}
