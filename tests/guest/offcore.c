// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest test of the offcore response path (ABI VER1 'extra'): the
 * errnos of bad extra values, and the value in MSR_OFFCORE_RSP_0 of the
 * CPU where a tracked task runs, read through /dev/cpu/N/msr while it
 * spins there, and 0 once the session is closed.  Needs the msr driver.
 * Usage: offcore [DEVICE]
 *        offcore --pingpong CPU ROUNDS: a session with OFFCORE_RESPONSE_0
 *        tracks this process, which ping-pongs ROUNDS times through pipes
 *        with an untracked child, both pinned to CPU; then closes it (for
 *        57-offcore.sh's count of MSR writes).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pmcdev.h"
#include "libpmc.h"

/* OFFCORE_RSP: DMND_DATA_RD (bit 0) with ANY_RESPONSE (bit 16). */
#define RSP_DATA_RD_ANY		0x10001ULL
/* ... and DMND_RFO (bit 1) with ANY_RESPONSE. */
#define RSP_RFO_ANY		0x10002ULL

static struct check_state st;
static const char *dev = PMC_DEFAULT_DEVICE;

static struct pmcdrv_event hw(uint32_t event, uint32_t umask, uint64_t extra)
{
	struct pmcdrv_event e = { .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER,
				  .event = event, .umask = umask, .extra = extra };

	return e;
}

static struct pmcdrv_config config(unsigned int n, const struct pmcdrv_event *ev)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();

	c.nr_events = n;
	memcpy(c.events, ev, n * sizeof(*ev));
	return c;
}

static int config_errno(unsigned int n, const struct pmcdrv_event *ev)
{
	struct pmcdrv_config c = config(n, ev);
	int fd = pmcdev_open(dev), e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);

	close(fd);
	return e;
}

/* MSR @msr of CPU @cpu through the msr driver; -errno on failure. */
static int rdmsr_cpu(int cpu, uint32_t msr, uint64_t *val)
{
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, val, sizeof(*val), msr) != sizeof(*val))
		err = -errno;
	close(fd);
	return err;
}

static void test_errnos(const struct pmc_extra_model *m)
{
	struct pmcdrv_event ev[3];
	int e;

	ev[0] = hw(0xb7, 0x01, RSP_DATA_RD_ANY);
	if (!m) {
		e = config_errno(1, ev);
		CHECK(&st, e == EOPNOTSUPP, "extra value on a model without a table -> EOPNOTSUPP",
		      "errno %d", e);
		return;
	}
	e = config_errno(1, ev);
	CHECK(&st, e == 0, "OFFCORE_RESPONSE_0 with a valid extra value -> ok", "errno %d", e);
	ev[0] = hw(0xc0, 0x00, 1);
	e = config_errno(1, ev);
	CHECK(&st, e == EINVAL, "extra value on instructions (no extra register) -> EINVAL",
	      "errno %d", e);
	ev[0] = hw(0xb7, 0x01, RSP_DATA_RD_ANY | 1ULL << 12);
	e = config_errno(1, ev);
	CHECK(&st, e == EINVAL, "extra bit 12 (reserved in MSR_OFFCORE_RSP_0) -> EINVAL",
	      "errno %d", e);
	ev[0] = hw(0xb7, 0x01, 1ULL << 38);
	e = config_errno(1, ev);
	CHECK(&st, e == EINVAL, "extra bit 38 (past the valid mask) -> EINVAL", "errno %d", e);
	ev[0] = hw(0xb7, 0x01, RSP_DATA_RD_ANY);
	ev[1] = hw(0xb7, 0x01, RSP_RFO_ANY);
	e = config_errno(2, ev);
	CHECK(&st, e == 0, "two OFFCORE_RESPONSE_0 with different values -> they multiplex",
	      "errno %d", e);
	ev[0].group = 1;
	ev[1].group = 1;
	e = config_errno(2, ev);
	CHECK(&st, e == ENOSPC, "two OFFCORE_RESPONSE_0 with different values in one group -> ENOSPC",
	      "errno %d", e);
	ev[0].group = 0;
	ev[1] = hw(0xbb, 0x01, RSP_RFO_ANY);
	e = config_errno(2, ev);
	CHECK(&st, e == 0, "OFFCORE_RESPONSE_0 and _1 with different values -> ok", "errno %d", e);
	ev[2] = hw(0xb7, 0x01, RSP_DATA_RD_ANY);
	ev[2].flags = PMCDRV_EVF_KERNEL;
	e = config_errno(3, ev);
	CHECK(&st, e == 0, "two OFFCORE_RESPONSE_0 with one value -> ok", "errno %d", e);
	ev[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK,
				       .extra = 1 };
	e = config_errno(1, ev);
	CHECK(&st, e == EINVAL, "extra value on a software event -> EINVAL", "errno %d", e);
}

