// SPDX-License-Identifier: GPL-2.0
/*
 * Pure PMU logic shared by pmcdrv.ko and user space: CPUID decoding, event
 * validation and encoding, counter assignment.  No hardware access, no
 * allocation, no locking; compiled unchanged into the module, into libpmc
 * and into the unit tests (include/pmcdrv/shim.h provides the types).
 */
#include <pmcdrv/pmu.h>

const struct pmc_arch_event_desc pmc_arch_events[PMC_ARCH_NR_EVENTS] = {
	[PMC_ARCH_CORE_CYCLES]	  = { "cycles",		 0x3c, 0x00,  1 },
	[PMC_ARCH_INSTRUCTIONS]	  = { "instructions",	 0xc0, 0x00,  0 },
	/* perf's pseudo-encoding: fixed counter 2 only (GP 0x013C counts at the bus clock) */
	[PMC_ARCH_REF_CYCLES]	  = { "ref-cycles",	 0x00, 0x03,  2 },
	[PMC_ARCH_LLC_REFERENCES] = { "llc-references",	 0x2e, 0x4f, -1 },
	[PMC_ARCH_LLC_MISSES]	  = { "llc-misses",	 0x2e, 0x41, -1 },
	[PMC_ARCH_BRANCHES]	  = { "branches",	 0xc4, 0x00, -1 },
	[PMC_ARCH_BRANCH_MISSES]  = { "branch-misses",	 0xc5, 0x00, -1 },
	[PMC_ARCH_TOPDOWN_SLOTS]  = { "topdown-slots",	 0xa4, 0x01,  3 },
};

static u32 field(u32 reg, u64 mask, unsigned int shift)
{
	return (u32)((reg & mask) >> shift);
}

/* @pm->num_fixed raised to cover every fixed counter of fixed_mask (a bitmap may have gaps). */
static void pmc_fixed_cover_mask(struct pmc_arch_perfmon *pm)
{
	while (pm->num_fixed < PMC_MAX_FIXED && (pm->fixed_mask >> pm->num_fixed))
		pm->num_fixed++;
}

int pmc_decode_perfmon(u32 max_basic_leaf, const struct pmc_cpuid_regs *r,
		       struct pmc_arch_perfmon *out, enum pmc_decode_err *why)
{
	struct pmc_arch_perfmon pm;
	enum pmc_decode_err err = PMC_DECODE_OK;
	u32 len_mask;

	memset(&pm, 0, sizeof(pm));
	if (max_basic_leaf < PMC_CPUID_LEAF_PERFMON) {
		err = PMC_DECODE_NO_LEAF;
		goto out;
	}
	pm.version = field(r->eax, PMC_CPUID_0A_EAX_VERSION, 0);
	if (!pm.version) {
		err = PMC_DECODE_NO_PMU;
		goto out;
	}
	pm.num_gp = field(r->eax, PMC_CPUID_0A_EAX_NUM_GP, PMC_CPUID_0A_EAX_NUM_GP_SHIFT);
	pm.gp_width = field(r->eax, PMC_CPUID_0A_EAX_GP_WIDTH, PMC_CPUID_0A_EAX_GP_WIDTH_SHIFT);
	pm.events_len = field(r->eax, PMC_CPUID_0A_EAX_EBX_LEN, PMC_CPUID_0A_EAX_EBX_LEN_SHIFT);
	if (pm.num_gp > PMC_MAX_GP) {
		err = PMC_DECODE_TOO_MANY_GP;
		goto out;
	}
	if (pm.num_gp && (!pm.gp_width || pm.gp_width > PMC_MAX_WIDTH)) {
		err = PMC_DECODE_BAD_GP_WIDTH;
		goto out;
	}

	/* EBX bit n set means event n is NOT available; bits past the length are unknown. */
	len_mask = pm.events_len >= 32 ? ~0U : (1U << pm.events_len) - 1;
	pm.events_avail = ~r->ebx & len_mask;

	/* EDX is only defined from version 2; ECX (fixed counter bitmap) from version 5. */
	if (pm.version >= 2) {
		pm.num_fixed = field(r->edx, PMC_CPUID_0A_EDX_NUM_FIXED, 0);
		pm.fixed_width = field(r->edx, PMC_CPUID_0A_EDX_FIXED_WIDTH,
				       PMC_CPUID_0A_EDX_FIXED_WIDTH_SHIFT);
		pm.any_deprecated = !!(r->edx & PMC_CPUID_0A_EDX_ANY_DEPRECATED);
	}
	if (pm.num_fixed > PMC_MAX_FIXED) {
		err = PMC_DECODE_TOO_MANY_FIXED;
		goto out;
	}
	pm.fixed_mask = pm.num_fixed ? (1U << pm.num_fixed) - 1 : 0;
	if (pm.version >= 5) {
		/* Counters may be enumerated in ECX without being counted in EDX. */
		pm.fixed_mask |= (u32)(r->ecx & PMC_CPUID_0A_ECX_FIXED_BITMAP) &
				 ((1U << PMC_MAX_FIXED) - 1);
		pmc_fixed_cover_mask(&pm);
	}
	if (pm.num_fixed && (!pm.fixed_width || pm.fixed_width > PMC_MAX_WIDTH)) {
		err = PMC_DECODE_BAD_FIXED_WIDTH;
		goto out;
	}
out:
	if (err != PMC_DECODE_OK)
		memset(&pm, 0, sizeof(pm));
	*out = pm;
	if (why)
		*why = err;
	switch (err) {
	case PMC_DECODE_OK:
		return 0;
	case PMC_DECODE_NO_LEAF:
	case PMC_DECODE_NO_PMU:
		return -ENODEV;
	default:
		return -EINVAL;
	}
}

const char *pmc_decode_strerror(enum pmc_decode_err why)
{
	switch (why) {
	case PMC_DECODE_OK:
		return "ok";
	case PMC_DECODE_NO_LEAF:
		return "CPUID has no leaf 0AH (no architectural performance monitoring)";
	case PMC_DECODE_NO_PMU:
		return "CPUID.0AH reports version 0 (no PMU; usual in a VM without a virtual PMU)";
	case PMC_DECODE_TOO_MANY_GP:
		return "CPUID.0AH reports more GP counters than PERF_GLOBAL_CTRL can enable";
	case PMC_DECODE_BAD_GP_WIDTH:
		return "CPUID.0AH reports general-purpose counters of width 0 or over 64 bits";
	case PMC_DECODE_TOO_MANY_FIXED:
		return "CPUID.0AH reports more fixed counters than supported";
	case PMC_DECODE_BAD_FIXED_WIDTH:
		return "CPUID.0AH reports fixed counters of width 0 or over 64 bits";
	}
	return "unknown CPUID.0AH decoding error";
}

u64 pmc_counter_mask(const struct pmc_arch_perfmon *pm)
{
	u64 gp = pm->num_gp >= 64 ? ~0ULL : (1ULL << pm->num_gp) - 1;

	return gp | ((u64)pm->fixed_mask << PMC_GLOBAL_FIXED_SHIFT);
}

u64 pmc_enabled_counters(const struct pmc_arch_perfmon *pm, const u64 *evtsel, u64 fixed_ctrl)
{
	u64 mask = 0, f;
	unsigned int i;

	for (i = 0; i < pm->num_gp; i++) {
		if (evtsel[i] & PMC_EVTSEL_EN)
			mask |= BIT_ULL(i);
	}
	for (i = 0; i < PMC_MAX_FIXED; i++) {
		f = (fixed_ctrl >> (i * PMC_FIXED_CTRL_FIELD_BITS)) & PMC_FIXED_CTRL_FIELD;
		if ((pm->fixed_mask & (1U << i)) && (f & (PMC_FIXED_CTRL_OS | PMC_FIXED_CTRL_USR)))
			mask |= BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + i);
	}
	return mask;
}

