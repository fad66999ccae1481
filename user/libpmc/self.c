// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: self-read.  A tracked thread maps its own page of the session
 * (struct pmcdrv_self_page, docs/abi.md) and reads each event as
 * offset + RDPMC, retried while the page's sequence count changes, as
 * perf_event_mmap_page is read (include/uapi/linux/perf_event.h).  Where
 * that cannot give the value (no hardware counter, a software event, RDPMC
 * disabled) the same thread's counts come from PMCDRV_IOC_READ_SELF; a CPU
 * session, or a module without READ_SELF, reads the whole session.
 *
 * The times come from the page too: as of its last update, plus, where
 * the module counts the thread's time in TSC cycles (PMCDRV_SELF_TIME_TSC),
 * the cycles since, read with RDTSC in the same loop as perf's
 * cap_user_time, so a short region gets its own time and not 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "libpmc.h"

/* How a reader reads.  0: a copy inherited by fork (its memory was wiped). */
enum pmc_self_mode {
	PMC_SELF_FORKED,	/* not this process's reader: -ECHILD */
	PMC_SELF_RDPMC,		/* the page and RDPMC */
	PMC_SELF_IOCTL,		/* PMCDRV_IOC_READ_SELF: the thread's own counts */
	PMC_SELF_SESSION,	/* PMCDRV_IOC_READ: the whole session */
};

/*
 * A reader lives in a page of its own marked MADV_WIPEONFORK: in a child
 * created by fork it reads as zeros (PMC_SELF_FORKED), so the one test of
 * the mode in the fast path also catches a reader used after fork (whose
 * page mapping the child does not have).
 */
struct pmc_self {
	enum pmc_self_mode mode;
	unsigned int nr_events;
	uint32_t time_live;	/* PMCDRV_SELF_TIME_TSC when RDTSC works here, else 0 */
	const struct pmcdrv_self_page *pg;	/* the thread's page, or NULL */
	struct pmc_session *s;
};

uint64_t pmc_self_event_value(const struct pmcdrv_self_event *e, uint64_t pmc)
{
	return e->index ? e->offset + ((pmc - e->base) & e->mask) : e->offset;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t pmc_rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t pmc_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#define PMC_HAVE_RDPMC 1
#else
#define PMC_HAVE_RDPMC 0
static inline uint64_t pmc_rdpmc(uint32_t ecx)
{
	(void)ecx;
	return 0;
}

static inline uint64_t pmc_rdtsc(void)
{
	return 0;
}
#endif

/*
 * As perf's documented reader: plain loads of the page between compiler
 * barriers, the sequence count read once each time.
 */
#define pmc_barrier()		__asm__ __volatile__("" ::: "memory")
#define PMC_READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

/*
 * perf's "rdpmc" sysfs setting: 0 means the kernel never sets CR4.PCE.  A
 * hybrid part has one per core type's PMU (cpu_core, cpu_atom; no cpu), and
 * writing one sets it for all (Linux 6.1, set_attr_rdpmc(): x86_pmu's
 * attr_rdpmc is shared).
 */
static bool rdpmc_disabled(void)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/cpu/rdpmc",
		"/sys/bus/event_source/devices/cpu_core/rdpmc",
		"/sys/bus/event_source/devices/cpu_atom/rdpmc",
	};
	unsigned int i;
	FILE *f;
	int v;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		f = fopen(paths[i], "re");
		if (!f)
			continue;
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
		if (v == 0)
			return true;
	}
	return false;
}

/*
 * Can the page give every event through RDPMC?  Hardware events only: the
 * page says which (a software event has width 0, and its offset is only as
 * fresh as the last update).  The page, not the session's configuration, is
 * asked, because a session adopted from another process (pmcctl run
 * --regions) does not know its counters.
 */