static void pin(int cpu);

static void spin_on(int cpu, int go)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(1);
	pin(cpu);
	for (;;)
		;
}

/* The session's value is in the register while its task runs there, 0 after. */
static void test_msr(int cpu)
{
	struct pmcdrv_event ev = hw(0xb7, 0x01, RSP_DATA_RD_ANY);
	struct pmcdrv_config c = config(1, &ev);
	struct pmcdrv_attach a = { .size = sizeof(a) };
	struct timespec ms100 = { 0, 100 * 1000 * 1000 };
	uint64_t v0 = ~0ULL, v1 = ~0ULL, after = ~0ULL;
	int fd, e, err0, err1, go[2];
	pid_t child;

	if (pipe(go))
		return;
	child = fork();
	if (child == 0) {
		close(go[1]);
		spin_on(cpu, go[0]);
	}
	close(go[0]);
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	CHECK(&st, e == 0, "config OFFCORE_RESPONSE_0 for the spinning task", "errno %d", e);
	a.pid = child;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "attach to the spinning task", "errno %d", e);
	if (write(go[1], "g", 1) != 1)
		perror("write");
	nanosleep(&ms100, NULL);
	err0 = rdmsr_cpu(cpu, PMC_MSR_OFFCORE_RSP_0, &v0);
	err1 = rdmsr_cpu(cpu, PMC_MSR_OFFCORE_RSP_1, &v1);
	CHECK(&st, !err0 && v0 == RSP_DATA_RD_ANY,
	      "MSR_OFFCORE_RSP_0 holds the session's value while its task runs",
	      "CPU %d: %s, 0x%llx (want 0x%llx)", cpu, strerror(-err0), (unsigned long long)v0,
	      RSP_DATA_RD_ANY);
	CHECK(&st, !err1 && v1 == 0, "MSR_OFFCORE_RSP_1 untouched (no event uses it)",
	      "%s, 0x%llx", strerror(-err1), (unsigned long long)v1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(go[1]);
	close(fd);
	err0 = rdmsr_cpu(cpu, PMC_MSR_OFFCORE_RSP_0, &after);
	CHECK(&st, !err0 && after == 0, "MSR_OFFCORE_RSP_0 is 0 once the session is closed",
	      "%s, 0x%llx", strerror(-err0), (unsigned long long)after);
}

static void pin(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

static int pingpong(int cpu, long rounds)
{
	struct pmcdrv_event ev = hw(0xb7, 0x01, RSP_DATA_RD_ANY);
	struct pmcdrv_config c = config(1, &ev);
	struct pmcdrv_attach a = { .size = sizeof(a) };
	int p2c[2], c2p[2], fd, e;
	char b = 0;
	pid_t child;
	long i;

	pin(cpu);
	if (pipe(p2c) || pipe(c2p))
		return 1;
	child = fork();
	if (child == 0) {
		close(p2c[1]);
		close(c2p[0]);
		while (read(p2c[0], &b, 1) == 1 && write(c2p[1], &b, 1) == 1)
			;
		_exit(0);
	}
	close(p2c[0]);
	close(c2p[1]);
	c.flags = PMCDRV_CONFIG_NO_INHERIT;
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	if (e) {
		fprintf(stderr, "offcore --pingpong: %s\n", strerror(e));
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		if (write(p2c[1], &b, 1) != 1 || read(c2p[0], &b, 1) != 1)
			return 1;
	}
	close(p2c[1]);
	waitpid(child, NULL, 0);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct pmcdrv_info info;
	enum pmc_decode_err derr;
	const struct pmc_extra_model *m;
	int cpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;

	if (argc == 4 && !strcmp(argv[1], "--pingpong"))
		return pingpong(atoi(argv[2]), atol(argv[3]));
	if (argc > 1)
		dev = argv[1];
	pmc_cpuid_info(&info, &derr);
	if (!(info.flags & PMCDRV_INFO_ARCH_PERFMON)) {
		printf("SKIP: offcore: no PMU in this guest\n");
		return 0;
	}
	m = info.vendor == PMCDRV_VENDOR_INTEL ? pmc_extra_model_find(info.family, info.model) : NULL;
	test_errnos(m);
	if (m)
		test_msr(cpu);
	return check_summary(&st, "offcore");
}
