/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intel architectural performance monitoring: register names and the pure
 * logic shared by pmcdrv.ko and user space (common/pmu_logic.c).
 *
 * Nothing here touches hardware.  Sources: Intel SDM vol. 3, chapter
 * "Performance Monitoring"; CPUID leaf 0AH.
 */
#ifndef PMCDRV_PMU_H
#define PMCDRV_PMU_H

#include "shim.h"
#include <linux/pmcdrv.h>

/* ---- MSR addresses ---------------------------------------------------- */
#define PMC_MSR_PMC0			0x0c1	/* IA32_PMCi = PMC0 + i, sign-extending */
#define PMC_MSR_PERFEVTSEL0		0x186	/* IA32_PERFEVTSELi = PERFEVTSEL0 + i */
#define PMC_MSR_FIXED_CTR0		0x309	/* IA32_FIXED_CTRi = FIXED_CTR0 + i */
#define PMC_MSR_PERF_CAPABILITIES	0x345
#define PMC_MSR_FIXED_CTR_CTRL		0x38d
#define PMC_MSR_PERF_GLOBAL_STATUS	0x38e
#define PMC_MSR_PERF_GLOBAL_CTRL	0x38f
#define PMC_MSR_PERF_GLOBAL_OVF_CTRL	0x390
#define PMC_MSR_PERF_GLOBAL_INUSE	0x392	/* version 4 and later */
#define PMC_MSR_A_PMC0			0x4c1	/* IA32_A_PMCi: full-width writes, if FW_WRITE */
#define PMC_MSR_OFFCORE_RSP_0		0x1a6	/* model-specific: OFFCORE_RESPONSE_0's bits */
#define PMC_MSR_OFFCORE_RSP_1		0x1a7	/* model-specific: OFFCORE_RESPONSE_1's bits */
#define PMC_MSR_FIXED_CTR3		0x30c	/* TOPDOWN.SLOTS (perfmon v5, Ice Lake on) */
#define PMC_MSR_PERF_METRICS		0x329	/* if PERF_CAPABILITIES.PERF_METRICS */

/* ---- IA32_PERFEVTSELx ------------------------------------------------- */
#define PMC_EVTSEL_EVENT		GENMASK_ULL(7, 0)
#define PMC_EVTSEL_UMASK_SHIFT		8
#define PMC_EVTSEL_UMASK		GENMASK_ULL(15, 8)
#define PMC_EVTSEL_USR			BIT_ULL(16)
#define PMC_EVTSEL_OS			BIT_ULL(17)
#define PMC_EVTSEL_EDGE			BIT_ULL(18)
#define PMC_EVTSEL_PC			BIT_ULL(19)	/* pin control */
#define PMC_EVTSEL_INT			BIT_ULL(20)	/* PMI on overflow */
#define PMC_EVTSEL_ANY			BIT_ULL(21)	/* AnyThread, v3+, deprecated v5 */
#define PMC_EVTSEL_EN			BIT_ULL(22)
#define PMC_EVTSEL_INV			BIT_ULL(23)
#define PMC_EVTSEL_CMASK_SHIFT		24
#define PMC_EVTSEL_CMASK		GENMASK_ULL(31, 24)
#define PMC_EVTSEL_IN_TX		BIT_ULL(32)
#define PMC_EVTSEL_IN_TXCP		BIT_ULL(33)

/* ---- IA32_FIXED_CTR_CTRL: one 4-bit field per fixed counter ----------- */
#define PMC_FIXED_CTRL_FIELD_BITS	4
#define PMC_FIXED_CTRL_OS		BIT_ULL(0)
#define PMC_FIXED_CTRL_USR		BIT_ULL(1)
#define PMC_FIXED_CTRL_ANY		BIT_ULL(2)
#define PMC_FIXED_CTRL_PMI		BIT_ULL(3)
#define PMC_FIXED_CTRL_FIELD		GENMASK_ULL(3, 0)

/* ---- IA32_PERF_GLOBAL_CTRL / STATUS / OVF_CTRL / INUSE layout ---------- */
#define PMC_GLOBAL_FIXED_SHIFT		32	/* bit 32+i: fixed counter i */
#define PMC_GLOBAL_PERF_METRICS_BIT	48	/* CTRL: enable; STATUS: overflow */
#define PMC_GLOBAL_PERF_METRICS		BIT_ULL(PMC_GLOBAL_PERF_METRICS_BIT)
#define PMC_GLOBAL_STATUS_DS_BUF	BIT_ULL(62)
#define PMC_GLOBAL_STATUS_COND_CHGD	BIT_ULL(63)

/* ---- IA32_PERF_CAPABILITIES ------------------------------------------- */
#define PMC_PERF_CAP_FREEZE_WHILE_SMM	BIT_ULL(12)
#define PMC_PERF_CAP_FW_WRITE		BIT_ULL(13)
#define PMC_PERF_CAP_PERF_METRICS_BIT	15	/* IA32_PERF_METRICS exists */
#define PMC_PERF_CAP_PERF_METRICS	BIT_ULL(PMC_PERF_CAP_PERF_METRICS_BIT)