u64 pmc_scan_in_use(const struct pmc_arch_perfmon *pm,
		    int (*rd)(void *ctx, u32 msr, u64 *val), void *ctx, bool *inuse_read)
{
	u64 evtsel[PMC_MAX_GP] = { 0 };
	u64 fixed_ctrl = 0, mask, v;
	unsigned int i;

	for (i = 0; i < pm->num_gp && i < PMC_MAX_GP; i++) {
		if (rd(ctx, PMC_MSR_PERFEVTSEL0 + i, &evtsel[i]))
			evtsel[i] = 0;
	}
	if (pm->fixed_mask && rd(ctx, PMC_MSR_FIXED_CTR_CTRL, &fixed_ctrl))
		fixed_ctrl = 0;
	mask = pmc_enabled_counters(pm, evtsel, fixed_ctrl);
	/*
	 * GLOBAL_INUSE's GP bits mean "event select non-zero" (SDM), and perf
	 * leaves the event code in place when it disables a counter: it says
	 * nothing of "enabled", and is information only.
	 */
	*inuse_read = pm->version >= 4 && !rd(ctx, PMC_MSR_PERF_GLOBAL_INUSE, &v);
	return mask;
}

void pmc_decode_fms(u32 eax, u32 *family, u32 *model, u32 *stepping)
{
	u32 fam = (eax >> 8) & 0xf;
	u32 mod = (eax >> 4) & 0xf;

	if (fam == 0xf)
		fam += (eax >> 20) & 0xff;
	if (fam >= 6)
		mod += ((eax >> 16) & 0xf) << 4;
	*family = fam;
	*model = mod;
	*stepping = eax & 0xf;
}

int pmc_describe_cpu(const struct pmc_cpuid_regs *l0, const struct pmc_cpuid_regs *l1,
		     const struct pmc_cpuid_regs *l0a, struct pmc_cpu_desc *d)
{
	static const struct {
		char id[13];
		u32 vendor;
	} vendors[] = {
		{ "GenuineIntel", PMCDRV_VENDOR_INTEL },
		{ "AuthenticAMD", PMCDRV_VENDOR_AMD },
		{ "HygonGenuine", PMCDRV_VENDOR_AMD },
	};
	static const struct pmc_cpuid_regs none;
	unsigned int i;
	int ret;

	memset(d, 0, sizeof(*d));
	d->max_basic_leaf = l0->eax;
	d->vendor_id[0] = l0->ebx;
	d->vendor_id[1] = l0->edx;
	d->vendor_id[2] = l0->ecx;
	d->vendor = PMCDRV_VENDOR_OTHER;
	for (i = 0; i < ARRAY_SIZE(vendors); i++) {
		if (!memcmp(d->vendor_id, vendors[i].id, 12))
			d->vendor = vendors[i].vendor;
	}
	pmc_decode_fms(l1->eax, &d->family, &d->model, &d->stepping);
	d->hypervisor = !!(l1->ecx & PMC_CPUID_01_ECX_HYPERVISOR);
	ret = pmc_decode_perfmon(d->max_basic_leaf,
				 d->vendor == PMCDRV_VENDOR_INTEL ? l0a : &none,
				 &d->pm, &d->decode_err);
	d->pdcm = !ret && (l1->ecx & PMC_CPUID_01_ECX_PDCM);
	return ret;
}

u32 pmc_core_type(const struct pmc_cpuid_regs *l0, const struct pmc_cpuid_regs *l7,
		  const struct pmc_cpuid_regs *l1a)
{
	if (l0->eax < PMC_CPUID_LEAF_HYBRID || !(l7->edx & PMC_CPUID_07_EDX_HYBRID))
		return 0;
	return (l1a->eax & PMC_CPUID_1A_EAX_CORE_TYPE) >> PMC_CPUID_1A_EAX_CORE_TYPE_SHIFT;
}

const char *pmc_core_type_name(u32 type)
{
	switch (type) {
	case PMC_CORE_TYPE_CORE:
		return "a P-core (Intel Core)";
	case PMC_CORE_TYPE_ATOM:
		return "an E-core (Intel Atom)";
	default:
		return "a core of another type";
	}
}

/*
 * Linux 6.12, arch/x86/events/intel/core.c: update_pmu_cap() takes leaf
 * 23H sub-leaf 1's bitmaps when sub-leaf 0 announces it (on CPUs with
 * X86_FEATURE_ARCH_PERFMON_EXT); else intel_pmu_init()'s case
 * INTEL_ALDERLAKE .. INTEL_RAPTORLAKE_S gives the big core leaf 0AH's
 * bitmaps shifted by two GP and one fixed counter (cntr_mask64 <<= 2, |= 0x3;
 * fixed_cntr_mask64 <<= 1, |= 0x1), put back to leaf 0AH's when that
 * makes more than 8 GP or 4 fixed counters (the E-cores disabled in the
 * BIOS: leaf 0AH already shows the P-core's), and the small core leaf
 * 0AH's (intel_pmu_init_grt() leaves them).
 */
enum pmc_type_counters_from pmc_hybrid_type_counters(const struct pmc_cpu_desc *d, u32 type,
						     const struct pmc_cpuid_regs *l7_1,
						     const struct pmc_cpuid_regs *l23_0,
						     const struct pmc_cpuid_regs *l23_1,
						     u64 *gp_mask, u64 *fixed_mask)
{
	static const u32 adl_models[] = { 0x97, 0x9a, 0xb7, 0xba, 0xbf };
	u64 gp = d->pm.num_gp >= 64 ? ~0ULL : (1ULL << d->pm.num_gp) - 1;
	u64 fixed = d->pm.fixed_mask;
	unsigned int i;

	*gp_mask = gp;
	*fixed_mask = fixed;
	if (d->max_basic_leaf >= PMC_CPUID_LEAF_PERFMON_EXT &&
	    (l7_1->eax & PMC_CPUID_07_1_EAX_PERFMON_EXT) &&
	    (l23_0->eax & PMC_CPUID_23_EAX_CNTR_SUBLEAF)) {
		*gp_mask = l23_1->eax;
		*fixed_mask = l23_1->ebx;
		return PMC_TYPE_COUNTERS_LEAF_23;
	}
	if (d->family != 6)
		return PMC_TYPE_COUNTERS_LEAF_0A;
	for (i = 0; i < ARRAY_SIZE(adl_models) && adl_models[i] != d->model; i++)
		;
	if (i == ARRAY_SIZE(adl_models))
		return PMC_TYPE_COUNTERS_LEAF_0A;
	if (type == PMC_CORE_TYPE_CORE) {
		gp = gp << 2 | 0x3;
		fixed = fixed << 1 | 0x1;
		if (hweight64(gp) <= 8 && hweight64(fixed) <= 4) {
			*gp_mask = gp;
			*fixed_mask = fixed;
		}
	}
	return PMC_TYPE_COUNTERS_MODEL;
}

static int pmc_type_slot(u32 core_type)
{
	if (core_type == PMC_CORE_TYPE_CORE)
		return 0;
	return core_type == PMC_CORE_TYPE_ATOM ? 1 : -1;
}

void pmc_type_perfmon(const struct pmc_arch_perfmon *pm, u32 core_type,
		      struct pmc_arch_perfmon *out)
{
	int k = pmc_type_slot(core_type);

	*out = *pm;
	if (k < 0)
		return;
	if (pm->type_gp[k] > pm->num_gp)
		out->num_gp = pm->type_gp[k];
	out->fixed_mask |= pm->type_fixed[k];
	pmc_fixed_cover_mask(out);
	if (pm->type_td[k])
		out->td_metrics = pm->type_td[k];
}

void pmc_type_set_fixed(struct pmc_arch_perfmon *pm, u32 core_type, u64 fixed_mask,
			u32 td_metrics)
{
	int k = pmc_type_slot(core_type);

	if (k < 0)
		return;
	pm->type_fixed[k] = (u32)fixed_mask & ~pm->fixed_mask &
			    (u32)((1ULL << PMC_MAX_FIXED) - 1);
	pm->type_td[k] = td_metrics;
}

