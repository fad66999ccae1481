// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv hardware layer: CPUID, MSR reads and the kernel's counter
 * arbitration.  The only file that touches PMU registers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/moduleparam.h>
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
static_assert(PMC_MSR_FIXED_CTR3 == MSR_CORE_PERF_FIXED_CTR3);
static_assert(PMC_MSR_PERF_METRICS == MSR_PERF_METRICS);
static_assert(PMC_TD_IDX_BASE == GLOBAL_CTRL_EN_PERF_METRICS);
static_assert(PMC_TD_IDX_BASE == GLOBAL_STATUS_PERF_METRICS_OVF_BIT);
static_assert(PMC_RDPMC_METRICS == INTEL_PMC_FIXED_RDPMC_METRICS);
static_assert(PMC_RDPMC_FIXED == INTEL_PMC_FIXED_RDPMC_BASE);
static_assert(PMC_TD_NR_METRICS == INTEL_TD_METRIC_NUM);
static_assert(PMC_GLOBAL_PERF_METRICS_BIT == GLOBAL_CTRL_EN_PERF_METRICS);
static_assert(PMC_PERF_CAP_PERF_METRICS_BIT == PERF_CAP_METRICS_IDX);
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

/*
 * The model's extra registers, if pmcdrv knows them and they can be read
 * (a hypervisor may not emulate them: Linux checks them the same way).
 */
static void pmcd_hw_probe_extra(struct pmcd_hw_caps *caps)
{
	const struct pmc_extra_model *m;
	unsigned int k;
	u64 val;

	if (!(caps->flags & PMCDRV_INFO_ARCH_PERFMON) || caps->cpu.vendor != PMCDRV_VENDOR_INTEL)
		return;
	m = pmc_extra_model_find(caps->cpu.family, caps->cpu.model);
	if (!m)
		return;
	for (k = 0; k < PMC_EXTRA_REGS_MAX; k++) {
		if (m->regs[k].msr && pmcd_rdmsr_safe(m->regs[k].msr, &val)) {
			pr_info("%s cannot be read: no offcore response events\n", m->regs[k].name);
			return;
		}
	}
	caps->extra = m;
}

/*
 * The core types of a hybrid part, in the order their CPUs came online:
 * READ's split of the counts (pmcdrv_read_types).  Appended to by the
 * CPU hotplug callbacks, which the hotplug lock serialises; read locklessly
 * (an entry is written before the count that covers it is published).
 */
static bool pmcd_hw_hybrid;
static struct pmc_cpu_desc pmcd_hw_desc;	/* the boot CPU's, from pmcd_hw_probe() */
static u32 pmcd_core_types[PMCDRV_MAX_CORE_TYPES];
static u64 pmcd_core_type_gp[PMCDRV_MAX_CORE_TYPES];	/* each type's GP counters */
static u64 pmcd_core_type_fixed[PMCDRV_MAX_CORE_TYPES];	/* its fixed counters */
static u32 pmcd_core_type_td[PMCDRV_MAX_CORE_TYPES];	/* its PERF_METRICS fields */
static unsigned int pmcd_nr_core_types;
/*
 * This CPU's counters beyond the common subset, in the GLOBAL_CTRL layout
 * (a P-core's GP 6 and 7 and fixed counter 3 on an Alder Lake): its
 * sessions' counters, scrubbed and read as the others.  Written by the
 * CPU itself as it comes online.
 */
static DEFINE_PER_CPU(u64, pmcd_hw_type_ctrs);

/*
 * This CPU's PERF_METRICS fields: pmc_td_metrics() of its own
 * PERF_CAPABILITIES (an Alder Lake's E-cores have none) and fixed counters.
 */
static u32 pmcd_hw_this_type_td(u64 fixed)
{
	u64 cap;

	if (!pmcd_hw_desc.pdcm || pmcd_rdmsr_safe(PMC_MSR_PERF_CAPABILITIES, &cap))
		return 0;
	return pmc_td_metrics(pmcd_hw_desc.family, pmcd_hw_desc.model, cap, (u32)fixed);
}

/* This CPU's counters, as its core type has them (pmc_hybrid_type_counters()). */
static void pmcd_hw_this_type_counters(u32 type, u64 *gp, u64 *fixed)
{
	struct pmc_cpuid_regs l7_1 = { 0 }, l23_0 = { 0 }, l23_1 = { 0 };

	if (pmcd_hw_desc.max_basic_leaf >= PMC_CPUID_LEAF_EXT_FEATURES)
		cpuid_count(PMC_CPUID_LEAF_EXT_FEATURES, 1, &l7_1.eax, &l7_1.ebx, &l7_1.ecx,
			    &l7_1.edx);
	if (pmcd_hw_desc.max_basic_leaf >= PMC_CPUID_LEAF_PERFMON_EXT) {
		pmcd_cpuid(PMC_CPUID_LEAF_PERFMON_EXT, &l23_0);
		cpuid_count(PMC_CPUID_LEAF_PERFMON_EXT, PMC_CPUID_23_CNTR_SUBLEAF, &l23_1.eax,
			    &l23_1.ebx, &l23_1.ecx, &l23_1.edx);
	}
	pmc_hybrid_type_counters(&pmcd_hw_desc, type, &l7_1, &l23_0, &l23_1, gp, fixed);
}

