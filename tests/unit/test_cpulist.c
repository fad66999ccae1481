// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of CPU lists, user/libpmc/cpulist.c (pmcctl stat -C, the kernel's
 * cpulist format): every accepted form with the exact set it gives, every
 * rejected form with its errno and a message naming the bad term, -ERANGE
 * at CPU_SETSIZE, pmc_cpulist_format() (shortest form, round trips,
 * -ENOSPC), and pmc_online_cpus() on temporary files and on the real
 * /sys/devices/system/cpu/online.
 *
 * Linked into the one unit binary; main() in main.c calls
 * register_cpulist_tests() to add the "cpulist" suite.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmc.h"
#include "unit.h"

/* An assertion with a formatted failure message. */
#define CHECKF(cond, ...)							\
	do {									\
		char msg_[1024];						\
										\
		snprintf(msg_, sizeof(msg_), __VA_ARGS__);			\
		CU_assertImplementation(!!(cond), __LINE__, msg_, __FILE__, "",	\
					CU_FALSE);				\
	} while (0)

/* Ranges of CPUs, ended by { -1, -1 }. */
struct range {
	int first, last;
};

#define END	{ -1, -1 }

static void make_set(cpu_set_t *set, const struct range *r)
{
	int cpu;

	CPU_ZERO(set);
	for (; r->first >= 0; r++)
		for (cpu = r->first; cpu <= r->last; cpu++)
			CPU_SET(cpu, set);
}

/* Some CPUs set, to see that a call clears the set. */
static void dirty_set(cpu_set_t *set)
{
	CPU_ZERO(set);
	CPU_SET(1, set);
	CPU_SET(CPU_SETSIZE - 1, set);
}

static const char *fmt_set(const cpu_set_t *set, char *buf, size_t len)
{
	if (pmc_cpulist_format(set, buf, len) < 0)
		snprintf(buf, len, "(format failed)");
	return buf;
}

/* ---- accepted lists ------------------------------------------------------- */

struct accept_case {
	const char *list;
	struct range want[4];
	const char *canonical;		/* what pmc_cpulist_format() gives back */
};

static const struct accept_case accepts[] = {
	{ "0", { { 0, 0 }, END }, "0" },
	{ "5", { { 5, 5 }, END }, "5" },
	{ "0-3", { { 0, 3 }, END }, "0-3" },
	{ "0-0", { { 0, 0 }, END }, "0" },
	{ "3-3", { { 3, 3 }, END }, "3" },
	{ "0-1", { { 0, 1 }, END }, "0-1" },
	{ "0-3,5", { { 0, 3 }, { 5, 5 }, END }, "0-3,5" },
	{ "0-3,5,7-8", { { 0, 3 }, { 5, 5 }, { 7, 8 }, END }, "0-3,5,7-8" },
	{ "0,1,2", { { 0, 2 }, END }, "0-2" },
	{ "0,2", { { 0, 0 }, { 2, 2 }, END }, "0,2" },
	{ "0-1,2-3", { { 0, 3 }, END }, "0-3" },
	{ "2,1,0", { { 0, 2 }, END }, "0-2" },
	{ "7-8,0-3", { { 0, 3 }, { 7, 8 }, END }, "0-3,7-8" },
	{ "1,1", { { 1, 1 }, END }, "1" },
	{ "0-5,3-8", { { 0, 8 }, END }, "0-8" },
	{ "0-8,3-5", { { 0, 8 }, END }, "0-8" },
	{ "4,0-7,4-4", { { 0, 7 }, END }, "0-7" },
	{ "007", { { 7, 7 }, END }, "7" },
	{ "00-010", { { 0, 10 }, END }, "0-10" },
	{ "10,100,1000", { { 10, 10 }, { 100, 100 }, { 1000, 1000 }, END }, "10,100,1000" },
	{ "99-101", { { 99, 101 }, END }, "99-101" },
};