u32 pmc_gp_in_a_row(u64 gp_mask)
{
	u32 n = 0;

	while (n < PMC_MAX_GP && (gp_mask & (1ULL << n)))
		n++;
	return n;
}

void pmc_type_set_gp(struct pmc_arch_perfmon *pm, u32 core_type, u64 gp_mask)
{
	int k = pmc_type_slot(core_type);
	u32 n = pmc_gp_in_a_row(gp_mask);

	if (k >= 0)
		pm->type_gp[k] = n > pm->num_gp ? n : 0;
}

const char *pmc_core_type_pmu(u32 type)
{
	switch (type) {
	case PMC_CORE_TYPE_CORE:
		return "cpu_core";
	case PMC_CORE_TYPE_ATOM:
		return "cpu_atom";
	default:
		return "cpu_other";
	}
}

void pmc_hybrid_common(struct pmc_cpu_desc *d, bool hybrid)
{
	d->pm.hybrid = hybrid;
	if (hybrid)
		d->pm.td_metrics = 0;
}

void pmc_info_from_desc(const struct pmc_cpu_desc *d, struct pmcdrv_info *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->api_version = PMCDRV_API_VERSION;
	if (d->pm.version)
		info->flags |= PMCDRV_INFO_ARCH_PERFMON;
	if (d->pm.hybrid)
		info->flags |= PMCDRV_INFO_HYBRID;
	if (d->hypervisor)
		info->flags |= PMCDRV_INFO_HYPERVISOR;
	if (d->pdcm)
		info->flags |= PMCDRV_INFO_PDCM;
	info->vendor = d->vendor;
	memcpy(info->vendor_id, d->vendor_id, sizeof(info->vendor_id));
	info->family = d->family;
	info->model = d->model;
	info->stepping = d->stepping;
	info->perfmon_version = d->pm.version;
	info->num_gp = d->pm.num_gp;
	info->gp_width = d->pm.gp_width;
	info->num_fixed = d->pm.num_fixed;
	info->fixed_width = d->pm.fixed_width;
	info->events_len = d->pm.events_len;
	info->events_avail = d->pm.events_avail;
	info->avail_mask = pmc_counter_mask(&d->pm);
}

void pmc_perfmon_from_info(const struct pmcdrv_info *info, struct pmc_arch_perfmon *pm)
{
	memset(pm, 0, sizeof(*pm));
	pm->version = info->perfmon_version;
	pm->num_gp = info->num_gp;
	pm->gp_width = info->gp_width;
	pm->num_fixed = info->num_fixed;
	pm->fixed_width = info->fixed_width;
	pm->events_len = info->events_len;
	pm->events_avail = info->events_avail;
	pm->fixed_mask = (u32)(info->avail_mask >> PMC_GLOBAL_FIXED_SHIFT);
	pm->hybrid = !!(info->flags & PMCDRV_INFO_HYBRID);
	if ((info->flags & PMCDRV_INFO_PDCM) && !pm->hybrid)
		pm->td_metrics = pmc_td_metrics(info->family, info->model,
						info->perf_capabilities, pm->fixed_mask);
}

/*
 * Is @s one of the architectural events (CPUID.0AH:EBX's list, Intel SDM
 * Vol. 3B 20.2.1.2) or the pseudo-encoding of fixed counter 0..2, with no
 * cmask, inv or edge that would change its meaning?
 */
static bool pmc_event_architectural(const struct pmc_event_spec *s)
{
	unsigned int i;

	if (s->cmask || (s->flags & (PMC_EVF_EDGE | PMC_EVF_INV)))
		return false;
	if (s->event == PMC_EVENT_FIXED_PSEUDO)
		return s->umask >= 1 && s->umask <= 3;
	/* UnHalted Reference Cycles, architectural event 2 (perf's bus-cycles) */
	if (s->event == PMC_ARCH_REF_XCLK_EVENT && s->umask == PMC_ARCH_REF_XCLK_UMASK)
		return true;
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
		if (pmc_arch_events[i].event == s->event && pmc_arch_events[i].umask == s->umask)
			return true;
	}
	return false;
}

/* An event's core type: 0 (every type), or one CPUID.1AH names (Atom, Core). */
static bool pmc_core_type_valid(u32 core_type)
{
	return !core_type || core_type == PMC_CORE_TYPE_ATOM || core_type == PMC_CORE_TYPE_CORE;
}

int pmc_event_check(const struct pmc_event_spec *s, const struct pmc_arch_perfmon *pm,
		    enum pmc_event_err *why)
{
	enum pmc_event_err err = PMC_EVENT_OK;
	unsigned int i;

	if (s->event > 0xff)
		err = PMC_EVENT_BAD_EVENT;
	else if (s->umask > 0xff)
		err = PMC_EVENT_BAD_UMASK;
	else if (s->cmask > 0xff)
		err = PMC_EVENT_BAD_CMASK;
	else if (s->flags & ~(u32)PMC_EVF_ALL)
		err = PMC_EVENT_BAD_FLAGS;
	else if (!(s->flags & (PMC_EVF_USER | PMC_EVF_KERNEL)))
		err = PMC_EVENT_NO_MODE;
	else if ((s->flags & PMC_EVF_INV) && !s->cmask)
		err = PMC_EVENT_INV_NEEDS_CMASK;
	else if (!pm->version || !(pm->num_gp || pm->num_fixed))
		err = PMC_EVENT_NO_PMU;
	else if (pmc_event_td_metric(s) >= 0 &&
		 (s->cmask || (s->flags & (PMC_EVF_EDGE | PMC_EVF_INV | PMC_EVF_NO_FIXED))))
		err = PMC_EVENT_FIXED_ONLY_MODIFIERS;
	else if (pmc_event_td_metric(s) >= 0 && (u32)pmc_event_td_metric(s) >= pm->td_metrics)
		err = PMC_EVENT_NO_TD_METRIC;
	else if (pmc_event_td_metric(s) >= 0)
		;	/* a topdown metric: PERF_METRICS x fixed counter 3 */
	else if (s->event == PMC_EVENT_FIXED_PSEUDO &&
		 (s->umask < 1 || s->umask > PMC_FIXED_PSEUDO_MAX))
		err = PMC_EVENT_FIXED_PSEUDO_BAD;
	else if (s->event == PMC_EVENT_FIXED_PSEUDO &&
		 (s->cmask || (s->flags & (PMC_EVF_EDGE | PMC_EVF_INV | PMC_EVF_NO_FIXED))))
		err = PMC_EVENT_FIXED_ONLY_MODIFIERS;

