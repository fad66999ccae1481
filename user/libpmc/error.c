// SPDX-License-Identifier: GPL-2.0
/* libpmc: the message half of "-errno plus a message in @err". */
#include <stdarg.h>
#include <stdio.h>

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