static void test_accepts(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(accepts); i++) {
		const struct accept_case *c = &accepts[i];
		cpu_set_t got, want, again;
		char err[256] = "", buf[256], fbuf[256];
		int ret;

		make_set(&want, c->want);
		dirty_set(&got);
		ret = pmc_cpulist_parse(c->list, &got, err, sizeof(err));
		CHECKF(ret == 0, "'%s': returned %d (%s), want 0", c->list, ret, err);
		CHECKF(CPU_EQUAL(&got, &want), "'%s': got %s", c->list,
		       fmt_set(&got, fbuf, sizeof(fbuf)));
		CHECKF(err[0] == '\0', "'%s': accepted with a message '%s'", c->list, err);

		/* Format: the canonical form, which parses back to the same set. */
		ret = pmc_cpulist_format(&got, buf, sizeof(buf));
		CHECKF(ret == (int)strlen(c->canonical) && !strcmp(buf, c->canonical),
		       "'%s': formatted as '%s' (%d), want '%s'", c->list, buf, ret, c->canonical);
		ret = pmc_cpulist_parse(buf, &again, err, sizeof(err));
		CHECKF(ret == 0 && CPU_EQUAL(&again, &want), "'%s': '%s' does not parse back (%d)",
		       c->list, buf, ret);
	}
}

/* The last CPU a cpu_set_t holds, and the full set. */
static void test_accept_limits(void)
{
	char list[64], buf[64], want[64];
	cpu_set_t set;
	int ret;

	snprintf(list, sizeof(list), "%d", CPU_SETSIZE - 1);
	dirty_set(&set);
	CU_ASSERT_EQUAL(pmc_cpulist_parse(list, &set, NULL, 0), 0);
	CHECKF(CPU_COUNT(&set) == 1 && CPU_ISSET(CPU_SETSIZE - 1, &set), "'%s': %d CPUs", list,
	       CPU_COUNT(&set));
	ret = pmc_cpulist_format(&set, buf, sizeof(buf));
	CHECKF(ret == (int)strlen(list) && !strcmp(buf, list), "'%s' formatted as '%s'", list, buf);

	snprintf(list, sizeof(list), "0-%d", CPU_SETSIZE - 1);
	CU_ASSERT_EQUAL(pmc_cpulist_parse(list, &set, NULL, 0), 0);
	CHECKF(CPU_COUNT(&set) == CPU_SETSIZE, "'%s': %d CPUs", list, CPU_COUNT(&set));
	ret = pmc_cpulist_format(&set, buf, sizeof(buf));
	CHECKF(ret == (int)strlen(list) && !strcmp(buf, list), "'%s' formatted as '%s'", list, buf);

	snprintf(list, sizeof(list), "%d,0,%d", CPU_SETSIZE - 1, CPU_SETSIZE - 2);
	snprintf(want, sizeof(want), "0,%d-%d", CPU_SETSIZE - 2, CPU_SETSIZE - 1);
	CU_ASSERT_EQUAL(pmc_cpulist_parse(list, &set, NULL, 0), 0);
	CU_ASSERT_EQUAL(CPU_COUNT(&set), 3);
	ret = pmc_cpulist_format(&set, buf, sizeof(buf));
	CHECKF(ret == (int)strlen(want) && !strcmp(buf, want), "'%s' formatted as '%s', want '%s'",
	       list, buf, want);
}

/* ---- rejected lists ------------------------------------------------------- */

struct reject_case {
	const char *list;
	int err;			/* -EINVAL or -ERANGE */
	const char *needle;		/* the message must contain this (the bad term) */
	const char *needle2;		/* and this, when not NULL */
};

