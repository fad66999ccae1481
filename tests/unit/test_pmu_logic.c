// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the shared pure logic (common/pmu_logic.c, compiled here
 * unchanged) and of pmcctl's output helpers, run under ASan+UBSan.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmcdrv/pmu.h>
#include "output.h"
#include "unit.h"

/* ---- CPUID leaf 0AH decoding, vectors from real CPUs and bad leaves ---- */

struct leaf_vec {
	const char *what;
	u32 max_leaf;
	struct pmc_cpuid_regs r;
	int ret;
	enum pmc_decode_err err;
	u32 version, num_gp, gp_width, num_fixed, fixed_width, events_avail, fixed_mask;
	bool any_deprecated;
};

static const struct leaf_vec leaf_vecs[] = {
	{ "Skylake client, HT on", 0x16, { 0x07300404, 0x00000000, 0, 0x00000603 }, 0, PMC_DECODE_OK,
	  4, 4, 48, 3, 48, 0x7f, 0x7, false },
	{ "Skylake client, HT off", 0x16, { 0x07300804, 0x00000000, 0, 0x00000603 }, 0, PMC_DECODE_OK,
	  4, 8, 48, 3, 48, 0x7f, 0x7, false },
	{ "Core 2 (v2, 40-bit)", 0x0d, { 0x07280202, 0x00000000, 0, 0x00000503 }, 0, PMC_DECODE_OK,
	  2, 2, 40, 3, 40, 0x7f, 0x7, false },
	{ "Ice Lake server (v5, 4 fixed, AnyThread deprecated)", 0x1b,
	  { 0x08300805, 0x00000000, 0x0000000f, 0x00008604 }, 0, PMC_DECODE_OK,
	  5, 8, 48, 4, 48, 0xff, 0xf, true },
	{ "v5 with a hole in the fixed bitmap", 0x1b, { 0x08300405, 0, 0x0000000b, 0x00000600 }, 0,
	  PMC_DECODE_OK, 5, 4, 48, 4, 48, 0xff, 0xb, false },
	{ "v1: EDX ignored", 0x0a, { 0x07280201, 0, 0, 0xffffffff }, 0, PMC_DECODE_OK,
	  1, 2, 40, 0, 0, 0x7f, 0, false },
	{ "events marked unavailable", 0x16, { 0x07300404, 0x00000044, 0, 0x00000603 }, 0,
	  PMC_DECODE_OK, 4, 4, 48, 3, 48, 0x3b, 0x7, false },
	{ "short event vector", 0x16, { 0x03300404, 0x00000000, 0, 0x00000603 }, 0, PMC_DECODE_OK,
	  4, 4, 48, 3, 48, 0x07, 0x7, false },
	{ "stock QEMU TCG: all zero", 0x0d, { 0, 0, 0, 0 }, -ENODEV, PMC_DECODE_NO_PMU },
	{ "max basic leaf below 0AH", 0x07, { 0x07300404, 0, 0, 0x603 }, -ENODEV, PMC_DECODE_NO_LEAF },
	{ "33 GP counters", 0x16, { 0x07302104, 0, 0, 0x603 }, -EINVAL, PMC_DECODE_TOO_MANY_GP },
	{ "GP width 0", 0x16, { 0x07000404, 0, 0, 0x603 }, -EINVAL, PMC_DECODE_BAD_GP_WIDTH },
	{ "GP width 65", 0x16, { 0x07410404, 0, 0, 0x603 }, -EINVAL, PMC_DECODE_BAD_GP_WIDTH },
	{ "fixed width 0", 0x16, { 0x07300404, 0, 0, 0x00000003 }, -EINVAL, PMC_DECODE_BAD_FIXED_WIDTH },
	{ "fixed width 255", 0x16, { 0x07300404, 0, 0, 0x00001fe3 }, -EINVAL, PMC_DECODE_BAD_FIXED_WIDTH },
	{ "17 fixed counters", 0x16, { 0x07300404, 0, 0, 0x00000611 }, -EINVAL, PMC_DECODE_TOO_MANY_FIXED },
	{ "no GP counters, width 0 is fine", 0x16, { 0x07000004, 0, 0, 0x603 }, 0, PMC_DECODE_OK,
	  4, 0, 0, 3, 48, 0x7f, 0x7, false },
};

static void test_decode_vectors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(leaf_vecs); i++) {
		const struct leaf_vec *v = &leaf_vecs[i];
		struct pmc_arch_perfmon pm;
		enum pmc_decode_err err = PMC_DECODE_OK;
		int ret;

		memset(&pm, 0x5a, sizeof(pm));
		ret = pmc_decode_perfmon(v->max_leaf, &v->r, &pm, &err);
		if (ret != v->ret || err != v->err)
			fprintf(stderr, "\n  %s: ret %d err %d, want %d %d\n", v->what, ret, err,
				v->ret, v->err);
		CU_ASSERT_EQUAL(ret, v->ret);
		CU_ASSERT_EQUAL(err, v->err);
		CU_ASSERT_STRING_NOT_EQUAL(pmc_decode_strerror(err), "unknown CPUID.0AH decoding error");
		if (ret) {
			/* A refused leaf decodes to "no PMU", never to half-filled data. */
			CU_ASSERT_EQUAL(pm.version, 0);
			CU_ASSERT_EQUAL(pm.num_gp, 0);
			CU_ASSERT_EQUAL(pm.num_fixed, 0);
			CU_ASSERT_EQUAL(pmc_counter_mask(&pm), 0);
			continue;
		}
		if (pm.num_gp != v->num_gp || pm.num_fixed != v->num_fixed ||
		    pm.events_avail != v->events_avail || pm.fixed_mask != v->fixed_mask)
			fprintf(stderr, "\n  %s: gp %u fixed %u avail 0x%x fmask 0x%x\n", v->what,
				pm.num_gp, pm.num_fixed, pm.events_avail, pm.fixed_mask);
		CU_ASSERT_EQUAL(pm.version, v->version);
		CU_ASSERT_EQUAL(pm.num_gp, v->num_gp);
		CU_ASSERT_EQUAL(pm.gp_width, v->gp_width);
		CU_ASSERT_EQUAL(pm.num_fixed, v->num_fixed);
		CU_ASSERT_EQUAL(pm.fixed_width, v->fixed_width);
		CU_ASSERT_EQUAL(pm.events_avail, v->events_avail);
		CU_ASSERT_EQUAL(pm.fixed_mask, v->fixed_mask);
		CU_ASSERT_EQUAL(pm.any_deprecated, v->any_deprecated);
	}
}

static void test_counter_mask(void)
{
	struct pmc_arch_perfmon pm = { .version = 4, .num_gp = 4, .fixed_mask = 0x7 };

	CU_ASSERT_EQUAL(pmc_counter_mask(&pm), 0x70000000fULL);
	pm.num_gp = 32;
	pm.fixed_mask = 0xb;
	CU_ASSERT_EQUAL(pmc_counter_mask(&pm), 0xbffffffffULL);
}

static void test_fms(void)
{
	u32 f, m, s;

	pmc_decode_fms(0x000506e3, &f, &m, &s);	/* Skylake client */
	CU_ASSERT(f == 6 && m == 0x5e && s == 3);
	pmc_decode_fms(0x00a20f10, &f, &m, &s);	/* Zen 3: family 0xf + 0xa */
	CU_ASSERT(f == 0x19 && m == 0x21 && s == 0);
	pmc_decode_fms(0x00000f29, &f, &m, &s);	/* NetBurst: family 15, no ext model */
	CU_ASSERT(f == 15 && m == 2 && s == 9);
	pmc_decode_fms(0x00000543, &f, &m, &s);	/* Pentium: family 5, ext model ignored */
	CU_ASSERT(f == 5 && m == 4 && s == 3);
}

/* "GenuineIntel" / "AuthenticAMD" as CPUID.0H returns them (EBX, EDX, ECX). */
static const struct pmc_cpuid_regs intel_l0 = { 0x16, 0x756e6547, 0x6c65746e, 0x49656e69 };
static const struct pmc_cpuid_regs amd_l0 = { 0x10, 0x68747541, 0x444d4163, 0x69746e65 };

/* CPUID.1AH's core type, only on a hybrid part (CPUID.(07H,0):EDX[15]) with leaf 1AH. */
static void test_core_type(void)
{
	const struct pmc_cpuid_regs hybrid = { .edx = 1U << 15 }, plain = { .edx = ~(1U << 15) };
	const struct pmc_cpuid_regs pcore = { .eax = 0x40000001 }, ecore = { .eax = 0x20000001 };
	const struct pmc_cpuid_regs l0 = { 0x20, 0x756e6547, 0x6c65746e, 0x49656e69 };
	const struct pmc_cpuid_regs low = { 0x19, 0x756e6547, 0x6c65746e, 0x49656e69 };

	CU_ASSERT_EQUAL(pmc_core_type(&l0, &hybrid, &pcore), PMC_CORE_TYPE_CORE);
	CU_ASSERT_EQUAL(pmc_core_type(&l0, &hybrid, &ecore), PMC_CORE_TYPE_ATOM);
	CU_ASSERT_EQUAL(pmc_core_type(&l0, &plain, &pcore), 0);
	CU_ASSERT_EQUAL(pmc_core_type(&low, &hybrid, &pcore), 0);
	CU_ASSERT_STRING_EQUAL(pmc_core_type_name(PMC_CORE_TYPE_CORE), "a P-core (Intel Core)");
	CU_ASSERT_STRING_EQUAL(pmc_core_type_name(PMC_CORE_TYPE_ATOM), "an E-core (Intel Atom)");
	CU_ASSERT_STRING_EQUAL(pmc_core_type_name(0x10), "a core of another type");
}

/*
 * A core type's own counters, as Linux 6.12 finds them: leaf 23H's bitmaps
 * where announced, else the Alder Lake/Raptor Lake table (the P-core two GP
 * and one fixed counter beyond leaf 0AH's, unless that makes more than 8 or
 * 4), else leaf 0AH's.
 */
