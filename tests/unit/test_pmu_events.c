// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kernel's event tables (user/libpmc/pmu_events.c and the
 * generated build/gen/pmu_events.c): the model chosen as perf chooses it
 * from the CPUID string, events by name and core type, their encodings for
 * pmcdrv, and where the kernel's data and libpfm4's Skylake tables disagree
 * on an encoding.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"
#include "pmu_events.h"
#include "unit.h"

static const char *model_name(const char *cpuid)
{
	const struct pmc_pe_model *m = pmc_pe_model_find(cpuid);

	return m ? pmc_pe_str(m->name) : "(none)";
}

/* mapfile.csv's expressions, matched as perf's strcmp_cpuid_str() matches them. */
static void test_models(void)
{
	struct pmcdrv_info info;
	char id[64];

	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-5E-3"), "skylake");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-9E-A"), "skylake");
	/* model 0x55: the stepping tells Skylake-X from Cascade Lake */
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-55-4"), "skylakex");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-55-7"), "cascadelakex");
	/* ... and without a stepping, neither (their entries need one) */
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-55"), "(none)");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-97-2"), "alderlake");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-8F-8"), "sapphirerapids");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-AD-1"), "graniterapids");
	/* the whole string must match: not a prefix, not another vendor */
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-5EF-3"), "(none)");
	CU_ASSERT_STRING_EQUAL(model_name("AuthenticAMD-23-31-0"), "(none)");
	CU_ASSERT_STRING_EQUAL(model_name("GenuineIntel-6-FF-0"), "(none)");

	memset(&info, 0, sizeof(info));
	memcpy(info.vendor_id, "GenuineIntel", 12);
	info.family = 6;
	info.model = 0x5e;
	info.stepping = 3;
	CU_ASSERT_EQUAL_FATAL(pmc_pe_cpuid_str(&info, id, sizeof(id)), 0);
	CU_ASSERT_STRING_EQUAL(id, "GenuineIntel-6-5E-3");
	CU_ASSERT_EQUAL(pmc_pe_cpuid_str(&info, id, 8), -ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(pmc_pe_source[0] ? pmc_pe_source : NULL);
}

/* Look @name up in the model of @cpuid and encode it; the encode's result. */
static int encode(const char *cpuid, const char *name, enum pmc_pe_unit unit,
		  struct pmcdrv_event *ev)
{
	const struct pmc_pe_model *m = pmc_pe_model_find(cpuid);
	const struct pmc_pe_event *pe = m ? pmc_pe_event_find(m, name, unit) : NULL;

	memset(ev, 0, sizeof(*ev));
	return pe ? pmc_pe_event_encode(pe, ev) : -ENOENT;
}

static void test_events(void)
{
	struct pmcdrv_event ev;

	/* perf's table of fixed events: INST_RETIRED.ANY is event 0xc0 */
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-5E-3", "INST_RETIRED.ANY", PMC_PE_CPU, &ev), 0);
	CU_ASSERT(ev.event == 0xc0 && ev.umask == 0 && ev.type == PMCDRV_EVENT_HW);
	/* any case, as perf */
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-5E-3", "uops_issued.any", PMC_PE_CPU, &ev), 0);
	CU_ASSERT(ev.event == 0x0e && ev.umask == 0x01);
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-5E-3", "INT_MISC.RECOVERY_CYCLES", PMC_PE_CPU,
				     &ev), 0);
	CU_ASSERT(ev.event == 0x0d && ev.umask == 0x01);
	/* Haswell's encoding of the same event: counter mask 1 */
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-3C-3", "INT_MISC.RECOVERY_CYCLES", PMC_PE_CPU,
				     &ev), 0);
	CU_ASSERT(ev.event == 0x0d && ev.umask == 0x03 && ev.cmask == 1);
	/* TOPDOWN.SLOTS: perf's pseudo-encoding of fixed counter 3 */
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-8F-8", "TOPDOWN.SLOTS", PMC_PE_CPU, &ev), 0);
	CU_ASSERT(ev.event == 0x00 && ev.umask == 0x04);
	/* hybrid: one name per core type, each its own PMU's */
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-97-2", "INST_RETIRED.ANY", PMC_PE_CPU_CORE, &ev), 0);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-97-2", "INST_RETIRED.ANY", PMC_PE_CPU_ATOM, &ev), 0);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-97-2", "INST_RETIRED.ANY", PMC_PE_CPU, &ev), -ENOENT);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-97-2", "TOPDOWN.SLOTS", PMC_PE_CPU_ATOM, &ev),
			-ENOENT);
	/* an off-core response event takes its extra register's value */
	CU_ASSERT_EQUAL_FATAL(encode("GenuineIntel-6-5E-3", "OFFCORE_REQUESTS.ALL_REQUESTS",
				     PMC_PE_CPU, &ev), 0);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-5E-3", "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE", PMC_PE_CPU,
			       &ev), 0);
	CU_ASSERT(ev.event == 0xb7 && ev.extra != 0);
	/* what pmcdrv cannot program: AnyThread, PEBS load latency */
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-5E-3", "INT_MISC.RECOVERY_CYCLES_ANY", PMC_PE_CPU,
			       &ev), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-5E-3", "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4",
			       PMC_PE_CPU, &ev), -EOPNOTSUPP);
	CU_ASSERT_EQUAL(encode("GenuineIntel-6-5E-3", "NO_SUCH.EVENT", PMC_PE_CPU, &ev), -ENOENT);
}

