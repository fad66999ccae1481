// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest table test of the session ioctls (CONFIG, ATTACH, ENABLE,
 * DISABLE, RESET, READ): every malformed request gets its documented errno
 * (docs/abi.md), and self-monitoring through libpmc works.
 * Usage: ioctl_sessions [DEVICE]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pmcdev.h"
#include "libpmc.h"

static struct check_state st;
static const char *dev = PMC_DEFAULT_DEVICE;
static bool have_pmu;
static struct pmcdrv_info info;




static struct pmcdrv_event hw_event(uint32_t event, uint32_t umask, uint32_t flags)
{
	struct pmcdrv_event e = { .type = PMCDRV_EVENT_HW, .flags = flags, .event = event,
				  .umask = umask };

	return e;
}

/*
 * A GP-only event, the @i-th of several: a model event (0xd1, umask i + 1)
 * where the CPU has one core type; on a hybrid part, where an event that
 * names no core type must be architectural, INST_RETIRED.ANY_P (0xc0 on a
 * GP counter) each time.
 */
static struct pmcdrv_event gp_event(uint32_t i)
{
	if (info.flags & PMCDRV_INFO_HYBRID)
		return hw_event(0xc0, 0, PMCDRV_EVF_USER);
	return hw_event(0xd1, i + 1, PMCDRV_EVF_USER);
}

/* One CONFIG on a fresh session; returns errno or 0. */
static int config_errno(const struct pmcdrv_config *c)
{
	struct pmcdrv_config copy = *c;
	int fd = pmcdev_open(dev), e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &copy);

	close(fd);
	return e;
}

/*
 * CONFIG whose result cannot be written back (a read-only page) fails with
 * EFAULT and leaves nothing behind: the session is still unconfigured and,
 * for a hardware event, the PMU claim is undone.
 */
static void test_config_efault_out(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config(), *ro;
	struct pmcdrv_info in = { .size = sizeof(in) };
	int fd, e;

	if (have_pmu)
		c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER);
	ro = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(&st, ro != MAP_FAILED, "config out: mmap", "%s", strerror(errno));
	if (ro == MAP_FAILED)
		return;
	*ro = c;
	mprotect(ro, 4096, PROT_READ);
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, ro);
	CHECK(&st, e == EFAULT, "config: result to a read-only page -> EFAULT", "errno %d", e);
	if (have_pmu) {
		/* The check's claim lingers 1 s, then goes: nothing holds it. */
		e = pmcdev_wait_unclaimed(fd, 3000, &in);
		CHECK(&st, e == 0, "config: after EFAULT the PMU is let go within 3 s",
		      "errno %d, flags %#x", e, in.flags);
	}
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	CHECK(&st, e == 0, "config: after EFAULT the session is unconfigured (config again -> ok)",
	      "errno %d", e);
	close(fd);
	munmap(ro, 4096);
}