static void test_hybrid_type_counters(void)
{
	/* An i9-13900K's leaf 0AH (Raptor Lake S, model 0xb7): 6 GP, fixed 0x7. */
	const struct pmc_cpuid_regs l0a = { 0x07300605, 0, 0x7, 0x8603 };
	const struct pmc_cpuid_regs l0a_p = { 0x07300805, 0, 0xf, 0x8604 };	/* E-cores off */
	const struct pmc_cpuid_regs none = { 0 }, l7_1 = { .eax = 1U << 8 };
	const struct pmc_cpuid_regs l0_23 = { 0x23, 0x756e6547, 0x6c65746e, 0x49656e69 };
	const struct pmc_cpuid_regs l23_0 = { .eax = 1U << 1 }, l23_1 = { .eax = 0xff, .ebx = 0x7 };
	struct pmc_cpuid_regs l1 = { 0x000b0671, 0, 0, 0 };
	struct pmc_cpu_desc d;
	u64 gp, fixed;

	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a, &d), 0);
	CU_ASSERT_EQUAL(d.model, 0xb7);
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_CORE, &none, &none, &none, &gp,
						 &fixed), PMC_TYPE_COUNTERS_MODEL);
	CU_ASSERT(gp == 0xff && fixed == 0xf);
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_ATOM, &none, &none, &none, &gp,
						 &fixed), PMC_TYPE_COUNTERS_MODEL);
	CU_ASSERT(gp == 0x3f && fixed == 0x7);
	/* Leaf 23H sub-leaf 1, announced by 07H.1:EAX[8] and 23H.0:EAX[1], wins. */
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_ATOM, &l7_1, &l23_0, &l23_1, &gp,
						 &fixed), PMC_TYPE_COUNTERS_MODEL);	/* max leaf 0x16 */
	CU_ASSERT_EQUAL(pmc_describe_cpu(&l0_23, &l1, &l0a, &d), 0);
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_ATOM, &l7_1, &l23_0, &l23_1, &gp,
						 &fixed), PMC_TYPE_COUNTERS_LEAF_23);
	CU_ASSERT(gp == 0xff && fixed == 0x7);
	/* Not announced by leaf 07H.1: the table, as Linux. */
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_ATOM, &none, &l23_0, &l23_1, &gp,
						 &fixed), PMC_TYPE_COUNTERS_MODEL);
	/* The E-cores disabled: leaf 0AH shows the P-core's 8 and 4 already. */
	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a_p, &d), 0);
	pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_CORE, &none, &none, &none, &gp, &fixed);
	CU_ASSERT(gp == 0xff && fixed == 0xf);
	/* A model without a table: leaf 0AH's. */
	l1.eax = 0x000a06a4;	/* Meteor Lake (0xaa) without leaf 23H */
	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a, &d), 0);
	CU_ASSERT_EQUAL(pmc_hybrid_type_counters(&d, PMC_CORE_TYPE_CORE, &none, &none, &none, &gp,
						 &fixed), PMC_TYPE_COUNTERS_LEAF_0A);
	CU_ASSERT(gp == 0x3f && fixed == 0x7);
	CU_ASSERT_STRING_EQUAL(pmc_core_type_pmu(PMC_CORE_TYPE_CORE), "cpu_core");
	CU_ASSERT_STRING_EQUAL(pmc_core_type_pmu(PMC_CORE_TYPE_ATOM), "cpu_atom");
}

static void test_describe_cpu(void)
{
	/* Skylake client under a hypervisor, PDCM set. */
	struct pmc_cpuid_regs l1 = { 0x000506e3, 0, (1U << 31) | (1U << 15), 0 };
	struct pmc_cpuid_regs l0a = { 0x07300404, 0, 0, 0x603 };
	struct pmc_cpu_desc d;
	struct pmcdrv_info info;

	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a, &d), 0);
	CU_ASSERT_EQUAL(d.vendor, PMCDRV_VENDOR_INTEL);
	CU_ASSERT_EQUAL(memcmp(d.vendor_id, "GenuineIntel", 12), 0);
	CU_ASSERT_EQUAL(d.vendor_id[3], 0);
	CU_ASSERT(d.family == 6 && d.model == 0x5e && d.stepping == 3);
	CU_ASSERT_TRUE(d.hypervisor);
	CU_ASSERT_TRUE(d.pdcm);
	CU_ASSERT_EQUAL(d.pm.num_gp, 4);

	pmc_info_from_desc(&d, &info);
	CU_ASSERT_EQUAL(info.size, PMCDRV_INFO_SIZE_VER0);
	CU_ASSERT_EQUAL(info.api_version, PMCDRV_API_VERSION);
	CU_ASSERT_EQUAL(info.flags, PMCDRV_INFO_ARCH_PERFMON | PMCDRV_INFO_HYPERVISOR | PMCDRV_INFO_PDCM);
	CU_ASSERT(info.num_gp == 4 && info.gp_width == 48 && info.num_fixed == 3 &&
		  info.fixed_width == 48 && info.perfmon_version == 4);
	CU_ASSERT_EQUAL(info.avail_mask, 0x70000000fULL);
	CU_ASSERT(!info.in_use_hw && !info.in_use_reserved && !info.reserved0);

	/* INFO -> perfmon is the inverse of desc -> INFO for every counter field. */
	{
		struct pmc_arch_perfmon back;

		pmc_perfmon_from_info(&info, &back);
		CU_ASSERT_EQUAL(memcmp(&back, &d.pm, sizeof(back)), 0);
	}

	/* An AMD CPU: whatever leaf 0AH holds is not Intel perfmon; PDCM means nothing. */
	CU_ASSERT_EQUAL(pmc_describe_cpu(&amd_l0, &l1, &l0a, &d), -ENODEV);
	CU_ASSERT_EQUAL(d.vendor, PMCDRV_VENDOR_AMD);
	CU_ASSERT_EQUAL(d.pm.version, 0);
	CU_ASSERT_FALSE(d.pdcm);
	pmc_info_from_desc(&d, &info);
	CU_ASSERT_EQUAL(info.flags, PMCDRV_INFO_HYPERVISOR);
	CU_ASSERT_EQUAL(info.avail_mask, 0);

	/*
	 * A hybrid part (Raptor Lake i9-13900K's leaf 0AH, the common subset):
	 * its counters, and architectural events only.
	 */
	l0a = (struct pmc_cpuid_regs){ 0x07300605, 0, 0x7, 0x8603 };
	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a, &d), 0);
	pmc_hybrid_common(&d, false);
	CU_ASSERT_FALSE(d.pm.hybrid);
	d.pm.td_metrics = 4;
	pmc_hybrid_common(&d, true);
	CU_ASSERT(d.pm.hybrid && d.pm.td_metrics == 0);
	CU_ASSERT(d.pm.version == 5 && d.pm.num_gp == 6 && d.pm.fixed_mask == 0x7);
	CU_ASSERT(d.vendor == PMCDRV_VENDOR_INTEL && d.model == 0x5e && d.hypervisor);
	{
		struct pmc_event_spec ok[] = {
			{ .event = 0xc0, .flags = PMC_EVF_USER },
			{ .event = 0x3c, .flags = PMC_EVF_USER | PMC_EVF_KERNEL },
			{ .event = 0x3c, .umask = 0x01, .flags = PMC_EVF_USER },
			{ .event = 0xc4, .flags = PMC_EVF_USER },
			{ .event = 0x2e, .umask = 0x41, .flags = PMC_EVF_USER },
			{ .event = 0x00, .umask = 0x03, .flags = PMC_EVF_USER },
		};
		struct pmc_event_spec no[] = {
			{ .event = 0xc2, .umask = 0x02, .flags = PMC_EVF_USER },	/* model-specific */
			{ .event = 0xc0, .cmask = 1, .flags = PMC_EVF_USER },	/* another meaning */
			{ .event = 0xc4, .flags = PMC_EVF_USER | PMC_EVF_EDGE },
		};
		struct pmc_event_spec slots = { .event = 0x00, .umask = 0x04, .flags = PMC_EVF_USER };
		enum pmc_event_err why;
		size_t i;

		for (i = 0; i < ARRAY_SIZE(ok); i++)
			CU_ASSERT_EQUAL(pmc_event_check(&ok[i], &d.pm, &why), 0);
		for (i = 0; i < ARRAY_SIZE(no); i++) {
			CU_ASSERT_EQUAL(pmc_event_check(&no[i], &d.pm, &why), -EOPNOTSUPP);
			CU_ASSERT_EQUAL(why, PMC_EVENT_HYBRID_NOT_ARCH);
		}
		CU_ASSERT_PTR_NOT_NULL(strstr(pmc_event_strerror(PMC_EVENT_HYBRID_NOT_ARCH),
					      "hybrid"));
		/* fixed counter 3 is the P-core's alone: not in the common subset */
		CU_ASSERT_EQUAL(pmc_event_check(&slots, &d.pm, &why), -EOPNOTSUPP);
		CU_ASSERT_EQUAL(why, PMC_EVENT_NO_FIXED_COUNTER);
		/* a model event that names its core type (perf's cpu_core/EVENT/) */
		for (i = 0; i < ARRAY_SIZE(no); i++) {
			no[i].core_type = i ? PMC_CORE_TYPE_ATOM : PMC_CORE_TYPE_CORE;
			CU_ASSERT_EQUAL(pmc_event_check(&no[i], &d.pm, &why), 0);
		}
		no[0].core_type = 0x30;		/* CPUID.1AH reserves it */
		CU_ASSERT_EQUAL(pmc_event_check(&no[0], &d.pm, &why), -EINVAL);
		CU_ASSERT_EQUAL(why, PMC_EVENT_BAD_CORE_TYPE);
		/* not hybrid: the model-specific event is fine, a core type is not */
		d.pm.hybrid = false;
		no[0].core_type = PMC_CORE_TYPE_CORE;
		CU_ASSERT_EQUAL(pmc_event_check(&no[0], &d.pm, &why), -EOPNOTSUPP);
		CU_ASSERT_EQUAL(why, PMC_EVENT_NOT_HYBRID);
		CU_ASSERT_PTR_NOT_NULL(strstr(pmc_event_strerror(why), "not hybrid"));
		no[0].core_type = 0;
		CU_ASSERT_EQUAL(pmc_event_check(&no[0], &d.pm, &why), 0);
		/* user space learns it from INFO */
		pmc_info_from_desc(&d, &info);
		info.flags |= PMCDRV_INFO_HYBRID | PMCDRV_INFO_PDCM;
		info.perf_capabilities = PMC_PERF_CAP_PERF_METRICS;
		pmc_perfmon_from_info(&info, &d.pm);
		CU_ASSERT(d.pm.hybrid && d.pm.td_metrics == 0 && d.pm.num_gp == 6);
	}

	/* Intel without a PMU (stock QEMU TCG): version 0. */
	l0a = (struct pmc_cpuid_regs){ 0, 0, 0, 0 };
	CU_ASSERT_EQUAL(pmc_describe_cpu(&intel_l0, &l1, &l0a, &d), -ENODEV);
	CU_ASSERT_EQUAL(d.decode_err, PMC_DECODE_NO_PMU);
	CU_ASSERT_FALSE(d.pdcm);
}

/* ---- events ---- */

/*
 * @cfg with @n user-mode GP events @event of core types: umask i and the
 * two types in turn (P-core first) with @alternate, else all P-core's.
 */
static void typed_gp(struct pmcdrv_config *cfg, unsigned int n, u32 event, bool alternate)
{
	unsigned int i;

	memset(cfg, 0, sizeof(*cfg));
	cfg->nr_events = n;
	for (i = 0; i < n; i++) {
		cfg->events[i].type = PMCDRV_EVENT_HW;
		cfg->events[i].event = event;
		cfg->events[i].umask = alternate ? i : 0;
		cfg->events[i].flags = PMCDRV_EVF_USER;
		cfg->events[i].core_type = alternate && i % 2 ? PMCDRV_CORE_TYPE_ATOM :
							      PMCDRV_CORE_TYPE_CORE;
	}
}

/*
 * A hybrid session's program per core type: only the events that count on
 * that type, on their counters, mapped back to the session's; and CONFIG:
 * each type's events, with those of none, fit that type's counters, where
 * events of two types share counters; more multiplexes.
 */