int pmcd_hw_core_type_index(void)
{
	struct pmc_cpuid_regs l1a;
	unsigned int i, n, nr = pmcd_nr_core_types;
	u64 gp, fixed;

	if (!pmcd_hw_hybrid)
		return -1;
	pmcd_cpuid(PMC_CPUID_LEAF_HYBRID, &l1a);
	for (i = 0; i < nr && pmcd_core_types[i] != l1a.eax; i++)
		;
	/* A type seen before has its counters known: no more CPUID (each traps in a VM). */
	if (i < nr) {
		gp = pmcd_core_type_gp[i];
		fixed = pmcd_core_type_fixed[i];
	} else {
		pmcd_hw_this_type_counters(l1a.eax >> 24, &gp, &fixed);
	}
	/*
	 * Its own beyond the common ones: the GP counters by the planning's
	 * rule (the low ones in a row), the fixed ones as pmc_type_set_fixed().
	 */
	n = pmc_gp_in_a_row(gp);
	this_cpu_write(pmcd_hw_type_ctrs,
		       ((n ? GENMASK_ULL(n - 1, 0) : 0) |
			(fixed & GENMASK_ULL(PMC_MAX_FIXED - 1, 0)) << PMC_GLOBAL_FIXED_SHIFT) &
		       ~pmc_counter_mask(&pmcd_hw_desc.pm));
	if (i < nr)
		return i;
	if (nr == PMCDRV_MAX_CORE_TYPES)
		return -1;
	pmcd_core_types[nr] = l1a.eax;
	pmcd_core_type_gp[nr] = gp;
	pmcd_core_type_fixed[nr] = fixed;
	pmcd_core_type_td[nr] = pmcd_hw_this_type_td(fixed);
	/* Pairs with pmcd_hw_core_types(): the entry is seen before its count. */
	smp_store_release(&pmcd_nr_core_types, nr + 1);
	return nr;
}

void pmcd_hw_type_perfmon(struct pmc_arch_perfmon *pm)
{
	const u32 *ids;
	unsigned int t, nr = pmcd_hw_core_types(&ids);

	for (t = 0; t < nr; t++) {
		pmc_type_set_gp(pm, ids[t] >> 24, pmcd_core_type_gp[t]);
		pmc_type_set_fixed(pm, ids[t] >> 24, pmcd_core_type_fixed[t], pmcd_core_type_td[t]);
	}
}

/* The GP counters to claim: the most any core type seen has. */
static unsigned int pmcd_hw_max_gp(const struct pmc_arch_perfmon *pm)
{
	struct pmc_arch_perfmon tpm = *pm;
	unsigned int n = pm->num_gp, k;

	pmcd_hw_type_perfmon(&tpm);
	for (k = 0; k < ARRAY_SIZE(tpm.type_gp); k++)
		n = max(n, tpm.type_gp[k]);
	return n;
}