static const struct reject_case rejects[] = {
	/* empty list and empty terms */
	{ "", -EINVAL, "empty", NULL },
	{ ",", -EINVAL, "empty", NULL },
	{ ",1", -EINVAL, "empty", "',1'" },
	{ "1,", -EINVAL, "empty", "'1,'" },
	{ "0-3,", -EINVAL, "empty", "'0-3,'" },
	{ "1,,2", -EINVAL, "empty", "'1,,2'" },
	{ ",,", -EINVAL, "empty", NULL },
	/* ranges */
	{ "3-1", -EINVAL, "'3-1'", "1-3" },
	{ "0-3,8-7", -EINVAL, "'8-7'", "7-8" },
	{ "-1", -EINVAL, "'-1'", NULL },
	{ "1-", -EINVAL, "'1-'", NULL },
	{ "-", -EINVAL, "'-'", NULL },
	{ "0,-1", -EINVAL, "'-1'", NULL },
	{ "1--2", -EINVAL, "'-2'", NULL },
	{ "1-2-3", -EINVAL, "'2-3'", NULL },
	{ "0-x", -EINVAL, "'x' is not a CPU number", "'0-x'" },
	{ "x-1", -EINVAL, "'x' is not a CPU number", "'x-1'" },
	{ "0-3,5-y", -EINVAL, "'y'", NULL },
	/* not CPU numbers */
	{ "a", -EINVAL, "'a' is not a CPU number", NULL },
	{ "0x1", -EINVAL, "'0x1'", NULL },
	{ "0-0x3", -EINVAL, "'0x3'", NULL },
	{ "1x", -EINVAL, "'1x'", NULL },
	{ "0,1x,2", -EINVAL, "'1x'", NULL },
	{ "1.5", -EINVAL, "'1.5'", NULL },
	{ "+1", -EINVAL, "'+1'", NULL },
	{ "1e3", -EINVAL, "'1e3'", NULL },
	{ "all", -EINVAL, "'all'", NULL },
	{ "cpu0", -EINVAL, "'cpu0'", NULL },
	/* blanks, and the newline only pmc_online_cpus() accepts */
	{ " 1", -EINVAL, "' 1'", NULL },
	{ "1 ", -EINVAL, "'1 '", NULL },
	{ "1, 2", -EINVAL, "' 2'", NULL },
	{ "1 -2", -EINVAL, "'1 '", NULL },
	{ "1- 2", -EINVAL, "' 2'", NULL },
	{ "\t0", -EINVAL, "'\t0'", NULL },
	{ "0-3\n", -EINVAL, "'3\n'", NULL },
	{ "1;2", -EINVAL, "'1;2'", NULL },
	{ "1:2", -EINVAL, "'1:2'", NULL },
	/* too large: overflow of every width, and CPU_SETSIZE itself */
	{ "99999999999999999999", -ERANGE, "CPU 99999999999999999999", NULL },
	{ "18446744073709551616", -ERANGE, "CPU 18446744073709551616", NULL },
	{ "4294967296", -ERANGE, "CPU 4294967296", NULL },
	{ "4294967297", -ERANGE, "CPU 4294967297", NULL },
	{ "0-99999999999999999999", -ERANGE, "CPU 99999999999999999999", NULL },
	{ "2,100000", -ERANGE, "CPU 100000", NULL },
	/* a syntax error before a too-large CPU, and the other way round */
	{ "x,100000", -EINVAL, "'x'", NULL },
	{ "100000,x", -ERANGE, "CPU 100000", NULL },
};

static void check_reject(const char *list, int want, const char *needle, const char *needle2)
{
	char err[512];
	cpu_set_t set;
	int ret;

	memset(err, 0, sizeof(err));
	dirty_set(&set);
	ret = pmc_cpulist_parse(list, &set, err, sizeof(err));
	CHECKF(ret == want, "'%s': returned %d, want %d", list, ret, want);
	CHECKF(CPU_COUNT(&set) == 0, "'%s': %d CPUs left in the set after failure", list,
	       CPU_COUNT(&set));
	CHECKF(strstr(err, needle), "'%s': message \"%s\" lacks \"%s\"", list, err, needle);
	CHECKF(!needle2 || strstr(err, needle2), "'%s': message \"%s\" lacks \"%s\"", list, err,
	       needle2 ? needle2 : "");
	if (want == -EINVAL)
		CHECKF(strstr(err, "write "), "'%s': message \"%s\" does not say how to write it",
		       list, err);
}

static void test_rejects(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rejects); i++)
		check_reject(rejects[i].list, rejects[i].err, rejects[i].needle,
			     rejects[i].needle2);
}