static void test_prog_for_core_type(void)
{
	struct pmc_arch_perfmon pm = {
		.version = 5, .num_gp = 6, .gp_width = 48, .num_fixed = 3, .fixed_mask = 0x7,
		.fixed_width = 48, .hybrid = true, .events_len = 7, .events_avail = 0x7f,
	};
	struct pmc_event_spec specs[] = {
		{ .event = 0xc0, .flags = PMC_EVF_USER, .core_type = PMC_CORE_TYPE_CORE },
		{ .event = 0xc4, .umask = 0x7e, .flags = PMC_EVF_USER, .core_type = PMC_CORE_TYPE_ATOM },
		{ .event = 0x3c, .flags = PMC_EVF_USER },
		{ .event = 0xc4, .umask = 0x11, .flags = PMC_EVF_USER, .core_type = PMC_CORE_TYPE_CORE },
	};
	const u32 idx[] = { PMC_GLOBAL_FIXED_SHIFT, 0, 1, 0 };	/* events 1 and 3 share GP 0 */
	const struct pmcdrv_event inst = { .type = PMCDRV_EVENT_HW, .event = PMC_EVENT_FIXED_PSEUDO,
					   .umask = 1, .flags = PMCDRV_EVF_USER };
	static struct pmc_type_work w;
	struct pmc_arch_perfmon tpm;
	struct pmc_prog p, q;
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	u32 counter[PMCDRV_MAX_EVENTS], seen;
	u8 hw[PMCDRV_MAX_EVENTS];
	unsigned int i, k;

	CU_ASSERT_EQUAL(pmc_prog_for_core_type(specs, idx, 4, PMC_CORE_TYPE_CORE, &pm, true, &w,
					       &p, hw), 1);
	CU_ASSERT(p.nr == 3 && hw[0] == 0 && hw[1] == 2 && hw[2] == 3);
	CU_ASSERT(p.idx[0] == PMC_GLOBAL_FIXED_SHIFT && p.idx[1] == 1 && p.idx[2] == 0);
	CU_ASSERT(p.fixed_ctrl != 0 && (p.evtsel[2] & PMC_EVTSEL_EN) && (p.evtsel[2] & 0xff) == 0xc4 &&
		  ((p.evtsel[2] >> 8) & 0xff) == 0x11);
	CU_ASSERT_EQUAL(p.global_mask, (1ULL << PMC_GLOBAL_FIXED_SHIFT) | 3);
	CU_ASSERT_EQUAL(pmc_prog_for_core_type(specs, idx, 4, PMC_CORE_TYPE_ATOM, &pm, true, &w,
					       &q, hw), 2);
	CU_ASSERT(q.nr == 2 && hw[0] == 1 && hw[1] == 2 && q.idx[0] == 0 && q.idx[1] == 1);
	CU_ASSERT(q.fixed_ctrl == 0 && ((q.evtsel[0] >> 8) & 0xff) == 0x7e);
	/* two types' programs are no handover of each other */
	CU_ASSERT_FALSE(pmc_prog_handover(&p, &q));
	/* every other type: only the event of no core type */
	CU_ASSERT_EQUAL(pmc_prog_for_core_type(specs, idx, 4, 0, &pm, true, &w, &q, hw), 3);
	CU_ASSERT(q.nr == 1 && hw[0] == 2 && q.idx[0] == 1);

	/*
	 * CONFIG: 6 GP events of each type, and one of none on fixed counter 0:
	 * 13 events, more than the 9 counters, but 7 on each type's CPUs.
	 */
	typed_gp(&cfg, 12, 0xc4, true);
	cfg.nr_events = 13;
	cfg.events[12] = inst;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_FALSE(v.mux);
	CU_ASSERT_EQUAL(counter[12], PMC_GLOBAL_FIXED_SHIFT);
	/* each type's six take GP 0..5: the two types share every GP counter */
	for (k = 0; k < 2; k++) {
		seen = 0;
		for (i = k; i < 12; i += 2) {
			CU_ASSERT(counter[i] < 6);
			seen |= counter[i] < 6 ? 1U << counter[i] : 0;
		}
		CU_ASSERT_EQUAL(seen, 0x3f);
	}
	/* not on a part without core types: there 13 events multiplex */
	pm.hybrid = false;
	for (i = 0; i < 12; i++)
		cfg.events[i].core_type = 0;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	pm.hybrid = true;
	typed_gp(&cfg, 12, 0xc4, true);
	cfg.events[12] = inst;
	/* one of no core type more: 7 GP events on each type's 6 GP counters */
	cfg.events[13] = cfg.events[0];
	cfg.events[13].core_type = 0;
	cfg.nr_events = 14;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux && counter[0] == ~0U && counter[13] == ~0U);

	/* CONFIG: 8 events of one core type on 6 GP + fixed 0 multiplex */
	typed_gp(&cfg, 8, 0xc0, false);
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	/*
	 * ... but fit where the P-cores are known to have 8 GP counters (an
	 * Alder Lake's, pmc_hybrid_type_counters()): GP 6 and 7 are theirs.
	 */
	/* the low counters in a row, the one rule */
	CU_ASSERT(pmc_gp_in_a_row(0xff) == 8 && pmc_gp_in_a_row(0xbf) == 6 && pmc_gp_in_a_row(0) == 0 &&
		  pmc_gp_in_a_row(~0ULL) == PMC_MAX_GP);
	pmc_type_set_gp(&pm, PMC_CORE_TYPE_CORE, 0xff);
	pmc_type_set_gp(&pm, PMC_CORE_TYPE_ATOM, 0x3f);		/* the common 6: nothing more */
	CU_ASSERT(pm.type_gp[0] == 8 && pm.type_gp[1] == 0);
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_ATOM, &tpm);
	CU_ASSERT_EQUAL(tpm.num_gp, 6);
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_CORE, &tpm);
	CU_ASSERT_EQUAL(tpm.num_gp, 8);
	typed_gp(&cfg, 8, 0xc4, false);		/* GP only: no fixed counter */
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	for (i = 0, seen = 0; i < 8; i++)
		seen |= counter[i] < 8 ? 1U << counter[i] : 0;
	CU_ASSERT_EQUAL(seen, 0xff);
	/* an event of no type stays on the common six: GP 0, and the P-core's 8 on 1..7 */
	cfg.events[8] = cfg.events[0];
	cfg.events[8].core_type = 0;
	cfg.nr_events = 9;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	cfg.nr_events = 8;
	cfg.events[7] = cfg.events[8];
	memset(&cfg.events[8], 0, sizeof(cfg.events[8]));
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(counter[7] < 6);
	/* 9 of the P-cores', or 7 of the E-cores': more than their counters */
	typed_gp(&cfg, 9, 0xc4, false);
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	typed_gp(&cfg, 7, 0xc4, false);
	for (i = 0; i < 7; i++)
		cfg.events[i].core_type = PMCDRV_CORE_TYPE_ATOM;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	memset(pm.type_gp, 0, sizeof(pm.type_gp));
	typed_gp(&cfg, 8, 0xc0, false);
	/* 7 fit; a software event with a core type is malformed */
	cfg.nr_events = 7;
	memset(&cfg.events[7], 0, sizeof(cfg.events[7]));
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_FALSE(v.mux);
	cfg.events[6] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK,
					       .core_type = PMCDRV_CORE_TYPE_ATOM };
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	cfg.events[6].type = PMCDRV_EVENT_HW;
	cfg.events[6].sw_id = 0;
	cfg.events[6].event = 0xc0;
	cfg.events[6].flags = PMCDRV_EVF_USER;
	cfg.events[6].core_type = 0x41;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.event_err, PMC_EVENT_BAD_CORE_TYPE);
}

static struct pmc_arch_perfmon skl(void)
{
	struct pmc_arch_perfmon pm;
	struct pmc_cpuid_regs r = { 0x07300404, 0, 0, 0x603 };

	CU_ASSERT_EQUAL_FATAL(pmc_decode_perfmon(0x16, &r, &pm, NULL), 0);
	return pm;
}

