// SPDX-License-Identifier: GPL-2.0
/*
 * The self-read page's core type: a thread counting instructions:u on
 * itself, with its page mapped, moves to each online CPU in turn (up to 8)
 * and reads the page's core_type there.  It must be what CPUID.1AH says on
 * that CPU (libpmc's pmc_cpuid_core_type(), read pinned there): 0x40 on a
 * P-core, 0x20 on an E-core, 0 where the CPU is not hybrid.  Prints
 * "selftype: N passed, N failed".
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"
#include "pmcdev.h"
#include "libpmc.h"

static struct check_state st;

static void spin(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : PMC_DEFAULT_DEVICE;
	struct pmcdrv_config c = pmcdev_task_clock_config();
	struct pmcdrv_attach a = { .size = sizeof(a) };
	const volatile struct pmcdrv_self_page *pg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t one;
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

		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		spin(100000);
		want = pmc_cpuid_core_type();
		got = pg->core_type;
		snprintf(name, sizeof(name), "CPU %d: the page's core type is CPUID's there (%#x)",
			 cpu, want);
		CHECK(&st, got == want, name, "page %#x, CPUID %#x", got, want);
	}
	return check_summary(&st, "selftype");
}
