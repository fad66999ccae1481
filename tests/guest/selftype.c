// SPDX-License-Identifier: GPL-2.0
/*
 * The self-read page's core type: a thread counting instructions:u on
 * itself, with its page mapped, moves to each online CPU in turn (up to 8)
 * and reads the page's core_type there.  It must be what CPUID.1AH says on
 * that CPU (libpmc's pmc_cpuid_core_type(), read pinned there): 0x40 on a
 * P-core, 0x20 on an E-core, 0 where the CPU is not hybrid.
 *
 * On a hybrid part, then a session of more events than counters that fits
 * each core type's: six GP events of each type (INST_RETIRED.ANY_P,
 * cpu_core/ and cpu_atom/) and instructions (fixed counter 0) of none.  On
 * each CPU the page gives its own type's six an RDPMC index each, distinct,
 * and they count what fixed counter 0 counts; the other type's six have no
 * index and do not count.
 *
 * Then the P-core's own GP counters 6 and 7: a child counts 9 events of the
 * P-cores (fixed counter 0 and GP 0-7) on the first P-core, and this thread,
 * with a page and a session of its own there, reads GP 6 and 7 with RDPMC
 * as the two take turns: always 0 (scrubbed at each switch to it), never
 * the child's counts.  Prints "selftype: N passed, N failed".
 */
#include <errno.h>
#include <stdbool.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"
#include "pmcdev.h"
#include "libpmc.h"

static struct check_state st;

#define NR_TYPED	13	/* 6 of each core type, then instructions of none */

static uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return lo | (uint64_t)hi << 32;
}

/* The page's events now, as a reader of it does; @index: each one's RDPMC index + 1. */
static void page_read(const volatile struct pmcdrv_self_page *pg, uint64_t *vals, uint32_t *index)
{
	struct pmcdrv_self_event e;
	uint32_t seq;
	unsigned int i;

	do {
		seq = pg->seq;
		__asm__ __volatile__("" ::: "memory");
		for (i = 0; i < NR_TYPED; i++) {
			e.index = pg->events[i].index;
			e.offset = pg->events[i].offset;
			e.base = pg->events[i].base;
			e.mask = pg->events[i].mask;
			index[i] = e.index;
			vals[i] = pmc_self_event_value(&e, e.index ? rdpmc(e.index - 1) : 0);
		}
		__asm__ __volatile__("" ::: "memory");
	} while ((seq & 1) || seq != pg->seq);
}

static void spin(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

/* Move to @cpu and spin @n there, so that the thread counts there: 0, or -1. */
static int move_to(int cpu, unsigned long n)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	spin(n);
	return 0;
}

/*
 * A session of @c's events on this thread, its page mapped: the page, or
 * NULL.  CONFIG, ATTACH and the mapping are checked each, named @what.
 */
static const volatile struct pmcdrv_self_page *self_session(const char *dev,
							   struct pmcdrv_config *c, int *fd,
							   const char *what)
{
	struct pmcdrv_attach a = { .size = sizeof(a) };
	char name[128];
	void *pg;
	int e;

	*fd = pmcdev_open(dev);
	e = pmcdev_io(*fd, PMCDRV_IOC_CONFIG, c);
	snprintf(name, sizeof(name), "%s: configured", what);
	CHECK(&st, e == 0, name, "errno %d", e);
	if (e)
		return NULL;
	e = pmcdev_io(*fd, PMCDRV_IOC_ATTACH, &a);
	snprintf(name, sizeof(name), "%s: attached to this thread", what);
	CHECK(&st, e == 0, name, "errno %d", e);
	if (e)
		return NULL;
	pg = mmap(NULL, 4096, PROT_READ, MAP_SHARED, *fd, PMCDRV_SELF_MMAP_OFFSET);
	snprintf(name, sizeof(name), "%s: its self-read page mapped", what);
	CHECK(&st, pg != MAP_FAILED, name, "errno %d", errno);
	return pg == MAP_FAILED ? NULL : pg;
}

/* The typed session (above) on each online CPU, up to 8. */
static void typed(const char *dev, long ncpu)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	const volatile struct pmcdrv_self_page *pg;
	uint64_t v0[NR_TYPED], v1[NR_TYPED], d, fx;
	uint32_t ix[NR_TYPED], ix1[NR_TYPED];
	unsigned int i, j, type, mine;
	char name[128];
	int fd, cpu;
	bool ok;

	c.nr_events = NR_TYPED;
	for (i = 0; i < 12; i++)
		c.events[i] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER,
						     .event = 0xc0,
						     .core_type = i < 6 ? PMCDRV_CORE_TYPE_CORE :
									  PMCDRV_CORE_TYPE_ATOM };
	c.events[12] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER,
					      .event = 0x00, .umask = 1 };
	pg = self_session(dev, &c, &fd, "typed: 13 events, 7 on each core type's counters");
	if (!pg)
		return;
	for (cpu = 0; cpu < ncpu && cpu < 8; cpu++) {
		if (move_to(cpu, 1000))
			continue;
		type = pmc_cpuid_core_type();
		page_read(pg, v0, ix);
		spin(200000);
		page_read(pg, v1, ix1);
		fx = v1[12] - v0[12];
		snprintf(name, sizeof(name), "typed, CPU %d (%#x): fixed counter 0 counts (%llu)", cpu,
			 type, (unsigned long long)fx);
		CHECK(&st, ix[12] != 0 && fx > 200000, name, "index %#x", ix[12]);
		for (i = 0; i < 12; i++) {
			mine = (i < 6 ? PMCDRV_CORE_TYPE_CORE : PMCDRV_CORE_TYPE_ATOM) == type;
			d = v1[i] - v0[i];
			if (!mine) {
				snprintf(name, sizeof(name),
					 "typed, CPU %d: event %u (the other type's) has no index, counts 0",
					 cpu, i);
				CHECK(&st, ix[i] == 0 && ix1[i] == 0 && d == 0, name,
				      "index %#x, counted %llu", ix[i], (unsigned long long)d);
				continue;
			}
			for (j = 0, ok = ix[i] != 0 && ix[i] != ix[12]; j < i && ok; j++)
				ok = ix[j] != ix[i];
			/* the reads of two counters are some instructions apart: within 1% */
			ok = ok && d > fx - fx / 100 && d < fx + fx / 100;
			snprintf(name, sizeof(name),
				 "typed, CPU %d: event %u (its type's) on a counter of its own, counting "
				 "what fixed counter 0 does (%llu)", cpu, i, (unsigned long long)d);
			CHECK(&st, ok, name, "index %#x, fixed counter 0 %llu", ix[i],
			      (unsigned long long)fx);
		}
	}
	munmap((void *)pg, 4096);
	close(fd);
}