static void test_event_check(void)
{
	static const struct {
		struct pmc_event_spec s;
		int ret;
		enum pmc_event_err err;
	} t[] = {
		{ { 0xc0, 0x00, 0, PMC_EVF_USER }, 0, PMC_EVENT_OK },
		{ { 0x3c, 0x01, 0, PMC_EVF_USER | PMC_EVF_KERNEL }, 0, PMC_EVENT_OK },
		{ { 0xd1, 0x20, 1, PMC_EVF_KERNEL | PMC_EVF_INV | PMC_EVF_EDGE }, 0, PMC_EVENT_OK },
		{ { 0x100, 0, 0, PMC_EVF_USER }, -EINVAL, PMC_EVENT_BAD_EVENT },
		{ { 0xc0, 0x100, 0, PMC_EVF_USER }, -EINVAL, PMC_EVENT_BAD_UMASK },
		{ { 0xc0, 0, 256, PMC_EVF_USER }, -EINVAL, PMC_EVENT_BAD_CMASK },
		{ { 0xc0, 0, 0, PMC_EVF_USER | (1U << 5) }, -EINVAL, PMC_EVENT_BAD_FLAGS },
		{ { 0xc0, 0, 0, 1U << 31 }, -EINVAL, PMC_EVENT_BAD_FLAGS },
		{ { 0xc0, 0, 0, 0 }, -EINVAL, PMC_EVENT_NO_MODE },
		{ { 0xc0, 0, 0, PMC_EVF_USER | PMC_EVF_INV }, -EINVAL, PMC_EVENT_INV_NEEDS_CMASK },
		{ { 0xffffffff, 0, 0, PMC_EVF_USER }, -EINVAL, PMC_EVENT_BAD_EVENT },
		/* Event 0x00: fixed-counter pseudo-encodings, umask 1..4, no modifiers. */
		{ { 0x00, 0x03, 0, PMC_EVF_USER }, 0, PMC_EVENT_OK },
		{ { 0x00, 0x01, 0, PMC_EVF_USER | PMC_EVF_KERNEL }, 0, PMC_EVENT_OK },
		{ { 0x00, 0x02, 0, PMC_EVF_KERNEL }, 0, PMC_EVENT_OK },
		{ { 0x00, 0x00, 0, PMC_EVF_USER }, -EINVAL, PMC_EVENT_FIXED_PSEUDO_BAD },
		{ { 0x00, 0x05, 0, PMC_EVF_USER }, -EINVAL, PMC_EVENT_FIXED_PSEUDO_BAD },
		{ { 0x00, 0x03, 1, PMC_EVF_USER }, -EINVAL, PMC_EVENT_FIXED_ONLY_MODIFIERS },
		{ { 0x00, 0x03, 0, PMC_EVF_USER | PMC_EVF_EDGE }, -EINVAL, PMC_EVENT_FIXED_ONLY_MODIFIERS },
		{ { 0x00, 0x03, 1, PMC_EVF_USER | PMC_EVF_INV }, -EINVAL, PMC_EVENT_FIXED_ONLY_MODIFIERS },
		{ { 0x00, 0x03, 0, PMC_EVF_USER | PMC_EVF_NO_FIXED }, -EINVAL,
		  PMC_EVENT_FIXED_ONLY_MODIFIERS },
		/* Skylake has no fixed counter 3. */
		{ { 0x00, 0x04, 0, PMC_EVF_USER }, -EOPNOTSUPP, PMC_EVENT_NO_FIXED_COUNTER },
	};
	struct pmc_arch_perfmon pm = skl(), none = { 0 };
	enum pmc_event_err err;
	struct pmc_event_spec llc = { 0x2e, 0x41, 0, PMC_EVF_USER };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		err = PMC_EVENT_OK;
		CU_ASSERT_EQUAL(pmc_event_check(&t[i].s, &pm, &err), t[i].ret);
		CU_ASSERT_EQUAL(err, t[i].err);
		CU_ASSERT_STRING_NOT_EQUAL(pmc_event_strerror(err), "unknown event error");
	}
	/* Architectural event marked unavailable: EBX bit 4 (LLC misses). */
	pm.events_avail &= ~(1U << PMC_ARCH_LLC_MISSES);
	CU_ASSERT_EQUAL(pmc_event_check(&llc, &pm, &err), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(err, PMC_EVENT_ARCH_UNAVAILABLE);
	/* ... but the same code with another umask is a model-specific event: allowed. */
	llc.umask = 0x42;
	CU_ASSERT_EQUAL(pmc_event_check(&llc, &pm, &err), 0);
	/* ref-cycles (0x0300) is gated by EBX bit 2; raw 0x013C is a GP event, not gated. */
	pm = skl();
	pm.events_avail &= ~(1U << PMC_ARCH_REF_CYCLES);
	llc = (struct pmc_event_spec){ 0x00, 0x03, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_check(&llc, &pm, &err), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(err, PMC_EVENT_ARCH_UNAVAILABLE);
	llc = (struct pmc_event_spec){ 0x3c, 0x01, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_check(&llc, &pm, &err), 0);
	/* Fixed counter 2 absent (v1-style CPU with only fixed 0 and 1). */
	pm = skl();
	pm.fixed_mask = 0x3;
	llc = (struct pmc_event_spec){ 0x00, 0x03, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_check(&llc, &pm, &err), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(err, PMC_EVENT_NO_FIXED_COUNTER);
	pm = skl();
	/* No PMU at all. */
	CU_ASSERT_EQUAL(pmc_event_check(&t[0].s, &none, &err), -ENODEV);
	CU_ASSERT_EQUAL(err, PMC_EVENT_NO_PMU);
}

static void test_evtsel_encode(void)
{
	struct pmc_event_spec s = { 0xc0, 0x00, 0, PMC_EVF_USER };
	u32 flags;

	CU_ASSERT_EQUAL(pmc_evtsel_encode(&s), 0xc0 | PMC_EVTSEL_USR);
	s = (struct pmc_event_spec){ 0x3c, 0x01, 0, PMC_EVF_KERNEL };
	CU_ASSERT_EQUAL(pmc_evtsel_encode(&s), 0x013c | PMC_EVTSEL_OS);
	s = (struct pmc_event_spec){ 0xa3, 0x14, 0x14, PMC_EVF_USER | PMC_EVF_KERNEL |
				     PMC_EVF_EDGE | PMC_EVF_INV };
	CU_ASSERT_EQUAL(pmc_evtsel_encode(&s), 0x148714a3ULL);
	CU_ASSERT_EQUAL(pmc_evtsel_encode(&s), 0x14a3 | (0x14ULL << PMC_EVTSEL_CMASK_SHIFT) |
			PMC_EVTSEL_USR | PMC_EVTSEL_OS | PMC_EVTSEL_EDGE | PMC_EVTSEL_INV);
	/* Whatever the flags, user space can never set EN, INT, AnyThread, PC or TSX bits. */
	for (flags = 0; flags <= PMC_EVF_ALL; flags++) {
		s = (struct pmc_event_spec){ 0xff, 0xff, 0xff, flags };
		CU_ASSERT_EQUAL(pmc_evtsel_encode(&s) & (PMC_EVTSEL_EN | PMC_EVTSEL_INT |
			PMC_EVTSEL_ANY | PMC_EVTSEL_PC | PMC_EVTSEL_IN_TX | PMC_EVTSEL_IN_TXCP), 0);
	}
}

static void test_fixed_index(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmc_event_spec s = { 0xc0, 0x00, 0, PMC_EVF_USER };

	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 0);
	s.event = 0x3c;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 1);
	/* Raw 0x013C is REF_XCLK (bus clock): a GP event, never fixed counter 2. */
	s.umask = 0x01;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	s.cmask = 1;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	/* Event 0x00 umask n: fixed counter n-1 only, where it exists. */
	s = (struct pmc_event_spec){ 0x00, 0x03, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 2);
	CU_ASSERT_EQUAL(pmc_event_fixed_only(&s, &pm), 2);
	s.umask = 0x01;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 0);
	s.umask = 0x02;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 1);
	s.umask = 0x04;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	s.umask = 0x05;
	CU_ASSERT_EQUAL(pmc_event_fixed_only(&s, &pm), -1);
	s = (struct pmc_event_spec){ 0xc0, 0x00, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_fixed_only(&s, &pm), -1);
	s = (struct pmc_event_spec){ 0xc0, 0, 0, PMC_EVF_USER | PMC_EVF_NO_FIXED };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	s = (struct pmc_event_spec){ 0xc0, 0, 0, PMC_EVF_USER | PMC_EVF_EDGE };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	s = (struct pmc_event_spec){ 0xc4, 0, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	/* Topdown slots has fixed counter 3 only where it exists. */
	s = (struct pmc_event_spec){ 0xa4, 0x01, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), -1);
	pm.fixed_mask |= 0x8;
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 3);
	s = (struct pmc_event_spec){ 0x00, 0x04, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_event_fixed_index(&s, &pm), 3);

	s = (struct pmc_event_spec){ 0xc0, 0, 0, PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_fixed_ctrl_field(&s), PMC_FIXED_CTRL_USR);
	s.flags = PMC_EVF_KERNEL | PMC_EVF_USER;
	CU_ASSERT_EQUAL(pmc_fixed_ctrl_field(&s), PMC_FIXED_CTRL_USR | PMC_FIXED_CTRL_OS);
}

static void test_assign(void)
{
	struct pmc_arch_perfmon pm = skl();
	const u64 all = ~0ULL;
	struct pmc_event_spec s[8] = {
		{ 0xc4, 0, 0, PMC_EVF_USER },		/* GP */
		{ 0xc0, 0, 0, PMC_EVF_USER },		/* fixed 0 */
		{ 0x3c, 0, 0, PMC_EVF_USER },		/* fixed 1 */
		{ 0x00, 3, 0, PMC_EVF_USER },		/* ref-cycles: fixed 2 */
		{ 0xc0, 0, 0, PMC_EVF_KERNEL },		/* fixed 0 taken: GP */
		{ 0xc5, 0, 0, PMC_EVF_USER },		/* GP */
		{ 0x2e, 0x4f, 0, PMC_EVF_USER },	/* GP */
		{ 0xd1, 0x01, 0, PMC_EVF_USER },	/* fifth GP: no room */
	};
	u32 idx[8];

	CU_ASSERT_EQUAL_FATAL(pmc_assign_counters(s, 7, &pm, all, idx), 0);
	CU_ASSERT_EQUAL(idx[0], 0);
	CU_ASSERT_EQUAL(idx[1], 32);
	CU_ASSERT_EQUAL(idx[2], 33);
	CU_ASSERT_EQUAL(idx[3], 34);
	CU_ASSERT_EQUAL(idx[4], 1);
	CU_ASSERT_EQUAL(idx[5], 2);
	CU_ASSERT_EQUAL(idx[6], 3);
	CU_ASSERT_EQUAL(pmc_assign_counters(s, 8, &pm, all, idx), -ENOSPC);
	/* PMC0 and fixed 0 held by someone else. */
	CU_ASSERT_EQUAL_FATAL(pmc_assign_counters(s, 2, &pm, all & ~0x100000001ULL, idx), 0);
	CU_ASSERT_EQUAL(idx[0], 1);
	CU_ASSERT_EQUAL(idx[1], 2);
	/* No usable counter at all. */
	CU_ASSERT_EQUAL(pmc_assign_counters(s, 1, &pm, 0, idx), -ENOSPC);
	CU_ASSERT_EQUAL(pmc_assign_counters(s, 0, &pm, 0, idx), 0);
}

/* ref-cycles is fixed counter 2 or nothing; raw 0x013C is a GP counter. */
static void test_assign_fixed_only(void)
{
	struct pmc_arch_perfmon pm = skl();
	const u64 all = ~0ULL, fixed2 = 1ULL << 34;
	struct pmc_event_spec s[3] = {
		{ 0x3c, 1, 0, PMC_EVF_USER },		/* REF_XCLK: GP 0 */
		{ 0x00, 3, 0, PMC_EVF_USER },		/* ref-cycles: fixed 2 */
		{ 0x00, 3, 0, PMC_EVF_KERNEL },		/* second ref-cycles: busy */
	};
	u32 idx[3];

	CU_ASSERT_EQUAL_FATAL(pmc_assign_counters(s, 2, &pm, all, idx), 0);
	CU_ASSERT_EQUAL(idx[0], 0);
	CU_ASSERT_EQUAL(idx[1], 34);
	/* Fixed counter 2 busy (another ref-cycles, or not usable): never a GP counter. */
	CU_ASSERT_EQUAL(pmc_assign_counters(s, 3, &pm, all, idx), -EBUSY);
	CU_ASSERT_EQUAL(idx[2], ~0U);
	CU_ASSERT_EQUAL(pmc_assign_counters(&s[1], 1, &pm, all & ~fixed2, idx), -EBUSY);
	/* 0x013C does not fall back to fixed 2 when the GP counters are gone. */
	CU_ASSERT_EQUAL(pmc_assign_counters(s, 1, &pm, fixed2, idx), -ENOSPC);
}

/* The configuration check names the fixed-only event whose counter is taken. */
static void test_config_fixed_busy(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	u32 counter[PMCDRV_MAX_EVENTS];

	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_events = 3;
	cfg.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	cfg.events[1] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .event = 0x00, .umask = 0x03,
					       .flags = PMCDRV_EVF_USER };
	cfg.events[2] = cfg.events[1];
	/* Two ref-cycles: no GP fallback, they take turns on fixed counter 2. */
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	CU_ASSERT_EQUAL(counter[1], ~0U);
	CU_ASSERT_EQUAL(counter[2], ~0U);
	/* One ref-cycles and raw 0x013C: fixed 2 and a GP counter. */
	cfg.events[2].event = 0x3c;
	cfg.events[2].umask = 0x01;
	CU_ASSERT_EQUAL_FATAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_EQUAL(counter[0], ~0U);
	CU_ASSERT_EQUAL(counter[1], 34);
	CU_ASSERT_EQUAL(counter[2], 0);
	/* Modifiers on ref-cycles are refused by the event check. */
	cfg.events[1].cmask = 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_BAD_EVENT);
	CU_ASSERT_EQUAL(v.event_err, PMC_EVENT_FIXED_ONLY_MODIFIERS);
}

