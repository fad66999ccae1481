// SPDX-License-Identifier: GPL-2.0
/* libpmc: what the PMU is, from CPUID in user space (no module needed). */
#include <cpuid.h>
#include <unistd.h>

#include "libpmc.h"

static void cpuid_regs(uint32_t leaf, struct pmc_cpuid_regs *r)
{
	__cpuid_count(leaf, 0, r->eax, r->ebx, r->ecx, r->edx);
}

int pmc_cpuid_info(struct pmcdrv_info *info, enum pmc_decode_err *decode_err)
{
	struct pmc_cpuid_regs l0, l1, l0a = { 0 }, l7 = { 0 };
	struct pmc_cpu_desc d;
	long ncpu;

	cpuid_regs(0, &l0);
	cpuid_regs(1, &l1);
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON)
		cpuid_regs(PMC_CPUID_LEAF_PERFMON, &l0a);
	if (l0.eax >= PMC_CPUID_LEAF_EXT_FEATURES)
		cpuid_regs(PMC_CPUID_LEAF_EXT_FEATURES, &l7);

	pmc_describe_cpu(&l0, &l1, &l0a, &d);
	/* The module's pmcd_hw_probe(): X86_FEATURE_HYBRID_CPU is CPUID.07H:EDX[15]. */
	pmc_hybrid_common(&d, l7.edx & PMC_CPUID_07_EDX_HYBRID);
	pmc_info_from_desc(&d, info);
	if (decode_err)
		*decode_err = d.decode_err;
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	info->nr_cpus = ncpu > 0 ? (uint32_t)ncpu : 0;
	return 0;
}

unsigned int pmc_cpuid_core_type(void)
{
	struct pmc_cpuid_regs l0, l7 = { 0 }, l1a = { 0 };

	cpuid_regs(0, &l0);
	if (l0.eax >= PMC_CPUID_LEAF_EXT_FEATURES)
		cpuid_regs(PMC_CPUID_LEAF_EXT_FEATURES, &l7);
	if (l0.eax >= PMC_CPUID_LEAF_HYBRID)
		cpuid_regs(PMC_CPUID_LEAF_HYBRID, &l1a);
	return pmc_core_type(&l0, &l7, &l1a);
}

const char *pmc_arch_event_name(unsigned int bit)
{
	return bit < PMC_ARCH_NR_EVENTS ? pmc_arch_events[bit].name : NULL;
}
