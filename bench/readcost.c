// SPDX-License-Identifier: GPL-2.0
/*
 * readcost N EVENTS [TOOL]: B11 of bench/, the cost of one read of every event as
 * the events grow, pmcdrv against perf's ways of reading the same events.
 *
 * The calling thread counts EVENTS (pmcctl's -e syntax, hardware events
 * only) on itself and reads them all N times between two
 * clock_gettime(CLOCK_MONOTONIC) calls, after one read to warm up:
 *
 *   tool=pmcdrv        one PMCDRV_IOC_READ of a libpmc session (inherit off,
 *                      as perf's events here; more events than counters
 *                      multiplex)
 *   tool=perf-single   one perf event per fd, no group, read_format 0: one
 *                      read() of each fd (the sum of E reads); more events
 *                      than counters multiplex
 *   tool=perf-group    one perf group, PERF_FORMAT_GROUP: one read() of the
 *                      leader returns every value; a group larger than the
 *                      counters is refused by perf_event_open() (EINVAL:
 *                      then "refused=EINVAL" instead of the figures)
 *
 * Prints per tool:
 *
 *   readcost tool=T events=E reads=N ns=T ns_per_read=T/N counting=yes|no
 *
 * TOOL: that tool alone (B11's traced runs).  counting=yes when the first event's value moved.  pmcdrv and perf never
 * count at once (they exclude each other on the PMU).  Under QEMU's -icount
 * shift=0 a guest ns is one retired guest instruction.  Exit 1 when a path
 * fails.
 */
#include <errno.h>
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
	fprintf(stderr, "readcost: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void report(const char *tool, unsigned int events, long n, long long ns, int counting)
{
	printf("readcost tool=%s events=%u reads=%ld ns=%lld ns_per_read=%.1f counting=%s\n", tool,
	       events, n, ns, (double)ns / n, counting ? "yes" : "no");
}

static int bench_pmcdrv(const struct pmc_evlist *l, long n)
{
	struct pmc_session *s;
	struct pmcdrv_read r;
	long long t0, t1;
	uint64_t first;
	long k;
	int err;

	err = pmc_self_session(l, false, &s, "readcost");
	if (!s)
		return 1;
	if (!err)
		err = pmc_session_read(s, &r);
	if (err < 0)
		goto out;
	first = r.values[0];
	t0 = now_ns();
	for (k = 0; k < n && !err; k++)
		err = pmc_session_read(s, &r);
	t1 = now_ns();
	if (err)
		goto out;
	report("pmcdrv", l->n, n, t1 - t0, r.values[0] != first);
out:
	if (err)
		fprintf(stderr, "readcost: pmcdrv: %s\n", strerror(-err));
	pmc_session_close(s);
	return err ? 1 : 0;
}

/* perf: one fd per event, each read() alone (@group false), or one group read (@group true). */
static int bench_perf(const struct pmc_evlist *l, long n, int group)
{
	uint64_t buf[1 + PMCDRV_MAX_EVENTS], first;
	int fds[PMCDRV_MAX_EVENTS];
	size_t want = group ? (1 + l->n) * sizeof(uint64_t) : sizeof(uint64_t);
	unsigned int i, nfd = group ? 1 : l->n, opened = 0;
	unsigned int vi = group ? 1 : 0;	/* the first event's value in buf */
	long long t0, t1;
	int rc = 1;
	long k;

	for (i = 0; i < l->n; i++) {
		fds[i] = group ? perf_open(&l->ev[i], i ? fds[0] : -1)
			       : perf_open_fmt(&l->ev[i], -1, 0);
		if (fds[i] < 0 && group && i && errno == EINVAL) {
			/* x86 validates a group on an empty PMU: larger than the counters, refused */
			printf("readcost tool=perf-group events=%u refused=EINVAL\n", l->n);
			rc = 0;
			goto out;
		}
		if (fds[i] < 0) {
			fprintf(stderr, "readcost: perf_event_open %s: %s\n", l->ev[i].name,
				strerror(errno));
			goto out;
		}
		opened++;
	}
	for (i = 0; i < nfd; i++)
		if (read(fds[i], buf, want) != (ssize_t)want)
			goto bad_read;
	first = buf[vi];
	t0 = now_ns();
	for (k = 0; k < n; k++)
		for (i = 0; i < nfd; i++)
			if (read(fds[i], buf, want) != (ssize_t)want)
				goto bad_read;
	t1 = now_ns();
	if (read(fds[0], buf, want) != (ssize_t)want)
		goto bad_read;
	report(group ? "perf-group" : "perf-single", l->n, n, t1 - t0, buf[vi] != first);
	rc = 0;
	goto out;
bad_read:
	fprintf(stderr, "readcost: perf read: %s\n", strerror(errno));
out:
	return perf_close_all(fds, opened, rc);
}

int main(int argc, char **argv)
{
	struct pmc_evlist l;
	long n;

	if (argc < 3 || argc > 4 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: readcost N EVENTS [pmcdrv|perf-single|perf-group]\n");
		return 2;
	}
	if (perf_hw_evlist(&l, argv[2], "readcost"))
		return 2;
	if (argc == 4)
		return !strcmp(argv[3], "pmcdrv") ? bench_pmcdrv(&l, n) :
		       !strcmp(argv[3], "perf-single") ? bench_perf(&l, n, 0) :
		       !strcmp(argv[3], "perf-group") ? bench_perf(&l, n, 1) : 2;
	return bench_pmcdrv(&l, n) | bench_perf(&l, n, 0) | bench_perf(&l, n, 1);
}