	/* An architectural event the CPU marks unavailable is refused by name. */
	for (i = 0; err == PMC_EVENT_OK && i < PMC_ARCH_NR_EVENTS; i++) {
		if (pmc_arch_events[i].event == s->event &&
		    pmc_arch_events[i].umask == s->umask &&
		    i < pm->events_len && !(pm->events_avail & (1U << i)))
			err = PMC_EVENT_ARCH_UNAVAILABLE;
	}
	/* Fixed-only pseudo-encoding: its fixed counter must exist, its arch event be available. */
	if (err == PMC_EVENT_OK && s->event == PMC_EVENT_FIXED_PSEUDO &&
	    pmc_event_td_metric(s) < 0) {
		for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
			if (pmc_arch_events[i].fixed == (int)s->umask - 1 &&
			    i < pm->events_len && !(pm->events_avail & (1U << i)))
				err = PMC_EVENT_ARCH_UNAVAILABLE;
		}
		if (err == PMC_EVENT_OK && !(pm->fixed_mask & (1U << (s->umask - 1))))
			err = PMC_EVENT_NO_FIXED_COUNTER;
	}
	/*
	 * A hybrid part counts an event on every core type only when it means
	 * the same on each (an architectural one); a model event names the
	 * core type it is of.
	 */
	if (err == PMC_EVENT_OK && !pmc_core_type_valid(s->core_type))
		err = PMC_EVENT_BAD_CORE_TYPE;
	if (err == PMC_EVENT_OK && s->core_type && !pm->hybrid)
		err = PMC_EVENT_NOT_HYBRID;
	if (err == PMC_EVENT_OK && pm->hybrid && !s->core_type && !pmc_event_architectural(s))
		err = PMC_EVENT_HYBRID_NOT_ARCH;
	if (why)
		*why = err;
	switch (err) {
	case PMC_EVENT_OK:
		return 0;
	case PMC_EVENT_NO_PMU:
		return -ENODEV;
	case PMC_EVENT_ARCH_UNAVAILABLE:
	case PMC_EVENT_NO_FIXED_COUNTER:
	case PMC_EVENT_NO_TD_METRIC:
	case PMC_EVENT_HYBRID_NOT_ARCH:
	case PMC_EVENT_NOT_HYBRID:
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

const char *pmc_event_strerror(enum pmc_event_err why)
{
	switch (why) {
	case PMC_EVENT_OK:
		return "ok";
	case PMC_EVENT_BAD_EVENT:
		return "event select must be 0x00..0xff";
	case PMC_EVENT_BAD_UMASK:
		return "umask must be 0x00..0xff";
	case PMC_EVENT_BAD_CMASK:
		return "cmask must be 0..255";
	case PMC_EVENT_BAD_FLAGS:
		return "unknown event flags";
	case PMC_EVENT_NO_MODE:
		return "event counts in neither user nor kernel mode (use :u, :k or :uk)";
	case PMC_EVENT_INV_NEEDS_CMASK:
		return "inv needs a non-zero cmask";
	case PMC_EVENT_NO_PMU:
		return "this CPU has no architectural performance counters";
	case PMC_EVENT_ARCH_UNAVAILABLE:
		return "CPUID.0AH marks this architectural event unavailable on this CPU";
	case PMC_EVENT_BAD_TYPE:
		return "event type must be hardware or software";
	case PMC_EVENT_BAD_SW_ID:
		return "unknown software event";
	case PMC_EVENT_SW_FIELDS:
		return "a software event takes no event/umask/cmask/flags/extra";
	case PMC_EVENT_RESERVED:
		return "reserved event field is not zero";
	case PMC_EVENT_FIXED_PSEUDO_BAD:
		return "event 0x00 is fixed counters only: umask 1..4 = fixed counter 0..3";
	case PMC_EVENT_FIXED_ONLY_MODIFIERS:
		return "fixed-only event (ref-cycles) takes no cmask/inv/edge/no-fixed; GP: r013c";
	case PMC_EVENT_NO_FIXED_COUNTER:
		return "no such fixed counter (ref-cycles: GP r013c; slots: a P-core's: cpu_core/)";
	case PMC_EVENT_NO_TD_METRIC:
		return "no such topdown metric (no PERF_METRICS, level 1 only; hybrid: cpu_core/)";
	case PMC_EVENT_HYBRID_NOT_ARCH:
		return "hybrid CPU: a model event names its core type (cpu_core/EV/, cpu_atom/EV/)";
	case PMC_EVENT_BAD_CORE_TYPE:
		return "core type must be 0 (every type), 0x20 (cpu_atom) or 0x40 (cpu_core)";
	case PMC_EVENT_NOT_HYBRID:
		return "this CPU is not hybrid: it has no core types (drop cpu_core/ or cpu_atom/)";
	}
	return "unknown event error";
}

void pmc_event_to_spec(const struct pmcdrv_event *ev, struct pmc_event_spec *spec)
{
	spec->event = ev->event;
	spec->umask = ev->umask;
	spec->cmask = ev->cmask;
	spec->flags = ev->flags;
	spec->core_type = ev->core_type;
}

int pmc_uevent_check(const struct pmcdrv_event *ev, const struct pmc_arch_perfmon *pm,
		     enum pmc_event_err *why)
{
	struct pmc_event_spec spec;
	struct pmc_arch_perfmon tpm;
	enum pmc_event_err err = PMC_EVENT_OK;

	if (ev->reserved1) {
		err = PMC_EVENT_RESERVED;
	} else if (!pmc_core_type_valid(ev->core_type)) {
		err = PMC_EVENT_BAD_CORE_TYPE;
	} else if (ev->type == PMCDRV_EVENT_SW) {
		if (ev->flags || ev->event || ev->umask || ev->cmask || ev->extra || ev->core_type)
			err = PMC_EVENT_SW_FIELDS;
		else if (ev->sw_id < PMCDRV_SW_TASK_CLOCK || ev->sw_id > PMCDRV_SW_CPU_MIGRATIONS)
			err = PMC_EVENT_BAD_SW_ID;
	} else if (ev->type == PMCDRV_EVENT_HW) {
		if (ev->sw_id) {
			err = PMC_EVENT_RESERVED;
		} else {
			pmc_event_to_spec(ev, &spec);
			/* an event of one core type: as that type's CPUs have the PMU */
			pmc_type_perfmon(pm, ev->core_type, &tpm);
			return pmc_event_check(&spec, &tpm, why);
		}
	} else {
		err = PMC_EVENT_BAD_TYPE;
	}
	if (why)
		*why = err;
	return err == PMC_EVENT_OK ? 0 : -EINVAL;
}

int pmc_config_layout(u32 size, u32 event_size, u32 *stride, u32 *slots)
{
	u32 es = event_size ? event_size : PMCDRV_EVENT_SIZE_VER0;

	if (size < PMCDRV_CONFIG_SIZE_VER0 || es < PMCDRV_EVENT_SIZE_VER0 ||
	    es > PMC_EVENT_SIZE_MAX || es % 8)
		return -EINVAL;
	if (size > PMC_CONFIG_SIZE_MAX)
		return -E2BIG;
	*stride = es;
	*slots = (size - PMC_CONFIG_HDR_SIZE) / es;
	/* The first layout has 16 entries: anything past them is a zero tail. */
	if (!event_size && *slots > PMCDRV_MAX_EVENTS_VER0)
		*slots = PMCDRV_MAX_EVENTS_VER0;
	return 0;
}

/*
 * Every group of @cfg (events with one non-zero group) alone on the
 * counters of @usable, with @idx (PMCDRV_MAX_EVENTS entries) as scratch.
 * Returns the index of the first event of a group that does not fit, or -1.
 */
static int pmc_config_bad_group(const struct pmcdrv_config *cfg, const struct pmc_arch_perfmon *pm,
				u64 usable, u32 *idx)
{
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	struct pmc_arch_perfmon tpm;
	unsigned int i, j, n;
	u32 g, type;

	for (i = 0; i < cfg->nr_events; i++) {
		g = cfg->events[i].group;
		if (!g)
			continue;
		/* Each group once: from its first event. */
		for (j = 0; j < i && cfg->events[j].group != g; j++)
			;
		if (j < i)
			continue;
		for (j = i, n = 0; j < cfg->nr_events; j++) {
			if (cfg->events[j].group == g && cfg->events[j].type == PMCDRV_EVENT_HW)
				pmc_event_to_spec(&cfg->events[j], &specs[n++]);
		}
		/* a group of one core type's events: on that type's counters */
		for (j = 1, type = n ? specs[0].core_type : 0; j < n; j++) {
			if (specs[j].core_type != type)
				type = 0;
		}
		pmc_type_perfmon(pm, type, &tpm);
		if (pmc_assign_counters(specs, n, &tpm, usable, idx))
			return (int)i;
	}
	return -1;
}

/*
 * A topdown metric is PERF_METRICS x fixed counter 3: it counts only with
 * topdown-slots (event 0x00 umask 0x04) in its group, which must be non-zero
 * (so that the pair is one unit when the session multiplexes), with the
 * same user/kernel modes.  Index of the first metric without one, or -1.
 */
static int pmc_config_bad_td(const struct pmcdrv_config *cfg)
{
	const u32 modes = PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL;
	struct pmc_event_spec s;
	unsigned int i, j;
	bool ok;

	for (i = 0; i < cfg->nr_events; i++) {
		const struct pmcdrv_event *m = &cfg->events[i];

		if (m->type != PMCDRV_EVENT_HW)
			continue;
		pmc_event_to_spec(m, &s);
		if (pmc_event_td_metric(&s) < 0)
			continue;
		for (j = 0, ok = false; j < cfg->nr_events && !ok; j++) {
			const struct pmcdrv_event *e = &cfg->events[j];

			ok = m->group && e->type == PMCDRV_EVENT_HW && e->group == m->group &&
			     e->event == PMC_EVENT_FIXED_PSEUDO &&
			     e->umask == PMC_TD_SLOTS_FIXED + 1 && e->core_type == m->core_type &&
			     (e->flags & modes) == (m->flags & modes);
		}
		if (!ok)
			return (int)i;
	}
	return -1;
}

/*
 * A hybrid part's events when together they are more than its counters:
 * a CPU counts only the events of its own core type and those of none, so
 * the events of no type take their counters first (the same on every
 * type, of the common subset), then each type's events the counters left
 * and those only its CPUs have (pm->type_gp), where an event of each type
 * may share one.  @specs is reordered; @counter gets each spec's
 * counter in the order given.  0, or -ENOSPC when a type's do not fit.
 * Not inlined: its arrays would join pmc_config_check()'s frame, over the
 * kernel's 1024 bytes with KASAN (the debug lane builds with -Werror).
 */
static pmc_noinline int pmc_assign_typed(struct pmc_event_spec *specs, unsigned int n,
					 const struct pmc_arch_perfmon *pm, u64 usable,
					 u32 *counter)
{
	static const u32 types[] = { 0, PMC_CORE_TYPE_ATOM, PMC_CORE_TYPE_CORE };
	struct pmc_arch_perfmon tpm;
	struct pmc_event_spec sw;
	u32 got[PMCDRV_MAX_EVENTS];
	u8 order[PMCDRV_MAX_EVENTS], o;
	unsigned int i, k, start, end = 0;
	u64 left = usable;

	for (i = 0; i < n; i++)
		order[i] = (u8)i;
	for (k = 0; k < ARRAY_SIZE(types); k++) {
		start = end;
		for (i = start; i < n; i++) {
			if (specs[i].core_type != types[k])
				continue;
			sw = specs[i];
			specs[i] = specs[end];
			specs[end] = sw;
			o = order[i];
			order[i] = order[end];
			order[end++] = o;
		}
		if (end == start)
			continue;
		/* a type's events also take the counters only its CPUs have */
		pmc_type_perfmon(pm, types[k], &tpm);
		if (pmc_assign_counters(specs + start, end - start, &tpm,
					k ? left | (usable & ~pmc_counter_mask(pm)) : usable,
					got + start))
			return -ENOSPC;
		for (i = start; !k && i < end; i++)
			left &= ~(1ULL << got[i]);
	}
	if (end != n)
		return -ENOSPC;		/* never: pmc_uevent_check() knows only these types */
	for (i = 0; i < n; i++)
		counter[order[i]] = got[i];
	return 0;
}

int pmc_config_check(const struct pmcdrv_config *cfg, const struct pmc_arch_perfmon *pm,
		     u64 usable, u32 *counter, struct pmc_config_verdict *v)
{
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	static const struct pmcdrv_event zero;
	unsigned int i, nhw = 0;
	int ret;

	memset(v, 0, sizeof(*v));
	if (cfg->flags & ~PMCDRV_CONFIG_NO_INHERIT) {
		v->err = PMC_CONFIG_BAD_FLAGS;
		return -EINVAL;
	}
	if (cfg->reserved[0]) {
		v->err = PMC_CONFIG_RESERVED;
		return -EINVAL;
	}
	if (cfg->mux_interval_ns && (cfg->mux_interval_ns < PMCDRV_MUX_INTERVAL_MIN_NS ||
				     cfg->mux_interval_ns > PMCDRV_MUX_INTERVAL_MAX_NS)) {
		v->err = PMC_CONFIG_BAD_MUX_INTERVAL;
		return -EINVAL;
	}
	if (!cfg->nr_events || cfg->nr_events > PMCDRV_MAX_EVENTS) {
		v->err = PMC_CONFIG_BAD_NR_EVENTS;
		return -EINVAL;
	}
	for (i = cfg->nr_events; i < PMCDRV_MAX_EVENTS; i++) {
		if (memcmp(&cfg->events[i], &zero, sizeof(zero))) {
			v->err = PMC_CONFIG_UNUSED_NOT_ZERO;
			v->bad_index = i;
			return -EINVAL;
		}
	}
	for (i = 0; i < cfg->nr_events; i++) {
		const struct pmcdrv_event *ev = &cfg->events[i];

		ret = pmc_uevent_check(ev, pm, &v->event_err);
		if (ret) {
			v->err = PMC_CONFIG_BAD_EVENT;
			v->bad_index = i;
			return ret;
		}
		counter[i] = ~0U;
		if (ev->type != PMCDRV_EVENT_HW)
			continue;
		v->has_hw = true;
		if (ev->flags & PMCDRV_EVF_KERNEL)
			v->has_kernel = true;
		pmc_event_to_spec(ev, &specs[nhw++]);
	}
	ret = pmc_config_bad_td(cfg);
	if (ret >= 0) {
		v->err = PMC_CONFIG_TD_NEEDS_SLOTS;
		v->bad_index = (unsigned int)ret;
		return -EINVAL;
	}
	/* counter[] is its scratch (not an array of its own: the kernel's stack), reset after. */
	ret = pmc_config_bad_group(cfg, pm, usable, counter);
	if (ret >= 0) {
		for (i = 0; i < cfg->nr_events; i++)
			counter[i] = ~0U;
		v->err = PMC_CONFIG_GROUP_TOO_BIG;
		v->bad_index = (unsigned int)ret;
		return -ENOSPC;
	}
	/*
	 * Every group fits alone, and a fixed-only event alone always finds
	 * its counter: what does not fit at once takes turns (pmc_mux_step);
	 * on a hybrid part, what fits each core type's CPUs does not.
	 */
	if (pmc_assign_counters(specs, nhw, pm, usable, counter) &&
	    (!pm->hybrid || pmc_assign_typed(specs, nhw, pm, usable, counter))) {
		for (i = 0; i < cfg->nr_events; i++)
			counter[i] = ~0U;
		/* each core type of a hybrid part: turns of its own (pmc_mux_prepare_type()) */
		v->mux = true;
		return 0;
	}
	/*
	 * counter[] holds the hardware events' counters in their order (no
	 * array of its own: the kernel's stack); spread to the events' own
	 * indices from the last, where the k-th hardware event is event i >= k.
	 */
	for (i = cfg->nr_events; i-- > 0;)
		counter[i] = cfg->events[i].type == PMCDRV_EVENT_HW ? counter[--nhw] : ~0U;
	return 0;
}

const char *pmc_config_strerror(const struct pmc_config_verdict *v)
{
	switch (v->err) {
	case PMC_CONFIG_OK:
		return "ok";
	case PMC_CONFIG_BAD_FLAGS:
		return "unknown configuration flags";
	case PMC_CONFIG_RESERVED:
		return "reserved configuration field is not zero";
	case PMC_CONFIG_BAD_NR_EVENTS:
		return "number of events must be 1..32 (1..16 in the first layout)";
	case PMC_CONFIG_UNUSED_NOT_ZERO:
		return "an event slot past nr_events is not zero";
	case PMC_CONFIG_BAD_EVENT:
		return pmc_event_strerror(v->event_err);
	case PMC_CONFIG_NO_COUNTERS:
		return "more hardware events than counters";
	case PMC_CONFIG_FIXED_BUSY:
		return "its fixed counter is taken (ref-cycles: fixed counter 2 only); GP: r013c";
	case PMC_CONFIG_GROUP_TOO_BIG:
		return "its group has more hardware events than counters; split the group";
	case PMC_CONFIG_NO_EXTRA_REGS:
		return "pmcdrv knows no extra registers (offcore response) of this CPU model";
	case PMC_CONFIG_EXTRA_NO_REG:
		return "an extra value on an event without an extra register; drop it";
	case PMC_CONFIG_EXTRA_RESERVED:
		return "extra value has bits outside the register's valid mask";
	case PMC_CONFIG_EXTRA_CONFLICT:
		return "two events of one group need different values in one extra register";
	case PMC_CONFIG_BAD_MUX_INTERVAL:
		return "mux_interval_ns must be 0 (default) or 1 ms..1 s";
	case PMC_CONFIG_TD_NEEDS_SLOTS:
		return "a topdown metric needs topdown-slots in its group, with the same modes";
	}
	return "unknown configuration error";
}

u64 pmc_evtsel_encode(const struct pmc_event_spec *s)
{
	u64 v = (s->event & PMC_EVTSEL_EVENT) |
		(((u64)s->umask << PMC_EVTSEL_UMASK_SHIFT) & PMC_EVTSEL_UMASK) |
		(((u64)s->cmask << PMC_EVTSEL_CMASK_SHIFT) & PMC_EVTSEL_CMASK);

	if (s->flags & PMC_EVF_USER)
		v |= PMC_EVTSEL_USR;
	if (s->flags & PMC_EVF_KERNEL)
		v |= PMC_EVTSEL_OS;
	if (s->flags & PMC_EVF_EDGE)
		v |= PMC_EVTSEL_EDGE;
	if (s->flags & PMC_EVF_INV)
		v |= PMC_EVTSEL_INV;
	return v;
}

int pmc_event_fixed_index(const struct pmc_event_spec *s, const struct pmc_arch_perfmon *pm)
{
	unsigned int i;

	if (s->event == PMC_EVENT_FIXED_PSEUDO)
		return pmc_event_fixed_only(s, pm);
	/* Fixed counters filter only by mode: anything else needs a GP counter. */
	if (s->cmask || (s->flags & (PMC_EVF_EDGE | PMC_EVF_INV | PMC_EVF_NO_FIXED)))
		return -1;
	for (i = 0; i < PMC_ARCH_NR_EVENTS; i++) {
		const struct pmc_arch_event_desc *d = &pmc_arch_events[i];

		if (d->fixed < 0 || d->event != s->event || d->umask != s->umask)
			continue;
		if (pm->fixed_mask & (1U << d->fixed))
			return d->fixed;
	}
	return -1;
}

int pmc_event_fixed_only(const struct pmc_event_spec *s, const struct pmc_arch_perfmon *pm)
{
	if (s->event != PMC_EVENT_FIXED_PSEUDO || s->umask < 1 || s->umask > PMC_FIXED_PSEUDO_MAX)
		return -1;
	return (pm->fixed_mask & (1U << (s->umask - 1))) ? (int)s->umask - 1 : -1;
}

u64 pmc_fixed_ctrl_field(const struct pmc_event_spec *s)
{
	u64 f = 0;

	if (s->flags & PMC_EVF_KERNEL)
		f |= PMC_FIXED_CTRL_OS;
	if (s->flags & PMC_EVF_USER)
		f |= PMC_FIXED_CTRL_USR;
	return f;
}

int pmc_assign_counters(const struct pmc_event_spec *specs, unsigned int n,
			const struct pmc_arch_perfmon *pm, u64 usable, u32 *idx)
{
	u64 free = usable & pmc_counter_mask(pm);
	unsigned int i, gp;
	int fx;

	/* Fixed counters first, so a GP counter is never spent on a fixed-capable event. */
	for (i = 0; i < n; i++) {
		idx[i] = ~0U;
		if (pmc_event_td_metric(&specs[i]) >= 0) {
			/* no counter of its own: read from PERF_METRICS */
			idx[i] = PMC_TD_IDX_BASE + pmc_event_td_metric(&specs[i]);
			continue;
		}
		fx = pmc_event_fixed_index(&specs[i], pm);
		if (fx >= 0 && (free & BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + fx))) {
			idx[i] = PMC_GLOBAL_FIXED_SHIFT + fx;
			free &= ~BIT_ULL(idx[i]);
		} else if (specs[i].event == PMC_EVENT_FIXED_PSEUDO) {
			return -EBUSY;	/* fixed-only: never a GP counter */
		}
	}
	for (i = 0; i < n; i++) {
		if (idx[i] != ~0U)
			continue;
		for (gp = 0; gp < pm->num_gp; gp++) {
			if (free & BIT_ULL(gp))
				break;
		}
		if (gp == pm->num_gp)
			return -ENOSPC;
		idx[i] = gp;
		free &= ~BIT_ULL(gp);
	}
	return 0;
}

