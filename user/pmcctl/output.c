// SPDX-License-Identifier: GPL-2.0
/* pmcctl output helpers. */
#include <stdio.h>
#include <string.h>

#include <pmcdrv/pmu.h>
#include "output.h"

void json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

char *fmt_thousands(uint64_t v, char *buf, size_t len)
{
	char digits[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	for (i = 0; i < n && o + 1 < len; i++) {
		if (i && (n - i) % 3 == 0) {
			if (o + 2 >= len)
				break;
			buf[o++] = ',';
		}
		buf[o++] = digits[i];
	}
	if (len)
		buf[o < len ? o : len - 1] = '\0';
	return buf;
}

/* Append "NAMEa-b" runs for the set bits of @bits (bit 0 = index 0). */
static void append_runs(char *buf, size_t len, const char *name, uint64_t bits)
{
	unsigned int i = 0, j;
	size_t o;

	while (i < 64) {
		if (!(bits & (1ULL << i))) {
			i++;
			continue;
		}
		for (j = i; j + 1 < 64 && (bits & (1ULL << (j + 1))); j++)
			;
		o = strlen(buf);
		if (j == i)
			snprintf(buf + o, len - o, "%s%s%u", o ? "," : "", name, i);
		else
			snprintf(buf + o, len - o, "%s%s%u-%u", o ? "," : "", name, i, j);
		i = j + 1;
	}
}

char *fmt_counter_mask(uint64_t mask, char *buf, size_t len)
{
	if (!len)
		return buf;
	buf[0] = '\0';
	append_runs(buf, len, "PMC", mask & 0xffffffffULL);
	append_runs(buf, len, "FIXED", mask >> PMC_GLOBAL_FIXED_SHIFT);
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}
