// SPDX-License-Identifier: GPL-2.0
/*
 * rankloop N: an MPI program whose rank r runs the known loop of
 * tests/progs/loop.S (dec/jnz, 2 user instructions an iteration) N*(r+1)
 * times inside the libpmc region "loop", so that each rank's count of the
 * region is exact and known: instructions:u = 2*N*(r+1) + C, where C is the
 * region's begin/end's own share (the same in every rank: the same code
 * path; tests/guest/rankloop.conf holds it).  MPI_Init comes before and
 * MPI_Finalize after the region, so the MPI library's own work (progress
 * threads, polling) is outside it.  Prints
 *   rankloop: rank R of S n=N*(R+1)
 * Built with MPICH's mpicc (the Makefile's MPICC); run under 'pmcctl run
 * --regions', or alone with PMCDRV_REGIONS_EVENTS.  Exit 2 on a bad N, 1 when
 * a region call fails.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "libpmc.h"

/* 2 * @n user instructions for @n >= 1: the loop of tests/progs/loop.S. */
static __attribute__((noinline)) void spin(long n)
{
	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

int main(int argc, char **argv)
{
	int rank, size, ret = 0;
	char *end;
	long n;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || n < 1 || n > 1000000000L) {
		fprintf(stderr, "usage: rankloop N (1 <= N <= 10^9)\n");
		MPI_Finalize();
		return 2;
	}
	n *= rank + 1;
	if (pmc_region_begin("loop")) {
		fprintf(stderr, "rankloop: rank %d: begin: %s\n", rank, pmc_region_error());
		ret = 1;
	} else {
		spin(n);
		if (pmc_region_end("loop")) {
			fprintf(stderr, "rankloop: rank %d: end: %s\n", rank, pmc_region_error());
			ret = 1;
		}
	}
	printf("rankloop: rank %d of %d n=%ld\n", rank, size, n);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return ret;
}
