/* SPDX-License-Identifier: GPL-2.0 */
/* JSON checks for the CUnit tests (tests/lib/json_check.c). */
#ifndef PMCDRV_TEST_JSON_CHECK_H
#define PMCDRV_TEST_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0..n) exactly one JSON object (blanks around it allowed)? */
bool json_object_line(const char *s, size_t n);

/* Assert that every line of @text is one JSON object; names the first bad line. */
bool json_lines_ok_at(const char *file, unsigned int line, const char *what, const char *text,
		      size_t len);

/* Is jq installed (tests/deps.sh installs it)? */
bool have_jq(void);

/*
 * Run jq -c type over @text: count the values that are objects and the
 * other outputs (other types, error messages).  jq's exit status, or -1.
 */
int jq_types(const char *text, size_t len, size_t *objects, size_t *others);

/* A second opinion from jq, when installed: as many objects as lines, and nothing else. */
void jq_check_at(const char *file, unsigned int line, const char *what, const char *text,
		 size_t len, size_t nlines);

#endif /* PMCDRV_TEST_JSON_CHECK_H */
