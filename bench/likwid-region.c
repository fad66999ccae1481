// SPDX-License-Identifier: GPL-2.0
/*
 * likwid-region N: B6's region pair for LIKWID: guest ns (= guest
 * instructions under QEMU -icount shift=0, user and kernel) of one empty
 * LIKWID_MARKER_START + LIKWID_MARKER_STOP pair of LIKWID's marker API, the
 * least over 20 batches of N, as tests/guest/region_cost.c --perf times
 * libpmc's pair and perf's ioctl pair.  Run under likwid-perfctr -m (which
 * programs the counters and hands the event set over in LIKWID_* variables),
 * e.g.
 *   likwid-perfctr -M 0 -m -C 0 -g INSTR_RETIRED_ANY:FIXC0 build/bench/likwid-region 1000
 * Prints
 *   likwid-marker-pair ns=T
 * Built by bench/run with -DLIKWID_PERFMON against Debian's likwid (its
 * header likwid-marker.h and liblikwid), when that package is installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <likwid-marker.h>

#define EMPTY "empty"
#define BATCHES 20

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0, t1, best = -1;
	long n, i;
	int b;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: likwid-region N\n");
		return 2;
	}
	LIKWID_MARKER_INIT;
	LIKWID_MARKER_THREADINIT;
	/* The region's hash entry made before the timed pairs, as LIKWID advises. */
	if (LIKWID_MARKER_REGISTER(EMPTY) || LIKWID_MARKER_START(EMPTY) || LIKWID_MARKER_STOP(EMPTY)) {
		fprintf(stderr, "likwid-region: the marker API is not set up (run under likwid-perfctr -m)\n");
		return 1;
	}
	for (b = 0; b < BATCHES; b++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			LIKWID_MARKER_START(EMPTY);
			LIKWID_MARKER_STOP(EMPTY);
		}
		t1 = now_ns();
		if (best < 0 || t1 - t0 < best)
			best = t1 - t0;
	}
	LIKWID_MARKER_CLOSE;
	printf("likwid-marker-pair ns=%.1f\n", (double)best / n);
	return 0;
}