/* ---- RDPMC's ECX ------------------------------------------------------ */
#define PMC_RDPMC_FIXED			BIT(30)	/* low bits: fixed counter index */
#define PMC_RDPMC_METRICS		BIT(29)	/* IA32_PERF_METRICS */

/*
 * ---- IA32_PERF_METRICS: eight 8-bit fractions of TOPDOWN.SLOTS --------
 * Byte k of the register is metric k: level 1 (retiring, bad speculation,
 * front-end bound, back-end bound; the four sum to about 0xff) and, on
 * Sapphire Rapids, level 2 (heavy operations of retiring, branch
 * mispredicts of bad speculation, fetch latency of front-end bound, memory
 * bound of back-end bound).  perf's pseudo-encoding of metric k is event
 * 0x00, umask 0x80 + k; it takes no counter of its own.
 */
#define PMC_TD_RETIRING			0
#define PMC_TD_BAD_SPEC			1
#define PMC_TD_FE_BOUND			2
#define PMC_TD_BE_BOUND			3
#define PMC_TD_HEAVY_OPS		4
#define PMC_TD_BR_MISPREDICT		5
#define PMC_TD_FETCH_LAT		6
#define PMC_TD_MEM_BOUND		7
#define PMC_TD_NR_METRICS		8
#define PMC_TD_NR_LEVEL1		4
#define PMC_TD_METRIC_BITS		8	/* width of each byte field */
#define PMC_TD_METRIC_MASK		0xffULL
#define PMC_TD_UMASK_BASE		0x80	/* event 0x00, umask 0x80 + k */
/* GLOBAL_CTRL-layout index a metric is reported at (counter out-field) */
#define PMC_TD_IDX_BASE			48
#define PMC_TD_SLOTS_FIXED		3	/* fixed counter of TOPDOWN.SLOTS */

/*
 * Slots of metric @idx given PERF_METRICS @metric and TOPDOWN.SLOTS @slots,
 * normalised by the sum of the level-1 fields (Linux 6.1's
 * icl_get_metrics_event_value(), arch/x86/events/intel/core.c).
 */
u64 pmc_td_metric_value(u64 metric, u64 slots, unsigned int idx);

/*
 * Fields of IA32_PERF_METRICS on this CPU: 0 without PERF_CAPABILITIES bit
 * 15 or without fixed counter 3; 8 on Sapphire Rapids and Emerald Rapids
 * (family 6, models 0x8F and 0xCF) and on the P-cores of Alder Lake and
 * Raptor Lake (0x97, 0x9A, 0xB7, 0xBA, 0xBF; their E-cores have neither),
 * 4 elsewhere, as Linux 6.1's intel_pmu_init() sets num_topdown_events.
 */
u32 pmc_td_metrics(u32 family, u32 model, u64 perf_capabilities, u32 fixed_mask);

/* ---- CPUID ------------------------------------------------------------ */
#define PMC_CPUID_LEAF_EXT_FEATURES	0x07
#define PMC_CPUID_LEAF_PERFMON		0x0a
#define PMC_CPUID_LEAF_HYBRID		0x1a
/* Leaf 23H, the perfmon extensions; CPUID.(07H,1):EAX[8] says it is there. */
#define PMC_CPUID_LEAF_PERFMON_EXT	0x23
#define PMC_CPUID_07_1_EAX_PERFMON_EXT	BIT(8)
/* Leaf 23H sub-leaf 0 EAX[1]: sub-leaf 1 holds the GP (EAX) and fixed (EBX) counter bitmaps. */
#define PMC_CPUID_23_EAX_CNTR_SUBLEAF	BIT(1)
#define PMC_CPUID_23_CNTR_SUBLEAF	1
/* CPUID.(07H,0):EDX[15]: a hybrid part (the kernel's X86_FEATURE_HYBRID_CPU) */
#define PMC_CPUID_07_EDX_HYBRID		BIT_ULL(15)
/* CPUID.1AH:EAX[31:24]: the core type of the CPU that executes CPUID */
#define PMC_CPUID_1A_EAX_CORE_TYPE_SHIFT	24
#define PMC_CPUID_1A_EAX_CORE_TYPE	GENMASK_ULL(31, 24)
#define PMC_CORE_TYPE_ATOM		0x20	/* an E-core */
#define PMC_CORE_TYPE_CORE		0x40	/* a P-core */
#define PMC_CPUID_01_ECX_PDCM		BIT_ULL(15)
#define PMC_CPUID_01_ECX_HYPERVISOR	BIT_ULL(31)
/* CPUID.0AH:EAX */
#define PMC_CPUID_0A_EAX_VERSION	GENMASK_ULL(7, 0)
#define PMC_CPUID_0A_EAX_NUM_GP_SHIFT	8
#define PMC_CPUID_0A_EAX_NUM_GP		GENMASK_ULL(15, 8)
#define PMC_CPUID_0A_EAX_GP_WIDTH_SHIFT	16
#define PMC_CPUID_0A_EAX_GP_WIDTH	GENMASK_ULL(23, 16)
#define PMC_CPUID_0A_EAX_EBX_LEN_SHIFT	24
#define PMC_CPUID_0A_EAX_EBX_LEN	GENMASK_ULL(31, 24)
/* CPUID.0AH:ECX (version 5 and later): bit c set = fixed counter c exists */
#define PMC_CPUID_0A_ECX_FIXED_BITMAP	GENMASK_ULL(31, 0)
/* CPUID.0AH:EDX */
#define PMC_CPUID_0A_EDX_NUM_FIXED	GENMASK_ULL(4, 0)
#define PMC_CPUID_0A_EDX_FIXED_WIDTH_SHIFT 5
#define PMC_CPUID_0A_EDX_FIXED_WIDTH	GENMASK_ULL(12, 5)
#define PMC_CPUID_0A_EDX_ANY_DEPRECATED	BIT_ULL(15)

