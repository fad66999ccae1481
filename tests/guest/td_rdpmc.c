// SPDX-License-Identifier: GPL-2.0
/*
 * td_rdpmc: RDPMC of the topdown pair from user space, on CPU 0, with the
 * PMU's sysfs rdpmc=2 (RDPMC allowed without an event; restored on exit):
 * prints "PERF_METRICS FIXED_CTR3" as read with ECX 1<<29 and (1<<30)|3, in
 * hex, for 66-topdown.sh to hold against rdmsr.  Run as root.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define RDPMC_SYSFS "/sys/bus/event_source/devices/cpu/rdpmc"

static uint64_t rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (uint64_t)hi << 32 | lo;
}

static int set_rdpmc(int v)
{
	FILE *f = fopen(RDPMC_SYSFS, "w");

	if (!f || fprintf(f, "%d\n", v) < 0 || fclose(f)) {
		perror(RDPMC_SYSFS);
		return -1;
	}
	return 0;
}

int main(void)
{
	cpu_set_t set;
	uint64_t m, s;
	int old = 1;
	FILE *f = fopen(RDPMC_SYSFS, "r");

	if (!f || fscanf(f, "%d", &old) != 1) {
		perror(RDPMC_SYSFS);
		return 1;
	}
	fclose(f);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || set_rdpmc(2))
		return 1;
	m = rdpmc(1U << 29);
	s = rdpmc((1U << 30) | 3);
	set_rdpmc(old);
	printf("%#llx %#llx\n", (unsigned long long)m, (unsigned long long)s);
	return 0;
}