static void test_config(void)
{
	struct pmcdrv_config c;
	unsigned char big[sizeof(c) + 32];
	int fd, e, i;
	static const struct {
		const char *name;
		int field;	/* what to break */
		int want;
	} t[] = {
		{ "config: size 0 -> EINVAL", 0, EINVAL },
		{ "config: size below VER0 -> EINVAL", 1, EINVAL },
		{ "config: unknown flag -> EINVAL", 2, EINVAL },
		{ "config: event_size 44 (not a multiple of 8) -> EINVAL", 3, EINVAL },
		{ "config: reserved[0] -> EINVAL", 4, EINVAL },
		{ "config: mux_interval_ns below 1 ms -> EINVAL", 19, EINVAL },
		{ "config: mux_interval_ns above 1 s -> EINVAL", 20, EINVAL },
		{ "config: nr_events 0 -> EINVAL", 5, EINVAL },
		{ "config: nr_events 33 -> EINVAL", 6, EINVAL },
		{ "config: unused slot not zero -> EINVAL", 7, EINVAL },
		{ "config: unknown event type -> EINVAL", 8, EINVAL },
		{ "config: unknown software event -> EINVAL", 9, EINVAL },
		{ "config: software event with hw fields -> EINVAL", 10, EINVAL },
		{ "config: event reserved field -> EINVAL", 11, EINVAL },
		{ "config: event select 0x100 -> EINVAL", 12, EINVAL },
		{ "config: umask 0x100 -> EINVAL", 13, EINVAL },
		{ "config: cmask 256 -> EINVAL", 14, EINVAL },
		{ "config: hw event counting in no mode -> EINVAL", 15, EINVAL },
		{ "config: inv without cmask -> EINVAL", 16, EINVAL },
		{ "config: unknown event flag (INT attempt) -> EINVAL", 17, EINVAL },
		{ "config: sw_id on a hw event -> EINVAL", 18, EINVAL },
	};

	for (i = 0; i < (int)ARRAY_SIZE(t); i++) {
		c = pmcdev_task_clock_config();
		switch (t[i].field) {
		case 0: c.size = 0; break;
		case 1: c.size = PMCDRV_CONFIG_SIZE_VER0 - 8; break;
		case 2: c.flags = 1U << 7; break;
		case 3: c.event_size = 44; break;
		case 4: c.reserved[0] = 1; break;
		case 19: c.mux_interval_ns = PMCDRV_MUX_INTERVAL_MIN_NS - 1; break;
		case 20: c.mux_interval_ns = PMCDRV_MUX_INTERVAL_MAX_NS + 1; break;
		case 5: c.nr_events = 0; break;
		case 6: c.nr_events = PMCDRV_MAX_EVENTS + 1; break;
		case 7: c.events[5].umask = 1; break;
		case 8: c.events[0].type = 7; break;
		case 9: c.events[0].sw_id = 99; break;
		case 10: c.events[0].event = 0xc0; break;
		case 11: c.events[0].core_type = 1; break;
		case 12: c.events[0] = hw_event(0x100, 0, PMCDRV_EVF_USER); break;
		case 13: c.events[0] = hw_event(0xc0, 0x100, PMCDRV_EVF_USER); break;
		case 14: c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER); c.events[0].cmask = 256; break;
		case 15: c.events[0] = hw_event(0xc0, 0, 0); break;
		case 16: c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER | PMCDRV_EVF_INV); break;
		case 17: c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER | (1U << 20)); break;
		case 18: c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER); c.events[0].sw_id = 1; break;
		}
		e = config_errno(&c);
		CHECK(&st, e == t[i].want, t[i].name, "errno %d (%s), want %d", e, strerror(e), t[i].want);
	}

	/* Larger struct: zero tail accepted, non-zero tail E2BIG. */
	c = pmcdev_task_clock_config();
	memset(big, 0, sizeof(big));
	c.size = sizeof(big);
	memcpy(big, &c, sizeof(c));
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, big);
	CHECK(&st, e == 0, "config: larger size, zero tail -> ok", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, big);
	CHECK(&st, e == EALREADY, "config: second config -> EALREADY", "errno %d", e);
	close(fd);
	big[sizeof(big) - 1] = 1;
	memcpy(big, &c, sizeof(c));
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, big);
	CHECK(&st, e == E2BIG, "config: larger size, non-zero tail -> E2BIG", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, NULL);
	CHECK(&st, e == EFAULT, "config: NULL -> EFAULT", "errno %d", e);
	close(fd);

	/* Hardware events. */
	c = pmcdev_task_clock_config();
	c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER);
	e = config_errno(&c);
	if (have_pmu) {
		CHECK(&st, e == 0, "config: instructions:u -> ok", "errno %d", e);
		/* ref-cycles (0x0300) is fixed counter 2 only; raw 0x013C a GP counter, even with fixed 2 free. */
		c = pmcdev_task_clock_config();
		c.events[0] = hw_event(0x3c, 0x01, PMCDRV_EVF_USER);
		fd = pmcdev_open(dev);
		e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
		close(fd);
		CHECK(&st, e == 0 && c.events[0].counter < PMC_GLOBAL_FIXED_SHIFT,
		      "config: raw 0x013C -> a GP counter, not fixed 2", "errno %d counter %u", e,
		      c.events[0].counter);
		if (info.avail_mask & (1ULL << (PMC_GLOBAL_FIXED_SHIFT + 2))) {
			c.events[0] = hw_event(0x00, 0x03, PMCDRV_EVF_USER);
			fd = pmcdev_open(dev);
			e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
			close(fd);
			CHECK(&st, e == 0 && c.events[0].counter == PMC_GLOBAL_FIXED_SHIFT + 2,
			      "config: ref-cycles 0x0300 -> fixed counter 2", "errno %d counter %u", e,
			      c.events[0].counter);
			c.nr_events = 2;
			c.events[1] = hw_event(0x00, 0x03, PMCDRV_EVF_KERNEL);
			e = config_errno(&c);
			CHECK(&st, e == 0, "config: ref-cycles twice (fixed 2 busy) -> they multiplex, no GP fallback",
			      "errno %d", e);
			c = pmcdev_task_clock_config();
			c.events[0] = hw_event(0x00, 0x03, PMCDRV_EVF_USER | PMCDRV_EVF_NO_FIXED);
			e = config_errno(&c);
			CHECK(&st, e == EINVAL, "config: ref-cycles with NO_FIXED -> EINVAL", "errno %d", e);
		}
		c = pmcdev_task_clock_config();
		c.events[0] = hw_event(0x00, 0x00, PMCDRV_EVF_USER);
		e = config_errno(&c);
		CHECK(&st, e == EINVAL, "config: event 0x00 umask 0 (not a fixed counter) -> EINVAL",
		      "errno %d", e);
		/* One GP-only event more than there are GP counters. */
		c.nr_events = info.num_gp + 1;
		for (i = 0; i < (int)c.nr_events && i < PMCDRV_MAX_EVENTS; i++)
			c.events[i] = gp_event((uint32_t)i);
		e = config_errno(&c);
		CHECK(&st, e == 0, "config: more events than counters -> they multiplex", "errno %d", e);
		/* A core type (perf's cpu_core/): on a CPU that is not hybrid, EOPNOTSUPP. */
		c = pmcdev_task_clock_config();
		c.events[0] = hw_event(0xc0, 0x00, PMCDRV_EVF_USER);
		c.events[0].core_type = PMCDRV_CORE_TYPE_CORE;
		e = config_errno(&c);
		CHECK(&st, e == ((info.flags & PMCDRV_INFO_HYBRID) ? 0 : EOPNOTSUPP),
		      "config: a core type -> EOPNOTSUPP where the CPU is not hybrid, else ok",
		      "errno %d", e);
		c.events[0].core_type = 0x30;	/* CPUID.1AH reserves it */
		e = config_errno(&c);
		CHECK(&st, e == EINVAL, "config: core type 0x30 -> EINVAL", "errno %d", e);
		/* An architectural event this CPU marks unavailable, if there is one. */
		for (i = 0; i < PMC_ARCH_NR_EVENTS && i < (int)info.events_len; i++) {
			if (info.events_avail & (1U << i))
				continue;
			c = pmcdev_task_clock_config();
			c.events[0] = hw_event(pmc_arch_events[i].event, pmc_arch_events[i].umask,
					       PMCDRV_EVF_USER);
			e = config_errno(&c);
			CHECK(&st, e == EOPNOTSUPP,
			      "config: unavailable architectural event -> EOPNOTSUPP", "%s: errno %d",
			      pmc_arch_events[i].name, e);
			break;
		}
	} else {
		CHECK(&st, e == ENODEV, "config: hw event without PMU -> ENODEV", "errno %d", e);
	}
	test_config_efault_out();
}

static void test_attach_and_ops(void)
{
	struct pmcdrv_attach a;
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_read r;
	int fd, fd2, e;
	unsigned int i;
	pid_t child;

	fd = pmcdev_open(dev);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EBADFD, "attach before config -> EBADFD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	CHECK(&st, e == EBADFD, "enable before config -> EBADFD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	CHECK(&st, e == EBADFD, "disable before config -> EBADFD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_RESET, NULL);
	CHECK(&st, e == EBADFD, "reset before config -> EBADFD", "errno %d", e);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == EBADFD, "read before config -> EBADFD", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	CHECK(&st, e == 0 && c.events[0].counter == ~0U, "config task-clock; counter ~0 written back",
	      "errno %d counter 0x%x", e, c.events[0].counter);

	/* ATTACH argument checks. */
	a.size = 8;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EINVAL, "attach: size below VER0 -> EINVAL", "errno %d", e);
	a.size = sizeof(a);
	a.flags = 1U << 5;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EINVAL, "attach: unknown flag -> EINVAL", "errno %d", e);
	a.flags = 0;
	for (i = 0; i < 4; i++) {
		static const char *const what[] = {
			"reserved", "nr_cgroups without ATTACH_CGROUP",
			"cgroup_fds without ATTACH_CGROUP", "ATTACH_CGROUP without ATTACH_CPU",
		};
		struct pmcdrv_attach bad = { .size = sizeof(bad), .reserved1 = i == 0,
					     .nr_cgroups = i == 1, .cgroup_fds = i == 2 ? 16 : 0,
					     .flags = i == 3 ? PMCDRV_ATTACH_CGROUP : 0 };

		e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &bad);
		CHECK(&st, e == EINVAL, what[i], "attach: errno %d, not EINVAL", e);
	}
	a.pid = -5;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EINVAL, "attach: negative pid -> EINVAL", "errno %d", e);
	a.pid = 999999;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == ESRCH, "attach: no such pid -> ESRCH", "errno %d", e);
	a.pid = 2;	/* kthreadd */
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EPERM, "attach: kernel thread -> EPERM", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, (void *)16);
	CHECK(&st, e == EFAULT, "attach: bad pointer -> EFAULT", "errno %d", e);

	/* Attach to a sleeping child, then a second session on it. */
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	a.pid = child;
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "attach: child pid -> ok", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EALREADY, "attach: second attach -> EALREADY", "errno %d", e);
	fd2 = pmcdev_open(dev);
	c = pmcdev_task_clock_config();
	pmcdev_io(fd2, PMCDRV_IOC_CONFIG, &c);
	e = pmcdev_io(fd2, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == EEXIST, "attach: task tracked by another session -> EEXIST", "errno %d", e);
	close(fd2);

	e = ioctl(fd, PMCDRV_IOC_ENABLE, 1) < 0 ? errno : 0;
	CHECK(&st, e == EINVAL, "enable with a non-zero argument -> EINVAL", "errno %d", e);
	e = ioctl(fd, PMCDRV_IOC_RESET, 1) < 0 ? errno : 0;
	CHECK(&st, e == EINVAL, "reset with a non-zero argument -> EINVAL", "errno %d", e);

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.reserved[0] = 1;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == EINVAL, "read: reserved -> EINVAL", "errno %d", e);
	r.reserved[0] = 0;
	r.cgroup = 1;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == EINVAL, "read: cgroup index on READ -> EINVAL", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_READ_CGROUP, &r);
	CHECK(&st, e == EOPNOTSUPP, "read_cgroup: a task session -> EOPNOTSUPP", "errno %d", e);
	r.cgroup = 0;
	r.size = 4;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == EINVAL, "read: size below VER0 -> EINVAL", "errno %d", e);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, NULL);
	CHECK(&st, e == EFAULT, "read: NULL -> EFAULT", "errno %d", e);
	r.size = sizeof(r);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == 0 && r.nr_events == 1 && r.nr_tasks == 1 &&
	      (r.flags & PMCDRV_READ_ATTACHED) && !(r.flags & PMCDRV_READ_EXITED),
	      "read: attached child, one task", "errno %d n %u tasks %u flags 0x%x", e,
	      r.nr_events, r.nr_tasks, r.flags);

	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == 0 && r.nr_tasks == 0 && (r.flags & PMCDRV_READ_EXITED),
	      "read after the task exited: EXITED, counts kept", "errno %d tasks %u flags 0x%x",
	      e, r.nr_tasks, r.flags);
	e = pmcdev_io(fd, _IO(PMCDRV_IOC_MAGIC, 0x42), NULL);
	CHECK(&st, e == ENOTTY, "unknown command -> ENOTTY", "errno %d", e);
	close(fd);
}