/* Architectural events, by their bit in CPUID.0AH:EBX (set = unavailable). */
enum pmc_arch_event {
	PMC_ARCH_CORE_CYCLES		= 0,
	PMC_ARCH_INSTRUCTIONS		= 1,
	PMC_ARCH_REF_CYCLES		= 2,
	PMC_ARCH_LLC_REFERENCES		= 3,
	PMC_ARCH_LLC_MISSES		= 4,
	PMC_ARCH_BRANCHES		= 5,
	PMC_ARCH_BRANCH_MISSES		= 6,
	PMC_ARCH_TOPDOWN_SLOTS		= 7,
	PMC_ARCH_NR_EVENTS
};

struct pmc_arch_event_desc {
	const char *name;	/* perf's generic name */
	u8 event;		/* event select */
	u8 umask;
	s8 fixed;		/* fixed counter that counts it, or -1 */
};

extern const struct pmc_arch_event_desc pmc_arch_events[PMC_ARCH_NR_EVENTS];

/* Limits of the architecture: GLOBAL_CTRL has 32 GP bits and 16 fixed bits we use. */
#define PMC_MAX_GP			32
#define PMC_MAX_FIXED			16
#define PMC_MAX_WIDTH			64

struct pmc_cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

/* Decoded CPUID leaf 0AH. */
struct pmc_arch_perfmon {
	u32 version;		/* 0: no architectural perfmon */
	u32 num_gp;
	u32 gp_width;
	u32 num_fixed;
	u32 fixed_width;
	u32 events_len;		/* EBX vector length */
	u32 events_avail;	/* bit n set: pmc_arch_event n available */
	u32 fixed_mask;		/* bit i set: fixed counter i exists */
	bool any_deprecated;	/* EDX[15] */
	u32 td_metrics;		/* IA32_PERF_METRICS fields (4 or 8), 0: none (pmc_td_metrics) */
	bool hybrid;		/* core types differ: architectural events only */
	/*
	 * hybrid: each core type's GP counters where it has more than the
	 * common num_gp, [0] the P-cores' (cpu_core), [1] the E-cores'
	 * (cpu_atom); 0: num_gp (pmc_type_perfmon())
	 */
	u32 type_gp[2];
	/*
	 * hybrid: each core type's fixed counters beyond the common
	 * fixed_mask (a P-core's fixed counter 3, TOPDOWN.SLOTS), and its
	 * PERF_METRICS fields (pmc_td_metrics() of that type), [0] and [1]
	 * as type_gp; the common td_metrics of a hybrid part is 0
	 * (pmc_type_set_fixed(), pmc_type_perfmon())
	 */
	u32 type_fixed[2];
	u32 type_td[2];
};

/*
 * @pm as the CPUs of core type @core_type (PMC_CORE_TYPE_*) have it: their
 * own GP counters where known (pm->type_gp), the common subset otherwise.
 * pmc_type_set_gp() records @gp_mask (pmc_hybrid_type_counters()) as
 * @core_type's: its low contiguous counters, when more than num_gp.
 */
void pmc_type_perfmon(const struct pmc_arch_perfmon *pm, u32 core_type,
		      struct pmc_arch_perfmon *out);
void pmc_type_set_gp(struct pmc_arch_perfmon *pm, u32 core_type, u64 gp_mask);
/*
 * Records @fixed_mask (pmc_hybrid_type_counters()) and @td_metrics
 * (pmc_td_metrics() of a CPU of that type) as @core_type's: the fixed
 * counters beyond the common ones, and its topdown metrics.
 */
void pmc_type_set_fixed(struct pmc_arch_perfmon *pm, u32 core_type, u64 fixed_mask,
			u32 td_metrics);
/*
 * How many of @gp_mask's GP counters are usable: its low ones in a row
 * (IA32_PMC0 on), the rule of every user of a core type's counters (the
 * planning above, the module's reads and scrubs, the MSR fallback).
 */
u32 pmc_gp_in_a_row(u64 gp_mask);

/*
 * How often, in ms, the counters must be folded so that none can wrap twice
 * between two folds: half the wrap time of the narrowest counter at
 * 2^PMC_FOLD_RATE_SHIFT events per second (far above any core's rate),
 * clamped to 1..PMC_FOLD_PERIOD_MAX_MS.  0 when there are no counters.
 */
#define PMC_FOLD_RATE_SHIFT	36
#define PMC_FOLD_PERIOD_MAX_MS	60000U
u32 pmc_fold_period_ms(const struct pmc_arch_perfmon *pm);

