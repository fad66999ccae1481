/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware layer: the only code in pmcdrv that executes CPUID-dependent
 * MSR accesses (rdmsr/wrmsr/rdpmc) and talks to the kernel's counter
 * arbitration.  Everything above it works on struct pmcd_hw_caps.
 */
#ifndef PMCDRV_HW_H
#define PMCDRV_HW_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <pmcdrv/pmu.h>

struct pmcd_hw_caps {
	struct pmc_cpu_desc cpu;
	u32 flags;		/* PMCDRV_INFO_* that describe the CPU */
	u64 perf_capabilities;
	/* the model's extra registers, NULL: none known or they cannot be read */
	const struct pmc_extra_model *extra;
};

/* Read CPUID (and IA32_PERF_CAPABILITIES when PDCM) of the boot CPU. */
void pmcd_hw_probe(struct pmcd_hw_caps *caps);
/*
 * On a hybrid part, this CPU's core type as an index into
 * pmcd_hw_core_types(), added if new; -1 elsewhere (and for a core type
 * beyond PMCDRV_MAX_CORE_TYPES).  Runs on the CPU, from its hotplug callback.
 */
int pmcd_hw_core_type_index(void);
/* The core types seen so far (CPUID.1AH:EAX each): how many, and @ids. */
unsigned int pmcd_hw_core_types(const u32 **ids);
/* Into @pm, the GP counters of each core type seen so far (pmc_type_set_gp()). */
void pmcd_hw_type_perfmon(struct pmc_arch_perfmon *pm);

struct pmcd_hw_usage {
	u64 in_use_hw;		/* enable bits seen set on any online CPU */
	u64 in_use_reserved;	/* held through reserve_perfctr_nmi() by another user */
	u32 nr_cpus;
	bool global_inuse;	/* IA32_PERF_GLOBAL_INUSE was read */
};

/*
 * Who uses the counters right now.  May sleep.  @arbitration: also probe
 * the kernel's reservations (pass false while pmcdrv itself holds them).
 */
void pmcd_hw_usage(const struct pmcd_hw_caps *caps, bool arbitration, struct pmcd_hw_usage *usage);

/*
 * Claim every GP counter through the kernel's arbitration (as perf's
 * reserve_pmc_hardware() does) and check that no counter is enabled by
 * anyone else.  -EBUSY, with the reason logged, when perf_events, the NMI
 * watchdog or another agent holds them.  May sleep; callers serialise
 * claim and release (pmcd_global_lock).  Release first disables and zeroes
 * what pmcdrv programmed on every online CPU, then lets the counters go.
 */
int pmcd_hw_claim(const struct pmcd_hw_caps *caps);
void pmcd_hw_release(const struct pmcd_hw_caps *caps);

/*
 * Per-CPU register work; callers have IRQs disabled.  Each CPU keeps a
 * shadow of what pmcdrv wrote to its registers under the current claim, so
 * only registers that differ are written and stopped counters keep their
 * values (no zeroing).
 *
 * start: program @p (the EVTSELs and FIXED_CTR_CTRL fields that differ) and
 * enable it in GLOBAL_CTRL; @raw gets each counter's value at the start.
 * read: the counters' current raw values (rdpmc).  stop: disable @p with
 * GLOBAL_CTRL alone (EVTSELs stay programmed: the counters are claimed by
 * pmcdrv, nobody else may use them), then read the stopped values into
 * @vals.  clear_cpu: disable and zero everything pmcdrv programmed on this
 * CPU (before it goes offline or suspends; on every CPU when the claim is
 * released).  forget_cpu: the registers may have been written by someone
 * else (resume, a CPU coming online): read them again before trusting them.
 * cpu_back: forget_cpu for a CPU coming online or resuming, which first
 * clears and reports anything pmcdrv enabled there after its teardown.
 * A failed MSR access is counted in pmcd_hw_faults (reported by INFO) and
 * otherwise ignored; start and stop return how many of theirs failed (the
 * session's share, reported by READ).
 */
/*
 * start's @owner: who counts with @p (a session's id, never 0).  @scrub: a
 * thread that may execute RDPMC runs now, so before @p starts every counter
 * of the CPU that may hold another owner's count is zeroed (@p's own
 * counters start from 0 then); free while the counters hold only @owner's
 * counts or zeros.  pmcd_hw_clean_for(): would a start for @owner scrub
 * nothing?  pmcd_hw_scrub_idle(): with nothing of pmcdrv's counting here,
 * zero every counter not known to be zero.
 */
unsigned int pmcd_hw_start(const struct pmc_prog *p, u64 *raw, u64 owner, bool scrub);
bool pmcd_hw_clean_for(u64 owner);
/*
 * The running counters go on for @owner as they stand, from another
 * owner's program that is the same (pmc_prog_handover()): no register
 * write.  They hold a mix now, unless they held @owner's counts alone.
 */
void pmcd_hw_handover(u64 owner);
void pmcd_hw_scrub_idle(void);
void pmcd_hw_read(const struct pmc_prog *p, u64 *vals);
unsigned int pmcd_hw_stop(const struct pmc_prog *p, u64 *vals);
/* Address-space switches where perf_events may zero counters (hw.c). */
#define PMCD_PERF_ANY_MM	BIT(0)	/* to any: it does with rdpmc=2 */
#define PMCD_PERF_RDPMC_MM	BIT(1)	/* to one where RDPMC is allowed */
#define PMCD_PERF_ALL		(PMCD_PERF_ANY_MM | PMCD_PERF_RDPMC_MM)
DECLARE_PER_CPU(unsigned int, pmcd_hw_perf_seen);

/* Which of them this CPU has had under the claim; all when nothing is claimed.  IRQs off. */
static inline unsigned int pmcd_hw_perf_handled(void)
{
	return this_cpu_read(pmcd_hw_perf_seen);
}

void pmcd_hw_perf_clears(unsigned int what);
void pmcd_hw_clear_cpu(void);
void pmcd_hw_forget_cpu(void);
void pmcd_hw_cpu_back(const char *why);
/* RDPMC's ECX for the counter of GLOBAL_CTRL bit @idx (bit 30: fixed counters). */
u32 pmcd_hw_rdpmc_ecx(u32 idx);
extern atomic64_t pmcd_hw_faults;

#endif /* PMCDRV_HW_H */