/* The caller's CONFIG layout: event_size 0 = VER0, bounds, slots. */
static void test_config_layout(void)
{
	u32 stride = 0, slots = 0;

	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER0, 0, &stride, &slots), 0);
	CU_ASSERT_EQUAL(stride, PMCDRV_EVENT_SIZE_VER0);
	CU_ASSERT_EQUAL(slots, PMCDRV_MAX_EVENTS_VER0);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, PMCDRV_EVENT_SIZE_VER1,
					  &stride, &slots), 0);
	CU_ASSERT_EQUAL(stride, PMCDRV_EVENT_SIZE_VER1);
	CU_ASSERT_EQUAL(slots, PMCDRV_MAX_EVENTS);
	/* event_size 0: the first layout's 16 entries, whatever the size. */
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, 0, &stride, &slots), 0);
	CU_ASSERT_EQUAL(slots, PMCDRV_MAX_EVENTS_VER0);
	/* VER0 events, explicitly sized; a tail shorter than an event is no slot. */
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER0 + 8, 32, &stride, &slots), 0);
	CU_ASSERT_EQUAL(slots, PMCDRV_MAX_EVENTS_VER0);
	/* A future, larger event. */
	CU_ASSERT_EQUAL(pmc_config_layout(32 + 40 * 64, 64, &stride, &slots), 0);
	CU_ASSERT_EQUAL(stride, 64);
	CU_ASSERT_EQUAL(slots, 40);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER0 - 8, 0, &stride, &slots), -EINVAL);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, 24, &stride, &slots), -EINVAL);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, 44, &stride, &slots), -EINVAL);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, PMC_EVENT_SIZE_MAX, &stride,
					  &slots), 0);
	CU_ASSERT_EQUAL(slots, (PMCDRV_CONFIG_SIZE_VER1 - 32) / PMC_EVENT_SIZE_MAX);
	CU_ASSERT_EQUAL(pmc_config_layout(PMCDRV_CONFIG_SIZE_VER1, PMC_EVENT_SIZE_MAX + 8, &stride,
					  &slots), -EINVAL);
	CU_ASSERT_EQUAL(pmc_config_layout(PMC_CONFIG_SIZE_MAX, 48, &stride, &slots), 0);
	CU_ASSERT_EQUAL(pmc_config_layout(PMC_CONFIG_SIZE_MAX + 1, 48, &stride, &slots), -E2BIG);
}

static struct pmcdrv_event hw_ev(u32 event, u32 umask, u32 group)
{
	return (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .event = event, .umask = umask,
				      .flags = PMCDRV_EVF_USER, .group = group };
}

/*
 * Groups: fixed-capable events count on the fixed counters, the rest on
 * the 4 GP counters of skl(); a group that cannot fit alone is ENOSPC.
 */
static void test_config_groups(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	u32 counter[PMCDRV_MAX_EVENTS];
	unsigned int i;

	memset(&cfg, 0, sizeof(cfg));
	/* instructions, cycles (fixed 0, 1) + 4 GP events in group 7: fits. */
	cfg.events[0] = hw_ev(0xc0, 0x00, 7);
	cfg.events[1] = hw_ev(0x3c, 0x00, 7);
	for (i = 2; i < 6; i++)
		cfg.events[i] = hw_ev(0xd1, i, 7);
	cfg.nr_events = 6;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_EQUAL(counter[0], 32);
	CU_ASSERT_EQUAL(counter[1], 33);
	/* A fifth GP event in the group: ENOSPC naming the group's first event. */
	cfg.events[6] = hw_ev(0xd1, 9, 7);
	cfg.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW,
					       .sw_id = PMCDRV_SW_TASK_CLOCK, .group = 3 };
	cfg.events[1] = hw_ev(0x3c, 0x00, 0);
	cfg.nr_events = 7;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -ENOSPC);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_GROUP_TOO_BIG);
	CU_ASSERT_EQUAL(v.bad_index, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_config_strerror(&v), "group"));
	/* The same events without the group: they multiplex. */
	for (i = 0; i < 7; i++)
		cfg.events[i].group = 0;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	/* Two groups that fit alone and together; software events in a group need no counter. */
	cfg.events[6].group = 2;
	cfg.events[5].group = 2;
	cfg.events[0].group = 2;
	cfg.events[2].group = 1;
	cfg.nr_events = 7;
	cfg.events[4] = hw_ev(0xc0, 0x00, 1);	/* instructions: fixed 0 */
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	/* Two ref-cycles in one group: one fixed counter 2. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.events[0] = hw_ev(0x00, 0x03, 5);
	cfg.events[1] = hw_ev(0x00, 0x03, 5);
	cfg.nr_events = 2;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -ENOSPC);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_GROUP_TOO_BIG);
	CU_ASSERT_EQUAL(v.bad_index, 0);
}

/* VER1 fields: reserved1 and extra are checked; event_size is the transport's. */
static void test_config_ver1_fields(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	u32 counter[PMCDRV_MAX_EVENTS];
	unsigned int i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.event_size = PMCDRV_EVENT_SIZE_VER1;
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
		cfg.events[i] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW,
						       .sw_id = PMCDRV_SW_TASK_CLOCK };
	cfg.nr_events = PMCDRV_MAX_EVENTS;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	cfg.nr_events = PMCDRV_MAX_EVENTS + 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_BAD_NR_EVENTS);
	cfg.nr_events = 2;
	for (i = 2; i < PMCDRV_MAX_EVENTS; i++)
		memset(&cfg.events[i], 0, sizeof(cfg.events[i]));
	cfg.events[31].group = 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_UNUSED_NOT_ZERO);
	CU_ASSERT_EQUAL(v.bad_index, 31);
	cfg.events[31].group = 0;
	cfg.events[1].reserved1 = 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.event_err, PMC_EVENT_RESERVED);
	cfg.events[1].reserved1 = 0;
	cfg.events[1].extra = 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.event_err, PMC_EVENT_SW_FIELDS);
	/* An extra value is pmc_config_extra()'s to judge. */
	cfg.events[1] = hw_ev(0xb7, 0x01, 0);
	cfg.events[1].extra = 0x10001;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
}

/* The extra-register tables: models, registers, masks (Linux's core.c). */
static void test_extra_models(void)
{
	const struct pmc_extra_model *m;
	static const u8 skl[] = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(skl); i++) {
		m = pmc_extra_model_find(6, skl[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_STRING_EQUAL(m->name, "skylake");
	}
	CU_ASSERT_EQUAL(m->regs[0].msr, 0x1a6);
	CU_ASSERT_EQUAL(m->regs[0].event, 0xb7);
	CU_ASSERT_EQUAL(m->regs[0].umask, 0x01);
	CU_ASSERT_EQUAL(m->regs[0].valid, 0x3fffff8fffULL);
	CU_ASSERT_EQUAL(m->regs[1].msr, 0x1a7);
	CU_ASSERT_EQUAL(m->regs[1].event, 0xbb);
	CU_ASSERT_STRING_EQUAL(m->regs[1].name, "MSR_OFFCORE_RSP_1");
	m = pmc_extra_model_find(6, 0x2a);	/* Sandy Bridge client */
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->regs[0].valid, 0x3f807f8fffULL);
	m = pmc_extra_model_find(6, 0x3c);	/* Haswell */
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->regs[1].valid, 0x3fffff8fffULL);
	CU_ASSERT_PTR_NULL(pmc_extra_model_find(6, 0x7e));	/* Ice Lake: not known */
	CU_ASSERT_PTR_NULL(pmc_extra_model_find(15, 0x5e));
	CU_ASSERT_PTR_NULL(pmc_extra_model_find(6, 0));
}

/*
 * A hybrid part's top-down: fixed counter 3 and PERF_METRICS are the
 * P-cores' (pmc_type_set_fixed()), so slots and the metrics of cpu_core
 * count there, in one group of that type, and nowhere without a type.
 */
static void test_topdown_core_type(void)
{
	struct pmc_arch_perfmon pm = {
		.version = 5, .num_gp = 6, .gp_width = 48, .num_fixed = 3, .fixed_mask = 0x7,
		.fixed_width = 48, .hybrid = true, .events_len = 7, .events_avail = 0x7f,
	};
	struct pmc_arch_perfmon tpm;
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_event_spec specs[3];
	struct pmc_type_work w;
	struct pmc_prog p;
	u32 counter[PMCDRV_MAX_EVENTS], idx[3];
	u8 hw[3];
	unsigned int i;

	/* Alder Lake's P-core: level 2; its E-core (no fixed counter 3, no PERF_METRICS): none */
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x97, PMC_PERF_CAP_PERF_METRICS, 0xf), 8);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0xb7, PMC_PERF_CAP_PERF_METRICS, 0xf), 8);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x97, 0, 0x7), 0);
	pmc_type_set_gp(&pm, PMC_CORE_TYPE_CORE, 0xff);
	pmc_type_set_fixed(&pm, PMC_CORE_TYPE_CORE, 0xf, 8);
	pmc_type_set_fixed(&pm, PMC_CORE_TYPE_ATOM, 0x7, 0);
	CU_ASSERT(pm.type_fixed[0] == 0x8 && pm.type_fixed[1] == 0 && pm.type_td[0] == 8);
	CU_ASSERT(pm.fixed_mask == 0x7 && pm.td_metrics == 0);	/* the common subset stays */
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_CORE, &tpm);
	CU_ASSERT(tpm.fixed_mask == 0xf && tpm.num_fixed == 4 && tpm.td_metrics == 8 && tpm.num_gp == 8);
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_ATOM, &tpm);
	CU_ASSERT(tpm.fixed_mask == 0x7 && tpm.num_fixed == 3 && tpm.td_metrics == 0);

	/* {cpu_core/slots/,cpu_core/topdown-retiring/,cpu_core/topdown-mem-bound/}:u */
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_events = 3;
	for (i = 0; i < 3; i++) {
		cfg.events[i].type = PMCDRV_EVENT_HW;
		cfg.events[i].event = PMC_EVENT_FIXED_PSEUDO;
		cfg.events[i].flags = PMCDRV_EVF_USER;
		cfg.events[i].group = 1;
		cfg.events[i].core_type = PMCDRV_CORE_TYPE_CORE;
	}
	cfg.events[0].umask = PMC_TD_SLOTS_FIXED + 1;
	cfg.events[1].umask = PMC_TD_UMASK_BASE + PMC_TD_RETIRING;
	cfg.events[2].umask = PMC_TD_UMASK_BASE + 7;		/* level 2 */
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(!v.mux);
	CU_ASSERT(counter[0] == PMC_GLOBAL_FIXED_SHIFT + PMC_TD_SLOTS_FIXED &&
		  counter[1] == PMC_TD_IDX_BASE + PMC_TD_RETIRING && counter[2] == PMC_TD_IDX_BASE + 7);
	/* the P-cores' program has the pair, the E-cores' nothing */
	for (i = 0; i < 3; i++) {
		pmc_event_to_spec(&cfg.events[i], &specs[i]);
		idx[i] = counter[i];
	}
	CU_ASSERT_EQUAL(pmc_prog_for_core_type(specs, idx, 3, PMC_CORE_TYPE_CORE, &pm, true, &w,
					       &p, hw), 0);
	CU_ASSERT(p.nr == 3 && p.td_mask == (1U << PMC_TD_RETIRING | 1U << 7) &&
		  (p.global_mask & PMC_GLOBAL_PERF_METRICS) &&
		  (p.global_mask & BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + PMC_TD_SLOTS_FIXED)));
	CU_ASSERT_EQUAL(pmc_prog_for_core_type(specs, idx, 3, PMC_CORE_TYPE_ATOM, &pm, true, &w,
					       &p, hw), 3);
	CU_ASSERT(p.nr == 0 && p.td_mask == 0 && p.global_mask == 0 && p.fixed_ctrl_mask == 0);

	/* of no type, or of the E-cores: refused (no fixed counter 3, no PERF_METRICS there) */
	cfg.events[0].core_type = 0;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EOPNOTSUPP);
	CU_ASSERT(v.err == PMC_CONFIG_BAD_EVENT && v.event_err == PMC_EVENT_NO_FIXED_COUNTER &&
		  v.bad_index == 0);
	cfg.events[0].core_type = PMCDRV_CORE_TYPE_CORE;
	cfg.events[1].core_type = PMCDRV_CORE_TYPE_ATOM;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EOPNOTSUPP);
	CU_ASSERT(v.err == PMC_CONFIG_BAD_EVENT && v.event_err == PMC_EVENT_NO_TD_METRIC &&
		  v.bad_index == 1);
	/* the P-core's metrics beside other events in its group: still one type's counters */
	cfg.events[1].core_type = PMCDRV_CORE_TYPE_CORE;
	cfg.events[3] = cfg.events[0];
	cfg.events[3].umask = 1;	/* cpu_core/instructions/ on fixed counter 0 */
	cfg.nr_events = 4;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(!v.mux && counter[3] == PMC_GLOBAL_FIXED_SHIFT);
}

