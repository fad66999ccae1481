/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/perfself.h: perf_events on the calling thread, for the programs of
 * bench/ (selfread.c, pingpong-rdpmc.c): one event of a parsed -e list
 * opened as perf stat opens it, and the read loop of its mmap page with
 * RDPMC (include/uapi/linux/perf_event.h).
 */
#ifndef PMCDRV_BENCH_PERFSELF_H
#define PMCDRV_BENCH_PERFSELF_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libpmc.h"

/*
 * Open @e on the calling thread (pid 0, any CPU, no inherit), in group
 * @group (-1: a new leader), as perf stat parses the same -e list: the
 * names instructions, cycles and ref-cycles are perf's generic hardware
 * events (ref-cycles then goes to fixed counter 2, which perf does not give
 * raw 0x013c), the rest raw.  @read_format: PERF_FORMAT_GROUP, one read()
 * of the leader returns every value; 0, one read() returns the event's
 * value alone.  @inherit: the event is inherited by the tasks the thread
 * creates afterwards (read() of it sums theirs).  The fd, or -1 with errno.
 */
static inline int perf_open_inherit(const struct pmc_evsel *e, int group, uint64_t read_format,
				    int inherit)
{
	static const struct {
		const char *name;
		uint64_t config;
	} generic[] = {
		{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};
	const struct pmcdrv_event *ev = &e->ev;
	size_t len = strcspn(e->name, ":");
	struct perf_event_attr a;
	unsigned int i;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;		/* the EVTSEL layout, as pmcctl compare does */
	a.config = ev->event | ((uint64_t)ev->umask << 8) | ((uint64_t)ev->cmask << 24);
	for (i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (strlen(generic[i].name) == len && !strncmp(e->name, generic[i].name, len)) {
			a.type = PERF_TYPE_HARDWARE;
			a.config = generic[i].config;
		}
	a.exclude_user = !(ev->flags & PMCDRV_EVF_USER);
	a.exclude_kernel = !(ev->flags & PMCDRV_EVF_KERNEL);
	a.exclude_hv = 1;
	a.read_format = read_format;
	a.inherit = !!inherit;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

/* @e in group @group, not inherited (perf_open_inherit()). */
static inline int perf_open_fmt(const struct pmc_evsel *e, int group, uint64_t read_format)
{
	return perf_open_inherit(e, group, read_format, 0);
}

/* @e in group @group, PERF_FORMAT_GROUP (perf_open_fmt()). */
static inline int perf_open(const struct pmc_evsel *e, int group)
{
	return perf_open_fmt(e, group, PERF_FORMAT_GROUP);
}

/*
 * Parse @arg (pmcctl's -e syntax) into zeroed @l, hardware events only; on
 * an error, print it after "@prog: " and return 2 (the usage status).
 */
static inline int perf_hw_evlist(struct pmc_evlist *l, const char *arg, const char *prog)
{
	char err[256];
	unsigned int i;

	memset(l, 0, sizeof(*l));
	if (pmc_evlist_parse(l, arg, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	for (i = 0; i < l->n; i++)
		if (!pmc_evsel_is_hw(&l->ev[i])) {
			fprintf(stderr, "%s: %s: hardware events only\n", prog, l->ev[i].name);
			return 2;
		}
	return 0;
}

/*
 * A libpmc session counting @l on the calling thread, inherited by the tasks
 * it creates afterwards when @inherit: opened, configured and attached.
 * 0, or -errno (*@out then still to close, unless NULL: the open failed,
 * reported after "@prog: ").
 */
static inline int pmc_self_session(const struct pmc_evlist *l, bool inherit, struct pmc_session **out,
				   const char *prog)
{
	unsigned int i;
	int err;

	*out = NULL;
	err = pmc_session_open(NULL, out);
	if (err) {
		fprintf(stderr, "%s: open /dev/pmcdrv: %s\n", prog, strerror(-err));
		*out = NULL;
		return err;
	}
	pmc_session_set_inherit(*out, inherit);
	for (i = 0; i < l->n && err >= 0; i++)
		err = pmc_session_add(*out, &l->ev[i].ev);
	if (err >= 0)
		err = pmc_session_attach(*out, 0, 0);
	return err < 0 ? err : 0;
}

/* Close the first @n of @fds; returns @rc. */
static inline int perf_close_all(const int *fds, unsigned int n, int rc)
{
	while (n)
		close(fds[--n]);
	return rc;
}

static inline uint64_t perf_rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return lo | (uint64_t)hi << 32;
}

#define perf_barrier()	__asm__ __volatile__("" ::: "memory")

/*
 * perf_event_mmap_page's read loop, as include/uapi/linux/perf_event.h
 * gives it.  Out of line, as selfread.c had it (the compiler did not
 * inline it there), so that B3 measures what it always has: inlined into
 * B3's loop, one read of 2 events took 72 guest ns instead of 79, of 7
 * events 227 instead of 254 (a call per event saved; libpmc's
 * pmc_self_read(), which B3 compares it with, is a call too).
 */
static __attribute__((noinline, unused)) uint64_t
perf_page_read(const volatile struct perf_event_mmap_page *pc)
{
	uint64_t count, pmc;
	uint32_t seq, idx, width;

	do {
		seq = pc->lock;
		perf_barrier();
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = perf_rdpmc(idx - 1);
			pmc <<= 64 - width;
			pmc = (uint64_t)((int64_t)pmc >> (64 - width));
			count += pmc;
		}
		perf_barrier();
	} while (pc->lock != seq);
	return count;
}

#endif /* PMCDRV_BENCH_PERFSELF_H */