unsigned int pmcd_hw_core_types(const u32 **ids)
{
	*ids = pmcd_core_types;
	/* Pairs with pmcd_hw_core_type_index(): the entries it covers are written. */
	return smp_load_acquire(&pmcd_nr_core_types);
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
	pmc_hybrid_common(&caps->cpu, boot_cpu_has(X86_FEATURE_HYBRID_CPU));
	if (caps->cpu.pm.hybrid)
		caps->flags |= PMCDRV_INFO_HYBRID;
	pmcd_hw_hybrid = caps->cpu.pm.hybrid;
	pmcd_hw_desc = caps->cpu;
	if (caps->cpu.hypervisor)
		caps->flags |= PMCDRV_INFO_HYPERVISOR;
	if (caps->cpu.pdcm &&
	    !pmcd_rdmsr_safe(PMC_MSR_PERF_CAPABILITIES, &caps->perf_capabilities)) {
		caps->flags |= PMCDRV_INFO_PDCM;
		if (caps->perf_capabilities & PMC_PERF_CAP_FW_WRITE)
			caps->flags |= PMCDRV_INFO_FW_WRITE;
		/* PERF_METRICS is the P-core's alone on a hybrid part. */
		if (!caps->cpu.pm.hybrid)
			caps->cpu.pm.td_metrics = pmc_td_metrics(caps->cpu.family,
								 caps->cpu.model,
								 caps->perf_capabilities,
								 caps->cpu.pm.fixed_mask);
	}
	pmcd_hw_probe_extra(caps);
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
	struct pmc_arch_perfmon pm = acc->caps->cpu.pm;
	u64 own = this_cpu_read(pmcd_hw_type_ctrs);
	bool inuse_read;
	u64 mask;

	/* this CPU's own counters too (the GP ones: the low ones after num_gp) */
	pm.num_gp += hweight64(own & GENMASK_ULL(PMC_GLOBAL_FIXED_SHIFT - 1, 0));
	pm.fixed_mask |= (u32)(own >> PMC_GLOBAL_FIXED_SHIFT);
	mask = pmc_scan_in_use(&pm, pmcd_scan_rd, NULL, &inuse_read);
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
	unsigned int i, n = pmcd_hw_max_gp(pm);
	u64 mask = 0;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
		return 0;
	for (i = 0; i < n; i++) {
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

atomic64_t pmcd_hw_faults = ATOMIC64_INIT(0);
static DEFINE_PER_CPU(unsigned int, pmcd_hw_cpu_faults);

/*
 * For the tests of fault reporting (tests/guest/ioctl_sessions.c): the next
 * N MSR writes of pmcdrv are skipped and counted as faults, as a #GP would
 * leave them.  Root only; it can only make pmcdrv's own counts wrong.
 */
static int inject_msr_faults;
module_param(inject_msr_faults, int, 0600);
MODULE_PARM_DESC(inject_msr_faults,
		 "testing: treat the next N MSR writes of pmcdrv as faulted (default 0)");

static bool pmcd_fault_injected(void)
{
	int n = READ_ONCE(inject_msr_faults);

	while (unlikely(n > 0)) {
		if (try_cmpxchg(&inject_msr_faults, &n, n - 1))
			return true;
	}
	return false;
}

static void pmcd_fault(void)
{
	atomic64_inc(&pmcd_hw_faults);
	this_cpu_inc(pmcd_hw_cpu_faults);
}

/*
 * What this CPU's PMU registers hold, as far as pmcdrv wrote them since it
 * last claimed the PMU: the switch path writes only what differs, stops
 * with GLOBAL_CTRL alone and never zeroes a counter, so a stopped counter
 * keeps its value and that value is remembered here.  Valid while @gen is
 * the current claim's generation: a new claim, a CPU that comes online and
 * a resume (pmcd_hw_forget_cpu()) start from what the registers hold.
 * @dirty is not part of that knowledge and survives it: the counters pmcdrv
 * enabled here and has not seen cleared, so that nothing of pmcdrv's can
 * stay enabled unnoticed (pmcd_hw_clear_left()).
 */
struct pmcd_hw_cpu {
	unsigned long gen;		/* pmcd_hw_gen when valid, 0: nothing known */
	u64 dirty;			/* counters enabled by pmcdrv, not yet cleared */
	u64 dirty_owner;		/* who last enabled one since the last clear; 0: none */
	bool global_known;
	bool fixed_known;
	u64 global_ctrl;		/* IA32_PERF_GLOBAL_CTRL */
	u64 global_found;		/* what it held when first read under this claim */
	u64 fixed_ctrl;			/* IA32_FIXED_CTR_CTRL */
	u64 known;			/* counters (GLOBAL_CTRL bits) we programmed */
	u64 evtsel[PMC_MAX_GP];		/* PERFEVTSELx of a known GP counter */
	u64 val[PMC_GLOBAL_FIXED_SHIFT + PMC_MAX_FIXED];	/* a stopped counter's value */
	u64 zero;			/* counters known to hold 0 (not counting) */
	u64 clean_for;			/* owner whose counts alone the counters hold; 0: unknown */
	u32 extra_known;		/* bit k: extra register k holds extra[k] */
	u32 extra_dirty;		/* bit k: written by pmcdrv, not yet cleared */
	u32 extra_msr[PMC_EXTRA_REGS_MAX];
	u64 extra[PMC_EXTRA_REGS_MAX];
	/*
	 * Topdown metrics (PERF_METRICS x fixed counter 3): the slots of each,
	 * summed on this CPU since load, which the sessions read as counters
	 * (index PMC_TD_IDX_BASE + k, never reset, never backwards); td_base:
	 * the sums when the pair was last reset.  td_used: pmcdrv set
	 * GLOBAL_CTRL.PERF_METRICS here under this claim.
	 */
	u64 td_val[PMC_TD_NR_METRICS];
	u64 td_base[PMC_TD_NR_METRICS];
	bool td_used;
};

static DEFINE_PER_CPU(struct pmcd_hw_cpu, pmcd_hw_cpus);
static void pmcd_hw_clear_ipi(void *info);
static void pmcd_hw_perf_reset_ipi(void *info);
static unsigned long pmcd_hw_gen;	/* claims so far; under the caller's lock */
static bool pmcd_hw_claimed;		/* between a claim and its release */
/* For pmcd_hw_clear_cpu(), set at each claim: */
static u32 pmcd_hw_gp_ctr0;		/* PMC0, or A_PMC0 with full-width writes */
static bool pmcd_hw_has_global;		/* version >= 2 */
static u64 pmcd_hw_all;			/* GLOBAL_CTRL bits of every common counter */
static unsigned int pmcd_hw_nr_gp;	/* GP counters reserved (pmcd_hw_max_gp()) */

/* GLOBAL_CTRL bits of every counter of this CPU: the common ones and its type's. */
static u64 pmcd_hw_cpu_all(void)
{
	return pmcd_hw_all | this_cpu_read(pmcd_hw_type_ctrs);
}

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
	unsigned int i, n = pmcd_hw_max_gp(pm);
	struct pmcd_hw_usage usage;

	if (!(caps->flags & PMCDRV_INFO_ARCH_PERFMON))
		return -ENODEV;
	for (i = 0; i < n; i++) {
		if (!reserve_perfctr_nmi(PMC_MSR_PMC0 + i))
			goto busy;
		if (!reserve_evntsel_nmi(PMC_MSR_PERFEVTSEL0 + i)) {
			release_perfctr_nmi(PMC_MSR_PMC0 + i);
			goto busy;
		}
	}
	/*
	 * pmcdrv's own leftovers are not another agent's: clear them first
	 * (nothing of pmcdrv runs now, so whatever is dirty is left over).
	 */
	pmcd_hw_gp_ctr0 = caps->flags & PMCDRV_INFO_FW_WRITE ? PMC_MSR_A_PMC0 : PMC_MSR_PMC0;
	cpus_read_lock();
	on_each_cpu(pmcd_hw_clear_ipi, NULL, 1);
	cpus_read_unlock();
	/* Someone who bypasses the arbitration (firmware, another driver). */
	pmcd_hw_usage(caps, false, &usage);
	if (usage.in_use_hw) {
		pmcd_hw_release_gp(n);
		pr_info_ratelimited("counters 0x%llx are enabled by another agent (firmware or a driver that bypasses the kernel's arbitration); refusing to share them\n",
				    usage.in_use_hw);
		return -EBUSY;
	}
	/* Whatever we knew of the registers is stale: others could write them. */
	WRITE_ONCE(pmcd_hw_gen, pmcd_hw_gen + 1);
	pmcd_hw_has_global = pm->version >= 2;
	pmcd_hw_all = pmc_counter_mask(pm);
	pmcd_hw_nr_gp = n;
	WRITE_ONCE(pmcd_hw_claimed, true);
	/* perf's marks from before are still to be met on every CPU. */
	cpus_read_lock();
	on_each_cpu(pmcd_hw_perf_reset_ipi, NULL, 1);
	cpus_read_unlock();
	return 0;

busy:
	pmcd_hw_release_gp(i);
	pr_info_ratelimited("the PMU is held by perf_events (the NMI watchdog is one user): run 'sysctl kernel.nmi_watchdog=0' or stop the perf user, then retry\n");
	return -EBUSY;
}

static void pmcd_wr(u32 msr, u64 val)
{
	if (pmcd_fault_injected() || pmcd_wrmsr_safe(msr, val))
		pmcd_fault();
}

static u64 pmcd_rd(u32 msr)
{
	u64 val = 0;

	if (pmcd_rdmsr_safe(msr, &val))
		pmcd_fault();
	return val;
}

static struct pmcd_hw_cpu *pmcd_hw_this(void)
{
	struct pmcd_hw_cpu *hc = this_cpu_ptr(&pmcd_hw_cpus);
	unsigned long gen = READ_ONCE(pmcd_hw_gen);

	if (hc->gen != gen) {
		hc->gen = gen;
		hc->global_known = false;
		hc->fixed_known = false;
		hc->known = 0;
		hc->zero = 0;
		hc->clean_for = 0;
		hc->extra_known = 0;
		hc->td_used = false;
	}
	return hc;
}

u32 pmcd_hw_rdpmc_ecx(u32 idx)
{
	return idx < PMC_GLOBAL_FIXED_SHIFT ? idx : BIT(30) | (idx - PMC_GLOBAL_FIXED_SHIFT);
}

static u64 pmcd_rd_ctr(u32 idx)
{
	u64 val;

	if (idx >= PMC_TD_IDX_BASE)	/* folded by pmcd_hw_td_fold() */
		return this_cpu_ptr(&pmcd_hw_cpus)->td_val[idx - PMC_TD_IDX_BASE];
	/*
	 * RDPMC of a counter the PMU does not have raises #GP, in the kernel
	 * an oops: a counter outside the claim's CPUID-derived mask is not
	 * read but counted as a faulted access.  No session is given one; a
	 * test bit here keeps a bug from becoming a crash.
	 */
	if (unlikely(idx >= 64 || !(pmcd_hw_cpu_all() & BIT_ULL(idx)))) {
		pmcd_fault();
		return 0;
	}
	pmcd_rdpmc(pmcd_hw_rdpmc_ecx(idx), val);
	return val;
}

/*
 * The topdown pair (docs/design.md, "Topdown metrics").  Fold: each metric's
 * slots so far, PERF_METRICS x fixed counter 3 as perf computes them
 * (pmc_td_metric_value()), on top of the sums at the pair's last reset; a
 * metric never goes backwards (a fraction may shrink by up to 1/255 of the
 * slots between two reads: perf drops such negative deltas too).
 */
static void pmcd_hw_td_fold(struct pmcd_hw_cpu *hc)
{
	u64 slots, metrics, v;
	unsigned int k;

	pmcd_rdpmc(PMC_RDPMC_FIXED | PMC_TD_SLOTS_FIXED, slots);
	pmcd_rdpmc(PMC_RDPMC_METRICS, metrics);
	for (k = 0; k < PMC_TD_NR_METRICS; k++) {
		v = hc->td_base[k] + pmc_td_metric_value(metrics, slots, k);
		if (v > hc->td_val[k])
			hc->td_val[k] = v;
	}
}

/*
 * Reset the pair (counting stopped): fixed counter 3 first, then
 * PERF_METRICS, as the SDM and perf (icl_set_topdown_event_period()) do:
 * the metrics are fractions of those slots.  Short windows keep the 8-bit
 * fractions precise.
 */
static void pmcd_hw_td_reset(struct pmcd_hw_cpu *hc)
{
	unsigned int b = PMC_GLOBAL_FIXED_SHIFT + PMC_TD_SLOTS_FIXED;

	pmcd_wr(PMC_MSR_FIXED_CTR3, 0);
	pmcd_wr(PMC_MSR_PERF_METRICS, 0);
	hc->val[b] = 0;
	memcpy(hc->td_base, hc->td_val, sizeof(hc->td_base));
}

/* Write control MSR @msr, shadowed in @shadow, only if its new value differs. */
static void pmcd_hw_update(u32 msr, bool *known, u64 *shadow, u64 clear, u64 set)
{
	u64 v;

	if (!*known) {
		*shadow = pmcd_rd(msr);
		*known = true;
	}
	v = (*shadow & ~clear) | set;
	if (v != *shadow) {
		pmcd_wr(msr, v);
		*shadow = v;
	}
}

static void pmcd_hw_set_global(struct pmcd_hw_cpu *hc, u64 clear, u64 set)
{
	if (!hc->global_known) {
		hc->global_ctrl = pmcd_rd(PMC_MSR_PERF_GLOBAL_CTRL);
		hc->global_found = hc->global_ctrl;
		hc->global_known = true;
	}
	pmcd_hw_update(PMC_MSR_PERF_GLOBAL_CTRL, &hc->global_known, &hc->global_ctrl, clear, set);
}

static void pmcd_hw_set_fixed(struct pmcd_hw_cpu *hc, u64 clear, u64 set)
{
	pmcd_hw_update(PMC_MSR_FIXED_CTR_CTRL, &hc->fixed_known, &hc->fixed_ctrl, clear, set);
}

/*
 * Zero every counter of this CPU not known to be zero: none of them counts
 * now (between a stop and a start), so only the values change.  A counter
 * pmcdrv never programmed under this claim may hold what perf_events or
 * firmware left in it.
 */
static void pmcd_hw_scrub(struct pmcd_hw_cpu *hc)
{
	u64 left = pmcd_hw_cpu_all() & ~hc->zero;
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(hc->val); b++) {
		if (!(left & BIT_ULL(b)))
			continue;
		if (b < PMC_GLOBAL_FIXED_SHIFT)
			pmcd_wr(pmcd_hw_gp_ctr0 + b, 0);
		else
			pmcd_wr(PMC_MSR_FIXED_CTR0 + b - PMC_GLOBAL_FIXED_SHIFT, 0);
		hc->val[b] = 0;
	}
	hc->zero |= left;
}