/* Why pmc_decode_perfmon() refused a leaf. */
enum pmc_decode_err {
	PMC_DECODE_OK = 0,
	PMC_DECODE_NO_LEAF,		/* max basic leaf < 0AH */
	PMC_DECODE_NO_PMU,		/* version 0 */
	PMC_DECODE_TOO_MANY_GP,		/* more GP counters than GLOBAL_CTRL can enable */
	PMC_DECODE_BAD_GP_WIDTH,	/* GP counters with a width of 0 or over 64 */
	PMC_DECODE_TOO_MANY_FIXED,
	PMC_DECODE_BAD_FIXED_WIDTH,
};

int pmc_decode_perfmon(u32 max_basic_leaf, const struct pmc_cpuid_regs *leaf0a,
		       struct pmc_arch_perfmon *out, enum pmc_decode_err *why);
const char *pmc_decode_strerror(enum pmc_decode_err why);

/* Mask in GLOBAL_CTRL layout of the counters that exist. */
u64 pmc_counter_mask(const struct pmc_arch_perfmon *pm);

/*
 * Counters (GLOBAL_CTRL layout) that register values show as enabled:
 * EVTSELi.EN for i < num_gp (@evtsel has num_gp entries), and fixed counters
 * whose FIXED_CTR_CTRL field counts in any mode.
 */
u64 pmc_enabled_counters(const struct pmc_arch_perfmon *pm, const u64 *evtsel, u64 fixed_ctrl);

/*
 * Who has counters in use on one CPU (GLOBAL_CTRL layout), reading its
 * registers through @rd (0, or a negative errno when @msr cannot be read
 * into *@val): pmc_enabled_counters() of the EVTSELs and
 * FIXED_CTR_CTRL (a register that cannot be read counts as "not
 * enabled").  IA32_PERF_GLOBAL_INUSE (version 4 and later) is not part of
 * the answer: its GP bits mean "event select non-zero", true of a counter
 * perf disabled; *@inuse_read only says whether it could be read.  The one
 * scan for the module's INFO and claim, and for pmcctl info without the
 * module.
 */
u64 pmc_scan_in_use(const struct pmc_arch_perfmon *pm,
		    int (*rd)(void *ctx, u32 msr, u64 *val), void *ctx, bool *inuse_read);

/* Family/model/stepping per the SDM's "display" rules, from CPUID.01H:EAX. */
void pmc_decode_fms(u32 eax01, u32 *family, u32 *model, u32 *stepping);

/* The CPU as CPUID leaves 0, 1 and 0AH describe it. */
struct pmc_cpu_desc {
	u32 max_basic_leaf;
	u32 vendor;			/* enum pmcdrv_vendor (UAPI) */
	u32 vendor_id[4];		/* CPUID.0H string (EBX, EDX, ECX), NUL-padded */
	u32 family, model, stepping;
	bool hypervisor;		/* CPUID.01H:ECX[31] */
	bool pdcm;			/* IA32_PERF_CAPABILITIES exists (only with a PMU) */
	struct pmc_arch_perfmon pm;	/* zero when there is no usable perfmon */
	enum pmc_decode_err decode_err;
};

/*
 * Describe the CPU from raw leaves.  Leaf 0AH is Intel's architectural
 * perfmon: it is decoded on Intel CPUs only (callers may pass whatever
 * CPUID returned for it elsewhere).  Returns 0 when there is a usable
 * architectural perfmon, else -ENODEV or -EINVAL (why: desc->decode_err).
 */
int pmc_describe_cpu(const struct pmc_cpuid_regs *leaf0, const struct pmc_cpuid_regs *leaf1,
		     const struct pmc_cpuid_regs *leaf0a, struct pmc_cpu_desc *desc);

/*
 * The core type (PMC_CORE_TYPE_*, or another value CPUID.1AH gives) of the
 * CPU whose leaves 0, 07H and 1AH these are; 0 when the part is not hybrid
 * or has no leaf 1AH.
 */
u32 pmc_core_type(const struct pmc_cpuid_regs *leaf0, const struct pmc_cpuid_regs *leaf7,
		  const struct pmc_cpuid_regs *leaf1a);
/* "a P-core (Intel Core)", "an E-core (Intel Atom)", "a core of another type". */
const char *pmc_core_type_name(u32 type);
/* perf's PMU of a core type: "cpu_core", "cpu_atom"; "cpu_other" for another. */
const char *pmc_core_type_pmu(u32 type);

/* Where pmc_hybrid_type_counters() found a core type's counters. */
enum pmc_type_counters_from {
	PMC_TYPE_COUNTERS_LEAF_0A,	/* not known: leaf 0AH's common subset */
	PMC_TYPE_COUNTERS_LEAF_23,	/* leaf 23H sub-leaf 1's bitmaps */
	PMC_TYPE_COUNTERS_MODEL,	/* the Alder Lake and Raptor Lake model table */
};

/*
 * The GP and fixed counter bitmaps of core type @type (PMC_CORE_TYPE_*) of
 * hybrid part @d, from that type's CPU's leaves (07H sub-leaf 1, 23H
 * sub-leaves 0 and 1; zeros where absent), as Linux 6.12's intel_pmu_init()
 * and update_pmu_cap() find them.  Returns where they came from.
 */