void pmc_prog_build(const struct pmc_event_spec *specs, const u32 *idx, unsigned int n,
		    const struct pmc_arch_perfmon *pm, bool fw_write, struct pmc_prog *p)
{
	unsigned int i, fx, shift;

	memset(p, 0, sizeof(*p));
	p->has_global = pm->version >= 2;
	for (i = 0; i < n && i < PMCDRV_MAX_EVENTS; i++) {
		p->idx[i] = idx[i];
		if (idx[i] >= PMC_TD_IDX_BASE) {
			/* a topdown metric: PERF_METRICS on (GLOBAL_CTRL bit 48) */
			p->global_mask |= PMC_GLOBAL_PERF_METRICS;
			p->td_mask |= 1U << (idx[i] - PMC_TD_IDX_BASE);
			p->width[i] = 64;	/* a sum of slots folded by the module */
			continue;
		}
		p->global_mask |= BIT_ULL(idx[i]);
		if (idx[i] >= PMC_GLOBAL_FIXED_SHIFT) {
			fx = idx[i] - PMC_GLOBAL_FIXED_SHIFT;
			shift = fx * PMC_FIXED_CTRL_FIELD_BITS;
			p->ctr_msr[i] = PMC_MSR_FIXED_CTR0 + fx;
			p->width[i] = pm->fixed_width;
			p->fixed_ctrl |= pmc_fixed_ctrl_field(&specs[i]) << shift;
			p->fixed_ctrl_mask |= PMC_FIXED_CTRL_FIELD << shift;
		} else {
			p->ctr_msr[i] = (fw_write ? PMC_MSR_A_PMC0 : PMC_MSR_PMC0) + idx[i];
			p->sel_msr[i] = PMC_MSR_PERFEVTSEL0 + idx[i];
			p->evtsel[i] = pmc_evtsel_encode(&specs[i]) | PMC_EVTSEL_EN;
			p->width[i] = pm->gp_width;
		}
	}
	p->nr = i;
}

