// SPDX-License-Identifier: GPL-2.0
/*
 * matmul [N [THREADS]]: multiply two N x N matrices (default 64), marking
 * two regions with libpmc: "init" fills the matrices, "multiply" computes
 * the product.  With THREADS > 1 the rows of the product are shared out
 * and each thread marks its own "multiply" (the table then says how many
 * threads ran it).
 *
 *   pmcctl run --regions -e instructions:u,cycles:u -- matmul 128
 *     pmcctl counts the whole program and prints the regions' table
 *     after the usual counts;
 *   matmul 128
 *     the program opens a session on itself (it needs the pmcdrv device
 *     and the permission to count; it says what is missing otherwise);
 *   PMCDRV_REGIONS=regions.txt matmul 128
 *     the same, with the table also appended to regions.txt at exit.
 *
 * Either way it prints its own table (pmc_region_print) on standard output.
 * Build: make (build/examples/matmul), or
 *   cc -O2 -Iinclude -Iinclude/uapi -Iuser/libpmc examples/matmul.c build/libpmc.a -lpfm -lpthread
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "libpmc.h"

struct work {
	const double *a, *b;
	double *c;
	unsigned int n, row0, rows;
	int err;
	char msg[256];		/* pmc_region_error() of this thread, when err */
};

/* Stop with libpmc's message: what went wrong and how to fix it. */
static void die(const char *what, int err)
{
	fprintf(stderr, "matmul: %s: %s\n", what, pmc_region_error());
	/* 3: pmcdrv missing or counting not permitted, as pmcctl's exit status 3. */
	exit(err == -ENOENT || err == -ENODEV || err == -EACCES || err == -EPERM ||
	     err == -EEXIST ? 3 : 1);
}

static void *multiply(void *arg)
{
	struct work *w = arg;
	unsigned int i, j, k, n = w->n;

	/* Each thread opens and ends its own "multiply": regions are per thread. */
	w->err = pmc_region_begin("multiply");
	if (w->err)
		goto fail;
	for (i = w->row0; i < w->row0 + w->rows; i++)
		for (j = 0; j < n; j++) {
			double s = 0;

			for (k = 0; k < n; k++)
				s += w->a[i * n + k] * w->b[k * n + j];
			w->c[i * n + j] = s;
		}
	w->err = pmc_region_end("multiply");
	if (!w->err)
		return NULL;
fail:
	/* The message is per thread: keep it for main(). */
	snprintf(w->msg, sizeof(w->msg), "%s", pmc_region_error());
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 64;
	unsigned int nthreads = argc > 2 ? (unsigned int)atoi(argv[2]) : 1;
	pthread_t tid[64];
	struct work w[64];
	double *a, *b, *c, trace = 0;
	unsigned int i, t;
	int err;

	if (n < 1 || n > 4096 || nthreads < 1 || nthreads > 64 || nthreads > n) {
		fprintf(stderr, "usage: matmul [N [THREADS]]  (N 1..4096, THREADS 1..64 and <= N)\n");
		return 2;
	}
	a = malloc(sizeof(*a) * n * n);
	b = malloc(sizeof(*b) * n * n);
	c = malloc(sizeof(*c) * n * n);
	if (!a || !b || !c) {
		fprintf(stderr, "matmul: out of memory\n");
		return 1;
	}

	/*
	 * The first begin sets the region API up (under pmcctl it was set up at
	 * program start): it opens a session counting this thread and the
	 * threads it creates from now on, so begin before creating threads.
	 */
	err = pmc_region_begin("init");
	if (err)
		die("cannot begin region 'init'", err);
	for (i = 0; i < n * n; i++) {
		a[i] = (double)(i % 7) - 3;
		b[i] = (double)(i % 5) - 2;
	}
	err = pmc_region_end("init");
	if (err)
		die("cannot end region 'init'", err);

	for (t = 0; t < nthreads; t++) {
		w[t] = (struct work){ .a = a, .b = b, .c = c, .n = n };
		w[t].row0 = n / nthreads * t;
		w[t].rows = t == nthreads - 1 ? n - w[t].row0 : n / nthreads;
	}
	if (nthreads == 1) {
		multiply(&w[0]);
	} else {
		for (t = 0; t < nthreads; t++)
			if (pthread_create(&tid[t], NULL, multiply, &w[t])) {
				fprintf(stderr, "matmul: cannot create a thread\n");
				return 1;
			}
		for (t = 0; t < nthreads; t++)
			pthread_join(tid[t], NULL);
	}
	for (t = 0; t < nthreads; t++)
		if (w[t].err) {
			fprintf(stderr, "matmul: thread %u: %s\n", t, w[t].msg);
			return 1;
		}

	for (i = 0; i < n; i++)
		trace += c[i * n + i];
	printf("matmul: n=%u threads=%u trace=%.0f\n", n, nthreads, trace);
	/* 1: this thread reads its counters with RDPMC through its self-read page. */
	printf("matmul: counters read through %s\n",
	       pmc_region_fast() == 1 ? "rdpmc (the self-read page)" : "the READ_SELF ioctl");
	/* The table so far: threads, calls, time and each event, per region. */
	err = pmc_region_print(stdout);
	free(a);
	free(b);
	free(c);
	return err ? 1 : 0;
}
