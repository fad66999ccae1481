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
#include <asm/msr-index.h>
#include <asm/nmi.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "compat.h"
#include "hw.h"

/* The shared logic's register facts (include/pmcdrv/pmu.h) are the kernel's. */
static_assert(PMC_MSR_PMC0 == MSR_ARCH_PERFMON_PERFCTR0);
static_assert(PMC_MSR_PERFEVTSEL0 == MSR_ARCH_PERFMON_EVENTSEL0);
static_assert(PMC_MSR_FIXED_CTR0 == MSR_ARCH_PERFMON_FIXED_CTR0);
static_assert(PMC_MSR_FIXED_CTR0 == MSR_CORE_PERF_FIXED_CTR0);
static_assert(PMC_MSR_PERF_CAPABILITIES == MSR_IA32_PERF_CAPABILITIES);
static_assert(PMC_MSR_FIXED_CTR_CTRL == MSR_CORE_PERF_FIXED_CTR_CTRL);
static_assert(PMC_MSR_FIXED_CTR_CTRL == MSR_ARCH_PERFMON_FIXED_CTR_CTRL);
static_assert(PMC_MSR_PERF_GLOBAL_STATUS == MSR_CORE_PERF_GLOBAL_STATUS);
static_assert(PMC_MSR_PERF_GLOBAL_CTRL == MSR_CORE_PERF_GLOBAL_CTRL);
static_assert(PMC_MSR_PERF_GLOBAL_OVF_CTRL == MSR_CORE_PERF_GLOBAL_OVF_CTRL);
static_assert(PMC_MSR_A_PMC0 == MSR_IA32_PMC0);
static_assert(PMC_EVTSEL_EVENT == ARCH_PERFMON_EVENTSEL_EVENT);
static_assert(PMC_EVTSEL_UMASK == ARCH_PERFMON_EVENTSEL_UMASK);
static_assert(PMC_EVTSEL_USR == ARCH_PERFMON_EVENTSEL_USR);
static_assert(PMC_EVTSEL_OS == ARCH_PERFMON_EVENTSEL_OS);
static_assert(PMC_EVTSEL_EDGE == ARCH_PERFMON_EVENTSEL_EDGE);
static_assert(PMC_EVTSEL_PC == ARCH_PERFMON_EVENTSEL_PIN_CONTROL);
static_assert(PMC_EVTSEL_INT == ARCH_PERFMON_EVENTSEL_INT);
static_assert(PMC_EVTSEL_ANY == ARCH_PERFMON_EVENTSEL_ANY);
static_assert(PMC_EVTSEL_EN == ARCH_PERFMON_EVENTSEL_ENABLE);
static_assert(PMC_EVTSEL_INV == ARCH_PERFMON_EVENTSEL_INV);
static_assert(PMC_EVTSEL_CMASK == ARCH_PERFMON_EVENTSEL_CMASK);
static_assert(PMC_GLOBAL_FIXED_SHIFT == INTEL_PMC_IDX_FIXED);

/* Execute CPUID on this CPU. */
static void pmcd_cpuid(u32 leaf, struct pmc_cpuid_regs *r)
{
	cpuid_count(leaf, 0, &r->eax, &r->ebx, &r->ecx, &r->edx);
}

void pmcd_hw_probe(struct pmcd_hw_caps *caps)
{
	struct pmc_cpuid_regs l0, l1, l0a = { 0 };

	memset(caps, 0, sizeof(*caps));
	pmcd_cpuid(0, &l0);
	pmcd_cpuid(1, &l1);
	if (l0.eax >= PMC_CPUID_LEAF_PERFMON)
		pmcd_cpuid(PMC_CPUID_LEAF_PERFMON, &l0a);
	if (!pmc_describe_cpu(&l0, &l1, &l0a, &caps->cpu))
		caps->flags |= PMCDRV_INFO_ARCH_PERFMON;
	if (caps->cpu.hypervisor)
		caps->flags |= PMCDRV_INFO_HYPERVISOR;
	if (caps->cpu.pdcm &&
	    !pmcd_rdmsr_safe(PMC_MSR_PERF_CAPABILITIES, &caps->perf_capabilities)) {
		caps->flags |= PMCDRV_INFO_PDCM;
		if (caps->perf_capabilities & PMC_PERF_CAP_FW_WRITE)
			caps->flags |= PMCDRV_INFO_FW_WRITE;
	}
}

struct pmcd_usage_acc {
	const struct pmcd_hw_caps *caps;
	atomic64_t in_use;
	atomic_t inuse_read;
};

static int pmcd_scan_rd(void *ctx, u32 msr, u64 *val)
{
	return pmcd_rdmsr_safe(msr, val);
}

/* Runs on each CPU in IPI context: only *_safe reads, no sleeping. */
static void pmcd_read_usage_cpu(void *arg)
{
	struct pmcd_usage_acc *acc = arg;
	bool inuse_read;
	u64 mask;

	mask = pmc_scan_in_use(&acc->caps->cpu.pm, pmcd_scan_rd, NULL, &inuse_read);
	if (inuse_read)
		atomic_set(&acc->inuse_read, 1);
	atomic64_or(mask, &acc->in_use);
}