static bool page_usable(struct pmc_self *r)
{
	unsigned int i;

	if (!PMC_HAVE_RDPMC || r->pg->version != PMCDRV_SELF_PAGE_VERSION ||
	    r->pg->size < PMCDRV_SELF_PAGE_SIZE_VER0 || r->pg->nr_events != r->nr_events ||
	    !(r->pg->flags & PMCDRV_SELF_RDPMC))
		return false;
	for (i = 0; i < r->nr_events; i++)
		if (!PMC_READ_ONCE(r->pg->events[i].width))
			return false;
	return !rdpmc_disabled();
}

int pmc_self_open(struct pmc_session *s, struct pmc_self **out)
{
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);
	struct pmcdrv_read rd;
	struct pmc_self *r;
	int tsc_mode = 0;
	void *p;
	int err;

	p = mmap(NULL, page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* Before Linux 4.14 (EINVAL) a reader cannot notice fork: documented. */
	madvise(p, page_size, MADV_WIPEONFORK);
	r = p;
	r->s = s;
	/* The first READ_SELF makes the thread's own counts (and says who is tracked). */
	err = pmc_session_read_self(s, &rd);
	if (err == -EOPNOTSUPP || err == -ENOTTY) {
		err = pmc_session_read(s, &rd);
		r->mode = PMC_SELF_SESSION;
		/*
		 * A multiplexing session's raw counts are not a thread's and
		 * its events are not all counting: a region's differences of
		 * them would mean nothing.
		 */
		if (!err && (rd.flags & PMCDRV_READ_MULTIPLEXED))
			err = -EOPNOTSUPP;
	} else {
		r->mode = PMC_SELF_IOCTL;
	}
	if (err)
		goto err_unmap;
	r->nr_events = rd.nr_events;
	if (r->mode == PMC_SELF_SESSION)
		goto out;
	p = mmap(NULL, page_size, PROT_READ, MAP_SHARED, pmc_session_fd(s),
		 PMCDRV_SELF_MMAP_OFFSET);
	if (p == MAP_FAILED)
		goto out;	/* READ_SELF works: use it */
	r->pg = p;
	if (page_usable(r)) {
		r->mode = PMC_SELF_RDPMC;
		/* RDTSC faults in a thread that disabled it (PR_SET_TSC): page time only. */
		if (prctl(PR_GET_TSC, &tsc_mode, 0, 0, 0) == 0 && tsc_mode == PR_TSC_ENABLE)
			r->time_live = PMCDRV_SELF_TIME_TSC;
	} else {
		/* Unused: let it go, and with it this process's RDPMC permission. */
		munmap(p, page_size);
		r->pg = NULL;
	}
out:
	*out = r;
	return 0;

err_unmap:
	munmap(r, page_size);
	return err;
}

void pmc_self_close(struct pmc_self *r)
{
	size_t page_size = (size_t)sysconf(_SC_PAGESIZE);

	if (!r)
		return;
	if (r->pg)
		munmap((void *)r->pg, page_size);
	munmap(r, page_size);
}

unsigned int pmc_self_core_type(const struct pmc_self *r)
{
	unsigned int t = r->mode == PMC_SELF_RDPMC ? PMC_READ_ONCE(r->pg->core_type) : 0;

	return t ? t : pmc_cpuid_core_type();
}

bool pmc_self_fast(const struct pmc_self *r)
{
	return r->mode == PMC_SELF_RDPMC;
}

/* Through an ioctl, or refused: kept out of the fast path's frame. */
static __attribute__((noinline)) int read_slow(struct pmc_self *r, uint64_t *vals, unsigned int n,
					       uint64_t *time_enabled, uint64_t *time_running)
{
	/*
	 * Cache-line aligned: glibc's memset() of it (in pmc_session_read())
	 * takes a number of steps that depends on the buffer's alignment, so
	 * an unaligned one would make this path's instruction count depend on
	 * the caller's stack layout (62-regions asserts it exactly).
	 */
	struct pmcdrv_read rd __attribute__((aligned(64)));
	int err;

	if (r->mode == PMC_SELF_FORKED)
		return -ECHILD;
	if (n > r->nr_events)
		return -EINVAL;
	err = r->mode == PMC_SELF_SESSION ? pmc_session_read(r->s, &rd) :
					    pmc_session_read_self(r->s, &rd);
	if (err)
		return err;
	memcpy(vals, rd.values, n * sizeof(*vals));
	if (time_enabled)
		*time_enabled = rd.time_enabled;
	if (time_running)
		*time_running = rd.time_running;
	return 0;
}