/* GP 6 and 7 of the first P-core, counted by a child, read from this thread (above). */
static void p_core_scrub(const char *dev, long ncpu)
{
	struct pmcdrv_config c = pmcdev_task_clock_config();
	const volatile struct pmcdrv_self_page *pg;
	uint64_t seen = 0, reads = 0;
	unsigned int i;
	int cpu, fd, p[2], st_child;
	pid_t child;
	char ok;

	for (cpu = 0; cpu < ncpu && cpu < 8; cpu++) {
		if (!move_to(cpu, 0) && pmc_cpuid_core_type() == PMCDRV_CORE_TYPE_CORE)
			break;
	}
	CHECK(&st, cpu < ncpu && cpu < 8, "P-core scrub: a P-core to run on", "none online");
	if (cpu == ncpu || cpu == 8 || pipe(p))
		return;
	child = fork();
	if (child == 0) {
		c.nr_events = 9;
		for (i = 0; i < 9; i++)
			c.events[i] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW,
							     .flags = PMCDRV_EVF_USER,
							     .event = 0xc0,
							     .core_type = PMCDRV_CORE_TYPE_CORE };
		ok = self_session(dev, &c, &fd, "P-core scrub: the child's 9 P-core events") ? 1 : 0;
		if (write(p[1], &ok, 1) != 1)
			_exit(1);
		for (;;)
			spin(1000000);
	}
	if (read(p[0], &ok, 1) != 1 || !ok) {
		kill(child, SIGKILL);
		waitpid(child, &st_child, 0);
		CHECK(&st, false, "P-core scrub: the child counts GP 0-7", "its session failed");
		return;
	}
	c.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER,
					     .event = 0x00, .umask = 1 };
	pg = self_session(dev, &c, &fd, "P-core scrub: this thread's session of instructions:u");
	if (pg) {
		/* about 40 time slices of the two, taking turns on the P-core */
		for (i = 0; i < 4000; i++) {
			seen |= rdpmc(6) | rdpmc(7);
			reads += 2;
			spin(20000);
		}
		munmap((void *)pg, 4096);
		close(fd);
	}
	kill(child, SIGKILL);
	waitpid(child, &st_child, 0);
	CHECK(&st, pg && seen == 0,
	      "P-core scrub: GP 6 and 7 read 0 with RDPMC beside the child counting on them",
	      "%llu reads, OR of the values %#llx", (unsigned long long)reads,
	      (unsigned long long)seen);
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : PMC_DEFAULT_DEVICE;
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_attach a = { .size = sizeof(a) };
	const volatile struct pmcdrv_self_page *pg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	bool hybrid = false;
	int fd, e, cpu;

	c.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .flags = PMCDRV_EVF_USER,
					     .event = 0xc0 };
	fd = pmcdev_open(dev);
	e = pmcdev_io(fd, PMCDRV_IOC_CONFIG, &c);
	if (!e)
		e = pmcdev_io(fd, PMCDRV_IOC_ATTACH, &a);
	CHECK(&st, e == 0, "a session of instructions:u on this thread", "errno %d", e);
	pg = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, PMCDRV_SELF_MMAP_OFFSET);
	CHECK(&st, pg != MAP_FAILED, "its self-read page mapped", "errno %d", errno);
	if (pg == MAP_FAILED)
		return check_summary(&st, "selftype");
	for (cpu = 0; cpu < ncpu && cpu < 8; cpu++) {
		unsigned int want, got;
		char name[96];

		if (move_to(cpu, 100000))
			continue;
		want = pmc_cpuid_core_type();
		got = pg->core_type;
		snprintf(name, sizeof(name), "CPU %d: the page's core type is CPUID's there (%#x)",
			 cpu, want);
		CHECK(&st, got == want, name, "page %#x, CPUID %#x", got, want);
		hybrid |= want != 0;
	}
	/* a thread is in one session at a time */
	munmap((void *)pg, 4096);
	close(fd);
	if (hybrid) {
		typed(dev, ncpu);
		p_core_scrub(dev, ncpu);
	}
	return check_summary(&st, "selftype");
}