bool pmcd_hw_clean_for(u64 owner)
{
	return pmcd_hw_this()->clean_for == owner;
}

void pmcd_hw_handover(u64 owner)
{
	struct pmcd_hw_cpu *hc = pmcd_hw_this();

	if (hc->clean_for != owner)
		hc->clean_for = 0;
	if (hc->dirty)
		hc->dirty_owner = owner;
}

/*
 * Nothing of pmcdrv's counts on this CPU now (every counter it started is
 * stopped), and a task that may execute RDPMC runs next: zero every counter
 * that is not known to hold zero.  Free when they all do, as after the first
 * such call.  Nothing to do while pmcdrv holds no claim: the release zeroed
 * what it programmed, and the rest is perf's to clear.  IRQs off.
 */
void pmcd_hw_scrub_idle(void)
{
	struct pmcd_hw_cpu *hc;

	if (!READ_ONCE(pmcd_hw_claimed))
		return;
	hc = pmcd_hw_this();
	if ((pmcd_hw_cpu_all() & ~hc->zero) == 0)
		return;
	pmcd_hw_scrub(hc);
	/* Zeros only: whoever starts next finds them clean, after its own scrub (a no-op). */
	hc->clean_for = 0;
}

/*
 * perf_events zeroes the counters it used and let go ("dirty": they could
 * show another task's counts to a reader with RDPMC) when a CPU switches to
 * an address space that may use RDPMC: Linux 6.1, switch_mm_irqs_off() and
 * cr4_update_pce_mm() in arch/x86/mm/tlb.c call perf_clear_dirty_counters()
 * (arch/x86/events/core.c), which writes 0 to every counter marked in
 * cpuc->dirty, when the new address space's perf_rdpmc_allowed is non-zero
 * (a self-read page makes it so, and dup_mm() copies it into a child) or
 * RDPMC is open to all (the PMU's sysfs attribute rdpmc=2).  x86_pmu_del()
 * marks the counters, and only that zeroing clears the marks, so marks left
 * from before pmcdrv's claim wait for the first such switch, however long
 * pmcdrv has used the counters since.  That switch runs after pmcdrv's
 * sched_switch probe: it would zero counters pmcdrv has just started from
 * their stopped values, or holds stopped, and the next fold would see them
 * step back (a count near 2^48 or short by millions).  While pmcdrv holds
 * the claim perf has no hardware event and marks nothing, so after the first
 * switch to an address space with RDPMC (PMCD_PERF_RDPMC_MM), or to any
 * (PMCD_PERF_ANY_MM: with rdpmc=2 that was one), nothing is left to zero on
 * that CPU until the next claim.
 *
 * Not covered, as no module can see them coming: a switch of address
 * space outside the scheduler (kthread_use_mm() into a process that may
 * use RDPMC; with rdpmc=2, text_poke()'s use_temporary_mm() and leave_mm())
 * before the CPU's first such switch by the scheduler, root writing the
 * rdpmc attribute (set_attr_rdpmc() runs cr4_update_pce() on every CPU),
 * and CPU sessions, which have no switch probe.  perf's marks are static
 * to arch/x86/events/core.c, and nothing exported clears them.
 *
 * pmcd_hw_perf_seen: which of those this CPU has had under this claim,
 * read on every switch (pmcd_hw_perf_handled(), inline).  PMCD_PERF_ALL
 * while nothing is claimed (nothing of pmcdrv's to protect): from load, and
 * set by the release's clear on every CPU.  A claim sets 0 on every CPU
 * once it holds the counters (pmcd_hw_perf_reset_ipi()), and so does a CPU
 * that comes back online or resumes under a claim (pmcd_hw_cpu_back()): the
 * marks may have been set before.  Only the CPU itself writes it, with IRQs
 * off.  A plain int: a module's per-CPU initial values are copied whole
 * (only relocations are lost, see selfread.c's pmcd_self_init()).
 *
 * pmcd_hw_perf_clears(@what): one is about to happen here, and nothing of
 * pmcdrv counts now (the caller stopped it).  Zero every counter not known
 * to be zero first, as a scrub does, so that perf's zeroing changes nothing
 * pmcdrv relies on.  IRQs off.
 */