/* Self-monitoring through libpmc: a region's counts, disable, reset. */
static void test_self(void)
{
	struct pmcdrv_event clk = { .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	struct pmcdrv_event ins = hw_event(0xc0, 0, PMCDRV_EVF_USER);
	struct pmc_session *s;
	struct pmcdrv_read r1, r2, r3;
	volatile unsigned long x = 0;
	unsigned long i;
	int err;

	err = pmc_session_open(dev, &s);
	CHECK(&st, !err, "libpmc: open", "%s", strerror(-err));
	if (err)
		return;
	pmc_session_add(s, &clk);
	if (have_pmu)
		pmc_session_add(s, &ins);
	err = pmc_session_attach(s, 0, 0);
	CHECK(&st, !err, "libpmc: attach self", "%s", strerror(-err));
	for (i = 0; i < 2000000; i++)
		x += i;
	pmc_session_read(s, &r1);
	CHECK(&st, r1.values[0] > 0 && r1.time_enabled == r1.values[0] &&
	      (!have_pmu || r1.values[1] > 2000000), "libpmc: region counted",
	      "task-clock %llu, time_enabled %llu, insns %llu",
	      (unsigned long long)r1.values[0], (unsigned long long)r1.time_enabled,
	      (unsigned long long)r1.values[1]);
	pmc_session_disable(s);
	pmc_session_read(s, &r2);
	for (i = 0; i < 2000000; i++)
		x += i;
	pmc_session_read(s, &r3);
	CHECK(&st, r2.values[0] == r3.values[0] && (!have_pmu || r2.values[1] == r3.values[1]) &&
	      !(r3.flags & PMCDRV_READ_ENABLED), "libpmc: disabled session does not count",
	      "task-clock %llu -> %llu", (unsigned long long)r2.values[0],
	      (unsigned long long)r3.values[0]);
	pmc_session_reset(s);
	pmc_session_read(s, &r3);
	CHECK(&st, r3.values[0] == 0 && (!have_pmu || r3.values[1] == 0), "libpmc: reset zeroes",
	      "task-clock %llu", (unsigned long long)r3.values[0]);
	pmc_session_enable(s);
	for (i = 0; i < 100000; i++)
		x += i;
	pmc_session_read(s, &r3);
	CHECK(&st, r3.values[0] > 0 && r3.values[0] < r1.values[0] && (r3.flags & PMCDRV_READ_ENABLED),
	      "libpmc: enabled again, counts from zero", "task-clock %llu (first region %llu)",
	      (unsigned long long)r3.values[0], (unsigned long long)r1.values[0]);
	pmc_session_close(s);
}

static int cpu_session(int cpu, const struct pmcdrv_config *cfg)
{
	struct pmcdrv_config c = *cfg;
	int fd = pmcdev_open(dev);

	if (pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c) || pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, (uint32_t)cpu)) {
		close(fd);
		return -1;
	}
	return fd;
}

static struct pmcdrv_read read_fd(int fd)
{
	struct pmcdrv_read r;

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	if (pmcdev_io(fd, PMCDRV_IOC_READ, &r))
		r.nr_events = ~0U;
	return r;
}