/* The message of the brief's example, word for word. */
static void test_reject_message(void)
{
	char err[256] = "";
	cpu_set_t set;

	CU_ASSERT_EQUAL(pmc_cpulist_parse("0-x", &set, err, sizeof(err)), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err,
			       "bad CPU list '0-x': 'x' is not a CPU number; write CPUs as 0-3,5");
}

/* CPU_SETSIZE and beyond: -ERANGE naming the CPU and the limit. */
static void test_range(void)
{
	char list[64], cpu[32], limit[32];

	snprintf(limit, sizeof(limit), "%d", CPU_SETSIZE);

	snprintf(list, sizeof(list), "%d", CPU_SETSIZE);
	snprintf(cpu, sizeof(cpu), "CPU %d", CPU_SETSIZE);
	check_reject(list, -ERANGE, cpu, limit);

	snprintf(list, sizeof(list), "0-%d", CPU_SETSIZE);
	check_reject(list, -ERANGE, cpu, limit);

	snprintf(list, sizeof(list), "%d-%d", CPU_SETSIZE - 1, CPU_SETSIZE);
	check_reject(list, -ERANGE, cpu, limit);

	snprintf(list, sizeof(list), "0,%d", CPU_SETSIZE + 1);
	snprintf(cpu, sizeof(cpu), "CPU %d", CPU_SETSIZE + 1);
	check_reject(list, -ERANGE, cpu, limit);

	snprintf(list, sizeof(list), "%u", UINT_MAX);
	snprintf(cpu, sizeof(cpu), "CPU %u", UINT_MAX);
	check_reject(list, -ERANGE, cpu, limit);

	snprintf(list, sizeof(list), "%lu", ULONG_MAX);
	snprintf(cpu, sizeof(cpu), "CPU %lu", ULONG_MAX);
	check_reject(list, -ERANGE, cpu, limit);

	check_reject("99999999999999999999", -ERANGE, "99999999999999999999", limit);
}

