// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: the core types of a hybrid part, each CPU's CPUID read on that
 * CPU.  A file of its own: a static link that does not describe core types
 * (a program measuring its regions) pulls in none of it, nor the affinity
 * calls it makes.
 */
#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "libpmc.h"

static void cpuid_sub(uint32_t leaf, uint32_t sub, struct pmc_cpuid_regs *r)
{
	__cpuid_count(leaf, sub, r->eax, r->ebx, r->ecx, r->edx);
}

/* Leaves of the CPU this thread runs on now: its core type's description (0: not hybrid). */
static uint32_t this_cpu_type(struct pmc_core_type_desc *t)
{
	struct pmc_cpuid_regs l0, l1, l0a = { 0 }, l7 = { 0 }, l7_1 = { 0 }, l1a = { 0 };
	struct pmc_cpuid_regs l23_0 = { 0 }, l23_1 = { 0 };
	struct pmc_cpu_desc d;
	uint64_t gp, fixed;

	cpuid_sub(0, 0, &l0);
	cpuid_sub(1, 0, &l1);
	if (l0.eax >= PMC_CPUID_LEAF_EXT_FEATURES) {
		cpuid_sub(PMC_CPUID_LEAF_EXT_FEATURES, 0, &l7);
		cpuid_sub(PMC_CPUID_LEAF_EXT_FEATURES, 1, &l7_1);
	}
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON)
		cpuid_sub(PMC_CPUID_LEAF_PERFMON, 0, &l0a);
	if (l0.eax >= PMC_CPUID_LEAF_HYBRID)
		cpuid_sub(PMC_CPUID_LEAF_HYBRID, 0, &l1a);
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON_EXT) {
		cpuid_sub(PMC_CPUID_LEAF_PERFMON_EXT, 0, &l23_0);
		cpuid_sub(PMC_CPUID_LEAF_PERFMON_EXT, PMC_CPUID_23_CNTR_SUBLEAF, &l23_1);
	}
	if (!pmc_core_type(&l0, &l7, &l1a) || pmc_describe_cpu(&l0, &l1, &l0a, &d))
		return 0;
	t->cpuid_1a = l1a.eax;
	t->from = pmc_hybrid_type_counters(&d, pmc_core_type(&l0, &l7, &l1a), &l7_1, &l23_0,
					   &l23_1, &gp, &fixed);
	t->gp_mask = gp;
	t->fixed_mask = fixed;
	return l1a.eax;
}

uint32_t pmc_cpuid_this_core_type(struct pmc_core_type_desc *t)
{
	memset(t, 0, sizeof(*t));
	return this_cpu_type(t);
}

int pmc_cpuid_core_types(struct pmc_core_type_desc *out, unsigned int max)
{
	cpu_set_t old, online, one;
	struct pmc_core_type_desc t;
	unsigned int cpu, i, nr = 0;
	int err = 0;

	/* Hybrid or not, every core says the same (CPUID.(07H,0):EDX[15]): no walk when not. */
	if (!this_cpu_type(&t))
		return 0;
	if (sched_getaffinity(0, sizeof(old), &old))
		return -errno;
	if (pmc_online_cpus("/sys/devices/system/cpu/online", &online))
		online = old;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* A CPU this thread may not run on (a cpuset) is not looked at. */
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		memset(&t, 0, sizeof(t));
		if (!this_cpu_type(&t))
			continue;
		for (i = 0; i < nr && out[i].cpuid_1a != t.cpuid_1a; i++)
			;
		if (i == nr) {
			if (nr == max) {
				err = -ENOSPC;
				break;
			}
			out[nr++] = t;
		}
		CPU_SET(cpu, &out[i].cpus);
	}
	if (sched_setaffinity(0, sizeof(old), &old) && !err)
		err = -errno;
	return err ? err : (int)nr;
}