static void msleep(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int set_online(int cpu, int on)
{
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%d\n", on) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* A session configured with task-clock alone. */
static int sw_session(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	int fd = pmcdev_open(dev);

	pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	return fd;
}

/*
 * CPU-0 ATTACH on @fd from a child that is nobody (uid/gid 65534), chrooted
 * first into @root when given, which gets a forged perf_event_paranoid of
 * -1.  Returns the errno, or 98/99 when the child could not be set up.
 */
static int attach_cpu_as_nobody(int fd, const char *root)
{
	char path[128];
	int status;
	pid_t child;
	FILE *f;

	child = fork();
	if (child == 0) {
		if (root) {
			snprintf(path, sizeof(path), "mkdir -p %s/proc/sys/kernel", root);
			if (system(path))
				_exit(98);
			snprintf(path, sizeof(path), "%s/proc/sys/kernel/perf_event_paranoid", root);
			f = fopen(path, "w");
			if (!f || fputs("-1\n", f) < 0 || fclose(f))
				_exit(98);
			if (chroot(root) || chdir("/"))
				_exit(99);
		}
		if (setgid(65534) || setuid(65534))
			_exit(99);
		_exit(pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0));
	}
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* CPU sessions: ATTACH with PMCDRV_ATTACH_CPU, its errnos, counting, hotplug. */
static void test_cpu_sessions(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_read r1, r2, r3;
	int fd, fd2, e, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

	fd = pmcdev_open(dev);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 4096);
	CHECK(&st, e == EBADFD, "cpu attach before config, absent CPU -> EBADFD first", "errno %d", e);
	pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 1, 0);
	CHECK(&st, e == EINVAL, "cpu attach: with a pid -> EINVAL", "errno %d", e);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_ENABLE_ON_EXEC, 0, 0);
	CHECK(&st, e == EINVAL, "cpu attach: with ENABLE_ON_EXEC -> EINVAL", "errno %d", e);
	e = pmcdev_attach_full(fd, 0, 0, 1);
	CHECK(&st, e == EINVAL, "task attach: cpu field set -> EINVAL", "errno %d", e);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 4096);
	CHECK(&st, e == ENXIO, "cpu attach: no such CPU -> ENXIO", "errno %d", e);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0x80000000U);
	CHECK(&st, e == ENXIO, "cpu attach: CPU 2^31 -> ENXIO", "errno %d", e);
	close(fd);

	c.nr_events = 2;
	c.events[1].type = PMCDRV_EVENT_SW;
	c.events[1].sw_id = PMCDRV_SW_CONTEXT_SWITCHES;
	fd = pmcdev_open(dev);
	pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0);
	CHECK(&st, e == EOPNOTSUPP, "cpu attach: context-switches configured -> EOPNOTSUPP", "errno %d", e);
	close(fd);

	fd = sw_session();
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0);
	CHECK(&st, e == 0, "cpu attach: CPU 0 -> ok", "errno %d", e);
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0);
	CHECK(&st, e == EALREADY, "cpu attach: second attach -> EALREADY", "errno %d", e);
	msleep(50);
	r1 = read_fd(fd);
	CHECK(&st, r1.nr_events == 1 && r1.nr_tasks == 0 && (r1.flags & PMCDRV_READ_ATTACHED) &&
	      (r1.flags & PMCDRV_READ_ENABLED) && r1.values[0] >= 50000000ULL &&
	      r1.values[0] == r1.time_enabled,
	      "cpu read: ATTACHED, no tasks, task-clock is the CPU's time (>= 50 ms after 50 ms)",
	      "n %u tasks %u flags 0x%x clock %llu", r1.nr_events, r1.nr_tasks, r1.flags,
	      (unsigned long long)r1.values[0]);
	fd2 = sw_session();
	e = pmcdev_attach_full(fd2, PMCDRV_ATTACH_CPU, 0, 0);
	CHECK(&st, e == EBUSY, "cpu attach: CPU already counted -> EBUSY", "errno %d", e);
	close(fd2);
	/* CPU and task sessions count side by side (docs/design.md). */
	fd2 = sw_session();
	e = pmcdev_attach_full(fd2, 0, 0, 0);
	CHECK(&st, e == 0, "task attach while a CPU session counts -> ok", "errno %d", e);
	close(fd2);

	pmcdev_io(fd, PMCDRV_IOC_DISABLE, NULL);
	r1 = read_fd(fd);
	msleep(30);
	r2 = read_fd(fd);
	CHECK(&st, r1.values[0] == r2.values[0] && !(r2.flags & PMCDRV_READ_ENABLED),
	      "cpu: disabled session does not count", "%llu -> %llu",
	      (unsigned long long)r1.values[0], (unsigned long long)r2.values[0]);
	pmcdev_io(fd, PMCDRV_IOC_RESET, NULL);
	r3 = read_fd(fd);
	CHECK(&st, r3.values[0] == 0 && r3.time_enabled == 0, "cpu: reset zeroes",
	      "%llu", (unsigned long long)r3.values[0]);
	pmcdev_io(fd, PMCDRV_IOC_ENABLE, NULL);
	msleep(30);
	r3 = read_fd(fd);
	CHECK(&st, r3.values[0] >= 30000000ULL && (r3.flags & PMCDRV_READ_ENABLED),
	      "cpu: enabled again, counts on", "%llu", (unsigned long long)r3.values[0]);
	close(fd);

	/* Task sessions first: a CPU session joins them. */
	fd2 = sw_session();
	e = pmcdev_attach_full(fd2, 0, 0, 0);
	CHECK(&st, e == 0, "task attach after the CPU session closed -> ok", "errno %d", e);
	fd = sw_session();
	e = pmcdev_attach_full(fd, PMCDRV_ATTACH_CPU, 0, 0);
	CHECK(&st, e == 0, "cpu attach while a task session counts -> ok", "errno %d", e);
	close(fd);
	close(fd2);

	/* Not root: counting a CPU needs CAP_PERFMON while perf_event_paranoid > 0. */
	fd = sw_session();
	e = attach_cpu_as_nobody(fd, NULL);
	CHECK(&st, e == EACCES, "cpu attach as nobody (paranoid > 0) -> EACCES", "result %d", e);
	/* The sysctl is read through init's root: a chroot with a forged one changes nothing. */
	e = attach_cpu_as_nobody(fd, "/tmp/fakeroot");
	CHECK(&st, e == EACCES, "cpu attach as nobody in a chroot with a forged paranoid -1 -> EACCES",
	      "result %d", e);
	close(fd);

	/* Hardware: a CPU session on our CPU sees our instructions. */
	if (have_pmu) {
		struct pmcdrv_config h;
		volatile unsigned long x = 0;
		unsigned long i;
		cpu_set_t one;
		int cpu = sched_getcpu();

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		memset(&h, 0, sizeof(h));
		h.size = sizeof(h);
		h.event_size = sizeof(h.events[0]);
		h.nr_events = 2;
		h.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER);
		h.events[1] = hw_event(0xc0, 0, PMCDRV_EVF_USER | PMCDRV_EVF_NO_FIXED);
		fd = cpu_session(cpu, &h);
		CHECK(&st, fd >= 0, "cpu session with instructions:u (fixed and GP)", "errno %d", errno);
		if (fd >= 0) {
			for (i = 0; i < 3000000; i++)
				x += i;
			r1 = read_fd(fd);
			CHECK(&st, r1.values[0] >= 3000000 * 3ULL && r1.values[1] >= 3000000 * 3ULL,
			      "cpu session counts a loop on its CPU (>= 3 insns per iteration)",
			      "fixed %llu GP %llu", (unsigned long long)r1.values[0],
			      (unsigned long long)r1.values[1]);
			close(fd);
		}
		CPU_ZERO(&one);
		for (i = 0; i < (unsigned long)ncpu; i++)
			CPU_SET(i, &one);
		sched_setaffinity(0, sizeof(one), &one);
	}

	/* Hotplug: refused while offline; a session stops with its CPU and resumes with it. */
	if (ncpu < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK)) {
		printf("SKIP: CPU hotplug checks need CPU 1 with an online switch\n");
		return;
	}
	c = pmcdev_task_clock_config();
	fd = cpu_session(1, &c);
	CHECK(&st, fd >= 0, "cpu session on CPU 1", "errno %d", errno);
	if (fd < 0)
		return;
	e = set_online(1, 0);
	CHECK(&st, e == 0, "CPU 1 offline with a CPU session on it", "errno %d", errno);
	r1 = read_fd(fd);
	msleep(50);
	r2 = read_fd(fd);
	CHECK(&st, r1.values[0] == r2.values[0] && r1.values[0] > 0,
	      "cpu: nothing counted while the CPU is offline", "%llu -> %llu",
	      (unsigned long long)r1.values[0], (unsigned long long)r2.values[0]);
	fd2 = sw_session();
	e = pmcdev_attach_full(fd2, PMCDRV_ATTACH_CPU, 0, 1);
	CHECK(&st, e == ENXIO, "cpu attach: offline CPU -> ENXIO", "errno %d", e);
	close(fd2);
	e = set_online(1, 1);
	CHECK(&st, e == 0, "CPU 1 online again", "errno %d", errno);
	msleep(50);
	r3 = read_fd(fd);
	CHECK(&st, r3.values[0] >= r2.values[0] + 40000000ULL,
	      "cpu: the session resumes when its CPU comes back", "%llu -> %llu",
	      (unsigned long long)r2.values[0], (unsigned long long)r3.values[0]);
	close(fd);
}

