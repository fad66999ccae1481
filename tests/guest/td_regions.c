// SPDX-License-Identifier: GPL-2.0
/*
 * td_regions N: two libpmc regions for pmcctl run --regions --topdown
 * (66-topdown.sh): "branchy" runs N iterations of dec/jnz, "straight" N
 * iterations of 30 adds and dec/jnz.  On the emulated Sapphire Rapids
 * their top-down breakdowns differ as loop.S's and straight.S's do
 * (tests/qemu/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "libpmc.h"

static void branchy(unsigned long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

#define ADD "add $1, %%r8\n\t"
#define ADD10 ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD

static void straight(unsigned long n)
{
	__asm__ volatile("1:\n\t" ADD10 ADD10 ADD10 "dec %0\n\tjnz 1b" : "+r"(n) : : "cc", "r8");
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 0;

	if (!n) {
		fprintf(stderr, "usage: td_regions N (N > 0)\n");
		return 2;
	}
	if (pmc_region_begin("branchy") || (branchy(n), pmc_region_end("branchy")) ||
	    pmc_region_begin("straight") || (straight(n), pmc_region_end("straight"))) {
		fprintf(stderr, "td_regions: %s\n", pmc_region_error());
		return 1;
	}
	return 0;
}
