// SPDX-License-Identifier: GPL-2.0
/*
 * readspread N EVENTS CPUS [TOOL]: B15 of bench/, one read of a session
 * spread over CPUS CPUs, pmcdrv against perf, and the cost of INFO.
 *
 * The calling thread (pinned by the caller, CPU 0 in bench/guest.sh) counts
 * EVENTS (pmcctl's -e syntax, hardware events only) with inheritance, then
 * starts CPUS - 1 threads, each pinned to one of CPUs 1 .. CPUS-1, which
 * spin until the end: the session then has a task running on each of CPUS
 * CPUs, whose counters a read must fold there.  The calling thread times N
 * reads between two clock_gettime(CLOCK_MONOTONIC) calls, after one read to
 * warm up:
 *
 *   tool=pmcdrv        one PMCDRV_IOC_READ of an inherited libpmc session
 *                      (pmcd_session_fold(): one on_each_cpu_mask() over the
 *                      CPUs where the session is loaded)
 *   tool=perf          one inherited perf event per event, read_format 0:
 *                      one read() of each fd, which sums the event and its
 *                      children (perf_event_read() of each child: one IPI
 *                      to each CPU where a child runs, one after the other)
 *   tool=info          PMCDRV_IOC_INFO (pmc_session_info()), no session and
 *                      no threads: the module asks every online CPU (one
 *                      on_each_cpu()), so CPUS is ignored; vary the online
 *                      CPUs instead
 *
 * Prints per tool, as bench/readcost.c:
 *
 *   readspread tool=T events=E reads=N ns=T ns_per_read=T/N cpus=C counting=yes|no
 *
 * TOOL: that tool alone.  counting=yes when the first event's value moved
 * (info: always yes).  Under QEMU's -icount shift=0 a guest ns is one
 * retired guest instruction of any vCPU: the vCPUs run round-robin on one
 * host thread in slices of at most 100,000 instructions, so the wait for a
 * spinning CPU to take an IPI includes the other vCPUs' slices.  Exit 1 when
 * a path fails.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"
#include "perfself.h"

static void die(const char *what);
#include "pingpong.h"	/* now_ns() */

static void die(const char *what)
{
	fprintf(stderr, "readspread: %s: %s\n", what, strerror(errno));
	exit(1);
}

static volatile int stop;
static int started;
static pthread_t workers[CPU_SETSIZE];
static unsigned int nworkers;

/* A worker: pinned to CPU (long)arg, spins until stop. */
static void *spin(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((long)arg, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!stop)
		__asm__ __volatile__("" ::: "memory");
	return NULL;
}

/* Start @cpus - 1 spinning workers on CPUs 1 .. @cpus-1 and wait until each runs there. */
static void spread(unsigned int cpus)
{
	long c;

	for (c = 1; c < (long)cpus; c++, nworkers++)
		if ((errno = pthread_create(&workers[nworkers], NULL, spin, (void *)c)))
			die("pthread_create");
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < (int)nworkers)
		sched_yield();
}

static void unspread(void)
{
	stop = 1;
	while (nworkers)
		pthread_join(workers[--nworkers], NULL);
	stop = 0;
	started = 0;
}

static void report(const char *tool, unsigned int events, long n, long long ns, unsigned int cpus,
		   int counting)
{
	printf("readspread tool=%s events=%u reads=%ld ns=%lld ns_per_read=%.1f cpus=%u counting=%s\n",
	       tool, events, n, ns, (double)ns / n, cpus, counting ? "yes" : "no");
}

static int bench_pmcdrv(const struct pmc_evlist *l, long n, unsigned int cpus)
{
	struct pmc_session *s;
	int err = pmc_self_session(l, true, &s, "readspread");
	struct pmcdrv_read r;
	long long t0, t1;
	uint64_t first;
	long k;

	if (!s)
		return 1;
	if (err)
		goto out;
	spread(cpus);
	err = pmc_session_read(s, &r);
	first = r.values[0];
	t0 = now_ns();
	for (k = 0; k < n && !err; k++)
		err = pmc_session_read(s, &r);
	t1 = now_ns();
	unspread();
	if (!err)
		report("pmcdrv", l->n, n, t1 - t0, cpus, r.values[0] != first);
out:
	if (err)
		fprintf(stderr, "readspread: pmcdrv: %s\n", strerror(-err));
	pmc_session_close(s);
	return err ? 1 : 0;
}

static int bench_perf(const struct pmc_evlist *l, long n, unsigned int cpus)
{
	int fds[PMCDRV_MAX_EVENTS];
	uint64_t v = 0, first = 0;
	unsigned int i, opened = 0;
	long long t0 = 0, t1 = 0;
	int rc = 1;
	long k;

	for (i = 0; i < l->n; i++, opened++)
		if ((fds[i] = perf_open_inherit(&l->ev[i], -1, 0, 1)) < 0) {
			fprintf(stderr, "readspread: perf_event_open %s: %s\n", l->ev[i].name,
				strerror(errno));
			return perf_close_all(fds, opened, 1);
		}
	spread(cpus);
	for (k = -1; k < n; k++) {
		if (k == 0)
			t0 = now_ns();
		for (i = 0; i < l->n; i++)
			if (read(fds[i], &v, sizeof(v)) != sizeof(v))
				goto bad_read;
		if (k < 0)
			first = v;
	}
	t1 = now_ns();
	rc = 0;
bad_read:
	if (rc)
		fprintf(stderr, "readspread: perf read: %s\n", strerror(errno));
	unspread();
	if (!rc)
		report("perf", l->n, n, t1 - t0, cpus, v != first);
	return perf_close_all(fds, opened, rc);
}

static int bench_info(long n)
{
	struct pmc_session *s = NULL;
	struct pmcdrv_info info;
	long long t0, t1;
	long k;
	int err;

	err = pmc_session_open(NULL, &s);
	if (!err)
		err = pmc_session_info(s, &info);
	t0 = now_ns();
	for (k = 0; k < n && !err; k++)
		err = pmc_session_info(s, &info);
	t1 = now_ns();
	if (!err)
		report("info", 0, n, t1 - t0, info.nr_cpus, 1);
	else
		fprintf(stderr, "readspread: info: %s\n", strerror(-err));
	if (s)
		pmc_session_close(s);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct pmc_evlist l;
	long n, cpus;

	if (argc < 4 || argc > 5 || (n = atol(argv[1])) <= 0 || (cpus = atol(argv[3])) <= 0 ||
	    cpus > CPU_SETSIZE) {
		fprintf(stderr, "usage: readspread N EVENTS CPUS [pmcdrv|perf|info]\n");
		return 2;
	}
	if (perf_hw_evlist(&l, argv[2], "readspread"))
		return 2;
	if (argc == 5)
		return !strcmp(argv[4], "pmcdrv") ? bench_pmcdrv(&l, n, cpus) :
		       !strcmp(argv[4], "perf") ? bench_perf(&l, n, cpus) :
		       !strcmp(argv[4], "info") ? bench_info(n) : 2;
	return bench_pmcdrv(&l, n, cpus) | bench_perf(&l, n, cpus) | bench_info(n);
}
