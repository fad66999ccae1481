// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: self-read.  A tracked thread maps its own page of the session
 * (struct pmcdrv_self_page, docs/abi.md) and reads each event as
 * offset + RDPMC, retried while the page's sequence count changes, as
 * perf_event_mmap_page is read (include/uapi/linux/perf_event.h).  Where
 * that cannot give the value (no hardware counter, a software event, RDPMC
 * disabled) the same thread's counts come from PMCDRV_IOC_READ_SELF; a CPU
 * session, or a module without READ_SELF, reads the whole session.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libpmc.h"

/* How a reader reads. */
enum pmc_self_mode {
	PMC_SELF_RDPMC,		/* the page and RDPMC */
	PMC_SELF_IOCTL,		/* PMCDRV_IOC_READ_SELF: the thread's own counts */
	PMC_SELF_SESSION,	/* PMCDRV_IOC_READ: the whole session */
};

struct pmc_self {
	struct pmc_session *s;
	enum pmc_self_mode mode;
	unsigned int nr_events;
	const volatile struct pmcdrv_self_page *pg;	/* the thread's page, or NULL */
	volatile int *owner;	/* 1 in the opening process; MADV_WIPEONFORK: 0 after fork */
	size_t page_size;
};

uint64_t pmc_self_event_value(const struct pmcdrv_self_event *e, uint64_t pmc)
{
	uint64_t mask;

	if (!e->index)
		return e->offset;
	mask = e->width >= 64 ? ~0ULL : (1ULL << e->width) - 1;
	return e->offset + ((pmc - e->base) & mask);
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t pmc_rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
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
#endif

#define pmc_barrier()	__asm__ __volatile__("" ::: "memory")

/* perf's "rdpmc" sysfs setting: 0 means the kernel never sets CR4.PCE. */
static bool rdpmc_disabled(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/cpu/rdpmc", "re");
	int v = 1;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 1;
	fclose(f);
	return v == 0;
}

/* Can the page give every event through RDPMC?  Hardware events only. */
static bool page_usable(struct pmc_self *r)
{
	unsigned int i;

	if (!PMC_HAVE_RDPMC || r->pg->version != PMCDRV_SELF_PAGE_VERSION ||
	    r->pg->size < PMCDRV_SELF_PAGE_SIZE_VER0 || r->pg->nr_events != r->nr_events ||
	    !(r->pg->flags & PMCDRV_SELF_RDPMC))
		return false;
	for (i = 0; i < r->nr_events; i++)
		if (pmc_session_counter(r->s, i) == ~0U)
			return false;
	return !rdpmc_disabled();
}

int pmc_self_open(struct pmc_session *s, struct pmc_self **out)
{
	struct pmcdrv_read rd;
	struct pmc_self *r;
	void *p;
	int err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->s = s;
	r->page_size = (size_t)sysconf(_SC_PAGESIZE);
	/* The first READ_SELF makes the thread's own counts (and says who is tracked). */
	err = pmc_session_read_self(s, &rd);
	if (err == -EOPNOTSUPP || err == -ENOTTY) {
		err = pmc_session_read(s, &rd);
		r->mode = PMC_SELF_SESSION;
	} else {
		r->mode = PMC_SELF_IOCTL;
	}
	if (err)
		goto err_free;
	r->nr_events = rd.nr_events;
	p = mmap(NULL, r->page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		goto err_free;
	}
	r->owner = p;
	if (madvise(p, r->page_size, MADV_WIPEONFORK) == 0)
		*r->owner = 1;
	else
		*r->owner = 2;	/* kernel before 4.14: fork cannot be noticed */
	if (r->mode == PMC_SELF_SESSION)
		goto out;
	p = mmap(NULL, r->page_size, PROT_READ, MAP_SHARED, pmc_session_fd(s),
		 PMCDRV_SELF_MMAP_OFFSET);
	if (p == MAP_FAILED)
		goto out;	/* READ_SELF works: use it */
	r->pg = p;
	if (page_usable(r))
		r->mode = PMC_SELF_RDPMC;
out:
	*out = r;
	return 0;

err_free:
	free(r);
	return err;
}

void pmc_self_close(struct pmc_self *r)
{
	if (!r)
		return;
	if (r->pg)
		munmap((void *)r->pg, r->page_size);
	munmap((void *)r->owner, r->page_size);
	free(r);
}

bool pmc_self_fast(const struct pmc_self *r)
{
	return r->mode == PMC_SELF_RDPMC;
}

/* Through an ioctl, or refused: kept out of the fast path's frame. */
static __attribute__((noinline)) int read_slow(struct pmc_self *r, uint64_t *vals, unsigned int n,
					       uint64_t *time_enabled, uint64_t *time_running)
{
	struct pmcdrv_read rd;
	int err;

	if (!*r->owner)
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
int pmc_self_read(struct pmc_self *r, uint64_t *vals, unsigned int n, uint64_t *time_enabled,
		  uint64_t *time_running)
{
	const volatile struct pmcdrv_self_page *pg = r->pg;
	unsigned int i, sh;
	uint32_t seq, idx;
	uint64_t v;

	if (r->mode != PMC_SELF_RDPMC || !*r->owner || n > r->nr_events)
		return read_slow(r, vals, n, time_enabled, time_running);
	do {
		seq = pg->seq;
		pmc_barrier();
		for (i = 0; i < n; i++) {
			v = pg->events[i].offset;
			idx = pg->events[i].index;
			if (idx) {
				sh = 64 - pg->events[i].width;
				v += (pmc_rdpmc(idx - 1) - pg->events[i].base) << sh >> sh;
			}
			vals[i] = v;
		}
		if (time_enabled)
			*time_enabled = pg->time_enabled;
		if (time_running)
			*time_running = pg->time_running;
		pmc_barrier();
	} while (pg->seq != seq);
	return 0;
}
