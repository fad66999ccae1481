/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpmc internal: how region.c reads a thread's counters, and the hooks
 * its unit tests use instead of a session (tests/unit/test_region.c).
 */
#ifndef PMCDRV_LIBPMC_REGION_INTERNAL_H
#define PMCDRV_LIBPMC_REGION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/* The self-reader of one thread: pmc_self_open/read/close, or a test's fake. */
struct pmc_region_backend {
	int (*open)(void *ctx, void **reader);	/* for the calling thread; 0 or -errno */
	/* The first @n counts and the time in ns (time_enabled); counts never decrease. */
	int (*read)(void *reader, uint64_t *vals, unsigned int n, uint64_t *time_ns);
	void (*close)(void *reader);
	bool (*fast)(const void *reader);	/* reads through RDPMC (NULL: never) */
};

/*
 * Set the region API up with @be on @ctx and @n events named @names instead
 * of a session (no environment read, no report at exit), with the metrics
 * @metrics names (NULL: none; their events must be among @names).
 * -EALREADY when set up; pmc_region_init()'s metric errors.
 */
int pmc_region_init_backend(const struct pmc_region_backend *be, void *ctx, unsigned int n,
			    const char *const *names, const char *metrics);
/*
 * Forget everything: the table, every thread's records, the session.  Only
 * when no other thread that used regions is alive (the unit tests).
 */
void pmc_region_teardown(void);
/* Append the machine form of the table (libpmc.h) to @fd: what the report at exit writes. */
int pmc_region_write_table(int fd);

#endif /* PMCDRV_LIBPMC_REGION_INTERNAL_H */