enum pmc_type_counters_from pmc_hybrid_type_counters(const struct pmc_cpu_desc *d, u32 type,
						     const struct pmc_cpuid_regs *leaf7_1,
						     const struct pmc_cpuid_regs *leaf23_0,
						     const struct pmc_cpuid_regs *leaf23_1,
						     u64 *gp_mask, u64 *fixed_mask);

/*
 * Hybrid parts (X86_FEATURE_HYBRID_CPU, CPUID.(07H,0):EDX[15]) have core
 * types with different counters and event lists, and a task migrates
 * between them.  CPUID.0AH is the same on every core and reports what they
 * all have (Linux 6.1, intel_pmu_init(): "the leaf 0xa reports the common
 * subset" of a hybrid part's counters): with @hybrid, keep that, without
 * top-down metrics (PERF_METRICS is the P-core's alone), and mark @d's PMU
 * hybrid, so that only architectural events, which mean the same on every
 * core type, are counted (pmc_event_check()); a task's count is then one
 * exact sum over the core types it ran on.
 */
void pmc_hybrid_common(struct pmc_cpu_desc *d, bool hybrid);

/*
 * Fill the CPU-description part of an INFO reply from @desc: size,
 * api_version, vendor, family/model/stepping, counters, events, avail_mask
 * and the ARCH_PERFMON, HYPERVISOR and PDCM flags.  Everything else is zeroed.
 */
void pmc_info_from_desc(const struct pmc_cpu_desc *desc, struct pmcdrv_info *info);

/* The inverse for the counters: the perfmon an INFO reply describes. */
void pmc_perfmon_from_info(const struct pmcdrv_info *info, struct pmc_arch_perfmon *pm);

/* ---- Event specifications --------------------------------------------- */
/* The ABI's event flags are the logic's event flags. */
#define PMC_EVF_USER		PMCDRV_EVF_USER		/* count at CPL > 0 */
#define PMC_EVF_KERNEL		PMCDRV_EVF_KERNEL	/* count at CPL 0 */
#define PMC_EVF_EDGE		PMCDRV_EVF_EDGE
#define PMC_EVF_INV		PMCDRV_EVF_INV
#define PMC_EVF_NO_FIXED	PMCDRV_EVF_NO_FIXED	/* force a general-purpose counter */
#define PMC_EVF_ALL		(PMC_EVF_USER | PMC_EVF_KERNEL | PMC_EVF_EDGE | \
				 PMC_EVF_INV | PMC_EVF_NO_FIXED)

/* A hardware event as user space describes it: fields, never a raw EVTSEL. */
struct pmc_event_spec {
	u32 event;	/* event select, 0..0xff */
	u32 umask;	/* 0..0xff */
	u32 cmask;	/* counter mask, 0..0xff */
	u32 flags;	/* PMC_EVF_* */
	u32 core_type;	/* hybrid: counts on this core type only (PMC_CORE_TYPE_*); 0: on all */
};

enum pmc_event_err {
	PMC_EVENT_OK = 0,
	PMC_EVENT_BAD_EVENT,		/* event select > 0xff */
	PMC_EVENT_BAD_UMASK,		/* umask > 0xff */
	PMC_EVENT_BAD_CMASK,		/* cmask > 0xff */
	PMC_EVENT_BAD_FLAGS,		/* unknown flag bits */
	PMC_EVENT_NO_MODE,		/* neither user nor kernel */
	PMC_EVENT_INV_NEEDS_CMASK,	/* inv without cmask has no meaning */
	PMC_EVENT_NO_PMU,		/* CPU has no architectural perfmon */
	PMC_EVENT_ARCH_UNAVAILABLE,	/* architectural event marked unavailable */
	PMC_EVENT_BAD_TYPE,		/* type is neither HW nor SW */
	PMC_EVENT_BAD_SW_ID,		/* unknown software event */
	PMC_EVENT_SW_FIELDS,		/* hardware fields set on a software event */
	PMC_EVENT_RESERVED,		/* reserved field not zero */
	PMC_EVENT_FIXED_PSEUDO_BAD,	/* event 0x00 with umask not 1..4 */
	PMC_EVENT_FIXED_ONLY_MODIFIERS,	/* cmask/inv/edge/no-fixed on a fixed-only event */
	PMC_EVENT_NO_FIXED_COUNTER,	/* fixed-only event, its fixed counter does not exist */
	PMC_EVENT_NO_TD_METRIC,		/* topdown metric this CPU's PERF_METRICS lacks */
	PMC_EVENT_HYBRID_NOT_ARCH,	/* hybrid part: a model event without its core type */
	PMC_EVENT_BAD_CORE_TYPE,	/* core_type neither 0 nor a PMC_CORE_TYPE_* */
	PMC_EVENT_NOT_HYBRID,		/* core_type set on a CPU that is not hybrid */
};

int pmc_event_check(const struct pmc_event_spec *spec, const struct pmc_arch_perfmon *pm,
		    enum pmc_event_err *why);
const char *pmc_event_strerror(enum pmc_event_err why);

/* EVTSEL value for a checked spec: event, umask, USR/OS/E/INV/CMASK; never EN, INT, ANY, PC. */
u64 pmc_evtsel_encode(const struct pmc_event_spec *spec);

