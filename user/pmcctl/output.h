/* SPDX-License-Identifier: GPL-2.0 */
/* pmcctl output helpers: JSON text and number formatting. */
#ifndef PMCDRV_OUTPUT_H
#define PMCDRV_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Write @s as a JSON string literal, quotes included. */
void json_string(FILE *f, const char *s);

/* Format @v with thousands separators ("1,234,567") into @buf; returns @buf. */
char *fmt_thousands(uint64_t v, char *buf, size_t len);

/*
 * Describe a counter mask in GLOBAL_CTRL layout as "PMC0-3,FIXED0-2" (text)
 * into @buf; "none" when empty.  Returns @buf.
 */
char *fmt_counter_mask(uint64_t mask, char *buf, size_t len);

#endif /* PMCDRV_OUTPUT_H */
