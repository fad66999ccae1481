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
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libpmc.h"

/*
 * Open @e on the calling thread (pid 0, any CPU, no inherit), in group
 * @group (-1: a new leader), as perf stat parses the same -e list: the
 * names instructions, cycles and ref-cycles are perf's generic hardware
 * events (ref-cycles then goes to fixed counter 2, which perf does not give
 * raw 0x013c), the rest raw.  PERF_FORMAT_GROUP: one read() of the leader
 * returns every value.  The fd, or -1 with errno.
 */
static inline int perf_open(const struct pmc_evsel *e, int group)
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
	a.read_format = PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
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
