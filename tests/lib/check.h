/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal checks for test programs that run inside the guest: one line per
 * check, "PASS: name" or "FAIL: name: why", and a closing
 * "SUITE: N passed, N failed".  tests/guest/run-all counts these lines.
 */
#ifndef PMCDRV_TEST_CHECK_H
#define PMCDRV_TEST_CHECK_H

#include <stdio.h>

struct check_state {
	int passed;
	int failed;
};

#define CHECK(st, cond, name, ...)						\
	do {									\
		if (cond) {							\
			(st)->passed++;						\
			printf("PASS: %s\n", (name));				\
		} else {							\
			(st)->failed++;						\
			printf("FAIL: %s: ", (name));				\
			printf(__VA_ARGS__);					\
			printf("\n");						\
		}								\
		fflush(stdout);							\
	} while (0)

static inline int check_summary(const struct check_state *st, const char *suite)
{
	printf("%s: %d passed, %d failed\n", suite, st->passed, st->failed);
	return st->failed ? 1 : 0;
}

#endif /* PMCDRV_TEST_CHECK_H */
