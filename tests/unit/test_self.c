// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the self-read page's arithmetic, pmc_self_event_value()
 * (user/libpmc/self.c): offset alone without a counter; offset + the counter's
 * advance since base, wrap-safe at 40, 48 and 64 bits; and agreement with
 * the module's own fold, pmc_delta() (include/pmcdrv/pmu.h), for every
 * width.  Registered by main.c as the "self-read" suite.
 */
#include <CUnit/Basic.h>
#include <stdint.h>

#include "libpmc.h"
#include "unit.h"

static struct pmcdrv_self_event ev(uint32_t index, uint32_t width, uint64_t offset, uint64_t base)
{
	struct pmcdrv_self_event e = {
		.index = index, .width = width, .offset = offset, .base = base,
		.mask = width >= 64 ? ~0ULL : (1ULL << width) - 1,
	};

	return e;
}

static void test_no_counter(void)
{
	struct pmcdrv_self_event e = ev(0, 0, 12345, 999);

	/* index 0: a software event or a thread not counting: the pmc is not used */
	CU_ASSERT_EQUAL(pmc_self_event_value(&e, 0), 12345);
	CU_ASSERT_EQUAL(pmc_self_event_value(&e, ~0ULL), 12345);
}

static void test_advance(void)
{
	struct pmcdrv_self_event e = ev(1 + (1U << 30), 48, 1000, 500);

	CU_ASSERT_EQUAL(pmc_self_event_value(&e, 500), 1000);
	CU_ASSERT_EQUAL(pmc_self_event_value(&e, 777), 1277);
}

static void test_wrap(void)
{
	const uint64_t top48 = (1ULL << 48) - 1, top40 = (1ULL << 40) - 1;
	struct pmcdrv_self_event e48 = ev(1, 48, 7, top48 - 9);	/* 10 before the wrap */
	struct pmcdrv_self_event e40 = ev(1, 40, 0, top40);
	struct pmcdrv_self_event e64 = ev(1, 64, 1, ~0ULL);

	CU_ASSERT_EQUAL(pmc_self_event_value(&e48, 5), 7 + 10 + 5);
	/* bits above the width (a sign-extended read) do not count */
	CU_ASSERT_EQUAL(pmc_self_event_value(&e48, 0xffff000000000005ULL), 7 + 10 + 5);
	CU_ASSERT_EQUAL(pmc_self_event_value(&e40, 0), 1);
	CU_ASSERT_EQUAL(pmc_self_event_value(&e64, 2), 1 + 3);
}

static void test_like_fold(void)
{
	static const uint64_t raws[] = { 0, 1, 0x7fffffffffffULL, 0x800000000000ULL,
					 0xffffffffffffULL, 0x123456789abcULL, ~0ULL };
	unsigned int w, i, j, bad = 0;
	struct pmcdrv_self_event e;

	for (w = 1; w <= 64; w++)
		for (i = 0; i < sizeof(raws) / sizeof(raws[0]); i++)
			for (j = 0; j < sizeof(raws) / sizeof(raws[0]); j++) {
				e = ev(1, w, 1000, raws[i]);
				bad += pmc_self_event_value(&e, raws[j]) !=
				       1000 + pmc_delta(raws[i], raws[j], w);
			}
	CU_ASSERT_EQUAL(bad, 0);
}

/* perf stat's scaling: truncated val * enabled / running; <not counted> at running 0. */
static void test_scale_count(void)
{
	uint64_t v = 7;

	CU_ASSERT_EQUAL(pmc_scale_count(1000, 100, 100, &v), 0);
	CU_ASSERT_EQUAL(v, 1000);
	CU_ASSERT_EQUAL(pmc_scale_count(1000, 100, 200, &v), 0);	/* running > enabled: raw */
	CU_ASSERT_EQUAL(v, 1000);
	CU_ASSERT_EQUAL(pmc_scale_count(1000, 100, 0, &v), -1);
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_EQUAL(pmc_scale_count(1000, 300, 100, &v), 1);
	CU_ASSERT_EQUAL(v, 3000);
	/* 10 * 2 / 3 = 6.67: truncated as libperf's perf_counts_values__scale() */
	CU_ASSERT_EQUAL(pmc_scale_count(10, 2, 3, &v), 0);
	CU_ASSERT_EQUAL(v, 10);
	CU_ASSERT_EQUAL(pmc_scale_count(10, 3, 2, &v), 1);
	CU_ASSERT_EQUAL(v, 15);
	CU_ASSERT_EQUAL(pmc_scale_count(20, 3, 9, &v), 0);
	CU_ASSERT_EQUAL(pmc_scale_count(20, 9, 7, &v), 1);
	CU_ASSERT_EQUAL(v, 25);	/* 25.71 */
	/* Saturates instead of wrapping. */
	CU_ASSERT_EQUAL(pmc_scale_count(UINT64_MAX / 2, 1000, 1, &v), 1);
	CU_ASSERT_EQUAL(v, UINT64_MAX);
}

void register_self_tests(void)
{
	static const struct unit_test tests[] = {
		{ "no counter: offset", test_no_counter },
		{ "offset + advance", test_advance },
		{ "wrap at 40, 48, 64 bits", test_wrap },
		{ "equals the module's fold for every width", test_like_fold },
		{ "perf stat's scaling of a multiplexed count", test_scale_count },
	};
	UNIT_ADD_SUITE("self-read", tests);
}