DEFINE_PER_CPU(unsigned int, pmcd_hw_perf_seen) = PMCD_PERF_ALL;

void pmcd_hw_perf_clears(unsigned int what)
{
	struct pmcd_hw_cpu *hc;

	if (!READ_ONCE(pmcd_hw_claimed)) {
		this_cpu_write(pmcd_hw_perf_seen, PMCD_PERF_ALL);
		return;
	}
	hc = pmcd_hw_this();
	pmcd_hw_scrub(hc);
	hc->clean_for = 0;
	this_cpu_or(pmcd_hw_perf_seen, what);
}

static void pmcd_hw_perf_reset_ipi(void *info)
{
	this_cpu_write(pmcd_hw_perf_seen, 0);
}

unsigned int pmcd_hw_start(const struct pmc_prog *p, u64 *raw, u64 owner, bool scrub)
{
	struct pmcd_hw_cpu *hc = pmcd_hw_this();
	unsigned int i, faults = this_cpu_read(pmcd_hw_cpu_faults);
	u32 b;

	if (hc->clean_for != owner) {
		if (scrub)
			pmcd_hw_scrub(hc);
		/* Scrubbed: only @owner's counts from now on; else a mix. */
		hc->clean_for = scrub ? owner : 0;
	}
	if (p->td_mask) {
		/* Slots counted without PERF_METRICS on have no fractions: restart. */
		pmcd_hw_td_reset(hc);
		hc->td_used = true;
	}
	for (i = 0; i < p->nr; i++) {
		b = p->idx[i];
		if (b >= PMC_TD_IDX_BASE) {
			raw[i] = hc->td_val[b - PMC_TD_IDX_BASE];
			continue;
		}
		if (!(hc->known & BIT_ULL(b))) {
			/* First use under this claim: from zero, as before. */
			pmcd_wr(p->ctr_msr[i], 0);
			hc->val[b] = 0;
			if (p->sel_msr[i])
				pmcd_wr(p->sel_msr[i], p->evtsel[i]);
			if (b < PMC_MAX_GP)
				hc->evtsel[b] = p->evtsel[i];
			hc->known |= BIT_ULL(b);
			hc->dirty |= BIT_ULL(b);
			hc->dirty_owner = owner;
		} else if (p->sel_msr[i] && hc->evtsel[b] != p->evtsel[i]) {
			pmcd_wr(p->sel_msr[i], p->evtsel[i]);
			hc->evtsel[b] = p->evtsel[i];
		}
		hc->zero &= ~BIT_ULL(b);
		raw[i] = hc->val[b];
	}
	for (i = 0; p->extra.used && i < PMC_EXTRA_REGS_MAX; i++) {
		if (!(p->extra.used & BIT(i)) ||
		    ((hc->extra_known & BIT(i)) && hc->extra[i] == p->extra.val[i]))
			continue;
		pmcd_wr(p->extra.msr[i], p->extra.val[i]);
		hc->extra[i] = p->extra.val[i];
		hc->extra_msr[i] = p->extra.msr[i];
		hc->extra_known |= BIT(i);
		hc->extra_dirty |= BIT(i);
	}
	if (p->fixed_ctrl_mask)
		pmcd_hw_set_fixed(hc, p->fixed_ctrl_mask, p->fixed_ctrl);
	if (p->has_global)
		pmcd_hw_set_global(hc, 0, p->global_mask);
	return this_cpu_read(pmcd_hw_cpu_faults) - faults;
}

