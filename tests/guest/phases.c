// SPDX-License-Identifier: GPL-2.0
/*
 * phases N M: a program in two phases, for pmcctl plot's picture of a real
 * run (tests/guest/86-plot.sh): a compute phase, N iterations of 30 adds
 * and dec/jnz (32 instructions, one branch), then a branchy phase, M
 * iterations of dec/jnz (2 instructions, one branch).  On the emulated
 * Skylake models that count the top-down events (v4, gp8) the first phase
 * is mostly retiring and the second mostly bad speculation, as loop.S's
 * and straight.S's breakdowns differ (tests/qemu/README.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define ADD "add $1, %%r8\n\t"
#define ADD10 ADD ADD ADD ADD ADD ADD ADD ADD ADD ADD

static void compute(unsigned long n)
{
	__asm__ volatile("1:\n\t" ADD10 ADD10 ADD10 "dec %0\n\tjnz 1b" : "+r"(n) : : "cc", "r8");
}

static void branchy(unsigned long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 2 ? strtoul(argv[1], NULL, 10) : 0;
	unsigned long m = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;

	if (!n || !m) {
		fprintf(stderr, "usage: phases N M (N compute iterations, then M branchy ones; both > 0)\n");
		return 2;
	}
	compute(n);
	branchy(m);
	return 0;
}