/* Extra values: EOPNOTSUPP without a table, EINVAL, ENOSPC, what to program. */
/*
 * A hybrid part's session whose events name core types, and which does not
 * fit: each core type takes turns with the events that count there (of no
 * type and of its own), on its own counters; the steps name the session's
 * hardware events, not the type's.
 */
static void test_mux_core_type(void)
{
	struct pmc_arch_perfmon pm = {
		.version = 5, .num_gp = 6, .gp_width = 48, .num_fixed = 3, .fixed_mask = 0x7,
		.fixed_width = 48, .hybrid = true, .events_len = 7, .events_avail = 0x7f,
	};
	const struct pmcdrv_event inst = { .type = PMCDRV_EVENT_HW, .event = PMC_EVENT_FIXED_PSEUDO,
					   .umask = 1, .flags = PMCDRV_EVF_USER };
	struct pmc_arch_perfmon tpm;
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	static struct pmc_mux_work w;
	u32 counter[PMCDRV_MAX_EVENTS];
	unsigned int i, r, seen[PMCDRV_MAX_EVENTS] = { 0 };

	pmc_type_set_gp(&pm, PMC_CORE_TYPE_CORE, 0xff);
	/* 8 P-core events (0..7), 7 E-core events (8..14), instructions:u of none (15) */
	typed_gp(&cfg, 15, 0xc4, false);
	for (i = 8; i < 15; i++)
		cfg.events[i].core_type = PMCDRV_CORE_TYPE_ATOM;
	cfg.events[15] = inst;
	cfg.nr_events = 16;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);

	/* P-cores: the 8 on GP 0..7, instructions:u on fixed counter 0, in one step */
	pmc_mux_prepare_type(&cfg, NULL, PMC_CORE_TYPE_CORE, &w);
	CU_ASSERT(w.nhw == 9 && w.nr_units == 9 && w.hwi[7] == 7 && w.hwi[8] == 15);
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_CORE, &tpm);
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &tpm, NULL, ~0ULL, 0), 9);
	CU_ASSERT(w.hw[8] == 15 && w.idx[8] == PMC_GLOBAL_FIXED_SHIFT && w.idx[7] == 7);

	/* E-cores: 7 GP events on 6 counters take turns, instructions:u in every step */
	pmc_mux_prepare_type(&cfg, NULL, PMC_CORE_TYPE_ATOM, &w);
	CU_ASSERT(w.nhw == 8 && w.nr_units == 8 && w.hwi[0] == 8 && w.hwi[7] == 15);
	pmc_type_perfmon(&pm, PMC_CORE_TYPE_ATOM, &tpm);
	for (r = 0; r < w.nr_units; r++) {
		bool inst_on = false;

		CU_ASSERT_EQUAL(pmc_mux_step(&w, &tpm, NULL, ~0ULL, r), 7);
		for (i = 0; i < w.nr; i++) {
			CU_ASSERT(w.hw[i] >= 8 && w.hw[i] <= 15);
			CU_ASSERT(w.idx[i] < 6 || w.idx[i] == PMC_GLOBAL_FIXED_SHIFT);
			seen[w.hw[i]]++;
			inst_on |= w.hw[i] == 15;
		}
		CU_ASSERT(inst_on);
	}
	/* 6 of the 7 in each of the 8 steps: each off in one or two */
	for (i = 8, r = 0; i < 15; i++) {
		CU_ASSERT(seen[i] == 6 || seen[i] == 7);
		r += seen[i];
	}
	CU_ASSERT_EQUAL(r, 48);
	CU_ASSERT_EQUAL(seen[15], 8);

	/* Every other type: instructions:u alone; a type with no event of its own */
	pmc_mux_prepare_type(&cfg, NULL, 0, &w);
	CU_ASSERT(w.nhw == 1 && w.nr_units == 1 && w.hwi[0] == 15);
	cfg.events[15] = cfg.events[0];
	pmc_mux_prepare_type(&cfg, NULL, 0, &w);
	CU_ASSERT(w.nhw == 0 && w.nr_units == 0);
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &pm, NULL, ~0ULL, 0), 0);
}

/* Multiplexing: units, rotation steps, extra values apart, the interval's bounds. */
static void test_mux_steps(void)
{
	const struct pmc_extra_model *m = pmc_extra_model_find(6, 0x5e);
	struct pmc_arch_perfmon pm = skl();
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_mux_work w;
	u32 counter[PMCDRV_MAX_EVENTS];
	unsigned int i, r, seen[PMCDRV_MAX_EVENTS] = { 0 };
	bool g2, g3;

	memset(&cfg, 0, sizeof(cfg));
	for (i = 0; i < 6; i++)
		cfg.events[i] = hw_ev(0xd1, 1U << i, i == 2 || i == 3 ? 7 : 0);
	cfg.events[6] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW, .sw_id = PMCDRV_SW_TASK_CLOCK };
	cfg.nr_events = 7;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.mux);
	pmc_mux_prepare(&cfg, m, &w);
	CU_ASSERT_EQUAL(w.nhw, 6);
	CU_ASSERT_EQUAL(w.nr_units, 5);
	CU_ASSERT_EQUAL(w.unit[2], w.unit[3]);
	/* Step 0: units 0, 1 and the group fill the 4 GP counters. */
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &pm, m, ~0ULL, 0), 4);
	CU_ASSERT_EQUAL(w.hw[0], 0);
	CU_ASSERT_EQUAL(w.hw[3], 3);
	/* Step 3 (hardware event 4): 4, 5, then 0, 1; the group no longer fits. */
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &pm, m, ~0ULL, 3), 4);
	CU_ASSERT_EQUAL(w.hw[0], 4);
	CU_ASSERT_EQUAL(w.hw[1], 5);
	CU_ASSERT_EQUAL(w.hw[2], 0);
	CU_ASSERT_EQUAL(w.hw[3], 1);
	for (r = 0; r < w.nr_units; r++) {
		pmc_mux_step(&w, &pm, m, ~0ULL, r);
		g2 = g3 = false;
		for (i = 0; i < w.nr; i++) {
			seen[w.hw[i]]++;
			g2 |= w.hw[i] == 2;
			g3 |= w.hw[i] == 3;
			CU_ASSERT(w.idx[i] < 4);
		}
		CU_ASSERT_EQUAL(g2, g3);	/* a group is on the counters whole or not at all */
	}
	for (i = 0; i < w.nhw; i++)
		CU_ASSERT(seen[i] > 0);

	/* Two offcore events with different values: never in one step. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.events[0] = hw_ev(0xb7, 0x01, 0);
	cfg.events[0].extra = 0x10001;
	cfg.events[1] = cfg.events[0];
	cfg.events[1].extra = 0x10002;
	cfg.events[2] = hw_ev(0xc0, 0x00, 0);
	cfg.nr_events = 3;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_FALSE(v.mux);
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &w.extra, &v), 0);
	CU_ASSERT(v.mux);
	pmc_mux_prepare(&cfg, m, &w);
	CU_ASSERT_EQUAL(w.nr_units, 3);
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &pm, m, ~0ULL, 0), 2);
	CU_ASSERT_EQUAL(w.hw[0], 0);
	CU_ASSERT_EQUAL(w.hw[1], 2);
	CU_ASSERT_EQUAL(w.extra.val[0], 0x10001);
	CU_ASSERT_EQUAL(pmc_mux_step(&w, &pm, m, ~0ULL, 1), 2);
	CU_ASSERT_EQUAL(w.hw[0], 1);
	CU_ASSERT_EQUAL(w.extra.val[0], 0x10002);
	CU_ASSERT_EQUAL(w.extra.msr[0], PMC_MSR_OFFCORE_RSP_0);

	/* mux_interval_ns: 0 or 1 ms..1 s. */
	cfg.mux_interval_ns = PMCDRV_MUX_INTERVAL_MIN_NS - 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_BAD_MUX_INTERVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_config_strerror(&v), "mux_interval_ns"));
	cfg.mux_interval_ns = PMCDRV_MUX_INTERVAL_MAX_NS + 1;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	cfg.mux_interval_ns = PMCDRV_MUX_INTERVAL_MIN_NS;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	cfg.mux_interval_ns = PMCDRV_MUX_INTERVAL_MAX_NS;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
}

static void test_config_extra(void)
{
	const struct pmc_extra_model *m = pmc_extra_model_find(6, 0x5e);
	struct pmc_arch_perfmon pm = skl();
	struct pmcdrv_config cfg;
	struct pmc_config_verdict v;
	struct pmc_extra_prog xp;
	u32 counter[PMCDRV_MAX_EVENTS];

	memset(&cfg, 0, sizeof(cfg));
	cfg.events[0] = hw_ev(0xc0, 0x00, 0);
	cfg.events[1] = hw_ev(0xb7, 0x01, 0);
	cfg.events[1].extra = 0x10001;
	cfg.nr_events = 2;
	/* What pmc_config_check() found stays: the module claims the PMU from it. */
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT(v.has_hw);
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	CU_ASSERT(v.has_hw);
	CU_ASSERT_EQUAL(xp.used, 1);
	CU_ASSERT_EQUAL(xp.msr[0], PMC_MSR_OFFCORE_RSP_0);
	CU_ASSERT_EQUAL(xp.val[0], 0x10001);
	/* No table: EOPNOTSUPP for the extra value, nothing for plain events. */
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, NULL, &xp, &v), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_NO_EXTRA_REGS);
	CU_ASSERT_EQUAL(v.bad_index, 1);
	cfg.events[1].extra = 0;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, NULL, &xp, &v), 0);
	CU_ASSERT_EQUAL(xp.used, 0);
	/* An event without an extra register. */
	cfg.events[0].extra = 1;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_EXTRA_NO_REG);
	CU_ASSERT_EQUAL(v.bad_index, 0);
	cfg.events[0].extra = 0;
	/* Reserved bits 12..14, and bit 38. */
	cfg.events[1].extra = 0x1000;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_EXTRA_RESERVED);
	cfg.events[1].extra = 1ULL << 38;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), -EINVAL);
	cfg.events[1].extra = 0x3fffff8fffULL;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	/* The same register twice: one value fits, two do not. */
	cfg.events[2] = cfg.events[1];
	cfg.events[2].flags = PMCDRV_EVF_KERNEL;
	cfg.nr_events = 3;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	cfg.events[2].extra = 0x10002;
	/* Two units: scheduled apart; one group: ENOSPC. */
	memset(&v, 0, sizeof(v));
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	CU_ASSERT(v.mux);
	/* ... and so when an event names a core type (each type takes turns). */
	memset(&v, 0, sizeof(v));
	cfg.events[0].core_type = PMCDRV_CORE_TYPE_CORE;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	CU_ASSERT(v.mux);
	cfg.events[0].core_type = 0;
	memset(&v, 0, sizeof(v));
	cfg.events[1].group = 4;
	cfg.events[2].group = 4;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), -ENOSPC);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_EXTRA_CONFLICT);
	CU_ASSERT_EQUAL(v.bad_index, 2);
	cfg.events[1].group = 0;
	cfg.events[2].group = 0;
	memset(&v, 0, sizeof(v));
	/* Two registers: OFFCORE_RESPONSE_1 takes MSR_OFFCORE_RSP_1. */
	cfg.events[2] = hw_ev(0xbb, 0x01, 0);
	cfg.events[2].extra = 0x10002;
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
	CU_ASSERT_EQUAL(xp.used, 3);
	CU_ASSERT_EQUAL(xp.msr[1], PMC_MSR_OFFCORE_RSP_1);
	CU_ASSERT_EQUAL(xp.val[1], 0x10002);
	/* Software events are not looked at (their extra is the event check's). */
	cfg.events[0] = (struct pmcdrv_event){ .type = PMCDRV_EVENT_SW,
					       .sw_id = PMCDRV_SW_TASK_CLOCK };
	CU_ASSERT_EQUAL(pmc_config_extra(&cfg, m, &xp, &v), 0);
}