void pmcd_hw_read(const struct pmc_prog *p, u64 *vals)
{
	unsigned int i;

	if (p->td_mask)
		pmcd_hw_td_fold(pmcd_hw_this());
	for (i = 0; i < p->nr; i++)
		vals[i] = pmcd_rd_ctr(p->idx[i]);
}

unsigned int pmcd_hw_stop(const struct pmc_prog *p, u64 *vals)
{
	struct pmcd_hw_cpu *hc = pmcd_hw_this();
	unsigned int i, faults = this_cpu_read(pmcd_hw_cpu_faults);
	u32 b;

	if (p->has_global) {
		pmcd_hw_set_global(hc, p->global_mask, 0);
	} else {
		/* Version 1: no GLOBAL_CTRL, and no fixed counters. */
		for (i = 0; i < p->nr; i++) {
			if (p->sel_msr[i] && hc->evtsel[p->idx[i]]) {
				pmcd_wr(p->sel_msr[i], 0);
				hc->evtsel[p->idx[i]] = 0;
			}
		}
	}
	if (p->td_mask)
		pmcd_hw_td_fold(hc);
	for (i = 0; i < p->nr; i++) {
		b = p->idx[i];
		vals[i] = pmcd_rd_ctr(b);
		if (b < PMC_TD_IDX_BASE)
			hc->val[b] = vals[i];
	}
	if (p->td_mask)
		pmcd_hw_td_reset(hc);
	return this_cpu_read(pmcd_hw_cpu_faults) - faults;
}

