// SPDX-License-Identifier: GPL-2.0
/*
 * JSON checks for CUnit tests: a strict RFC 8259 parser that holds each
 * line of a text to be one JSON object, and jq's second opinion.
 */
#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden.h"
#include "json_check.h"

/* ---- a strict JSON checker (RFC 8259), one value per line ------------------ */

struct json_in {
	const char *p, *end;
	int depth;
};

static bool json_value(struct json_in *in);

static void json_ws(struct json_in *in)
{
	while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\r' || *in->p == '\n'))
		in->p++;
}

static bool json_peek(const struct json_in *in, char c)
{
	return in->p < in->end && *in->p == c;
}

static bool json_eat(struct json_in *in, char c)
{
	if (!json_peek(in, c))
		return false;
	in->p++;
	return true;
}

static bool json_is_digit(const struct json_in *in)
{
	return in->p < in->end && *in->p >= '0' && *in->p <= '9';
}

static bool json_digits(struct json_in *in)
{
	if (!json_is_digit(in))
		return false;
	while (json_is_digit(in))
		in->p++;
	return true;
}

static bool json_string_tok(struct json_in *in)
{
	int i;

	if (!json_eat(in, '"'))
		return false;
	while (in->p < in->end) {
		unsigned char c = (unsigned char)*in->p++;

		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (in->p >= in->end)
			return false;
		c = (unsigned char)*in->p++;
		if (c == 'u') {
			for (i = 0; i < 4; i++, in->p++) {
				if (in->p >= in->end || !strchr("0123456789abcdefABCDEF", *in->p) || !*in->p)
					return false;
			}
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return false;
		}
	}
	return false;
}

static bool json_number(struct json_in *in)
{
	json_eat(in, '-');
	if (json_eat(in, '0')) {
		if (json_is_digit(in))
			return false;	/* no leading zeros */
	} else if (!json_digits(in)) {
		return false;
	}
	if (json_eat(in, '.') && !json_digits(in))
		return false;
	if (json_eat(in, 'e') || json_eat(in, 'E')) {
		if (!json_eat(in, '+'))
			json_eat(in, '-');
		if (!json_digits(in))
			return false;
	}
	return true;
}

static bool json_literal(struct json_in *in, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(in->end - in->p) < n || memcmp(in->p, word, n))
		return false;
	in->p += n;
	return true;
}

/* '{' members '}' or '[' elements ']'; object keys must be strings and unique. */
static bool json_container(struct json_in *in, bool object)
{
	enum { MAX_KEYS = 64 };
	const char *keys[MAX_KEYS];
	size_t klen[MAX_KEYS], nkeys = 0, i;
	char close = object ? '}' : ']';

	in->p++;
	if (++in->depth > 32)
		return false;
	json_ws(in);
	if (json_eat(in, close))
		goto done;
	for (;;) {
		json_ws(in);
		if (object) {
			const char *k = in->p;

			if (!json_string_tok(in))
				return false;
			for (i = 0; i < nkeys; i++) {
				if (klen[i] == (size_t)(in->p - k) && !memcmp(keys[i], k, klen[i]))
					return false;	/* duplicate key */
			}
			if (nkeys < MAX_KEYS) {
				keys[nkeys] = k;
				klen[nkeys++] = (size_t)(in->p - k);
			}
			json_ws(in);
			if (!json_eat(in, ':'))
				return false;
		}
		if (!json_value(in))
			return false;
		json_ws(in);
		if (json_eat(in, close))
			goto done;
		if (!json_eat(in, ','))
			return false;
	}
done:
	in->depth--;
	return true;
}

static bool json_value(struct json_in *in)
{
	json_ws(in);
	if (in->p >= in->end)
		return false;
	switch (*in->p) {
	case '{':
		return json_container(in, true);
	case '[':
		return json_container(in, false);
	case '"':
		return json_string_tok(in);
	case 't':
		return json_literal(in, "true");
	case 'f':
		return json_literal(in, "false");
	case 'n':
		return json_literal(in, "null");
	default:
		return json_number(in);
	}
}

bool json_object_line(const char *s, size_t n)
{
	struct json_in in = { s, s + n, 0 };

	json_ws(&in);
	if (!json_peek(&in, '{') || !json_value(&in))
		return false;
	json_ws(&in);
	return in.p == in.end;
}

bool json_lines_ok_at(const char *file, unsigned int line, const char *what, const char *text,
		     size_t len)
{
	struct text_lines l;
	char msg[512];
	size_t i;
	bool ok = true;

	split_lines(text, len, &l);
	if (!l.at || !l.len)
		ok = false;
	for (i = 0; ok && i < l.n; i++) {
		if (!json_object_line(l.at[i], l.len[i])) {
			ok = false;
			snprintf(msg, sizeof(msg), "%s line %zu is not one valid JSON object: %.*s",
				 what, i + 1, (int)(l.len[i] > 300 ? 300 : l.len[i]), l.at[i]);
			printf("\n%s\n", msg);
		}
	}
	if (ok && (!len || text[len - 1] != '\n')) {
		ok = false;
		snprintf(msg, sizeof(msg), "%s does not end in a newline", what);
	}
	if (ok)
		snprintf(msg, sizeof(msg), "%s: every line is one JSON object", what);
	golden_assert_at(ok, file, line, msg);
	free(l.at);
	free(l.len);
	return ok;
}

bool have_jq(void)
{
	static int have = -1;

	if (have < 0) {
		have = system("command -v jq >/dev/null 2>&1") == 0;
		if (!have)
			printf("\nnote: jq not installed; JSON checked by the built-in parser only\n");
	}
	return have;
}

int jq_types(const char *text, size_t len, size_t *objects, size_t *others)
{
	char tmpl[] = "/tmp/pmcdrv-report-XXXXXX", cmd[128], out[64];
	FILE *p;
	int fd, st;

	*objects = *others = 0;
	fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmpl);
		return -1;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "jq -c type < %s 2>&1", tmpl);
	fflush(stdout);
	p = popen(cmd, "r");
	while (p && fgets(out, sizeof(out), p)) {
		if (!strcmp(out, "\"object\"\n"))
			(*objects)++;
		else
			(*others)++;
	}
	st = p ? pclose(p) : -1;
	unlink(tmpl);
	return st;
}

void jq_check_at(const char *file, unsigned int line, const char *what, const char *text,
		 size_t len, size_t nlines)
{
	size_t objects, others;
	char msg[256];
	int st;

	if (!have_jq())
		return;
	st = jq_types(text, len, &objects, &others);
	snprintf(msg, sizeof(msg), "jq: %s: %zu lines, %zu objects, %zu other outputs, status %d",
		 what, nlines, objects, others, st);
	if (st != 0 || others || objects != nlines)
		printf("\n%s\n", msg);
	golden_assert_at(st == 0 && !others && objects == nlines, file, line, msg);
}