/*
 * Event select 0x00 is perf's and Intel's pseudo-encoding of the fixed
 * counters: umask n counts on fixed counter n-1 and on nothing else (0x0100
 * instructions, 0x0200 core cycles, 0x0300 ref-cycles at the TSC rate, 0x0400
 * topdown slots).  Such an event never goes to a GP counter, takes no
 * cmask/inv/edge/no-fixed, and is refused when its fixed counter is absent
 * or taken.  (GP 0x013C is a different event: reference cycles at the bus
 * clock, CPU_CLK_UNHALTED.REF_XCLK.)
 */
#define PMC_EVENT_FIXED_PSEUDO		0x00
/* Architectural event 2, UnHalted Reference Cycles at the bus clock (GP only). */
#define PMC_ARCH_REF_XCLK_EVENT		0x3c
#define PMC_ARCH_REF_XCLK_UMASK		0x01
#define PMC_FIXED_PSEUDO_MAX		4

/* Metric index (0..7) of a topdown metric spec (event 0x00, umask 0x80 + k), else -1. */
int pmc_event_td_metric(const struct pmc_event_spec *spec);
/* Is @spec topdown-slots (event 0x00, umask 0x04: fixed counter 3 only)? */
bool pmc_event_is_slots(const struct pmc_event_spec *spec);

/* Fixed counter of a fixed-only (event 0x00) spec when this CPU has it, else -1. */
int pmc_event_fixed_only(const struct pmc_event_spec *spec, const struct pmc_arch_perfmon *pm);

/* Index of the fixed counter that counts @spec exactly, or -1. */
int pmc_event_fixed_index(const struct pmc_event_spec *spec, const struct pmc_arch_perfmon *pm);

/* FIXED_CTR_CTRL field (unshifted) for a spec on a fixed counter: OS/USR only, never PMI/ANY. */
u64 pmc_fixed_ctrl_field(const struct pmc_event_spec *spec);

/* A struct pmcdrv_event from the ABI as a spec (hardware events only). */
void pmc_event_to_spec(const struct pmcdrv_event *ev, struct pmc_event_spec *spec);

/* Check one ABI event: type, software id, hardware fields, reserved. */
int pmc_uevent_check(const struct pmcdrv_event *ev, const struct pmc_arch_perfmon *pm,
		     enum pmc_event_err *why);

enum pmc_config_err {
	PMC_CONFIG_OK = 0,
	PMC_CONFIG_BAD_FLAGS,		/* unknown PMCDRV_CONFIG_* bits */
	PMC_CONFIG_RESERVED,		/* reserved field not zero */
	PMC_CONFIG_BAD_NR_EVENTS,	/* nr_events is 0 or over PMCDRV_MAX_EVENTS */
	PMC_CONFIG_UNUSED_NOT_ZERO,	/* an entry past nr_events is not zero */
	PMC_CONFIG_BAD_EVENT,		/* events[bad_index] is wrong: see event_err */
	PMC_CONFIG_NO_COUNTERS,		/* more hardware events than free counters */
	PMC_CONFIG_FIXED_BUSY,		/* events[bad_index] is fixed-only, its counter is taken */
	PMC_CONFIG_GROUP_TOO_BIG,	/* group of events[bad_index] does not fit */
	PMC_CONFIG_NO_EXTRA_REGS,	/* events[bad_index]: extra not supported */
	PMC_CONFIG_EXTRA_NO_REG,	/* events[bad_index]: extra on an event without one */
	PMC_CONFIG_EXTRA_RESERVED,	/* events[bad_index]: extra outside the valid mask */
	PMC_CONFIG_EXTRA_CONFLICT,	/* events[bad_index]: 2 values in a register, one group */
	PMC_CONFIG_BAD_MUX_INTERVAL,	/* mux_interval_ns out of bounds */
	PMC_CONFIG_TD_NEEDS_SLOTS,	/* events[bad_index]: metric without slots in its group */
};

struct pmc_config_verdict {
	enum pmc_config_err err;
	unsigned int bad_index;		/* PMC_CONFIG_BAD_EVENT, _UNUSED_NOT_ZERO */
	enum pmc_event_err event_err;	/* PMC_CONFIG_BAD_EVENT */
	bool has_hw;			/* some event needs the PMU */
	bool has_kernel;		/* some event counts kernel mode */
	bool mux;			/* the events take turns on the counters */
};

/*
 * Layout of a caller's struct pmcdrv_config: a 32-byte header, then events
 * of event_size bytes (0: PMCDRV_EVENT_SIZE_VER0).  event_size is at least
 * VER0, a multiple of 8 and at most PMC_EVENT_SIZE_MAX; the whole struct is
 * at least PMCDRV_CONFIG_SIZE_VER0 and at most PMC_CONFIG_SIZE_MAX bytes.
 * With event_size 0 the struct has the first layout's 16 entries; bytes
 * past them are a tail that must be zero, as before VER1.
 */
#define PMC_CONFIG_HDR_SIZE	32	/* offsetof(struct pmcdrv_config, events) */
#define PMC_EVENT_SIZE_MAX	512
#define PMC_CONFIG_SIZE_MAX	4096	/* a page, as for every struct */

/*
 * @stride: the caller's event size; @slots: entries of its events[].
 * Returns 0, -EINVAL (size below VER0, bad event_size) or -E2BIG (size
 * over PMC_CONFIG_SIZE_MAX).
 */