/*
 * Disable counters @left that pmcdrv enabled on this CPU but no longer knows
 * the state of: a write that clears them faulted, or the CPU's registers
 * were forgotten (pmcd_hw_forget_cpu()) while one was still enabled.  Reads
 * FIXED_CTR_CTRL afresh and leaves GLOBAL_CTRL alone: a counter whose event
 * select or fixed field is clear counts nothing.  Not on the switch path.
 */
static void pmcd_hw_clear_left(u64 left)
{
	u64 fixed = 0;
	unsigned int b;

	pr_info_ratelimited("CPU %d: counters 0x%llx were left enabled by pmcdrv; clearing them\n",
			    smp_processor_id(), left);
	for (b = 0; b < PMC_MAX_GP; b++) {
		if (left & BIT_ULL(b)) {
			pmcd_wr(PMC_MSR_PERFEVTSEL0 + b, 0);
			pmcd_wr(pmcd_hw_gp_ctr0 + b, 0);
		}
	}
	for (b = 0; b < PMC_MAX_FIXED; b++) {
		if (left & BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + b)) {
			fixed |= (u64)PMC_FIXED_CTRL_FIELD << (b * PMC_FIXED_CTRL_FIELD_BITS);
			pmcd_wr(PMC_MSR_FIXED_CTR0 + b, 0);
		}
	}
	if (fixed)
		pmcd_wr(PMC_MSR_FIXED_CTR_CTRL, pmcd_rd(PMC_MSR_FIXED_CTR_CTRL) & ~fixed);
}

/*
 * Disable and zero every register pmcdrv programmed on this CPU; then put
 * back the GLOBAL_CTRL bits of those counters as pmcdrv found them (their
 * event selects are zero now, so a bit set there counts nothing), and clear
 * the GLOBAL_STATUS overflow bits they set (pmcdrv takes no overflow
 * interrupt: a wrap is seen by the fold, but its status bit stays set until
 * someone writes GLOBAL_OVF_CTRL).  Bits of counters pmcdrv did not use are
 * never touched.
 */
