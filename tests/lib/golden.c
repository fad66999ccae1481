// SPDX-License-Identifier: GPL-2.0
/*
 * Golden-file checks for CUnit tests: compare output with a file under
 * tests/unit/golden byte for byte, describe a mismatch readably, and
 * rewrite the file with PMCDRV_UPDATE_GOLDEN=1.
 */
#include <CUnit/CUnit.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden.h"

/* ---- golden files ------------------------------------------------------- */

/* tests/unit/golden from the project root, or next to build/tests/unit. */
const char *golden_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	struct stat st;
	ssize_t n;
	char *slash;

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "tests/unit/golden");
	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%.*s/../../tests/unit/golden",
				 (int)(sizeof(dir) - 32), exe);
		}
	}
	return dir;
}

static bool update_mode(void)
{
	const char *v = getenv("PMCDRV_UPDATE_GOLDEN");

	return v && *v && strcmp(v, "0");
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = n + 4096 + 1);

			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static bool write_file(const char *path, const char *data, size_t len)
{
	char tmp[PATH_MAX + 256];
	FILE *f;
	bool ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return false;
	ok = fwrite(data, 1, len, f) == len;
	ok = !fclose(f) && ok;
	if (ok && rename(tmp, path))
		ok = false;
	if (!ok)
		unlink(tmp);
	return ok;
}

/* ---- a readable mismatch: first difference, then one unified hunk -------- */

void split_lines(const char *s, size_t slen, struct text_lines *l)
{
	size_t i, start = 0, cap = 1;

	for (i = 0; i < slen; i++)
		cap += s[i] == '\n';
	l->at = calloc(cap, sizeof(*l->at));
	l->len = calloc(cap, sizeof(*l->len));
	l->n = 0;
	if (!l->at || !l->len)
		return;
	for (i = 0; i <= slen; i++) {
		if (i == slen && i == start)
			break;		/* nothing after the last '\n' */
		if (i == slen || s[i] == '\n') {
			l->at[l->n] = s + start;
			l->len[l->n++] = i - start;
			start = i + 1;
		}
	}
}

static bool line_eq(const struct text_lines *a, size_t i, const struct text_lines *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

/* A line in C-string quotes, so trailing blanks and tabs show. */
static void put_quoted(FILE *f, const char *s, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_hunk_line(FILE *f, char mark, const struct text_lines *l, size_t i)
{
	fprintf(f, "%c%.*s\n", mark, (int)l->len[i], l->at[i]);
}

void print_mismatch(FILE *f, const char *path, const char *exp, size_t elen,
			   const char *got, size_t glen)
{
	enum { CONTEXT = 2, MAX_SHOWN = 12 };
	struct text_lines e, g;
	size_t head = 0, tail = 0, col = 0, i, from, after, e_to, g_to;

	split_lines(exp, elen, &e);
	split_lines(got, glen, &g);
	if (!e.at || !e.len || !g.at || !g.len) {
		fprintf(f, "golden mismatch: %s (out of memory describing it)\n", path);
		goto out;
	}
	while (head < e.n && head < g.n && line_eq(&e, head, &g, head))
		head++;
	while (tail < e.n - head && tail < g.n - head &&
	       line_eq(&e, e.n - 1 - tail, &g, g.n - 1 - tail))
		tail++;
	e_to = e.n - tail;
	g_to = g.n - tail;

	fprintf(f, "\ngolden mismatch: %s\n", path);
	if (head < e.n && head < g.n) {
		while (col < e.len[head] && col < g.len[head] &&
		       e.at[head][col] == g.at[head][col])
			col++;
		fprintf(f, "first difference: line %zu, column %zu\n  expected: ", head + 1, col + 1);
		put_quoted(f, e.at[head], e.len[head]);
		fputs("\n  got:      ", f);
		put_quoted(f, g.at[head], g.len[head]);
		fputc('\n', f);
	} else if (e.n != g.n) {
		fprintf(f, "first difference: line %zu: %s\n", head + 1,
			e.n > g.n ? "expected more lines" : "got more lines");
	} else {
		fputs("first difference: the last line's newline\n", f);
	}
	from = head > CONTEXT ? head - CONTEXT : 0;
	after = tail < CONTEXT ? tail : CONTEXT;
	fprintf(f, "--- %s\n+++ got\n@@ -%zu,%zu +%zu,%zu @@\n", path, from + 1,
		e_to - from + after, from + 1, g_to - from + after);
	for (i = from; i < head; i++)
		put_hunk_line(f, ' ', &e, i);
	for (i = head; i < e_to && i < head + MAX_SHOWN; i++)
		put_hunk_line(f, '-', &e, i);
	if (e_to > head + MAX_SHOWN)
		fprintf(f, "-... (%zu more)\n", e_to - head - MAX_SHOWN);
	for (i = head; i < g_to && i < head + MAX_SHOWN; i++)
		put_hunk_line(f, '+', &g, i);
	if (g_to > head + MAX_SHOWN)
		fprintf(f, "+... (%zu more)\n", g_to - head - MAX_SHOWN);
	for (i = e_to; i < e_to + after; i++)
		put_hunk_line(f, ' ', &e, i);
	fputs("to accept the new output: PMCDRV_UPDATE_GOLDEN=1 make unit (then review git diff)\n", f);
out:
	free(e.at);
	free(e.len);
	free(g.at);
	free(g.len);
}

void golden_assert_at(bool ok, const char *file, unsigned int line, const char *msg)
{
	CU_assertImplementation(ok ? CU_TRUE : CU_FALSE, line, msg, file, "", CU_FALSE);
}

bool golden_check_at(const char *file, unsigned int line, const char *name, const char *got,
		     size_t glen)
{
	char path[PATH_MAX + 128], msg[2 * PATH_MAX];
	char *exp;
	size_t elen = 0;
	bool same;

	snprintf(path, sizeof(path), "%s/%.100s", golden_dir(), name);
	exp = read_file(path, &elen);
	same = exp && elen == glen && !memcmp(exp, got, glen);
	if (!same && update_mode()) {
		same = write_file(path, got, glen);
		printf("\ngolden: %s %s\n", same ? "updated" : "CANNOT WRITE", path);
		snprintf(msg, sizeof(msg), "golden %s could not be written", name);
	} else if (!exp) {
		snprintf(msg, sizeof(msg), "golden %s: cannot read %s (%s); create it with PMCDRV_UPDATE_GOLDEN=1",
			 name, path, strerror(errno));
		printf("\n%s\n", msg);
	} else if (!same) {
		print_mismatch(stdout, path, exp, elen, got, glen);
		snprintf(msg, sizeof(msg), "golden %s differs (diff above)", name);
	} else {
		snprintf(msg, sizeof(msg), "golden %s", name);
	}
	fflush(stdout);
	golden_assert_at(same, file, line, msg);
	free(exp);
	return same;
}
