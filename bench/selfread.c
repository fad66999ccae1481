// SPDX-License-Identifier: GPL-2.0
/*
 * selfread N [EVENTS]: B3 of bench/, the cost of one self-read.
 *
 * Counts EVENTS (pmcctl's -e syntax, default instructions:u,cycles:u) on
 * the calling thread, first through pmcdrv (libpmc: a session attached to
 * itself): PMCDRV_IOC_READ (tool=pmcdrv), then libpmc's self-read, the
 * thread's page and RDPMC (tool=pmcdrv-rdpmc); then through
 * perf_event_open (one group of the same raw events): PERF_FORMAT_GROUP,
 * one read() of the leader returns all values, as one READ does
 * (tool=perf), and each event's mmap page read with RDPMC by the protocol
 * of include/uapi/linux/perf_event.h (tool=perf-rdpmc).  Each is read once
 * to warm up, then N times between two clock_gettime(CLOCK_MONOTONIC)
 * calls.  Prints per tool:
 *
 *   selfread tool=pmcdrv|pmcdrv-rdpmc|perf|perf-rdpmc events=E reads=N ns=T ns_per_read=T/N
 *
 * pmcdrv and perf never count at once (they exclude each other on the
 * PMU).  Under QEMU's -icount shift=0 a guest ns is one retired guest
 * instruction.  Exit 1 when a path fails (a tool whose RDPMC path is not
 * available, e.g. no PMU, is an error too).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "libpmc.h"
#include "perfself.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void report(const char *tool, unsigned int events, long n, long long ns)
{
	printf("selfread tool=%s events=%u reads=%ld ns=%lld ns_per_read=%.1f\n", tool, events, n,
	       ns, (double)ns / n);
}

/* libpmc's self-read of the same session: the thread's page and RDPMC. */
static int bench_pmcdrv_rdpmc(struct pmc_session *s, unsigned int events, long n)
{
	uint64_t v[PMCDRV_MAX_EVENTS];
	struct pmc_self *r;
	long long t0, t1;
	long k;
	int err;

	err = pmc_self_open(s, &r);
	if (err)
		return err;
	if (!pmc_self_fast(r)) {
		fprintf(stderr, "selfread: pmcdrv-rdpmc: the reader has no RDPMC path here\n");
		pmc_self_close(r);
		return -EOPNOTSUPP;
	}
	err = pmc_self_read(r, v, events, NULL, NULL);
	t0 = now_ns();
	for (k = 0; k < n && !err; k++)
		err = pmc_self_read(r, v, events, NULL, NULL);
	t1 = now_ns();
	if (!err && v[0] == 0) {
		fprintf(stderr, "selfread: pmcdrv-rdpmc counted nothing\n");
		err = -EIO;
	}
	if (!err)
		report("pmcdrv-rdpmc", events, n, t1 - t0);
	pmc_self_close(r);
	return err;
}

static int bench_pmcdrv(const struct pmc_evlist *l, long n)
{
	struct pmc_session *s;
	struct pmcdrv_read r;
	long long t0, t1;
	unsigned int i;
	long k;
	int err;

	err = pmc_session_open(NULL, &s);
	if (err) {
		fprintf(stderr, "selfread: open /dev/pmcdrv: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < l->n; i++) {
		err = pmc_session_add(s, &l->ev[i].ev);
		if (err < 0)
			goto out;
	}
	err = pmc_session_attach(s, 0, 0);
	if (err)
		goto out;
	err = pmc_session_read(s, &r);
	if (err)
		goto out;
	t0 = now_ns();
	for (k = 0; k < n && !err; k++)
		err = pmc_session_read(s, &r);
	t1 = now_ns();
	if (err)
		goto out;
	if (r.values[0] == 0) {
		fprintf(stderr, "selfread: pmcdrv counted nothing\n");
		err = -EIO;
		goto out;
	}
	report("pmcdrv", l->n, n, t1 - t0);
	err = bench_pmcdrv_rdpmc(s, l->n, n);
out:
	if (err)
		fprintf(stderr, "selfread: pmcdrv: %s\n", strerror(-err));
	pmc_session_close(s);
	return err ? 1 : 0;
}

/* Each event's first mmap page, read with RDPMC (perf's user-space fast path). */
static int bench_perf_rdpmc(const int *fds, unsigned int events, long n)
{
	const volatile struct perf_event_mmap_page *pg[PMCDRV_MAX_EVENTS];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t v[PMCDRV_MAX_EVENTS];
	unsigned int i, mapped = 0;
	long long t0, t1;
	int rc = 1;
	long k;

	for (i = 0; i < events; i++) {
		void *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fds[i], 0);

		if (p == MAP_FAILED) {
			fprintf(stderr, "selfread: perf mmap: %s\n", strerror(errno));
			goto out;
		}
		pg[mapped++] = p;
		if (!pg[i]->cap_user_rdpmc || !pg[i]->index) {
			fprintf(stderr, "selfread: perf-rdpmc: the page offers no RDPMC\n");
			goto out;
		}
	}
	for (i = 0; i < events; i++)
		v[i] = perf_page_read(pg[i]);
	t0 = now_ns();
	for (k = 0; k < n; k++)
		for (i = 0; i < events; i++)
			v[i] = perf_page_read(pg[i]);
	t1 = now_ns();
	if (v[0] == 0) {
		fprintf(stderr, "selfread: perf-rdpmc counted nothing\n");
		goto out;
	}
	report("perf-rdpmc", events, n, t1 - t0);
	rc = 0;
out:
	for (i = 0; i < mapped; i++)
		munmap((void *)pg[i], page);
	return rc;
}

static int bench_perf(const struct pmc_evlist *l, long n)
{
	uint64_t buf[1 + PMCDRV_MAX_EVENTS];
	int fds[PMCDRV_MAX_EVENTS];
	size_t want = (1 + l->n) * sizeof(uint64_t);
	long long t0 = 0, t1 = 0;
	unsigned int i, opened = 0;
	int rc = 1;
	long k;

	for (i = 0; i < l->n; i++) {
		fds[i] = perf_open(&l->ev[i], i ? fds[0] : -1);
		if (fds[i] < 0) {
			fprintf(stderr, "selfread: perf_event_open %s: %s\n", l->ev[i].name,
				strerror(errno));
			goto out;
		}
		opened++;
	}
	if (read(fds[0], buf, want) != (ssize_t)want)
		goto bad_read;
	t0 = now_ns();
	for (k = 0; k < n; k++)
		if (read(fds[0], buf, want) != (ssize_t)want)
			goto bad_read;
	t1 = now_ns();
	if (buf[0] != l->n || buf[1] == 0) {
		fprintf(stderr, "selfread: perf group read: %llu values, first %llu\n",
			(unsigned long long)buf[0], (unsigned long long)buf[1]);
		goto out;
	}
	report("perf", l->n, n, t1 - t0);
	rc = bench_perf_rdpmc(fds, l->n, n);
	goto out;
bad_read:
	fprintf(stderr, "selfread: perf read: %s\n", strerror(errno));
out:
	return perf_close_all(fds, opened, rc);
}

int main(int argc, char **argv)
{
	struct pmc_evlist l;
	long n;

	if (argc < 2 || argc > 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: selfread N [EVENTS]\n");
		return 2;
	}
	if (perf_hw_evlist(&l, argc == 3 ? argv[2] : "instructions:u,cycles:u", "selfread"))
		return 2;
	return bench_pmcdrv(&l, n) | bench_perf(&l, n);
}