/* The caller's message buffer: truncated, always terminated, may be absent. */
static void test_err_buffer(void)
{
	char err[8];
	cpu_set_t set;

	memset(err, 'X', sizeof(err));
	CU_ASSERT_EQUAL(pmc_cpulist_parse("0-3,bogus", &set, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(strnlen(err, sizeof(err)), sizeof(err) - 1);

	memset(err, 'X', sizeof(err));
	CU_ASSERT_EQUAL(pmc_cpulist_parse("a", &set, err, 1), -EINVAL);
	CU_ASSERT_EQUAL(err[0], '\0');
	CU_ASSERT_EQUAL(err[1], 'X');

	CU_ASSERT_EQUAL(pmc_cpulist_parse("a", &set, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmc_cpulist_parse("", &set, NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmc_cpulist_parse("100000", &set, NULL, 0), -ERANGE);
	CU_ASSERT_EQUAL(pmc_cpulist_parse("1-2", &set, NULL, 0), 0);
	CU_ASSERT_EQUAL(CPU_COUNT(&set), 2);
}

/* ---- formatting ----------------------------------------------------------- */

static void test_format(void)
{
	static const struct {
		struct range set[5];
		const char *want;
	} cases[] = {
		{ { END }, "" },
		{ { { 0, 0 }, END }, "0" },
		{ { { 1, 1 }, END }, "1" },
		{ { { 63, 63 }, END }, "63" },
		{ { { 64, 64 }, END }, "64" },
		{ { { 0, 1 }, END }, "0-1" },
		{ { { 0, 2 }, END }, "0-2" },
		{ { { 0, 0 }, { 2, 2 }, END }, "0,2" },
		{ { { 0, 0 }, { 1, 1 }, { 2, 2 }, END }, "0-2" },
		{ { { 0, 3 }, { 5, 5 }, { 7, 8 }, END }, "0-3,5,7-8" },
		{ { { 62, 65 }, END }, "62-65" },
		{ { { 1, 1 }, { 3, 3 }, { 5, 5 }, { 7, 7 }, END }, "1,3,5,7" },
		{ { { 0, 0 }, { 9, 10 }, { 99, 100 }, { 999, 1000 }, END }, "0,9-10,99-100,999-1000" },
	};
	char buf[256];
	cpu_set_t set;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		make_set(&set, cases[i].set);
		memset(buf, 'X', sizeof(buf));
		ret = pmc_cpulist_format(&set, buf, sizeof(buf));
		CHECKF(ret == (int)strlen(cases[i].want) && !strcmp(buf, cases[i].want),
		       "case %zu: '%s' (%d), want '%s'", i, buf, ret, cases[i].want);
	}
}

/* Sets of every shape survive format -> parse; the text is the shortest. */
static void test_format_round_trip(void)
{
	static char buf[8192];
	unsigned int seed = 12345, n, cpu;
	cpu_set_t set, back;
	char err[256];
	int ret;

	for (n = 0; n < 200; n++) {
		CPU_ZERO(&set);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			seed = seed * 1103515245u + 12345u;
			/* Sparse, dense, half: runs of every length. */
			if ((seed >> 16) % 8 < n % 9)
				CPU_SET(cpu, &set);
		}
		if (n == 1) {		/* every other CPU: the longest text */
			CPU_ZERO(&set);
			for (cpu = 0; cpu < CPU_SETSIZE; cpu += 2)
				CPU_SET(cpu, &set);
		}
		ret = pmc_cpulist_format(&set, buf, sizeof(buf));
		CHECKF(ret >= 0 && (size_t)ret == strlen(buf), "set %u: format returned %d", n, ret);
		if (ret < 0)
			continue;
		CHECKF(!strstr(buf, ",,") && buf[0] != ',', "set %u: '%.300s'", n, buf);
		ret = pmc_cpulist_parse(buf, &back, err, sizeof(err));
		if (!CPU_COUNT(&set)) {
			CHECKF(ret == -EINVAL && !buf[0], "empty set %u: '%.300s' parses as %d", n, buf, ret);
			continue;
		}
		CHECKF(ret == 0, "set %u: '%.300s' does not parse back: %s", n, buf, err);
		CHECKF(CPU_EQUAL(&set, &back), "set %u: '%.300s' parses to another set", n, buf);
	}
}

/* Adjacent CPUs always end up in one range, and single CPUs stay single. */
static void test_format_shortest(void)
{
	char buf[8192], *p, *end;
	unsigned int seed = 777, n, cpu;
	long prev_last, first, last;
	cpu_set_t set;

	for (n = 0; n < 50; n++) {
		CPU_ZERO(&set);
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 3)
				CPU_SET(cpu, &set);
		}
		CU_ASSERT_FATAL(pmc_cpulist_format(&set, buf, sizeof(buf)) > 0);
		prev_last = -2;
		for (p = buf; *p; p = *end ? end + 1 : end) {
			first = strtol(p, &end, 10);
			last = first;
			if (*end == '-')
				last = strtol(end + 1, &end, 10);
			CHECKF(first > prev_last + 1, "set %u: '%.300s': a gap of none before %ld", n, buf,
			       first);
			CHECKF(last > first || p[strspn(p, "0123456789")] != '-',
			       "set %u: '%.300s': range %ld-%ld", n, buf, first, last);
			prev_last = last;
		}
	}
}

