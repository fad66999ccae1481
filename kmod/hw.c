// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv hardware layer: CPUID, MSR reads and the kernel's counter
 * arbitration.  The only file that touches PMU registers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/cpufeature.h>
#include <asm/nmi.h>
#include <asm/processor.h>

#include "compat.h"
#include "hw.h"

/* Execute CPUID on this CPU. */
static void pmc_cpuid(u32 leaf, struct pmc_cpuid_regs *r)
{
	cpuid_count(leaf, 0, &r->eax, &r->ebx, &r->ecx, &r->edx);
}

void pmc_hw_probe(struct pmc_hw_caps *caps)
{
	struct pmc_cpuid_regs l0, l1, l0a = { 0 };

	memset(caps, 0, sizeof(*caps));
	pmc_cpuid(0, &l0);
	pmc_cpuid(1, &l1);
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON)
		pmc_cpuid(PMC_CPUID_LEAF_PERFMON, &l0a);
	if (!pmc_describe_cpu(&l0, &l1, &l0a, &caps->cpu))
		caps->flags |= PMCDRV_INFO_ARCH_PERFMON;
	if (caps->cpu.hypervisor)
		caps->flags |= PMCDRV_INFO_HYPERVISOR;
	if (caps->cpu.pdcm &&
	    !pmc_rdmsr_safe(PMC_MSR_PERF_CAPABILITIES, &caps->perf_capabilities)) {
		caps->flags |= PMCDRV_INFO_PDCM;
		if (caps->perf_capabilities & PMC_PERF_CAP_FW_WRITE)
			caps->flags |= PMCDRV_INFO_FW_WRITE;
	}
}

struct pmc_usage_acc {
	const struct pmc_hw_caps *caps;
	atomic64_t in_use;
	atomic_t inuse_read;
};

/* Runs on each CPU in IPI context: only *_safe reads, no sleeping. */
static void pmc_read_usage_cpu(void *arg)
{
	struct pmc_usage_acc *acc = arg;
	const struct pmc_arch_perfmon *pm = &acc->caps->cpu.pm;
	u64 evtsel[PMC_MAX_GP] = { 0 };
	u64 fixed_ctrl = 0, mask, v;
	unsigned int i;

	/* A register that faults reads as 0: "not enabled". */
	for (i = 0; i < pm->num_gp; i++)
		pmc_rdmsr_safe(PMC_MSR_PERFEVTSEL0 + i, &evtsel[i]);
	if (pm->fixed_mask)
		pmc_rdmsr_safe(PMC_MSR_FIXED_CTR_CTRL, &fixed_ctrl);
	mask = pmc_enabled_counters(pm, evtsel, fixed_ctrl);
	if (pm->version >= 4 && !pmc_rdmsr_safe(PMC_MSR_PERF_GLOBAL_INUSE, &v)) {
		mask |= v & pmc_counter_mask(pm);
		atomic_set(&acc->inuse_read, 1);
	}
	atomic64_or(mask, &acc->in_use);
}

/*
 * The kernel offers no query for "is this counter reserved", so try to
 * reserve each GP counter and release it at once.  perf's
 * reserve_pmc_hardware() holds every GP counter while it has any hardware
 * event (the NMI watchdog is one); fixed counters are not arbitrated, and
 * whoever holds the GP counters in practice drives the whole PMU, so they
 * are reported with them.
 */
static u64 pmc_reserved_by_others(const struct pmc_hw_caps *caps)
{
	const struct pmc_arch_perfmon *pm = &caps->cpu.pm;
	u64 mask = 0;
	unsigned int i;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
		return 0;
	for (i = 0; i < pm->num_gp; i++) {
		if (reserve_perfctr_nmi(PMC_MSR_PMC0 + i))
			release_perfctr_nmi(PMC_MSR_PMC0 + i);
		else
			mask |= BIT_ULL(i);
	}
	if (mask)
		mask |= (u64)pm->fixed_mask << PMC_GLOBAL_FIXED_SHIFT;
	return mask;
}

void pmc_hw_usage(const struct pmc_hw_caps *caps, struct pmc_hw_usage *usage)
{
	struct pmc_usage_acc acc = {
		.caps = caps,
		.in_use = ATOMIC64_INIT(0),
		.inuse_read = ATOMIC_INIT(0),
	};

	memset(usage, 0, sizeof(*usage));
	if (!(caps->flags & PMCDRV_INFO_ARCH_PERFMON)) {
		usage->nr_cpus = num_online_cpus();
		return;
	}
	cpus_read_lock();
	on_each_cpu(pmc_read_usage_cpu, &acc, 1);
	usage->nr_cpus = num_online_cpus();
	cpus_read_unlock();
	usage->in_use_hw = atomic64_read(&acc.in_use);
	usage->global_inuse = atomic_read(&acc.inuse_read);
	usage->in_use_reserved = pmc_reserved_by_others(caps);
}