/*
 * The kernel offers no query for "is this counter reserved", so try to
 * reserve each GP counter and release it at once.  perf's
 * reserve_pmc_hardware() holds every GP counter while it has any hardware
 * event (the NMI watchdog is one).  With full-width counters perf reserves
 * the A_PMCx alias, which the arbitration maps out of range (a no-op), so
 * its event-select reservation is the one that shows: test both.  Fixed
 * counters are not arbitrated; whoever holds the GP counters in practice
 * drives the whole PMU, so they are reported with them.
 */
static u64 pmcd_reserved_by_others(const struct pmcd_hw_caps *caps)
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
		if (reserve_evntsel_nmi(PMC_MSR_PERFEVTSEL0 + i))
			release_evntsel_nmi(PMC_MSR_PERFEVTSEL0 + i);
		else
			mask |= BIT_ULL(i);
	}
	if (mask)
		mask |= (u64)pm->fixed_mask << PMC_GLOBAL_FIXED_SHIFT;
	return mask;
}

void pmcd_hw_usage(const struct pmcd_hw_caps *caps, bool arbitration, struct pmcd_hw_usage *usage)
{
	struct pmcd_usage_acc acc = {
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
	on_each_cpu(pmcd_read_usage_cpu, &acc, 1);
	usage->nr_cpus = num_online_cpus();
	cpus_read_unlock();
	usage->in_use_hw = atomic64_read(&acc.in_use);
	usage->global_inuse = atomic_read(&acc.inuse_read);
	if (arbitration)
		usage->in_use_reserved = pmcd_reserved_by_others(caps);
}

atomic_t pmcd_hw_faults = ATOMIC_INIT(0);

static void pmcd_hw_release_gp(unsigned int n)
{
	while (n--) {
		release_evntsel_nmi(PMC_MSR_PERFEVTSEL0 + n);
		release_perfctr_nmi(PMC_MSR_PMC0 + n);
	}
}

int pmcd_hw_claim(const struct pmcd_hw_caps *caps)
{
	const struct pmc_arch_perfmon *pm = &caps->cpu.pm;
	struct pmcd_hw_usage usage;
	unsigned int i;

	if (!(caps->flags & PMCDRV_INFO_ARCH_PERFMON))
		return -ENODEV;
	for (i = 0; i < pm->num_gp; i++) {
		if (!reserve_perfctr_nmi(PMC_MSR_PMC0 + i))
			goto busy;
		if (!reserve_evntsel_nmi(PMC_MSR_PERFEVTSEL0 + i)) {
			release_perfctr_nmi(PMC_MSR_PMC0 + i);
			goto busy;
		}
	}
	/* Someone who bypasses the arbitration (firmware, another driver). */
	pmcd_hw_usage(caps, false, &usage);
	if (usage.in_use_hw) {
		pmcd_hw_release_gp(pm->num_gp);
		pr_info_ratelimited("counters 0x%llx are enabled by another agent (firmware or a driver that bypasses the kernel's arbitration); refusing to share them\n",
				    usage.in_use_hw);
		return -EBUSY;
	}
	return 0;

busy:
	pmcd_hw_release_gp(i);
	pr_info_ratelimited("the PMU is held by perf_events (the NMI watchdog is one user): run 'sysctl kernel.nmi_watchdog=0' or stop the perf user, then retry\n");
	return -EBUSY;
}

void pmcd_hw_release(const struct pmcd_hw_caps *caps)
{
	pmcd_hw_release_gp(caps->cpu.pm.num_gp);
}

static void pmcd_wr(u32 msr, u64 val)
{
	if (pmcd_wrmsr_safe(msr, val))
		atomic_inc(&pmcd_hw_faults);
}

static u64 pmcd_rd(u32 msr)
{
	u64 val = 0;

	if (pmcd_rdmsr_safe(msr, &val))
		atomic_inc(&pmcd_hw_faults);
	return val;
}

void pmcd_hw_start(const struct pmc_prog *p)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++) {
		pmcd_wr(p->ctr_msr[i], 0);
		if (p->sel_msr[i])
			pmcd_wr(p->sel_msr[i], p->evtsel[i]);
	}
	if (p->fixed_ctrl_mask)
		pmcd_wr(PMC_MSR_FIXED_CTR_CTRL,
			(pmcd_rd(PMC_MSR_FIXED_CTR_CTRL) & ~p->fixed_ctrl_mask) | p->fixed_ctrl);
	if (p->has_global)
		pmcd_wr(PMC_MSR_PERF_GLOBAL_CTRL,
			pmcd_rd(PMC_MSR_PERF_GLOBAL_CTRL) | p->global_mask);
}

void pmcd_hw_read(const struct pmc_prog *p, u64 *vals)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		vals[i] = pmcd_rd(p->ctr_msr[i]);
}

void pmcd_hw_stop(const struct pmc_prog *p)
{
	unsigned int i;

	if (p->has_global)
		pmcd_wr(PMC_MSR_PERF_GLOBAL_CTRL,
			pmcd_rd(PMC_MSR_PERF_GLOBAL_CTRL) & ~p->global_mask);
	if (p->fixed_ctrl_mask)
		pmcd_wr(PMC_MSR_FIXED_CTR_CTRL,
			pmcd_rd(PMC_MSR_FIXED_CTR_CTRL) & ~p->fixed_ctrl_mask);
	for (i = 0; i < p->nr; i++) {
		if (p->sel_msr[i])
			pmcd_wr(p->sel_msr[i], 0);
		pmcd_wr(p->ctr_msr[i], 0);
	}
}