static void test_enabled_counters(void)
{
	struct pmc_arch_perfmon pm = skl();
	u64 evtsel[4] = { 0, PMC_EVTSEL_EN | 0xc0, 0xc0 | PMC_EVTSEL_USR, PMC_EVTSEL_EN };

	CU_ASSERT_EQUAL(pmc_enabled_counters(&pm, evtsel, 0), 0xaULL);
	/* Fixed 0 counts user, fixed 1 has only PMI (not counting), fixed 2 counts OS. */
	CU_ASSERT_EQUAL(pmc_enabled_counters(&pm, evtsel, 0x182), 0x10000000aULL | (1ULL << 34));
	/* Fields of counters that do not exist are ignored. */
	CU_ASSERT_EQUAL(pmc_enabled_counters(&pm, evtsel, 0x3000), 0xaULL);
}

/* ---- arithmetic ---- */

static void test_delta(void)
{
	CU_ASSERT_EQUAL(pmc_delta(100, 250, 48), 150);
	CU_ASSERT_EQUAL(pmc_delta(5, 5, 48), 0);
	CU_ASSERT_EQUAL(pmc_delta((1ULL << 48) - 10, 5, 48), 15);
	CU_ASSERT_EQUAL(pmc_delta((1ULL << 40) - 1, 0, 40), 1);
	CU_ASSERT_EQUAL(pmc_delta(0xfffffff0, 0x10, 32), 0x20);
	CU_ASSERT_EQUAL(pmc_delta(~0ULL - 1, 3, 64), 5);
	CU_ASSERT_EQUAL(pmc_delta(0, (1ULL << 48) - 1, 48), (1ULL << 48) - 1);
	/* Bits above the width (e.g. a sign-extended legacy read) do not leak in. */
	CU_ASSERT_EQUAL(pmc_delta(0xffff000000000000ULL | 7, 9, 48), 2);
}

static void test_legacy_write(void)
{
	u64 out = 123;

	CU_ASSERT_TRUE(pmc_legacy_write_value(0, 48, &out));
	CU_ASSERT_EQUAL(out, 0);
	CU_ASSERT_TRUE(pmc_legacy_write_value(0x7fffffff, 48, &out));
	CU_ASSERT_EQUAL(out, 0x7fffffff);
	/* 2^31 would be sign-extended to 0xffff80000000: needs a full-width write. */
	CU_ASSERT_FALSE(pmc_legacy_write_value(0x80000000ULL, 48, &out));
	/* -65536 as a 48-bit counter: representable. */
	CU_ASSERT_TRUE(pmc_legacy_write_value(0xffffffff0000ULL, 48, &out));
	CU_ASSERT_EQUAL(out, 0xffff0000ULL);
	CU_ASSERT_FALSE(pmc_legacy_write_value(0x100000000ULL, 48, &out));
	CU_ASSERT_TRUE(pmc_legacy_write_value(0xffffffffULL, 32, &out));
	CU_ASSERT_TRUE(pmc_legacy_write_value(~0ULL, 64, &out));
	CU_ASSERT_EQUAL(out, 0xffffffffULL);
}

/* ---- output helpers ---- */

static void test_thousands(void)
{
	char b[32];

	CU_ASSERT_STRING_EQUAL(fmt_thousands(0, b, sizeof(b)), "0");
	CU_ASSERT_STRING_EQUAL(fmt_thousands(999, b, sizeof(b)), "999");
	CU_ASSERT_STRING_EQUAL(fmt_thousands(1000, b, sizeof(b)), "1,000");
	CU_ASSERT_STRING_EQUAL(fmt_thousands(1234567, b, sizeof(b)), "1,234,567");
	CU_ASSERT_STRING_EQUAL(fmt_thousands(~0ULL, b, sizeof(b)), "18,446,744,073,709,551,615");
	/* Truncation stays NUL-terminated and within the buffer. */
	CU_ASSERT_EQUAL(strlen(fmt_thousands(1234567, b, 4)), 3);
}

static void test_counter_mask_fmt(void)
{
	char b[128];

	CU_ASSERT_STRING_EQUAL(fmt_counter_mask(0, b, sizeof(b)), "none");
	CU_ASSERT_STRING_EQUAL(fmt_counter_mask(0x70000000fULL, b, sizeof(b)), "PMC0-3,FIXED0-2");
	CU_ASSERT_STRING_EQUAL(fmt_counter_mask(0x5ULL | (1ULL << 35), b, sizeof(b)),
			       "PMC0,PMC2,FIXED3");
}

/* The periodic fold: half the narrowest counter's wrap time at 2^36 events/s, 1 ms..60 s. */
static void test_fold_period(void)
{
	struct pmc_arch_perfmon pm = { .version = 2, .num_gp = 4, .gp_width = 48,
				       .num_fixed = 3, .fixed_width = 48 };

	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), PMC_FOLD_PERIOD_MAX_MS);
	pm.gp_width = 40;			/* 2^3 s: Core 2 era */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 8000);
	pm.gp_width = 48;
	pm.fixed_width = 42;			/* the narrower kind decides */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 32000);
	pm.fixed_width = 43;			/* 64 s: clamped */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), PMC_FOLD_PERIOD_MAX_MS);
	pm.fixed_width = 37;
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 1000);
	pm.fixed_width = 34;			/* 1/8 s */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 125);
	pm.fixed_width = 27;			/* under 1 ms: at least 1 */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 1);
	pm.fixed_width = 1;
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 1);
	pm.num_fixed = 0;			/* fixed width ignored without fixed counters */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), PMC_FOLD_PERIOD_MAX_MS);
	pm.num_gp = 0;
	pm.num_fixed = 3;
	pm.fixed_width = 40;			/* only fixed counters */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 8000);
	pm.num_fixed = 0;			/* no counters at all */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 0);
	pm.num_gp = 4;
	pm.version = 0;				/* no perfmon */
	CU_ASSERT_EQUAL(pmc_fold_period_ms(&pm), 0);
}

static void test_json_string(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	json_string(f, "a\"b\\c\nd\te\x01");
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(buf);
}

/*
 * A CPU's registers for pmc_scan_in_use(): EVTSEL1 enabled, EVTSEL3 with an
 * event code but EN clear (a counter perf disabled), fixed 1 counting,
 * INUSE bits 1 and 3 (bit 3: "event select non-zero", not enabled).
 */
static int scan_rd(void *ctx, u32 msr, u64 *val)
{
	const bool *inuse_faults = ctx;

	switch (msr) {
	case PMC_MSR_PERFEVTSEL0 + 1:
		*val = PMC_EVTSEL_EN | 0xc0;
		return 0;
	case PMC_MSR_PERFEVTSEL0 + 2:
		return -EIO;		/* counts as not enabled */
	case PMC_MSR_PERFEVTSEL0 + 3:
		*val = 0x0300c0;	/* USR|OS, EN clear: disabled by perf */
		return 0;
	case PMC_MSR_FIXED_CTR_CTRL:
		*val = PMC_FIXED_CTRL_USR << PMC_FIXED_CTRL_FIELD_BITS;
		return 0;
	case PMC_MSR_PERF_GLOBAL_INUSE:
		if (*inuse_faults)
			return -EIO;
		*val = 0x2 | 0x8 | BIT_ULL(60);
		return 0;
	default:
		*val = 0;
		return 0;
	}
}

static void test_scan_in_use(void)
{
	struct pmc_arch_perfmon pm = { .version = 4, .num_gp = 4, .gp_width = 48,
				       .num_fixed = 3, .fixed_width = 48, .fixed_mask = 0x7 };
	bool faults = false, inuse_read;

	/* GLOBAL_INUSE is read, but "enabled" is EN and FIXED_CTR_CTRL alone. */
	CU_ASSERT_EQUAL(pmc_scan_in_use(&pm, scan_rd, &faults, &inuse_read),
			0x2 | BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + 1));
	CU_ASSERT_TRUE(inuse_read);
	faults = true;
	CU_ASSERT_EQUAL(pmc_scan_in_use(&pm, scan_rd, &faults, &inuse_read),
			0x2 | BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + 1));
	CU_ASSERT_FALSE(inuse_read);
	pm.version = 3;
	faults = false;
	CU_ASSERT_EQUAL(pmc_scan_in_use(&pm, scan_rd, &faults, &inuse_read),
			0x2 | BIT_ULL(PMC_GLOBAL_FIXED_SHIFT + 1));
	CU_ASSERT_FALSE(inuse_read);
}

/* ---- Topdown: PERF_METRICS x fixed counter 3 ---------------------------------- */

static void td_pm(struct pmc_arch_perfmon *pm, u32 metrics)
{
	memset(pm, 0, sizeof(*pm));
	pm->version = 5;
	pm->num_gp = 8;
	pm->gp_width = 48;
	pm->num_fixed = 4;
	pm->fixed_width = 48;
	pm->fixed_mask = 0xf;
	pm->events_len = 8;
	pm->events_avail = 0xff;
	pm->td_metrics = metrics;
}

static struct pmcdrv_event td_ev(u32 umask, u32 group, u32 flags)
{
	return (struct pmcdrv_event){ .type = PMCDRV_EVENT_HW, .event = 0, .umask = umask,
				      .flags = flags, .group = group };
}

