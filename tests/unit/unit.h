/* SPDX-License-Identifier: GPL-2.0 */
/* The one unit-test binary: its suites and how each registers. */
#ifndef PMCDRV_UNIT_H
#define PMCDRV_UNIT_H

#include <CUnit/CUnit.h>
#include <stddef.h>

#define N_ELEMS(a)	(sizeof(a) / sizeof((a)[0]))

struct unit_test {
	const char *name;
	CU_TestFunc fn;
};

/* Add suite @name with its @n tests (main() in test_pmu_logic.c runs them). */
void unit_add_suite(const char *name, const struct unit_test *tests, size_t n);
#define UNIT_ADD_SUITE(name, tests)	unit_add_suite((name), (tests), N_ELEMS(tests))

void register_event_tests(void);	/* tests/unit/test_events.c */
void register_cpulist_tests(void);	/* tests/unit/test_cpulist.c */
void register_report_tests(void);	/* tests/unit/test_report.c */

#endif /* PMCDRV_UNIT_H */
