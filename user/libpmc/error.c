// SPDX-License-Identifier: GPL-2.0
/* libpmc: the message half of "-errno plus a message in @err", and what pmcdrv's errnos mean. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libpmc.h"
#include "internal.h"

int pmc_error(int ret, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return ret;
}

const char *pmc_session_strerror(int err, unsigned long cmd)
{
	switch (err) {
	case -EOWNERDEAD:
		return "the session was revoked by an administrator (pmcctl info --revoke)";
	case -EBUSY:
		if (cmd == PMCDRV_IOC_ENABLE)
			return "the PMU is held by perf_events (or the NMI watchdog), so pmcdrv could not take it back";
		if (cmd == PMCDRV_IOC_ATTACH)
			return "another pmcdrv session counts that CPU already (one CPU session per CPU), "
			       "or the PMU is held by perf_events (or the NMI watchdog), so pmcdrv could "
			       "not take it back";
		break;
	}
	return strerror(-err);
}