static void test_td_logic(void)
{
	const u32 uk = PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL;
	struct pmc_event_spec s = { .event = 0, .umask = 0x80, .flags = PMC_EVF_USER };
	struct pmc_config_verdict v;
	struct pmcdrv_config cfg;
	struct pmc_arch_perfmon pm;
	struct pmc_prog p;
	struct pmc_event_spec specs[3];
	u32 counter[PMCDRV_MAX_EVENTS], idx[3];
	enum pmc_event_err why;

	/* Linux's icl_get_metrics_event_value(): slots * byte / 0xff */
	CU_ASSERT_EQUAL(pmc_td_metric_value(0x80402010ULL, 255000, 0), 16000);
	CU_ASSERT_EQUAL(pmc_td_metric_value(0x80402010ULL, 255000, 3), 128000);
	CU_ASSERT_EQUAL(pmc_td_metric_value(0xff00000000000000ULL, 1ULL << 47, 7), 1ULL << 47);
	CU_ASSERT_EQUAL(pmc_td_metric_value(0x80402010ULL, 0, 1), 0);
	/* which CPUs have how many fields */
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x8f, PMC_PERF_CAP_PERF_METRICS, 0xf), 8);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0xcf, PMC_PERF_CAP_PERF_METRICS, 0xf), 8);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x6a, PMC_PERF_CAP_PERF_METRICS, 0xf), 4);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x8f, 0, 0xf), 0);
	CU_ASSERT_EQUAL(pmc_td_metrics(6, 0x8f, PMC_PERF_CAP_PERF_METRICS, 0x7), 0);
	/* events */
	td_pm(&pm, 8);
	CU_ASSERT_EQUAL(pmc_event_td_metric(&s), 0);
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), 0);
	s.umask = 0x87;
	CU_ASSERT_EQUAL(pmc_event_td_metric(&s), 7);
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), 0);
	s.umask = 0x88;
	CU_ASSERT_EQUAL(pmc_event_td_metric(&s), -1);
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), -EINVAL);
	s.umask = 0x84;
	pm.td_metrics = 4;
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(why, PMC_EVENT_NO_TD_METRIC);
	pm.td_metrics = 0;
	s.umask = 0x80;
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), -EOPNOTSUPP);
	td_pm(&pm, 8);
	s.cmask = 1;
	CU_ASSERT_EQUAL(pmc_event_check(&s, &pm, &why), -EINVAL);
	CU_ASSERT_EQUAL(why, PMC_EVENT_FIXED_ONLY_MODIFIERS);
	/* a metric needs slots in its (non-zero) group, with the same modes */
	memset(&cfg, 0, sizeof(cfg));
	cfg.nr_events = 2;
	cfg.events[0] = td_ev(0x04, 1, uk);
	cfg.events[1] = td_ev(0x80, 1, uk);
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), 0);
	CU_ASSERT_EQUAL(counter[0], PMC_GLOBAL_FIXED_SHIFT + 3);
	CU_ASSERT_EQUAL(counter[1], PMC_TD_IDX_BASE);
	cfg.events[1].group = 0;
	cfg.events[0].group = 0;
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	CU_ASSERT_EQUAL(v.err, PMC_CONFIG_TD_NEEDS_SLOTS);
	cfg.events[0] = td_ev(0x04, 1, PMCDRV_EVF_USER);
	cfg.events[1] = td_ev(0x80, 1, uk);
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	cfg.nr_events = 1;
	cfg.events[0] = td_ev(0x83, 1, uk);
	cfg.events[1] = (struct pmcdrv_event){ 0 };
	CU_ASSERT_EQUAL(pmc_config_check(&cfg, &pm, ~0ULL, counter, &v), -EINVAL);
	/* the program: no counter for a metric, PERF_METRICS's enable bit */
	specs[0] = (struct pmc_event_spec){ .event = 0, .umask = 4, .flags = PMC_EVF_USER };
	specs[1] = (struct pmc_event_spec){ .event = 0, .umask = 0x81, .flags = PMC_EVF_USER };
	specs[2] = (struct pmc_event_spec){ .event = 0xc0, .flags = PMC_EVF_USER };
	CU_ASSERT_EQUAL(pmc_assign_counters(specs, 3, &pm, ~0ULL, idx), 0);
	CU_ASSERT_EQUAL(idx[1], PMC_TD_IDX_BASE + 1);
	pmc_prog_build(specs, idx, 3, &pm, true, &p);
	CU_ASSERT_EQUAL(p.td_mask, 0x2);
	CU_ASSERT_EQUAL(p.global_mask, BIT_ULL(idx[0]) | BIT_ULL(idx[2]) | PMC_GLOBAL_PERF_METRICS);
	CU_ASSERT_EQUAL(p.width[1], 64);
	CU_ASSERT_EQUAL(p.ctr_msr[1], 0);
	/* slots on fixed counter 3, instructions on fixed counter 0 */
	CU_ASSERT_EQUAL(p.fixed_ctrl, ((u64)PMC_FIXED_CTRL_USR << 12) | PMC_FIXED_CTRL_USR);
}

/* Counters hand over between two sessions only with the same user-only program. */
static void test_prog_use(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmc_event_spec specs[2] = {
		{ .event = 0xc0, .flags = PMC_EVF_USER },		/* fixed 0 */
		{ .event = 0x2e, .umask = 0x41, .flags = PMC_EVF_USER },
	};
	struct pmc_prog_use a = { 0 }, b = { 0 };
	struct pmc_prog p;
	u32 idx[2];

	CU_ASSERT_EQUAL_FATAL(pmc_assign_counters(specs, 2, &pm, ~0ULL, idx), 0);
	pmc_prog_build(specs, idx, 2, &pm, true, &p);
	pmc_prog_use(&p, &a);
	CU_ASSERT_EQUAL(a.counters, BIT_ULL(0) | BIT_ULL(PMC_GLOBAL_FIXED_SHIFT));
	/* GP counter 1 alone: apart; GP counter 0 or fixed counter 0: together */
	idx[0] = 1;
	pmc_prog_build(&specs[1], idx, 1, &pm, true, &p);
	pmc_prog_use(&p, &b);
	CU_ASSERT_FALSE(pmc_prog_use_overlap(&a, &b));
	CU_ASSERT_FALSE(pmc_prog_use_overlap(&b, &a));
	idx[0] = 0;
	pmc_prog_build(&specs[1], idx, 1, &pm, true, &p);
	pmc_prog_use(&p, &b);
	CU_ASSERT_TRUE(pmc_prog_use_overlap(&a, &b));
	memset(&b, 0, sizeof(b));
	idx[0] = PMC_GLOBAL_FIXED_SHIFT;
	pmc_prog_build(specs, idx, 1, &pm, true, &p);
	pmc_prog_use(&p, &b);
	CU_ASSERT_TRUE(pmc_prog_use_overlap(&a, &b));
	/* two topdown metrics share PERF_METRICS: together */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&p, 0, sizeof(p));
	p.nr = 1;
	p.idx[0] = PMC_TD_IDX_BASE;
	p.global_mask = PMC_GLOBAL_PERF_METRICS;
	pmc_prog_use(&p, &a);
	p.idx[0] = PMC_TD_IDX_BASE + 1;
	pmc_prog_use(&p, &b);
	CU_ASSERT_EQUAL(a.counters, PMC_GLOBAL_PERF_METRICS);
	CU_ASSERT_TRUE(pmc_prog_use_overlap(&a, &b));
	/* one extra register in both, used twice in one: listed once; another: apart */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&p, 0, sizeof(p));
	p.extra.used = 3;
	p.extra.msr[0] = 0x1a6;
	p.extra.msr[1] = 0x1a6;
	pmc_prog_use(&p, &a);
	CU_ASSERT_EQUAL(a.nr_extra, 1);
	p.extra.used = 1;
	p.extra.msr[0] = 0x1a7;
	pmc_prog_use(&p, &b);
	CU_ASSERT_FALSE(pmc_prog_use_overlap(&a, &b));
	p.extra.msr[0] = 0x1a6;
	pmc_prog_use(&p, &b);
	CU_ASSERT_EQUAL(b.nr_extra, 2);
	CU_ASSERT_TRUE(pmc_prog_use_overlap(&a, &b));
}

static void test_prog_handover(void)
{
	struct pmc_arch_perfmon pm = skl();
	struct pmc_event_spec specs[3] = {
		{ .event = 0xc0, .flags = PMC_EVF_USER },		/* fixed 0 */
		{ .event = 0x2e, .umask = 0x41, .flags = PMC_EVF_USER },
		{ .event = 0x3c, .flags = PMC_EVF_USER },		/* fixed 1 */
	};
	struct pmc_prog a, b;
	u32 idx[3];

	CU_ASSERT_EQUAL_FATAL(pmc_assign_counters(specs, 3, &pm, ~0ULL, idx), 0);
	pmc_prog_build(specs, idx, 3, &pm, true, &a);
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	CU_ASSERT_TRUE(pmc_prog_handover(&a, &b));
	/* another umask, another counter, a kernel-mode GP or fixed counter: no */
	specs[1].umask = 0x4f;
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	specs[1].umask = 0x41;
	idx[1]++;
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	idx[1]--;
	specs[1].flags |= PMC_EVF_KERNEL;
	pmc_prog_build(specs, idx, 3, &pm, true, &a);
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	specs[1].flags = PMC_EVF_USER;
	specs[2].flags |= PMC_EVF_KERNEL;
	pmc_prog_build(specs, idx, 3, &pm, true, &a);
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	specs[2].flags = PMC_EVF_USER;
	/* fewer events, or another extra register value */
	pmc_prog_build(specs, idx, 3, &pm, true, &a);
	pmc_prog_build(specs, idx, 2, &pm, true, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	pmc_prog_build(specs, idx, 3, &pm, true, &b);
	a.extra.used = b.extra.used = 1;
	a.extra.msr[0] = b.extra.msr[0] = 0x1a6;
	a.extra.val[0] = 0x10001;
	b.extra.val[0] = 0x10002;
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
	b.extra.val[0] = 0x10001;
	CU_ASSERT_TRUE(pmc_prog_handover(&a, &b));
	/* legacy and full-width counter MSRs are not the same program */
	pmc_prog_build(specs, idx, 3, &pm, false, &b);
	CU_ASSERT_FALSE(pmc_prog_handover(&a, &b));
}

void register_pmu_logic_tests(void)
{
	static const struct unit_test tests[] = {
		{ "decode CPUID.0AH vectors", test_decode_vectors },
		{ "counter mask", test_counter_mask },
		{ "describe CPU from CPUID", test_describe_cpu },
		{ "a hybrid part's core type", test_core_type },
		{ "a hybrid core type's own counters", test_hybrid_type_counters },
		{ "a hybrid session's program per core type", test_prog_for_core_type },
		{ "family/model/stepping", test_fms },
		{ "event check", test_event_check },
		{ "EVTSEL encoding", test_evtsel_encode },
		{ "fixed counter index", test_fixed_index },
		{ "counter assignment", test_assign },
		{ "fixed-only events never take a GP counter", test_assign_fixed_only },
		{ "config check names a busy fixed-only event", test_config_fixed_busy },
		{ "config layout of the caller", test_config_layout },
		{ "config groups fit the counters", test_config_groups },
		{ "config VER1 fields", test_config_ver1_fields },
		{ "extra-register tables", test_extra_models },
		{ "config extra values", test_config_extra },
		{ "multiplexing units and steps", test_mux_steps },
		{ "multiplexing per core type", test_mux_core_type },
		{ "top-down on the P-cores of a hybrid part", test_topdown_core_type },
		{ "enabled counters", test_enabled_counters },
		{ "who has counters in use", test_scan_in_use },
		{ "width-agnostic delta", test_delta },
		{ "legacy PMC write", test_legacy_write },
		{ "thousands separators", test_thousands },
		{ "counter mask text", test_counter_mask_fmt },
		{ "JSON strings", test_json_string },
		{ "periodic fold period", test_fold_period },
		{ "topdown metrics", test_td_logic },
		{ "counters handed over between sessions", test_prog_handover },
		{ "what two programs take of one PMU", test_prog_use },
	};

	UNIT_ADD_SUITE("pmu_logic", tests);
}
