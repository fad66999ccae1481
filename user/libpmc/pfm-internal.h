/* SPDX-License-Identifier: GPL-2.0 */
/* libpmc internal: libpfm4 names for the -e parser (events.c). */
#ifndef PMCDRV_LIBPMC_PFM_INTERNAL_H
#define PMCDRV_LIBPMC_PFM_INTERNAL_H

#include <stddef.h>

struct pmcdrv_event;

/*
 * pmc_pfm_encode() with @extra[0..@nextra) (the built-in names) among the
 * candidates for "did you mean" when @name is unknown.
 */
int pmc_pfm_encode_named(const char *name, const char *const *extra, size_t nextra,
			 struct pmcdrv_event *ev, char *err, size_t errlen);

/* Levenshtein distance of @a and @b, ignoring case (bounded to 255). */
unsigned int pmc_edit_distance(const char *a, const char *b);

#endif /* PMCDRV_LIBPMC_PFM_INTERNAL_H */