int pmc_config_layout(u32 size, u32 event_size, u32 *stride, u32 *slots);

/*
 * Check a whole configuration and assign counters: counter[i] receives the
 * GLOBAL_CTRL bit of hardware event i (~0 for software events).  @usable
 * is the set of counters that may be used.  Returns 0, -EINVAL, -ENODEV,
 * -EOPNOTSUPP (see pmc_event_check) or -ENOSPC; details in @v.
 * cfg->event_size is the transport's (pmc_config_layout): not checked.
 * Events with one non-zero group must fit the counters together (ENOSPC
 * otherwise).  When all the hardware events do not fit at once, v->mux is
 * set, 0 returned and counter[i] is ~0 for every event (pmc_mux_step()
 * places them).  The extra values are pmc_config_extra()'s.
 */
int pmc_config_check(const struct pmcdrv_config *cfg, const struct pmc_arch_perfmon *pm,
		     u64 usable, u32 *counter, struct pmc_config_verdict *v);
const char *pmc_config_strerror(const struct pmc_config_verdict *v);

/* ---- Extra registers ---------------------------------------------------- */
/*
 * Model-specific registers an event needs besides its EVTSEL: the offcore
 * response events' request/response MSRs.  Facts from Linux 6.1
 * arch/x86/events/intel/core.c (intel_snb_extra_regs, intel_snbep_extra_regs,
 * intel_skl_extra_regs and the models intel_pmu_init() gives them).
 */
#define PMC_EXTRA_REGS_MAX	2

struct pmc_extra_reg {
	const char *name;	/* the register's name */
	const char *event_name;	/* the event that uses it */
	u32 event, umask;	/* that event's encoding */
	u32 msr;
	u64 valid;		/* bits that may be set; the others #GP */
};

struct pmc_extra_model {
	const char *name;	/* microarchitecture */
	u32 family;
	const u8 *models;	/* display models, 0-terminated */
	struct pmc_extra_reg regs[PMC_EXTRA_REGS_MAX];
};

/* The table of @family/@model, NULL when pmcdrv knows none. */
const struct pmc_extra_model *pmc_extra_model_find(u32 family, u32 model);

/* What a session writes to the extra registers: slot i of @m's regs. */
struct pmc_extra_prog {
	u32 used;				/* bit i: regs[i] is programmed */
	u32 msr[PMC_EXTRA_REGS_MAX];
	u64 val[PMC_EXTRA_REGS_MAX];
};

/*
 * Check the extra values of @cfg's hardware events against @m (NULL: the
 * model has no table) and collect what to program in @xp.  An event whose
 * encoding has an extra register uses it, with its extra value (0 too).
 * Returns 0, -EOPNOTSUPP (an extra value, no table), -EINVAL (an extra
 * value on an event without an extra register, or bits outside the valid
 * mask) or -ENOSPC (two events of one group need different values in one
 * register); details in @v.  Two events of different units that need
 * different values set v->mux: they are scheduled apart (@xp then unused).
 */
int pmc_config_extra(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
		     struct pmc_extra_prog *xp, struct pmc_config_verdict *v);

/* ---- Multiplexing ------------------------------------------------------- */
/*
 * A multiplexing session's hardware events form scheduling units: the
 * events of one non-zero group, or a lone event, numbered in the order of
 * their first event.  Step @first of the rotation puts unit @first on the
 * counters, then each following unit (cyclically) that still fits with
 * those already placed: counters (pmc_assign_counters) and extra register
 * values.  Every unit fits alone (pmc_config_check, pmc_config_extra), so
 * every step is non-empty and unit @first is always in step @first.
 */
struct pmc_mux_work {
	/* pmc_mux_prepare(): the session's hardware events, in config order */
	unsigned int nhw, nr_units;
	u8 hwi[PMCDRV_MAX_EVENTS];		/* index among all the hardware events */
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	u8 unit[PMCDRV_MAX_EVENTS];
	s8 xreg[PMCDRV_MAX_EVENTS];		/* extra register slot, -1 for none */
	u64 xval[PMCDRV_MAX_EVENTS];
	/* pmc_mux_step(): the events on the counters, their specs and counters */
	unsigned int nr;
	u8 hw[PMCDRV_MAX_EVENTS];		/* index among all the hardware events */
	struct pmc_event_spec step_specs[PMCDRV_MAX_EVENTS];
	u32 idx[PMCDRV_MAX_EVENTS];
	struct pmc_extra_prog extra;
};

/* Fill @w's first part for a checked @cfg (extra registers of @m, may be NULL). */
void pmc_mux_prepare(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
		     struct pmc_mux_work *w);
/*
 * The same for the events that count on the CPUs of core type @core_type
 * of a hybrid part (those of no type, and of that type; @core_type 0:
 * those of no type alone), each core type's rotation of its own.  It may
 * hold no unit (w->nr_units 0: every event names another type).
 */
void pmc_mux_prepare_type(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
			  u32 core_type, struct pmc_mux_work *w);
/* Fill @w's step part for rotation step @first (< w->nr_units); returns w->nr. */
unsigned int pmc_mux_step(struct pmc_mux_work *w, const struct pmc_arch_perfmon *pm,
			  const struct pmc_extra_model *m, u64 usable, unsigned int first);