void pmcd_hw_clear_cpu(void)
{
	struct pmcd_hw_cpu *hc = pmcd_hw_this();
	unsigned int b, fx, faults = this_cpu_read(pmcd_hw_cpu_faults);
	u64 fixed = 0, ovf, left = hc->dirty & ~hc->known, known = hc->known;

	if (left)
		pmcd_hw_clear_left(left);
	/* An extra register pmcdrv wrote counts nothing alone; zero it all the same. */
	for (b = 0; hc->extra_dirty && b < PMC_EXTRA_REGS_MAX; b++) {
		if (hc->extra_dirty & BIT(b))
			pmcd_wr(hc->extra_msr[b], 0);
	}
	if (!hc->known)
		goto out;
	if (hc->td_used)
		known |= PMC_GLOBAL_PERF_METRICS;
	if (pmcd_hw_has_global)
		pmcd_hw_set_global(hc, known, 0);
	for (b = PMC_GLOBAL_FIXED_SHIFT; b < ARRAY_SIZE(hc->val); b++) {
		fx = b - PMC_GLOBAL_FIXED_SHIFT;
		if (hc->known & BIT_ULL(b))
			fixed |= (u64)PMC_FIXED_CTRL_FIELD << (fx * PMC_FIXED_CTRL_FIELD_BITS);
	}
	if (fixed)
		pmcd_hw_set_fixed(hc, fixed, 0);
	for (b = 0; b < ARRAY_SIZE(hc->val); b++) {
		if (!(hc->known & BIT_ULL(b)))
			continue;
		if (b < PMC_GLOBAL_FIXED_SHIFT) {
			pmcd_wr(PMC_MSR_PERFEVTSEL0 + b, 0);
			pmcd_wr(pmcd_hw_gp_ctr0 + b, 0);
		} else {
			pmcd_wr(PMC_MSR_FIXED_CTR0 + b - PMC_GLOBAL_FIXED_SHIFT, 0);
		}
	}
	if (hc->td_used) {
		/* after fixed counter 3 (above), as pmcd_hw_td_reset() */
		pmcd_wr(PMC_MSR_PERF_METRICS, 0);
		hc->td_used = false;
	}
	if (pmcd_hw_has_global) {
		pmcd_hw_set_global(hc, known, hc->global_found & known);
		ovf = pmcd_rd(PMC_MSR_PERF_GLOBAL_STATUS) & known;
		if (ovf)
			pmcd_wr(PMC_MSR_PERF_GLOBAL_OVF_CTRL, ovf);
	}
out:
	/* A write that faulted may have left a counter enabled: try again later. */
	if (this_cpu_read(pmcd_hw_cpu_faults) == faults) {
		hc->dirty = 0;
		hc->extra_dirty = 0;
	}
	hc->dirty_owner = 0;
	pmcd_hw_forget_cpu();
}

/* A claim's first step and a release: nothing of pmcdrv's counts on this CPU after. */
static void pmcd_hw_clear_ipi(void *info)
{
	pmcd_hw_clear_cpu();
	this_cpu_write(pmcd_hw_perf_seen, PMCD_PERF_ALL);
}

void pmcd_hw_forget_cpu(void)
{
	this_cpu_ptr(&pmcd_hw_cpus)->gen = 0;
}

/*
 * This CPU comes back (@why: "online" or "resume") from where pmcdrv could
 * not see its registers.  Its teardown (the offline or suspend callback)
 * cleared whatever pmcdrv had enabled here, so pmcdrv cannot have enabled
 * anything since: if it did, that is the unexplained leftover of
 * docs/testing.md ("A counter left enabled after a suspend").  Name the
 * counters and their session, clear them now, then forget the registers.
 */
void pmcd_hw_cpu_back(const char *why)
{
	struct pmcd_hw_cpu *hc = this_cpu_ptr(&pmcd_hw_cpus);

	if (unlikely(hc->dirty_owner)) {
		pr_warn("CPU %d: counters 0x%llx enabled by session %llu after this CPU's teardown cleared them, found at %s; clearing them\n",
			smp_processor_id(), hc->dirty, hc->dirty_owner, why);
		pmcd_hw_clear_cpu();
	}
	pmcd_hw_forget_cpu();
	/* perf's marks may be older than this claim here (hw.c, above). */
	this_cpu_write(pmcd_hw_perf_seen, READ_ONCE(pmcd_hw_claimed) ? 0 : PMCD_PERF_ALL);
}

void pmcd_hw_release(const struct pmcd_hw_caps *caps)
{
	/* Nothing of ours stays programmed once perf may take the counters. */
	WRITE_ONCE(pmcd_hw_claimed, false);
	cpus_read_lock();
	on_each_cpu(pmcd_hw_clear_ipi, NULL, 1);
	cpus_read_unlock();
	pmcd_hw_release_gp(pmcd_hw_nr_gp);
}
