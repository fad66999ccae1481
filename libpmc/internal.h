/* SPDX-License-Identifier: GPL-2.0 */
/* libpmc internal: the message half of its "-errno plus a message in @err" convention. */
#ifndef PMCDRV_LIBPMC_INTERNAL_H
#define PMCDRV_LIBPMC_INTERNAL_H

#include <stddef.h>

/* Format a message into @err (NULL or @len 0: none wanted) and return @ret. */
int pmc_error(int ret, char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* PMCDRV_LIBPMC_INTERNAL_H */