/*
 * EXITED says the counts are final: not while a task that inherited the
 * session runs on after the attached task exited, only when no tracked task
 * remains.  The attached task forks a child and exits; this process is the
 * child's subreaper, so it can end it.
 */
static void test_exited_with_children(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_attach a = { .size = sizeof(a) };
	struct pmcdrv_read r;
	int go[2], back[2], fd, e;
	pid_t root, kid = 0;
	char b = 'g';

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(go) || pipe(back)) {
		CHECK(&st, false, "exited: subreaper and pipes", "%s", strerror(errno));
		return;
	}
	root = fork();
	if (root == 0) {
		close(go[1]);
		close(back[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(1);
		kid = fork();
		if (kid == 0) {
			pause();
			_exit(0);
		}
		_exit(write(back[1], &kid, sizeof(kid)) == sizeof(kid) ? 0 : 1);
	}
	close(go[0]);
	close(back[1]);
	fd = pmcdev_open(dev);
	a.pid = root;
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "exited: attach a task that will fork and exit", "errno %d", e);
	if (write(go[1], &b, 1) != 1 || read(back[0], &kid, sizeof(kid)) != sizeof(kid))
		kid = 0;
	waitpid(root, NULL, 0);
	r = read_fd(fd);
	CHECK(&st, kid > 0 && r.nr_tasks == 1 && (r.flags & PMCDRV_READ_ATTACHED) &&
	      !(r.flags & PMCDRV_READ_EXITED),
	      "read: the attached task exited, its child runs on: one task, not EXITED",
	      "child %d tasks %u flags 0x%x", (int)kid, r.nr_tasks, r.flags);
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	r = read_fd(fd);
	CHECK(&st, r.nr_tasks == 0 && (r.flags & PMCDRV_READ_EXITED) &&
	      !(r.flags & PMCDRV_READ_ATTACHED),
	      "read: the child exited too: no task, EXITED", "tasks %u flags 0x%x",
	      r.nr_tasks, r.flags);
	close(fd);
	close(go[1]);
	close(back[0]);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* Write @val to a module parameter; 0 or errno. */
static int set_param(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		e = errno;
	close(fd);
	return e;
}

/*
 * MSR faults reach READ (the session's) and INFO (the module's): the
 * inject_msr_faults parameter makes pmcdrv's next two MSR writes fail as a
 * #GP would, and they are normally the first two of the session's start at
 * ATTACH (the counter's zeroing and its event select).  The parameter is
 * module-wide: a write of pmcdrv elsewhere in between (on the other CPU,
 * for example the idle scrub before a task that may RDPMC,
 * pmcd_hw_scrub_idle()) takes them instead, and the session sees none (the
 * debug lane saw it once: module +2, session 0).  Such a
 * try is told by the module's count growing by two while the session's
 * stays 0, and is made again, up to 5 times.
 */
static void test_hw_faults(void)
{
	static const char param[] = "/sys/module/pmcdrv/parameters/inject_msr_faults";
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_info in0, in1;
	struct pmcdrv_attach a = { .size = sizeof(a) };
	struct pmcdrv_read r = { 0 };
	int fd = -1, e, tries;

	if (!have_pmu || access(param, W_OK)) {
		printf("SKIP: MSR fault reporting: %s\n",
		       have_pmu ? "inject_msr_faults is not writable (not root?)" : "no PMU");
		return;
	}
	c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER | PMCDRV_EVF_NO_FIXED);
	for (tries = 1; tries <= 5; tries++) {
		in0 = (struct pmcdrv_info){ .size = sizeof(in0) };
		in1 = (struct pmcdrv_info){ .size = sizeof(in1) };
		if (fd >= 0)
			close(fd);
		fd = pmcdev_open(dev);
		e = pmcdev_io(fd, PMCDRV_IOC_INFO, &in0);
		if (!e)
			e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
		if (!e)
			e = set_param(param, "2");
		if (!e)
			e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
		if (e)
			break;
		r = read_fd(fd);
		e = pmcdev_io(fd, PMCDRV_IOC_INFO, &in1);
		if (e || r.hw_faults || in1.hw_faults != in0.hw_faults + 2)
			break;
		printf("    faults: try %d: both taken by another write of pmcdrv, again\n", tries);
	}
	CHECK(&st, e == 0, "faults: a self session started with two MSR writes failing", "errno %d", e);
	CHECK(&st, r.hw_faults == 2 && (r.flags & PMCDRV_READ_HW_FAULTS),
	      "read: the session's two faults, HW_FAULTS", "hw_faults %llu flags 0x%x (%d tries)",
	      (unsigned long long)r.hw_faults, r.flags, tries);
	CHECK(&st, e == 0 && in1.hw_faults >= in0.hw_faults + 2 &&
	      (in1.flags & PMCDRV_INFO_HW_FAULTS),
	      "info: the module's faults grew by two, HW_FAULTS", "errno %d hw_faults %llu -> %llu flags 0x%x",
	      e, (unsigned long long)in0.hw_faults, (unsigned long long)in1.hw_faults, in1.flags);
	set_param(param, "0");
	close(fd);
}

/*
 * A clearing write that faults at release must not leave one of pmcdrv's
 * counters enabled for good.  The release's first write on this CPU is the
 * event select's clearing (the session was disabled, so GLOBAL_CTRL already
 * holds its bit clear); with it skipped, EVTSEL0 keeps its enable bit, and
 * the next claim used to refuse it as "another agent" (EBUSY) until reboot.
 * pmcdrv must recognise its own leftover and clear it at the next claim.
 */
