// SPDX-License-Identifier: GPL-2.0
/*
 * region_cost N...: the cost of one empty pmc_region_begin/end pair in
 * user-mode instructions, measured by the region API itself on
 * instructions:u: for each N, region "outer" wraps N pairs of region
 * "empty", so outer's count is N*K + C, where K is one pair plus this
 * loop's own increment and branch, and C what outer's own begin and end
 * count of themselves.  Prints
 *   region_cost path=ioctl|rdpmc
 *   n=N insns=X calls=M        (M: the pairs of "empty" that completed)
 * tests/guest/62-regions.sh checks that X is exactly N*K + C, with K from
 * tests/guest/region-cost.conf.
 */
#include <stdio.h>
#include <stdlib.h>

#include "libpmc.h"

#define EMPTY "empty"

static int fail(const char *what)
{
	fprintf(stderr, "region_cost: %s: %s\n", what, pmc_region_error());
	return 1;
}

int main(int argc, char **argv)
{
	struct pmc_region_config cfg = { .events = "instructions:u" };
	struct pmc_region_stats outer, empty;
	int a, err;
	long n, i;

	err = pmc_region_init(&cfg);
	if (err)
		return fail("set-up");
	/* Warm up: the first pairs allocate and fill the name caches. */
	if (pmc_region_begin("outer") || pmc_region_begin(EMPTY) || pmc_region_end(EMPTY) ||
	    pmc_region_end("outer"))
		return fail("warm-up");
	printf("region_cost path=%s\n", pmc_region_fast() == 1 ? "rdpmc" : "ioctl");
	for (a = 1; a < argc; a++) {
		n = atol(argv[a]);
		pmc_region_reset();
		/* Nothing in the loop but the pair: its errors show as missing calls below. */
		pmc_region_begin("outer");
		for (i = 0; i < n; i++) {
			pmc_region_begin(EMPTY);
			pmc_region_end(EMPTY);
		}
		pmc_region_end("outer");
		if (pmc_region_get("outer", &outer))
			return fail("outer");
		if (n && pmc_region_get(EMPTY, &empty))
			return fail(EMPTY);
		printf("n=%ld insns=%llu calls=%llu\n", n, (unsigned long long)outer.values[0],
		       n ? (unsigned long long)empty.calls : 0ULL);
	}
	return 0;
}