unsigned int pmc_prog_for_core_type(const struct pmc_event_spec *specs, const u32 *idx,
				    unsigned int n, u32 core_type,
				    const struct pmc_arch_perfmon *pm, bool fw_write,
				    struct pmc_type_work *w, struct pmc_prog *out, u8 *hw)
{
	unsigned int i, k = 0;

	for (i = 0; i < n && i < PMCDRV_MAX_EVENTS; i++) {
		if (specs[i].core_type && specs[i].core_type != core_type)
			continue;
		w->specs[k] = specs[i];
		w->idx[k] = idx[i];
		hw[k++] = (u8)i;
	}
	pmc_prog_build(w->specs, w->idx, k, pm, fw_write, out);
	return n - k;
}

bool pmc_prog_handover(const struct pmc_prog *from, const struct pmc_prog *to)
{
	u64 fixed_os = 0;
	unsigned int i;

	if (from->nr != to->nr || from->td_mask || to->td_mask ||
	    from->global_mask != to->global_mask || from->has_global != to->has_global ||
	    from->fixed_ctrl != to->fixed_ctrl || from->fixed_ctrl_mask != to->fixed_ctrl_mask ||
	    from->extra.used != to->extra.used)
		return false;
	for (i = 0; i < PMC_MAX_FIXED; i++)
		fixed_os |= PMC_FIXED_CTRL_OS << (i * PMC_FIXED_CTRL_FIELD_BITS);
	if (from->fixed_ctrl & fixed_os)
		return false;
	for (i = 0; i < from->nr; i++) {
		if (from->idx[i] != to->idx[i] || from->ctr_msr[i] != to->ctr_msr[i] ||
		    from->sel_msr[i] != to->sel_msr[i] || from->evtsel[i] != to->evtsel[i] ||
		    from->width[i] != to->width[i] || (from->evtsel[i] & PMC_EVTSEL_OS))
			return false;
	}
	for (i = 0; i < PMC_EXTRA_REGS_MAX; i++) {
		if (!(from->extra.used & (1U << i)))
			continue;
		if (from->extra.msr[i] != to->extra.msr[i] ||
		    from->extra.val[i] != to->extra.val[i])
			return false;
	}
	return true;
}