static void test_format_enospc(void)
{
	static const struct range r[] = { { 0, 3 }, { 5, 5 }, END };
	char buf[16];
	cpu_set_t set;
	size_t len;
	int ret;

	make_set(&set, r);
	/* "0-3,5": 5 characters and the NUL. */
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, 6), 5);
	CU_ASSERT_STRING_EQUAL(buf, "0-3,5");
	for (len = 1; len <= 5; len++) {
		memset(buf, 'X', sizeof(buf));
		ret = pmc_cpulist_format(&set, buf, len);
		CHECKF(ret == -ENOSPC, "len %zu: returned %d, want -ENOSPC", len, ret);
		CHECKF(memchr(buf, '\0', len) != NULL, "len %zu: not NUL-terminated", len);
		/* Whole terms only: "0-3" from 4 bytes on, "" below. */
		CHECKF(!strcmp(buf, len >= 4 ? "0-3" : ""), "len %zu: '%s', want the terms that fit",
		       len, buf);
		CHECKF(buf[len] == 'X', "len %zu: wrote past the buffer", len);
	}
	/* Nothing written at all when there is no room for the NUL. */
	memset(buf, 'X', sizeof(buf));
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, 0), -ENOSPC);
	CU_ASSERT_EQUAL(buf[0], 'X');

	/* The empty set needs one byte. */
	CPU_ZERO(&set);
	memset(buf, 'X', sizeof(buf));
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, 1), 0);
	CU_ASSERT_EQUAL(buf[0], '\0');
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, 0), -ENOSPC);

	/* CPU_SETSIZE - 1 alone: its digits and the NUL. */
	CPU_SET(CPU_SETSIZE - 1, &set);
	len = (size_t)snprintf(buf, sizeof(buf), "%d", CPU_SETSIZE - 1);
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, len), -ENOSPC);
	CU_ASSERT_EQUAL(pmc_cpulist_format(&set, buf, len + 1), (int)len);
}

/* ---- online CPUs ---------------------------------------------------------- */

/* A temporary file holding @n bytes of @content; its name in @path. */
static bool write_temp(char *path, size_t pathlen, const void *content, size_t n)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, pathlen, "%s/pmc-cpulist-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return false;
	if (write(fd, content, n) != (ssize_t)n) {
		close(fd);
		unlink(path);
		return false;
	}
	close(fd);
	return true;
}

struct online_case {
	const char *content;
	size_t n;			/* 0: strlen(content) */
	int ret;
	struct range want[3];
};

static const struct online_case online_cases[] = {
	{ "0", 0, 0, { { 0, 0 }, END } },
	{ "0-3", 0, 0, { { 0, 3 }, END } },
	{ "0-3\n", 0, 0, { { 0, 3 }, END } },
	{ "0\n", 0, 0, { { 0, 0 }, END } },
	{ "0,2-3\n", 0, 0, { { 0, 0 }, { 2, 3 }, END } },
	{ "0-7,16-23\n", 0, 0, { { 0, 7 }, { 16, 23 }, END } },
	{ "", 0, -EINVAL, { END } },
	{ "\n", 0, -EINVAL, { END } },
	{ "garbage\n", 0, -EINVAL, { END } },
	{ "0-3\n\n", 0, -EINVAL, { END } },
	{ "0-3 \n", 0, -EINVAL, { END } },
	{ "0-3\r\n", 0, -EINVAL, { END } },
	{ "\n0-3", 0, -EINVAL, { END } },
	{ "0-3\n4", 0, -EINVAL, { END } },
	{ "0-3,\n", 0, -EINVAL, { END } },
	{ "3-0\n", 0, -EINVAL, { END } },
	{ "0-3\0", 4, -EINVAL, { END } },
	{ "0\0-3\n", 5, -EINVAL, { END } },
	{ "0-99999\n", 0, -ERANGE, { END } },
};

static void test_online_files(void)
{
	char path[4096], fbuf[256];
	cpu_set_t got, want;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(online_cases); i++) {
		const struct online_case *c = &online_cases[i];
		size_t n = c->n ? c->n : strlen(c->content);
		int ret;

		if (!write_temp(path, sizeof(path), c->content, n)) {
			CU_FAIL("cannot write a temporary file");
			return;
		}
		make_set(&want, c->want);
		dirty_set(&got);
		ret = pmc_online_cpus(path, &got);
		unlink(path);
		CHECKF(ret == c->ret, "case %zu: returned %d, want %d", i, ret, c->ret);
		CHECKF(CPU_EQUAL(&got, &want), "case %zu: got %s", i,
		       fmt_set(&got, fbuf, sizeof(fbuf)));
	}
}