/*
 * The page's values and times, consistent: perf_event_mmap_page's loop
 * (include/uapi/linux/perf_event.h): the sequence, a compiler barrier, the
 * fields and RDPMC, a compiler barrier, again while the sequence changed.
 * The kernel updates the page only on this thread's CPU while the thread
 * is not running user code, so no CPU barrier is needed.
 */
/* The page's values of the first @n events, consistent (see pmc_self_read()). */
static inline __attribute__((always_inline)) void
read_values(const struct pmcdrv_self_page *pg, uint64_t *vals, unsigned int n)
{
	const struct pmcdrv_self_event *e, *end = pg->events + n;
	uint32_t seq, idx;
	uint64_t v, *out;

	do {
		seq = PMC_READ_ONCE(pg->seq);
		pmc_barrier();
		for (e = pg->events, out = vals; e != end; e++, out++) {
			v = e->offset;
			idx = e->index;
			if (idx)
				v += (pmc_rdpmc(idx - 1) - e->base) & e->mask;
			*out = v;
		}
		pmc_barrier();
	} while (PMC_READ_ONCE(pg->seq) != seq);
}

/*
 * The ns since the page's update, while its time runs: the TSC cycles
 * since time_cycles, converted as perf_event_mmap_page's cap_user_time
 * (include/uapi/linux/perf_event.h), as the module's next update will.
 */
static inline __attribute__((always_inline)) uint64_t
time_since(const struct pmcdrv_self_page *pg)
{
	uint64_t cyc = pmc_rdtsc() - pg->time_cycles;
	uint32_t shift = pg->time_shift, mult = pg->time_mult;
	uint64_t quot = cyc >> shift, rem = cyc & ((UINT64_C(1) << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
}

/* With the times: values and times from one consistent snapshot. */
static __attribute__((noinline)) int read_page_times(const struct pmc_self *r,
						     uint64_t *vals, unsigned int n,
						     uint64_t *time_enabled, uint64_t *time_running)
{
	const struct pmcdrv_self_page *pg = r->pg;
	uint64_t te, tr, d;
	uint32_t seq;

	do {
		seq = PMC_READ_ONCE(pg->seq);
		pmc_barrier();
		te = pg->time_enabled;
		tr = pg->time_running;
		if (pg->flags & r->time_live) {
			d = time_since(pg);
			te += d;
			tr += d;
		}
		read_values(pg, vals, n);
		pmc_barrier();
	} while (PMC_READ_ONCE(pg->seq) != seq);
	if (time_enabled)
		*time_enabled = te;
	if (time_running)
		*time_running = tr;
	return 0;
}

/*
 * The fast path: the sequence count, a compiler barrier, each event's
 * fields and RDPMC, a compiler barrier, again while the sequence changed
 * (perf_event_mmap_page's loop, include/uapi/linux/perf_event.h).  The
 * kernel updates the page only on this thread's CPU while the thread is
 * not running user code, so no CPU barrier is needed.
 */
int pmc_self_read(struct pmc_self *r, uint64_t *vals, unsigned int n, uint64_t *time_enabled,
		  uint64_t *time_running)
{
	if (__builtin_expect(r->mode != PMC_SELF_RDPMC || n > r->nr_events, 0))
		return read_slow(r, vals, n, time_enabled, time_running);
	if (__builtin_expect(time_enabled || time_running, 0))
		return read_page_times(r, vals, n, time_enabled, time_running);
	read_values(r->pg, vals, n);
	return 0;
}