/* ---- Counter assignment ------------------------------------------------ */
/*
 * Assign @n specs to counters.  Fixed-capable specs take their fixed counter
 * when it is free in @usable (GLOBAL_CTRL layout), the rest take the lowest
 * free GP counter.  On success idx[i] is the GLOBAL_CTRL bit of spec i and 0
 * is returned; -EBUSY when a fixed-only (event 0x00) spec finds its fixed
 * counter taken (idx[i] of that spec is ~0), -ENOSPC when the counters run
 * out (idx[] then undefined).
 */
int pmc_assign_counters(const struct pmc_event_spec *specs, unsigned int n,
			const struct pmc_arch_perfmon *pm, u64 usable, u32 *idx);

/* ---- A session's register program ------------------------------------- */
/*
 * What the hardware layer writes to start a session's hardware events on a
 * CPU, and reads to fold them.  Built once per session from checked specs.
 */
struct pmc_prog {
	unsigned int nr;			/* hardware counters used */
	u32 idx[PMCDRV_MAX_EVENTS];		/* GLOBAL_CTRL bit of each */
	u32 ctr_msr[PMCDRV_MAX_EVENTS];		/* counter MSR (A_PMCx with FW_WRITE) */
	u32 sel_msr[PMCDRV_MAX_EVENTS];		/* PERFEVTSELx, 0 for fixed counters */
	u64 evtsel[PMCDRV_MAX_EVENTS];		/* EVTSEL value with EN, 0 for fixed */
	u8 width[PMCDRV_MAX_EVENTS];		/* counter width in bits */
	u64 fixed_ctrl;				/* our FIXED_CTR_CTRL fields, enabled */
	u64 fixed_ctrl_mask;			/* every bit of those fields */
	u64 global_mask;			/* our GLOBAL_CTRL bits */
	bool has_global;			/* version >= 2: GLOBAL_CTRL exists */
	struct pmc_extra_prog extra;		/* extra registers (pmc_config_extra) */
	u32 td_mask;				/* bit k: metric k, idx PMC_TD_IDX_BASE + k */
};

/* Build @p for @n specs assigned to counters @idx (from pmc_assign_counters). */
void pmc_prog_build(const struct pmc_event_spec *specs, const u32 *idx, unsigned int n,
		    const struct pmc_arch_perfmon *pm, bool fw_write, struct pmc_prog *p);

/*
 * May counters that run @from go on counting for @to, as they stand and
 * without a register write?  Yes when the two programs are the same,
 * counter for counter (event selects, fixed fields, extra registers), with
 * no topdown metric, and every counter counts in user mode only: none then
 * counts in the kernel between a fold of @from and the first count of @to.
 */
bool pmc_prog_handover(const struct pmc_prog *from, const struct pmc_prog *to);

/*
 * What programs take of a CPU's PMU, for two sessions that share one (a
 * CPU session and the task that runs there): the counters (GLOBAL_CTRL
 * bits, PERF_METRICS's included) and the extra registers.  pmc_prog_use()
 * adds @p's to @u (zeroed first by the caller); pmc_prog_use_overlap():
 * would the two, loaded together, write one register both?
 */
struct pmc_prog_use {
	u64 counters;				/* bit idx[i] of each program */
	unsigned int nr_extra;
	u32 extra_msr[2 * PMC_EXTRA_REGS_MAX];	/* distinct, in first-use order */
};

void pmc_prog_use(const struct pmc_prog *p, struct pmc_prog_use *u);
bool pmc_prog_use_overlap(const struct pmc_prog_use *a, const struct pmc_prog_use *b);

/*
 * The program of a session whose events name core types, as it runs on a
 * CPU of core type @core_type (PMC_CORE_TYPE_*; 0: a type no event names)
 * of a hybrid part: only the events that count there (naming no core type,
 * or @core_type), each on the counter @idx gave it (pmc_config_check():
 * events of two different types may share one), in the session's order;
 * @hw[k] is slot k's event among the session's @n hardware events.  @w is
 * scratch.  Returns how many events were left out.
 */
struct pmc_type_work {
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	u32 idx[PMCDRV_MAX_EVENTS];
};

unsigned int pmc_prog_for_core_type(const struct pmc_event_spec *specs, const u32 *idx,
				    unsigned int n, u32 core_type,
				    const struct pmc_arch_perfmon *pm, bool fw_write,
				    struct pmc_type_work *w, struct pmc_prog *out, u8 *hw);

/* ---- Counter arithmetic ------------------------------------------------ */
/* Increment of a @width-bit counter from @prev to @now, wrap-safe for any width 1..64. */
static inline u64 pmc_delta(u64 prev, u64 now, unsigned int width)
{
	unsigned int shift = 64 - width;

	return ((now << shift) - (prev << shift)) >> shift;
}

/*
 * A legacy IA32_PMCx write stores bits 31:0 sign-extended to the counter
 * width.  Returns true and the value to write when @val (a @width-bit counter
 * value) survives that; false when only a full-width write can load it.
 */
bool pmc_legacy_write_value(u64 val, unsigned int width, u64 *out);

#endif /* PMCDRV_PMU_H */