/* A file longer than any cpulist worth reading. */
static void test_online_long_file(void)
{
	static char content[64 * 1024];
	char path[4096];
	cpu_set_t set;
	size_t i;

	for (i = 0; i + 2 <= sizeof(content); i += 2)
		memcpy(content + i, "0,", 2);
	content[sizeof(content) - 1] = '0';
	if (!write_temp(path, sizeof(path), content, sizeof(content))) {
		CU_FAIL("cannot write a temporary file");
		return;
	}
	dirty_set(&set);
	CU_ASSERT_EQUAL(pmc_online_cpus(path, &set), -EINVAL);
	CU_ASSERT_EQUAL(CPU_COUNT(&set), 0);
	unlink(path);
}

static void test_online_errors(void)
{
	char path[4096];
	cpu_set_t set;

	/* A file that is not there. */
	CU_ASSERT_FATAL(write_temp(path, sizeof(path), "0", 1));
	unlink(path);
	dirty_set(&set);
	CU_ASSERT_EQUAL(pmc_online_cpus(path, &set), -ENOENT);
	CU_ASSERT_EQUAL(CPU_COUNT(&set), 0);
	CU_ASSERT_EQUAL(pmc_online_cpus("/nonexistent/dir/online", &set), -ENOENT);
	/* The open works, the read fails. */
	CU_ASSERT_EQUAL(pmc_online_cpus("/", &set), -EISDIR);
	/* An empty path is no path. */
	CU_ASSERT_EQUAL(pmc_online_cpus("", &set), -ENOENT);
}

/* The real thing: the CPU this test runs on is online, and so is every CPU it may run on. */
static void test_online_sys(void)
{
	cpu_set_t online, affinity, outside;
	char buf[8192], abuf[8192];
	long nonline;
	int cpu, ret;

	dirty_set(&online);
	ret = pmc_online_cpus(NULL, &online);
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT(CPU_COUNT(&online) >= 1);
	cpu = sched_getcpu();
	CHECKF(cpu >= 0 && CPU_ISSET(cpu, &online), "running on CPU %d, not in the online set %.300s",
	       cpu, fmt_set(&online, buf, sizeof(buf)));

	/* glibc counts the same file. */
	nonline = sysconf(_SC_NPROCESSORS_ONLN);
	CHECKF(nonline == CPU_COUNT(&online), "sysconf says %ld online, the file %d (%.300s)", nonline,
	       CPU_COUNT(&online), fmt_set(&online, buf, sizeof(buf)));

	/* The kernel keeps affinity masks within the online CPUs. */
	CU_ASSERT_EQUAL_FATAL(sched_getaffinity(0, sizeof(affinity), &affinity), 0);
	CPU_AND(&outside, &affinity, &online);
	CHECKF(CPU_EQUAL(&outside, &affinity), "affinity %.300s is not within online %.300s",
	       fmt_set(&affinity, abuf, sizeof(abuf)), fmt_set(&online, buf, sizeof(buf)));

	/* The explicit path gives the same set. */
	CU_ASSERT_EQUAL(pmc_online_cpus("/sys/devices/system/cpu/online", &outside), 0);
	CU_ASSERT(CPU_EQUAL(&outside, &online));
}

void register_cpulist_tests(void)
{
	static const struct unit_test tests[] = {
		{ "accepted lists", test_accepts },
		{ "CPU_SETSIZE - 1 and the full set", test_accept_limits },
		{ "rejected lists", test_rejects },
		{ "message of a bad term", test_reject_message },
		{ "-ERANGE at CPU_SETSIZE", test_range },
		{ "error buffer", test_err_buffer },
		{ "format", test_format },
		{ "format round trips", test_format_round_trip },
		{ "format is the shortest", test_format_shortest },
		{ "format -ENOSPC", test_format_enospc },
		{ "online CPUs from files", test_online_files },
		{ "online CPUs: over-long file", test_online_long_file },
		{ "online CPUs: errors", test_online_errors },
		{ "online CPUs: /sys", test_online_sys },
	};
	UNIT_ADD_SUITE("cpulist", tests);
}