void pmc_prog_use(const struct pmc_prog *p, struct pmc_prog_use *u)
{
	unsigned int i, k;

	/*
	 * GLOBAL_CTRL's bits (a topdown metric's is PERF_METRICS's), and each
	 * counter written: a core type's program writes counters it keeps
	 * disabled (pmc_prog_for_core_type()).
	 */
	u->counters |= p->global_mask;
	for (i = 0; i < p->nr; i++) {
		if (p->idx[i] < PMC_TD_IDX_BASE)
			u->counters |= 1ULL << p->idx[i];
	}
	for (i = 0; i < PMC_EXTRA_REGS_MAX; i++) {
		if (!(p->extra.used & (1U << i)))
			continue;
		for (k = 0; k < u->nr_extra && u->extra_msr[k] != p->extra.msr[i]; k++)
			;
		if (k == u->nr_extra && k < ARRAY_SIZE(u->extra_msr))
			u->extra_msr[u->nr_extra++] = p->extra.msr[i];
	}
}

bool pmc_prog_use_overlap(const struct pmc_prog_use *a, const struct pmc_prog_use *b)
{
	unsigned int i, k;

	if (a->counters & b->counters)
		return true;
	for (i = 0; i < a->nr_extra; i++) {
		for (k = 0; k < b->nr_extra; k++) {
			if (a->extra_msr[i] == b->extra_msr[k])
				return true;
		}
	}
	return false;
}

bool pmc_legacy_write_value(u64 val, unsigned int width, u64 *out)
{
	u64 mask = width >= 64 ? ~0ULL : (1ULL << width) - 1;
	u64 ext;

	val &= mask;
	/* Sign-extend bit 31 of the low half up to the counter width. */
	ext = (val & BIT_ULL(31)) ? (val | ~0xffffffffULL) & mask : val & 0xffffffffULL;
	if (ext != val)
		return false;
	*out = val & 0xffffffffULL;
	return true;
}

/*
 * Line by line Linux 6.1's icl_get_metrics_event_value()
 * (arch/x86/events/intel/core.c), with @idx the metric's byte (there:
 * event->hw.idx - INTEL_PMC_IDX_METRIC_BASE).  perf stat then shows each
 * level-1 metric as its share of the sum of the four.
 */
u64 pmc_td_metric_value(u64 metric, u64 slots, unsigned int idx)
{
	u32 val;

	/*
	 * The metric is reported as an 8bit integer fraction
	 * summing up to 0xff.
	 * slots-in-metric = (Metric / 0xff) * slots
	 */
	val = (metric >> (idx * 8)) & 0xff;
	return  mul_u64_u32_div(slots, val, 0xff);
}

u32 pmc_td_metrics(u32 family, u32 model, u64 perf_capabilities, u32 fixed_mask)
{
	/* intel_pmu_init(): SAPPHIRERAPIDS_X, EMERALDRAPIDS_X; ALDERLAKE(_L), RAPTORLAKE(_P, _S) */
	static const u32 level2[] = { 0x8f, 0xcf, 0x97, 0x9a, 0xb7, 0xba, 0xbf };
	unsigned int i;

	if (!(perf_capabilities & PMC_PERF_CAP_PERF_METRICS) ||
	    !(fixed_mask & (1U << PMC_TD_SLOTS_FIXED)))
		return 0;
	for (i = 0; family == 6 && i < ARRAY_SIZE(level2); i++) {
		if (model == level2[i])
			return PMC_TD_NR_METRICS;
	}
	return PMC_TD_NR_LEVEL1;
}

bool pmc_event_is_slots(const struct pmc_event_spec *s)
{
	return s->event == PMC_EVENT_FIXED_PSEUDO && s->umask == PMC_TD_SLOTS_FIXED + 1;
}

int pmc_event_td_metric(const struct pmc_event_spec *s)
{
	if (s->event != PMC_EVENT_FIXED_PSEUDO || s->umask < PMC_TD_UMASK_BASE ||
	    s->umask >= PMC_TD_UMASK_BASE + PMC_TD_NR_METRICS)
		return -1;
	return (int)(s->umask - PMC_TD_UMASK_BASE);
}

u32 pmc_fold_period_ms(const struct pmc_arch_perfmon *pm)
{
	const unsigned int e = PMC_FOLD_RATE_SHIFT + 1;	/* 2^(w - e) s = half the wrap time */
	unsigned int w = pm->gp_width;
	u32 ms;

	if (!pm->version || (!pm->num_gp && !pm->num_fixed))
		return 0;
	if (!pm->num_gp || (pm->num_fixed && pm->fixed_width < w))
		w = pm->fixed_width;
	if (w >= e + 6)
		ms = PMC_FOLD_PERIOD_MAX_MS;	/* 2^6 s is past the maximum */
	else if (w >= e)
		ms = 1000U << (w - e);
	else
		ms = w + 10 > e ? 1000U >> (e - w) : 0;
	if (ms < 1)
		return 1;
	return ms > PMC_FOLD_PERIOD_MAX_MS ? PMC_FOLD_PERIOD_MAX_MS : ms;
}

/* Sandy Bridge and Ivy Bridge clients: intel_snb_extra_regs. */
static const u8 pmc_snb_models[] = { 0x2a, 0x3a, 0 };
/* SNB-EP, IVB-EP, Haswell, Broadwell: intel_snbep_extra_regs. */
static const u8 pmc_snbep_models[] = { 0x2d, 0x3e, 0x3c, 0x3f, 0x45, 0x46,
				       0x3d, 0x47, 0x4f, 0x56, 0 };
/* Skylake, Skylake-X, Kaby Lake, Coffee Lake, Comet Lake: intel_skl_extra_regs. */
static const u8 pmc_skl_models[] = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0 };

/* Valid bits of MSR_OFFCORE_RSP_0/1: intel_snb_extra_regs, intel_snbep/skl_extra_regs. */
#define PMC_OFFCORE_VALID_SNB		0x3f807f8fffULL
#define PMC_OFFCORE_VALID_SNBEP		0x3fffff8fffULL

#define PMC_OFFCORE_RSP_0(valid)					\
	{ "MSR_OFFCORE_RSP_0", "OFFCORE_RESPONSE_0", 0xb7, 0x01,	\
	  PMC_MSR_OFFCORE_RSP_0, valid }
#define PMC_OFFCORE_RSP_1(valid)					\
	{ "MSR_OFFCORE_RSP_1", "OFFCORE_RESPONSE_1", 0xbb, 0x01,	\
	  PMC_MSR_OFFCORE_RSP_1, valid }