static void test_release_fault(void)
{
	static const char param[] = "/sys/module/pmcdrv/parameters/inject_msr_faults";
	struct pmcdrv_event ins = hw_event(0xc0, 0, PMCDRV_EVF_USER | PMCDRV_EVF_NO_FIXED);
	struct pmcdrv_info in;
	struct pmc_session *s = NULL;
	cpu_set_t old, one;
	int err, fd, cpu = sched_getcpu();

	if (!have_pmu || access(param, W_OK) || cpu < 0) {
		printf("SKIP: release with a faulting write: %s\n",
		       have_pmu ? "inject_msr_faults is not writable (not root?)" : "no PMU");
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_getaffinity(0, sizeof(old), &old) || sched_setaffinity(0, sizeof(one), &one)) {
		CHECK(&st, 0, "release fault: pin to one CPU", "%s", strerror(errno));
		return;
	}
	err = pmc_session_open(dev, &s);
	if (!err)
		err = pmc_session_add(s, &ins);
	if (!err)
		err = pmc_session_attach(s, 0, 0);
	if (!err)
		err = pmc_session_disable(s);
	if (!err)
		err = -set_param(param, "1");
	CHECK(&st, !err, "release fault: a self session on GP counter 0, disabled, one write to fail",
	      "%s", strerror(-err));
	if (s)
		pmc_session_close(s);
	/* The release, 1 s after the close, skips EVTSEL0's clearing. */
	fd = pmcdev_open(dev);
	err = pmcdev_wait_unclaimed(fd, 3000, &in);
	close(fd);
	CHECK(&st, !err, "release fault: the claim is let go within 3 s of the close",
	      "%s", strerror(err));
	set_param(param, "0");
	s = NULL;
	err = pmc_session_open(dev, &s);
	if (!err)
		err = pmc_session_add(s, &ins);
	if (!err)
		err = pmc_session_attach(s, 0, 0);
	CHECK(&st, !err, "release fault: the next session still gets the counters (pmcdrv clears its own leftover, not EBUSY)",
	      "%s", strerror(-err));
	if (s)
		pmc_session_close(s);
	sched_setaffinity(0, sizeof(old), &old);
}

/* ---- the layouts: VER0 callers, VER1, larger events, 32 events ---- */

/* The first layout's CONFIG, byte for byte: 16 events of 32 bytes, event_size 0. */
struct config_v0 {
	uint32_t size, flags, nr_events, reserved0;
	uint64_t reserved[2];
	struct {
		uint32_t type, flags, event, umask, cmask, sw_id, counter, reserved;
	} events[16];
};

/* The first layout's READ: 16 values. */
struct read_v0 {
	uint32_t size, flags, nr_events, nr_tasks;
	uint64_t time_enabled, time_running, lost_tasks, hw_faults, reserved[2];
	uint64_t values[16];
};

static void spin(unsigned long n)
{
	volatile unsigned long x = 0;

	while (n--)
		x += n;
}

/*
 * A binary built against the first header keeps working: CONFIG of exactly
 * 544 bytes (event_size 0), its counters written back in its layout and
 * nothing past it; READ of 192 bytes, nothing past it either.
 */
static void test_ver0_caller(void)
{
	struct {
		struct config_v0 c;
		unsigned char guard[64];
	} b;
	struct {
		struct read_v0 r;
		unsigned char guard[64];
	} rb;
	struct pmcdrv_attach a = { .size = sizeof(a) };
	unsigned int i;
	int fd, e, guard_ok;

	_Static_assert(sizeof(struct config_v0) == PMCDRV_CONFIG_SIZE_VER0, "VER0 config");
	_Static_assert(sizeof(struct read_v0) == PMCDRV_READ_SIZE_VER0, "VER0 read");
	memset(&b, 0, sizeof(b));
	memset(b.guard, 0xa5, sizeof(b.guard));
	b.c.size = PMCDRV_CONFIG_SIZE_VER0;
	b.c.nr_events = have_pmu ? 3 : 2;
	b.c.events[0].type = PMCDRV_EVENT_SW;
	b.c.events[0].sw_id = PMCDRV_SW_TASK_CLOCK;
	b.c.events[1].type = PMCDRV_EVENT_SW;
	b.c.events[1].sw_id = PMCDRV_SW_CONTEXT_SWITCHES;
	b.c.events[2].type = have_pmu ? PMCDRV_EVENT_HW : 0;
	b.c.events[2].event = have_pmu ? 0xc0 : 0;
	b.c.events[2].flags = have_pmu ? PMCDRV_EVF_USER : 0;
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &b.c);
	for (i = 0, guard_ok = 1; i < sizeof(b.guard); i++)
		guard_ok &= b.guard[i] == 0xa5;
	CHECK(&st, e == 0 && b.c.events[0].counter == ~0U && b.c.events[1].counter == ~0U &&
	      (!have_pmu || b.c.events[2].counter < 64) && b.c.reserved0 == 0 && guard_ok,
	      "VER0 caller: CONFIG of 544 bytes, counters written back in its layout, nothing past it",
	      "errno %d counters %#x %#x %#x event_size %u guard %d", e, b.c.events[0].counter,
	      b.c.events[1].counter, b.c.events[2].counter, b.c.reserved0, guard_ok);
	CHECK(&st, b.c.size == PMCDRV_CONFIG_SIZE_VER1, "VER0 caller: size written back is the kernel's",
	      "size %u", b.c.size);
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "VER0 caller: attach self", "errno %d", e);
	spin(200000);
	memset(&rb, 0, sizeof(rb));
	memset(rb.guard, 0x5a, sizeof(rb.guard));
	rb.r.size = PMCDRV_READ_SIZE_VER0;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &rb.r);
	for (i = 0, guard_ok = 1; i < sizeof(rb.guard); i++)
		guard_ok &= rb.guard[i] == 0x5a;
	CHECK(&st, e == 0 && rb.r.nr_events == b.c.nr_events && rb.r.values[0] > 0 &&
	      rb.r.values[0] == rb.r.time_enabled && (!have_pmu || rb.r.values[2] > 200000) &&
	      guard_ok, "VER0 caller: READ of 192 bytes, values, nothing past it",
	      "errno %d n %u task-clock %llu insns %llu guard %d", e, rb.r.nr_events,
	      (unsigned long long)rb.r.values[0], (unsigned long long)rb.r.values[2], guard_ok);
	close(fd);

	/* event_size 0 names the first layout: bytes past its 16 entries must be zero. */
	{
		struct pmcdrv_config c = pmcdev_task_clock_config();

		c.event_size = 0;
		e = config_errno(&c);
		CHECK(&st, e == 0, "config: VER1 size, event_size 0, zero past 544 bytes -> ok",
		      "errno %d", e);
		((unsigned char *)&c)[PMCDRV_CONFIG_SIZE_VER0 + 8] = 1;
		e = config_errno(&c);
		CHECK(&st, e == E2BIG, "config: event_size 0, a byte past the 16 entries -> E2BIG",
		      "errno %d", e);
	}
}

