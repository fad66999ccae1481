/* SPDX-License-Identifier: GPL-2.0 */
/* libpmc internal: the message half of its "-errno plus a message in @err" convention. */
#ifndef PMCDRV_LIBPMC_INTERNAL_H
#define PMCDRV_LIBPMC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct pmcdrv_event;

/* Format a message into @err (NULL or @len 0: none wanted) and return @ret. */
int pmc_error(int ret, char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The fields of @ev that IA32_PERFEVTSELx value @sel gives: event, umask,
 * cmask and the USR, OS, EDGE and INV flags, ORed in.  Bits
 * without a field are the caller's to refuse first (evtsel.c).
 */
void pmc_evtsel_decode(uint64_t sel, struct pmcdrv_event *ev);

#endif /* PMCDRV_LIBPMC_INTERNAL_H */
