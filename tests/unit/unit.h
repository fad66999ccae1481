/* SPDX-License-Identifier: GPL-2.0 */
/* The one unit-test binary: its suites and how each registers. */
#ifndef PMCDRV_UNIT_H
#define PMCDRV_UNIT_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <pmcdrv/shim.h>	/* ARRAY_SIZE */


struct unit_test {
	const char *name;
	CU_TestFunc fn;
};

/* Add suite @name with its @n tests (main() in main.c runs them). */
void unit_add_suite(const char *name, const struct unit_test *tests, size_t n);
/* A test that cannot run here: printed as "SKIP: @name: @why" and counted. */
void unit_skip(const char *name, const char *why);
#define UNIT_ADD_SUITE(name, tests)	unit_add_suite((name), (tests), ARRAY_SIZE(tests))

void register_event_tests(void);	/* tests/unit/test_events.c */
void register_cpulist_tests(void);	/* tests/unit/test_cpulist.c */
void register_report_tests(void);	/* tests/unit/test_report.c */
void register_pmu_logic_tests(void);	/* tests/unit/test_pmu_logic.c */
void register_msr_pmu_tests(void);	/* tests/unit/test_msr_pmu.c */
void register_region_tests(void);	/* tests/unit/test_region.c */
void register_self_tests(void);		/* tests/unit/test_self.c */
void register_pfm_tests(void);		/* tests/unit/test_pfm.c */
void register_sessions_tests(void);	/* tests/unit/test_sessions.c */
void register_pmu_events_tests(void);	/* tests/unit/test_pmu_events.c */
void register_metric_tests(void);	/* tests/unit/test_metric.c */
void register_mpi_tests(void);		/* tests/unit/test_mpi.c */
void register_merge_tests(void);	/* tests/unit/test_merge.c */
void register_plot_tests(void);		/* tests/unit/test_plot.c */
void register_expo_tests(void);		/* tests/unit/test_expo.c */
void register_interval_tests(void);	/* tests/unit/test_interval.c */

#endif /* PMCDRV_UNIT_H */
