// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl serve's exposition (user/pmcctl/expo.c): Prometheus text 0.0.4 and
 * OpenMetrics 1.0.0 against golden files (tests/serve-check.sh runs
 * promtool check metrics on the 0.0.4 ones), and the Accept header rule.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expo.h"
#include "golden.h"
#include "unit.h"

static const struct expo_event events[] = {
	{ "instructions:u", true, 0, NULL, 1000000, 2000000000ULL, 2000000000ULL },
	{ "instructions:u", true, 1, NULL, 18446744073709551615ULL, 1500000001ULL, 750000000ULL },
	{ "task-clock", false, 0, NULL, 1999999999ULL, 2000000000ULL, 2000000000ULL },
};

static const struct expo_event cg_events[] = {
	{ "cycles:u", true, 0, "/system.slice/a \"b\"\\c\nd", 42, 5, 5 },
	{ "cycles:u", true, 1, "/", 0, 0, 0 },
};

static const struct expo_metric metrics[] = {
	{ "IPC", 0, NULL, 1.25 },
	{ "IPC", 1, NULL, NAN },
	{ "CPI", 0, "/user.slice", 0.8 },
	{ "tma_retiring", 1, NULL, INFINITY },
};

static void check(const struct expo *e, const char *golden)
{
	size_t len;
	char *out = expo_format(e, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(strlen(out), len);
	golden_check_at(__FILE__, __LINE__, golden, out, len);
	if (e->openmetrics) {
		CU_ASSERT(len >= 6 && !strcmp(out + len - 6, "# EOF\n"));
	} else {
		CU_ASSERT_PTR_NULL(strstr(out, "# EOF"));
	}
	free(out);
}

static void test_events(void)
{
	struct expo e = { .version = "0.1", .ev = events, .nr_ev = ARRAY_SIZE(events),
			  .scrape_errors = 3 };

	check(&e, "expo-events.prom");
	e.openmetrics = true;
	check(&e, "expo-events.om.txt");
}

static void test_cgroups_metrics(void)
{
	struct expo e = { .version = "0.1\"x", .ev = cg_events, .nr_ev = ARRAY_SIZE(cg_events),
			  .m = metrics, .nr_m = ARRAY_SIZE(metrics) };

	check(&e, "expo-cgroups.prom");
	e.openmetrics = true;
	check(&e, "expo-cgroups.om.txt");
}

/* No events (every read failed): still a valid exposition with the error count. */
static void test_empty(void)
{
	struct expo e = { .version = "0.1", .scrape_errors = 1 };

	check(&e, "expo-empty.prom");
	e.openmetrics = true;
	check(&e, "expo-empty.om.txt");
}

static void test_accept(void)
{
	/* What Prometheus 2.42 sends. */
	CU_ASSERT(expo_wants_openmetrics("application/openmetrics-text;version=1.0.0,"
					 "application/openmetrics-text;version=0.0.1;q=0.75,"
					 "text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
	CU_ASSERT(expo_wants_openmetrics("application/openmetrics-text"));
	CU_ASSERT(expo_wants_openmetrics("text/plain, Application/OpenMetrics-Text; version=1.0.0"));
	CU_ASSERT(expo_wants_openmetrics("application/openmetrics-text; q=0.5"));
	CU_ASSERT(!expo_wants_openmetrics("application/openmetrics-text;q=0"));
	CU_ASSERT(!expo_wants_openmetrics("application/openmetrics-text; q=0.0, text/plain"));
	CU_ASSERT(!expo_wants_openmetrics(NULL));
	CU_ASSERT(!expo_wants_openmetrics(""));
	CU_ASSERT(!expo_wants_openmetrics("*/*"));
	CU_ASSERT(!expo_wants_openmetrics("text/plain;version=0.0.4"));
	CU_ASSERT(!expo_wants_openmetrics("application/openmetrics-textx"));
	CU_ASSERT(!expo_wants_openmetrics("x-application/openmetrics-text"));
	CU_ASSERT(!expo_wants_openmetrics(",,;;q=,application/openmetrics-text;q="));
}

void register_expo_tests(void)
{
	static const struct unit_test tests[] = {
		{ "events, both formats", test_events },
		{ "cgroups, metrics, escaping", test_cgroups_metrics },
		{ "no events", test_empty },
		{ "Accept header", test_accept },
	};

	UNIT_ADD_SUITE("serve exposition", tests);
}
