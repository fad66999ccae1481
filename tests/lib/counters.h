/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event lists for the guest's tests that take every counter of CPU 0, or
 * one GP counter, on the emulated models: Skylake's (and the other
 * one-core-type models') and the hybrid Alder Lake's.
 */
#ifndef PMCDRV_TESTS_COUNTERS_H
#define PMCDRV_TESTS_COUNTERS_H

#include "libpmc.h"

/* Skylake's 7: 4 GP (r10000c0: cmask 1, so no fixed counter takes it) and 3 fixed. */
#define ALL_COUNTERS	"instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u,r10000c0:u"
/*
 * On a hybrid CPU a model event that names no core type (r10000c0) is
 * refused, the architectural events there are only cycles, instructions
 * and ref-cycles, and the counters are the types' common subset, 6 GP: the
 * last three are P-core events (cpu_core/.../), which count on CPU 0, a
 * P-core on the emulated hybrid parts (tests/qemu/README.md).
 */
#define ALL_COUNTERS_HYBRID	"instructions:u,cycles:u,ref-cycles:u,r00c0:u,r003c:u,r013c:u," \
				"cpu_core/event=0xc0,cmask=1/u,cpu_core/event=0x3c,cmask=1/u," \
				"cpu_core/event=0xc0,cmask=2/u"

static inline bool counters_hybrid(void)
{
	struct pmcdrv_info info;

	return !pmc_cpuid_info(&info, NULL) && (info.flags & PMCDRV_INFO_HYBRID);
}

/* Every counter of CPU 0. */
static inline const char *all_counters(void)
{
	return counters_hybrid() ? ALL_COUNTERS_HYBRID : ALL_COUNTERS;
}

/* One GP-only event, counting on CPU 0 (cmask 1: no fixed counter takes it). */
static inline const char *gp_only_event(void)
{
	return counters_hybrid() ? "cpu_core/event=0xc0,cmask=1/u" : "r10000c0:u";
}

#endif