static const struct pmc_extra_model pmc_extra_models[] = {
	{ "sandybridge", 6, pmc_snb_models,
	  { PMC_OFFCORE_RSP_0(PMC_OFFCORE_VALID_SNB), PMC_OFFCORE_RSP_1(PMC_OFFCORE_VALID_SNB) } },
	{ "sandybridge-ep/haswell/broadwell", 6, pmc_snbep_models,
	  { PMC_OFFCORE_RSP_0(PMC_OFFCORE_VALID_SNBEP),
	    PMC_OFFCORE_RSP_1(PMC_OFFCORE_VALID_SNBEP) } },
	{ "skylake", 6, pmc_skl_models,
	  { PMC_OFFCORE_RSP_0(PMC_OFFCORE_VALID_SNBEP),
	    PMC_OFFCORE_RSP_1(PMC_OFFCORE_VALID_SNBEP) } },
};

const struct pmc_extra_model *pmc_extra_model_find(u32 family, u32 model)
{
	const struct pmc_extra_model *m;
	const u8 *p;

	for (m = pmc_extra_models; m < pmc_extra_models + ARRAY_SIZE(pmc_extra_models); m++) {
		if (m->family != family)
			continue;
		for (p = m->models; *p; p++) {
			if (*p == model)
				return m;
		}
	}
	return NULL;
}

static int pmc_extra_verdict(struct pmc_config_verdict *v, enum pmc_config_err err,
			     unsigned int i, int ret)
{
	v->err = err;
	v->bad_index = i;
	return ret;
}

/* The extra register slot of @ev in @m, -1 for none. */
static int pmc_extra_slot(const struct pmcdrv_event *ev, const struct pmc_extra_model *m)
{
	unsigned int k;

	for (k = 0; m && ev->type == PMCDRV_EVENT_HW && k < PMC_EXTRA_REGS_MAX; k++) {
		if (m->regs[k].msr && m->regs[k].event == ev->event &&
		    m->regs[k].umask == ev->umask)
			return (int)k;
	}
	return -1;
}

/* Does an earlier event of events[@i]'s group need another value in register @k? */
static bool pmc_extra_group_conflict(const struct pmcdrv_config *cfg,
				     const struct pmc_extra_model *m, unsigned int i,
				     unsigned int k)
{
	const struct pmcdrv_event *ev = &cfg->events[i], *o;
	unsigned int j;

	for (j = 0; ev->group && j < i; j++) {
		o = &cfg->events[j];
		if (o->group == ev->group && o->extra != ev->extra &&
		    pmc_extra_slot(o, m) == (int)k)
			return true;
	}
	return false;
}

int pmc_config_extra(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
		     struct pmc_extra_prog *xp, struct pmc_config_verdict *v)
{
	const struct pmcdrv_event *ev;
	const struct pmc_extra_reg *r;
	unsigned int i, k;

	/* @v keeps what pmc_config_check() found (has_hw...): only an error is added. */
	memset(xp, 0, sizeof(*xp));
	for (i = 0; i < cfg->nr_events && i < PMCDRV_MAX_EVENTS; i++) {
		ev = &cfg->events[i];
		if (ev->type != PMCDRV_EVENT_HW)
			continue;
		if (!m) {
			if (ev->extra)
				return pmc_extra_verdict(v, PMC_CONFIG_NO_EXTRA_REGS, i,
							 -EOPNOTSUPP);
			continue;
		}
		for (k = 0; k < PMC_EXTRA_REGS_MAX; k++) {
			r = &m->regs[k];
			if (r->msr && r->event == ev->event && r->umask == ev->umask)
				break;
		}
		if (k == PMC_EXTRA_REGS_MAX) {
			if (ev->extra)
				return pmc_extra_verdict(v, PMC_CONFIG_EXTRA_NO_REG, i, -EINVAL);
			continue;
		}
		if (ev->extra & ~r->valid)
			return pmc_extra_verdict(v, PMC_CONFIG_EXTRA_RESERVED, i, -EINVAL);
		if ((xp->used & (1U << k)) && xp->val[k] != ev->extra) {
			if (pmc_extra_group_conflict(cfg, m, i, k))
				return pmc_extra_verdict(v, PMC_CONFIG_EXTRA_CONFLICT, i, -ENOSPC);
			/* other units: scheduled apart */
			v->mux = true;
			continue;
		}
		xp->used |= 1U << k;
		xp->msr[k] = r->msr;
		xp->val[k] = ev->extra;
	}
	return 0;
}

/*
 * The hardware events of @cfg that take turns, into @w: with @all every
 * one, otherwise those that count on core type @core_type (those of no
 * type and of that type; @core_type 0: of no type alone).
 */
static void pmc_mux_prepare_some(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
				 bool all, u32 core_type, struct pmc_mux_work *w)
{
	const struct pmcdrv_event *ev;
	u32 group[PMCDRV_MAX_EVENTS];	/* of each event taken */
	unsigned int i, j, h, nhw = 0;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < cfg->nr_events && i < PMCDRV_MAX_EVENTS; i++) {
		ev = &cfg->events[i];
		if (ev->type != PMCDRV_EVENT_HW)
			continue;
		if (!all && ev->core_type && ev->core_type != core_type) {
			nhw++;
			continue;
		}
		h = w->nhw++;
		w->hwi[h] = (u8)nhw++;
		pmc_event_to_spec(ev, &w->specs[h]);
		w->xreg[h] = (s8)pmc_extra_slot(ev, m);
		w->xval[h] = ev->extra;
		group[h] = ev->group;
		/* A group's unit is its first event's. */
		for (j = 0; ev->group && j < h; j++) {
			if (group[j] == ev->group)
				break;
		}
		if (ev->group && j < h)
			w->unit[h] = w->unit[j];
		else
			w->unit[h] = (u8)w->nr_units++;
	}
}

void pmc_mux_prepare(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
		     struct pmc_mux_work *w)
{
	pmc_mux_prepare_some(cfg, m, true, 0, w);
}

void pmc_mux_prepare_type(const struct pmcdrv_config *cfg, const struct pmc_extra_model *m,
			  u32 core_type, struct pmc_mux_work *w)
{
	pmc_mux_prepare_some(cfg, m, false, core_type, w);
}

/* Can unit @u join what @w holds: extra values, then counters (into w->idx)? */
static bool pmc_mux_try_unit(struct pmc_mux_work *w, const struct pmc_arch_perfmon *pm,
			     const struct pmc_extra_model *m, u64 usable, unsigned int u)
{
	struct pmc_extra_prog xp = w->extra;
	unsigned int h, n = w->nr;
	u32 idx[PMCDRV_MAX_EVENTS];
	int k;

	for (h = 0; h < w->nhw; h++) {
		if (w->unit[h] != u)
			continue;
		k = w->xreg[h];
		if (k >= 0) {
			if ((xp.used & (1U << k)) && xp.val[k] != w->xval[h])
				return false;
			xp.used |= 1U << k;
			xp.msr[k] = m->regs[k].msr;
			xp.val[k] = w->xval[h];
		}
		w->step_specs[n] = w->specs[h];
		w->hw[n++] = w->hwi[h];
	}
	if (pmc_assign_counters(w->step_specs, n, pm, usable, idx))
		return false;
	memcpy(w->idx, idx, n * sizeof(idx[0]));
	w->nr = n;
	w->extra = xp;
	return true;
}

unsigned int pmc_mux_step(struct pmc_mux_work *w, const struct pmc_arch_perfmon *pm,
			  const struct pmc_extra_model *m, u64 usable, unsigned int first)
{
	unsigned int i;

	w->nr = 0;
	memset(&w->extra, 0, sizeof(w->extra));
	for (i = 0; i < w->nr_units; i++)
		pmc_mux_try_unit(w, pm, m, usable, (first + i) % w->nr_units);
	return w->nr;
}