/*
 * Every Skylake event of the kernel's data that libpfm4's skl table also
 * names (perf's spelling, dots as libpfm4's colons): the encodings agree,
 * or the difference is printed, and the differences must be exactly the
 * known ones below (a new one, or one gone, fails: the list stays true).
 * The unit binary forces libpfm4 to skl.
 */
static const char *const known_differ[] = {
	/* Linux 6.12's Skylake data: umask 0x02 (RETIRE_SLOTS); libpfm4 4.13: 0x01 */
	"UOPS_RETIRED:STALL_CYCLES",
	/* the same, and counter mask 16 against libpfm4's 10 */
	"UOPS_RETIRED:TOTAL_CYCLES",
};
static void test_disagree_libpfm4(void)
{
	const struct pmc_pe_model *m = pmc_pe_model_find("GenuineIntel-6-5E-3");
	unsigned int i, both = 0, differ = 0, known = 0, only_kernel = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	for (i = 0; i < m->nr_events; i++) {
		const struct pmc_pe_event *pe = &pmc_pe_events[m->first_event + i];
		struct pmcdrv_event a, b;
		char name[160], *p;

		if (pmc_pe_event_encode(pe, &a))
			continue;
		snprintf(name, sizeof(name), "skl::%s", pmc_pe_str(pe->name));
		for (p = name + 5; *p; p++)
			if (*p == '.')
				*p = ':';
		memset(&b, 0, sizeof(b));
		if (pmc_pfm_encode(name, &b, NULL, 0)) {
			only_kernel++;
			continue;
		}
		both++;
		b.flags &= ~(PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL);
		if (a.event != b.event || a.umask != b.umask || a.cmask != b.cmask ||
		    a.flags != b.flags || a.extra != b.extra) {
			unsigned int k;

			for (k = 0; k < ARRAY_SIZE(known_differ); k++)
				known += !strcmp(known_differ[k], name + 5);
			differ++;
			printf("\n  disagree: %s: kernel 0x%02x/0x%02x cmask %u flags 0x%x extra 0x%llx, "
			       "libpfm4 0x%02x/0x%02x cmask %u flags 0x%x extra 0x%llx", name + 5,
			       a.event, a.umask, a.cmask, a.flags, (unsigned long long)a.extra,
			       b.event, b.umask, b.cmask, b.flags, (unsigned long long)b.extra);
		}
	}
	printf("\n  skylake: %u events in both sources, %u differ; %u only in the kernel's data\n",
	       both, differ, only_kernel);
	CU_ASSERT(both > 100);
	CU_ASSERT_EQUAL(differ, ARRAY_SIZE(known_differ));
	CU_ASSERT_EQUAL(known, ARRAY_SIZE(known_differ));
}

/*
 * -e names in perf's spelling come from the kernel's data for the model
 * (PMCDRV_FORCE_CPUID names Skylake here), libpfm4's spelling from libpfm4.
 */
static void test_evlist_names(void)
{
	struct pmc_evlist l;
	char err[512] = "";

	setenv("PMCDRV_FORCE_CPUID", "GenuineIntel-6-5E-3", 1);
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "uops_issued.any:u,UOPS_ISSUED:ANY:u,"
					 "int_misc.recovery_cycles,uops_retired.stall_cycles",
					 err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 4);
	CU_ASSERT(l.ev[0].ev.event == 0x0e && l.ev[0].ev.umask == 0x01 &&
		  l.ev[0].ev.flags == PMCDRV_EVF_USER);
	CU_ASSERT(!memcmp(&l.ev[0].ev, &l.ev[1].ev, sizeof(l.ev[0].ev)));
	CU_ASSERT(l.ev[2].ev.event == 0x0d && l.ev[2].ev.umask == 0x01 &&
		  l.ev[2].ev.flags == (PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL));
	/* the kernel's encoding where libpfm4's differs (test_disagree_libpfm4) */
	CU_ASSERT(l.ev[3].ev.umask == 0x02 && l.ev[3].ev.cmask == 1 &&
		  (l.ev[3].ev.flags & PMCDRV_EVF_INV));
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "int_misc.recovery_cycles_any", err, sizeof(err)),
			-EOPNOTSUPP);
	CU_ASSERT(strstr(err, "AnyThread") != NULL);
	/* libpfm4's modifiers after perf's spelling: libpfm4 takes the name, as before */
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "uops_issued.any:c=1:i:u", err, sizeof(err)), 0);
	CU_ASSERT(l.n == 1 && l.ev[0].ev.event == 0x0e && l.ev[0].ev.cmask == 1 &&
		  l.ev[0].ev.flags == (PMCDRV_EVF_USER | PMCDRV_EVF_INV));
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "uops_issued.any:x", err, sizeof(err)), -EINVAL);
	unsetenv("PMCDRV_FORCE_CPUID");
}

void register_pmu_events_tests(void)
{
	static const struct unit_test tests[] = {
		{ "models as perf matches mapfile.csv", test_models },
		{ "events by name and core type, encoded", test_events },
		{ "kernel data vs libpfm4 (skl)", test_disagree_libpfm4 },
		{ "-e names: perf's spelling from the kernel's data", test_evlist_names },
	};
	UNIT_ADD_SUITE("pmu_events", tests);
}