/* VER1 and larger events: slots, per-event tails, nr_events bounded by both. */
static void test_ver1_layout(void)
{
	unsigned char buf[32 + PMCDRV_MAX_EVENTS * 64] __attribute__((aligned(8)));
	struct pmcdrv_config *h = (struct pmcdrv_config *)buf;
	struct pmcdrv_config c;
	struct pmcdrv_event *ev;
	unsigned int i;
	int fd, e;

	/* 64-byte events (a future layout): zero tails accepted, counters written back. */
	memset(buf, 0, sizeof(buf));
	h->size = sizeof(buf);
	h->event_size = 64;
	h->nr_events = 2;
	for (i = 0; i < 2; i++) {
		ev = (struct pmcdrv_event *)(buf + 32 + i * 64);
		ev->type = PMCDRV_EVENT_SW;
		ev->sw_id = PMCDRV_SW_TASK_CLOCK + i;
	}
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, buf);
	ev = (struct pmcdrv_event *)(buf + 32 + 64);
	CHECK(&st, e == 0 && ev->counter == ~0U && h->event_size == 64,
	      "config: 64-byte events with zero tails -> ok, counter written back at the caller's stride",
	      "errno %d counter %#x event_size %u", e, ev->counter, h->event_size);
	close(fd);
	h->size = sizeof(buf);
	buf[32 + 64 + 50] = 1;	/* event 1, past the kernel's 48 bytes */
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, buf);
	CHECK(&st, e == E2BIG, "config: 64-byte event with a non-zero byte past 48 -> E2BIG",
	      "errno %d", e);
	close(fd);

	/* nr_events past the caller's own slots: 544 bytes of 48-byte events hold 10. */
	c = pmcdev_task_clock_config();
	c.size = PMCDRV_CONFIG_SIZE_VER0;
	c.nr_events = 11;
	for (i = 0; i < 11; i++)
		c.events[i] = c.events[0];
	e = config_errno(&c);
	CHECK(&st, e == EINVAL, "config: nr_events past the caller's slots (544 bytes, 48-byte events) -> EINVAL",
	      "errno %d", e);
	c.nr_events = 10;
	for (i = 10; i < PMCDRV_MAX_EVENTS; i++)
		memset(&c.events[i], 0, sizeof(c.events[i]));
	e = config_errno(&c);
	CHECK(&st, e == 0, "config: 10 events in 544 bytes of 48-byte events -> ok", "errno %d", e);
	c = pmcdev_task_clock_config();
	c.events[0].reserved1 = 1;
	e = config_errno(&c);
	CHECK(&st, e == EINVAL, "config: event reserved1 -> EINVAL", "errno %d", e);
	c = pmcdev_task_clock_config();
	c.events[0].extra = 1;
	e = config_errno(&c);
	CHECK(&st, e == EINVAL, "config: extra on a software event -> EINVAL", "errno %d", e);
	if (have_pmu) {
		/* OFFCORE_RESPONSE_0: the model's table decides (offcore.c tests the rest). */
		bool known = info.vendor == PMCDRV_VENDOR_INTEL &&
			     pmc_extra_model_find(info.family, info.model);

		c.events[0] = hw_event(0xb7, 0x01, PMCDRV_EVF_USER);
		c.events[0].extra = 0x10001;
		e = config_errno(&c);
		CHECK(&st, e == (known ? 0 : EOPNOTSUPP),
		      "config: extra on OFFCORE_RESPONSE_0 -> ok with the model's table, else EOPNOTSUPP",
		      "errno %d (model %#x, table %s)", e, info.model, known ? "known" : "none");
	}
	c = pmcdev_task_clock_config();
	c.size = PMC_CONFIG_SIZE_MAX + 8;
	e = config_errno(&c);
	CHECK(&st, e == E2BIG, "config: size past a page (4096) -> E2BIG", "errno %d", e);
}

/* 32 events through the module; READ VER1 gives each its times. */
/*
 * READ in the layout with the split by core type (struct pmcdrv_read_types)
 * of session @fd, attached to this thread and counting: on a hybrid CPU each
 * hardware event's types add up to its value exactly, the types' times to
 * time_enabled and their running times to the event's (one fold); elsewhere
 * no types.  A size between the layouts gets as much as it asked (VER2's
 * length: the split without the running times), and a non-zero byte past
 * the layout E2BIG.
 */
static void test_read_types(int fd)
{
	static unsigned char big[PMCDRV_READ_SIZE_VER3 + 64] __attribute__((aligned(8)));
	struct pmcdrv_read_types *rt = (struct pmcdrv_read_types *)big;
	struct pmcdrv_info mi = { .size = sizeof(mi) };
	unsigned int i, t, bad = 0, badrun = 0;
	unsigned long long te = 0;
	bool hybrid;
	int e;

	e = pmcdev_io(fd, PMCDRV_IOC_INFO, &mi);
	hybrid = !e && (mi.flags & PMCDRV_INFO_HYBRID);
	memset(big, 0, sizeof(big));
	rt->read.size = sizeof(*rt);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, rt);
	for (i = 0; i < rt->read.nr_events && i < PMCDRV_MAX_EVENTS; i++) {
		unsigned long long sum = 0, run = 0;

		for (t = 0; t < rt->nr_types && t < PMCDRV_MAX_CORE_TYPES; t++) {
			sum += rt->types[t].values[i];
			run += rt->time_running[t][i];
			if (rt->time_running[t][i] > rt->types[t].time_enabled)
				badrun++;
		}
		if (rt->nr_types && (i == 5 || i == 31) && sum != rt->read.values[i])
			bad++;
		if (rt->nr_types && (i == 5 || i == 31) && run != rt->read.times[i].time_running)
			badrun++;
	}
	for (t = 0; t < rt->nr_types && t < PMCDRV_MAX_CORE_TYPES; t++)
		te += rt->types[t].time_enabled;
	CHECK(&st, e == 0 && rt->read.size == PMCDRV_READ_SIZE_VER3 && rt->read.nr_events == 32 &&
	      (hybrid && have_pmu ? rt->nr_types >= 1 && !bad && !badrun &&
				    te == rt->read.time_enabled : rt->nr_types == 0),
	      "READ VER3: on a hybrid CPU the core types add up to each value, its running time "
	      "and the time exactly; none elsewhere",
	      "errno %d size %u types %u bad %u badrun %u te %llu of %llu", e, rt->read.size,
	      rt->nr_types, bad, badrun, te, (unsigned long long)rt->read.time_enabled);

	memset(big, 0, sizeof(big));
	big[1000] = 0xa5;	/* past the 1,000 bytes asked: neither read nor written */
	rt->read.size = 1000;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, rt);
	CHECK(&st, e == 0 && rt->read.size == PMCDRV_READ_SIZE_VER3 && big[1000] == 0xa5,
	      "READ of 1,000 bytes (between VER1 and VER2): answered in that length",
	      "errno %d size %u byte past %#x", e, rt->read.size, big[1000]);

	memset(big, 0, sizeof(big));
	big[PMCDRV_READ_SIZE_VER2] = 0xa5;	/* the first running time: not written */
	rt->read.size = PMCDRV_READ_SIZE_VER2;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, rt);
	CHECK(&st, e == 0 && rt->read.size == PMCDRV_READ_SIZE_VER3 &&
	      big[PMCDRV_READ_SIZE_VER2] == 0xa5 && (hybrid && have_pmu) == (rt->nr_types > 0),
	      "READ in VER2's length (a binary of that header): the split, nothing past it",
	      "errno %d size %u types %u byte past %#x", e, rt->read.size, rt->nr_types,
	      big[PMCDRV_READ_SIZE_VER2]);

	memset(big, 0, sizeof(big));
	rt->read.size = sizeof(big);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, rt);
	CHECK(&st, e == 0 && rt->read.size == PMCDRV_READ_SIZE_VER3,
	      "READ larger than VER3 with a zero tail -> ok", "errno %d size %u", e, rt->read.size);
	memset(big, 0, sizeof(big));
	rt->read.size = sizeof(big);
	big[PMCDRV_READ_SIZE_VER3 + 8] = 1;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, rt);
	CHECK(&st, e == E2BIG, "READ larger than VER3 with a non-zero byte past it -> E2BIG",
	      "errno %d", e);
}

