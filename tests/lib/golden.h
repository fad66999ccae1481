/* SPDX-License-Identifier: GPL-2.0 */
/* Golden-file checks for the CUnit tests (tests/lib/golden.c). */
#ifndef PMCDRV_TEST_GOLDEN_H
#define PMCDRV_TEST_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* tests/unit/golden from the project root, or next to build/tests/unit. */
const char *golden_dir(void);

/* The whole file, NUL-terminated; NULL when it cannot be read. */
char *read_file(const char *path, size_t *len);

/* A text cut into lines. */
struct text_lines {
	const char **at;	/* start of each line */
	size_t *len;		/* without its '\n' */
	size_t n;
};

/* Cut @s into lines; l->at and l->len (free them) are NULL when out of memory. */
void split_lines(const char *s, size_t slen, struct text_lines *l);

/*
 * Describe how @got differs from @exp: the first differing line and column,
 * both lines quoted, then the changed region as one unified-diff hunk (the
 * lines between the common head and the common tail, with context).
 */
void print_mismatch(FILE *f, const char *path, const char *exp, size_t elen,
		    const char *got, size_t glen);

/* A CUnit assertion reported at the test's @file and @line. */
void golden_assert_at(bool ok, const char *file, unsigned int line, const char *msg);

/*
 * Compare @got with the golden file @name; with PMCDRV_UPDATE_GOLDEN=1
 * write it instead (only when it changed).  Returns whether it matched.
 */
bool golden_check_at(const char *file, unsigned int line, const char *name, const char *got,
		     size_t glen);

#endif /* PMCDRV_TEST_GOLDEN_H */
