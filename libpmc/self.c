// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: self-read.  For now every read is a PMCDRV_IOC_READ of the whole
 * session (the fallback path); the page and RDPMC path replaces the
 * internals behind the same functions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"

struct pmc_self {
	struct pmc_session *s;
};

int pmc_self_open(struct pmc_session *s, struct pmc_self **out)
{
	struct pmc_self *r = calloc(1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->s = s;
	*out = r;
	return 0;
}

void pmc_self_close(struct pmc_self *r)
{
	free(r);
}

bool pmc_self_fast(const struct pmc_self *r)
{
	(void)r;
	return false;
}

int pmc_self_read(struct pmc_self *r, uint64_t *vals, unsigned int n, uint64_t *time_enabled,
		  uint64_t *time_running)
{
	struct pmcdrv_read rd;
	int err = pmc_session_read(r->s, &rd);

	if (err)
		return err;
	if (n > rd.nr_events)
		return -EINVAL;
	memcpy(vals, rd.values, n * sizeof(*vals));
	if (time_enabled)
		*time_enabled = rd.time_enabled;
	if (time_running)
		*time_running = rd.time_running;
	return 0;
}