static void test_32_events(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_attach a = { .size = sizeof(a) };
	struct pmcdrv_read r;
	unsigned int i, bad = 0;
	int fd, e;

	for (i = 0; i < PMCDRV_MAX_EVENTS; i++) {
		c.events[i].type = PMCDRV_EVENT_SW;
		c.events[i].sw_id = i % 2 ? PMCDRV_SW_CONTEXT_SWITCHES : PMCDRV_SW_TASK_CLOCK;
	}
	if (have_pmu) {
		c.events[5] = hw_event(0xc0, 0, PMCDRV_EVF_USER);
		c.events[31] = hw_event(0x3c, 0, PMCDRV_EVF_USER);
	}
	c.nr_events = PMCDRV_MAX_EVENTS;
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	CHECK(&st, e == 0 && c.events[30].counter == ~0U &&
	      (!have_pmu || (c.events[5].counter < 64 && c.events[31].counter < 64)),
	      "config: 32 events -> ok", "errno %d counters %#x %#x", e, c.events[5].counter,
	      c.events[31].counter);
	e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "32 events: attach self", "errno %d", e);
	spin(300000);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++) {
		if (r.times[i].time_enabled != r.time_enabled ||
		    r.times[i].time_running != r.time_running)
			bad++;
	}
	CHECK(&st, e == 0 && r.size == PMCDRV_READ_SIZE_VER1 && r.nr_events == PMCDRV_MAX_EVENTS &&
	      r.values[30] > 0 && r.time_enabled > 0 && !bad &&
	      (!have_pmu || (r.values[5] > 300000 && r.values[31] > 300000)),
	      "READ VER1: 32 values, each event's times = the session's (no multiplexing)",
	      "errno %d size %u n %u v30 %llu te %llu bad times %u insns %llu cycles %llu", e,
	      r.size, r.nr_events, (unsigned long long)r.values[30],
	      (unsigned long long)r.time_enabled, bad, (unsigned long long)r.values[5],
	      (unsigned long long)r.values[31]);
	/*
	 * A caller's struct between the two layouts (VER0 + one value): the
	 * kernel fills exactly that many bytes and says its own layout's size.
	 */
	memset(&r, 0xa5, sizeof(r));
	memset(&r, 0, offsetof(struct pmcdrv_read, values));	/* the input fields */
	r.size = PMCDRV_READ_SIZE_VER0 + 8;
	e = pmcdev_io(fd, PMCDRV_IOC_READ, &r);
	CHECK(&st, e == 0 && r.size == PMCDRV_READ_SIZE_VER1 && r.nr_events == PMCDRV_MAX_EVENTS &&
	      r.values[16] != 0xa5a5a5a5a5a5a5a5ULL && r.values[17] == 0xa5a5a5a5a5a5a5a5ULL,
	      "READ of VER0 + 8 bytes: exactly those bytes, values[16] and not [17], size VER1",
	      "errno %d size %u n %u v16 %#llx v17 %#llx", e, r.size, r.nr_events,
	      (unsigned long long)r.values[16], (unsigned long long)r.values[17]);
	test_read_types(fd);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	e = pmcdev_io(fd, PMCDRV_IOC_READ_SELF, &r);
	for (i = 0, bad = 0; i < PMCDRV_MAX_EVENTS; i++) {
		if (r.times[i].time_enabled != r.time_enabled || !r.time_enabled)
			bad++;
	}
	CHECK(&st, e == 0 && r.nr_events == PMCDRV_MAX_EVENTS && !bad && r.values[30] > 0,
	      "READ_SELF VER1: 32 values and their times", "errno %d n %u bad %u", e, r.nr_events,
	      bad);
	/* The self page describes the first 16 events, and says so. */
	{
		const struct pmcdrv_self_page *pg;

		pg = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, PMCDRV_SELF_MMAP_OFFSET);
		CHECK(&st, pg != MAP_FAILED && pg->nr_events == PMCDRV_SELF_MAX_EVENTS &&
		      pg->events[0].offset > 0,
		      "self page of a 32-event session: nr_events 16 (the first 16)",
		      "%s nr_events %u", pg == MAP_FAILED ? strerror(errno) : "mapped",
		      pg == MAP_FAILED ? 0 : pg->nr_events);
		if (pg != MAP_FAILED)
			munmap((void *)pg, 4096);
	}
	close(fd);
}

/* Groups: together on the counters or refused with ENOSPC. */
static void test_groups(void)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	unsigned int i, n;
	int e;

	if (!have_pmu || info.num_gp + 2 > PMCDRV_MAX_EVENTS)
		return;
	/* instructions and cycles (fixed counters) and every GP counter, one group. */
	c.events[0] = hw_event(0xc0, 0, PMCDRV_EVF_USER);
	c.events[1] = hw_event(0x3c, 0, PMCDRV_EVF_USER);
	for (i = 0; i < info.num_gp; i++)
		c.events[2 + i] = gp_event(i);
	n = 2 + info.num_gp;
	for (i = 0; i < n; i++)
		c.events[i].group = 4;
	c.events[n].type = PMCDRV_EVENT_SW;
	c.events[n].sw_id = PMCDRV_SW_TASK_CLOCK;
	c.events[n].group = 4;
	c.nr_events = n + 1;
	e = config_errno(&c);
	CHECK(&st, e == 0, "config: a group of the fixed events, every GP counter and task-clock -> ok",
	      "errno %d (%u GP)", e, info.num_gp);
	/* One GP event more in the group. */
	c.events[n + 1] = gp_event(0x3f);
	c.events[n + 1].group = 4;
	c.nr_events = n + 2;
	e = config_errno(&c);
	CHECK(&st, e == ENOSPC, "config: a group with more GP events than GP counters -> ENOSPC",
	      "errno %d", e);
}

int main(int argc, char **argv)
{
	enum pmc_decode_err derr;

	if (argc > 1)
		dev = argv[1];
	pmc_cpuid_info(&info, &derr);
	have_pmu = info.flags & PMCDRV_INFO_ARCH_PERFMON;
	test_config();
	test_ver0_caller();
	test_ver1_layout();
	test_32_events();
	test_groups();
	test_attach_and_ops();
	test_self();
	test_cpu_sessions();
	test_exited_with_children();
	test_hw_faults();
	test_release_fault();
	return check_summary(&st, "ioctl_sessions");
}
