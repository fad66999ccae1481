// SPDX-License-Identifier: GPL-2.0
/*
 * The one unit-test binary (make unit): registers every suite, runs them
 * with CUnit, and ends with "unit: N passed, N failed, N skipped" for
 * tests/check.sh.  A test that cannot run here is skipped out loud, never
 * passed without an assertion.
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

static unsigned int nr_skipped;

void unit_skip(const char *name, const char *why)
{
	printf("SKIP: %s: %s\n", name, why);
	nr_skipped++;
}

void unit_add_suite(const char *name, const struct unit_test *tests, size_t n)
{
	CU_pSuite suite = CU_add_suite(name, NULL, NULL);
	size_t i;

	if (!suite)
		return;
	for (i = 0; i < n; i++)
		CU_add_test(suite, tests[i].name, tests[i].fn);
}

int main(void)
{
	unsigned int run, failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	register_event_tests();
	register_cpulist_tests();
	register_report_tests();
	register_pmu_logic_tests();
	register_msr_pmu_tests();
	register_region_tests();
	register_self_tests();
	register_pfm_tests();
	register_sessions_tests();
	register_pmu_events_tests();
	register_metric_tests();
	register_mpi_tests();
	register_merge_tests();
	register_plot_tests();
	register_expo_tests();
	register_interval_tests();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	run = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	printf("unit: %u passed, %u failed, %u skipped\n", run - failed, failed, nr_skipped);
	return failed ? 1 : 0;
}
