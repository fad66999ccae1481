/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw /dev/pmcdrv helpers for the guest programs that test the ioctl ABI
 * itself (ioctl_sessions.c, security_attach.c), below libpmc.
 */
#ifndef PMCDRV_TEST_PMCDEV_H
#define PMCDRV_TEST_PMCDEV_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/pmcdrv.h>

/* Open @dev read-write, or end the test program: nothing can run without it. */
static inline int pmcdev_open(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		perror(dev);
		exit(1);
	}
	return fd;
}

/* One ioctl: 0, or the errno it failed with. */
static inline int pmcdev_io(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

/* ATTACH @fd with every field given (@cpu with PMCDRV_ATTACH_CPU): 0, or the errno. */
static inline int pmcdev_attach_full(int fd, __u32 flags, __s32 pid, __u32 cpu)
{
	struct pmcdrv_attach a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = flags;
	a.pid = pid;
	a.cpu = cpu;
	return pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
}

/* ATTACH @fd to @pid (0: the caller) with @flags: 0, or the errno. */
static inline int pmcdev_attach(int fd, pid_t pid, __u32 flags)
{
	return pmcdev_attach_full(fd, flags, pid, 0);
}

/* ATTACH @fd as a CPU session of CPU @cpu: 0, or the errno. */
static inline int pmcdev_attach_cpu(int fd, __u32 cpu)
{
	return pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, cpu);
}

/* READ @fd's session into @r: 0, or the errno. */
static inline int pmcdev_read(int fd, struct pmcdrv_read *r)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	return pmcdev_io(fd, PMCDRV_IOC_READ, r);
}

/*
 * The module lets go of the PMU PMCD_CLAIM_LINGER (1 s) after the last
 * session stops counting (docs/design.md, "The PMU claim"): wait up to
 * @ms for INFO to stop saying CLAIMED.  0 once it does, the errno of a
 * failed INFO, or ETIMEDOUT; @info gets the last answer.
 */
static inline int pmcdev_wait_unclaimed(int fd, unsigned int ms, struct pmcdrv_info *info)
{
	unsigned int waited;
	int e;

	for (waited = 0;; waited += 10) {
		memset(info, 0, sizeof(*info));
		info->size = sizeof(*info);
		e = pmcdev_io(fd, PMCDRV_IOC_INFO, info);
		if (e || !(info->flags & PMCDRV_INFO_CLAIMED))
			return e;
		if (waited >= ms)
			return ETIMEDOUT;
		usleep(10000);
	}
}

/* A valid CONFIG of one software event, task-clock. */
static inline struct pmcdrv_config pmcdev_task_clock_config(void)
{
	struct pmcdrv_config c;

	memset(&c, 0, sizeof(c));
	c.size = sizeof(c);
	c.event_size = sizeof(c.events[0]);
	c.nr_events = 1;
	c.events[0].type = PMCDRV_EVENT_SW;
	c.events[0].sw_id = PMCDRV_SW_TASK_CLOCK;
	return c;
}

#endif /* PMCDRV_TEST_PMCDEV_H */
