// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of pmcctl's event syntax (-e), user/libpmc/events.c: every accepted
 * form with the exact ABI event it produces, every rejected form with
 * -EINVAL and a message naming the offending term, the event limit,
 * pmc_evlist_default() and pmc_event_known_name().
 *
 * Linked into the one unit binary; main() in main.c calls
 * register_event_tests() to add the "events" suite.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"
#include "unit.h"

#define HW	PMCDRV_EVENT_HW
#define SW	PMCDRV_EVENT_SW
#define U	PMCDRV_EVF_USER
#define K	PMCDRV_EVF_KERNEL
#define UK	(PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL)
#define EDGE	PMCDRV_EVF_EDGE
#define INV	PMCDRV_EVF_INV

/* An assertion whose failure message says which table entry failed and why. */
static void check_at(bool ok, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check_at(bool ok, unsigned int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (ok) {
		CU_assertImplementation(CU_TRUE, line, "ok", __FILE__, "", CU_FALSE);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	CU_assertImplementation(CU_FALSE, line, msg, __FILE__, "", CU_FALSE);
}

#define CHECK(cond, ...)	check_at(!!(cond), __LINE__, __VA_ARGS__)

/* The expected ABI event of one term. */
struct want {
	unsigned int type, flags, event, umask, cmask, sw_id;
};

static void check_event(unsigned int line, const char *what, const struct pmc_evsel *e,
			const char *name, const struct want *w)
{
	const struct pmcdrv_event *ev = &e->ev;

	check_at(!strcmp(e->name, name), line, "%s: name '%s', want '%s'", what, e->name, name);
	check_at(ev->type == w->type, line, "%s: type %u, want %u", what, ev->type, w->type);
	check_at(ev->flags == w->flags, line, "%s: flags 0x%x, want 0x%x", what, ev->flags, w->flags);
	check_at(ev->event == w->event, line, "%s: event 0x%x, want 0x%x", what, ev->event, w->event);
	check_at(ev->umask == w->umask, line, "%s: umask 0x%x, want 0x%x", what, ev->umask, w->umask);
	check_at(ev->cmask == w->cmask, line, "%s: cmask 0x%x, want 0x%x", what, ev->cmask, w->cmask);
	check_at(ev->sw_id == w->sw_id, line, "%s: sw_id %u, want %u", what, ev->sw_id, w->sw_id);
	check_at(ev->counter == 0, line, "%s: counter %u, want 0", what, ev->counter);
	check_at(ev->core_type == 0, line, "%s: core_type %u, want 0", what, ev->core_type);
}

/* ---- accepted single terms ------------------------------------------------ */

struct accept_case {
	const char *arg;
	struct want w;
};

/* Architectural event encodings, Intel SDM vol. 3B table 20-1 (19-1). */
#define W_INSTRUCTIONS	{ HW, UK, 0xc0, 0x00, 0, 0 }
#define W_CYCLES	{ HW, UK, 0x3c, 0x00, 0, 0 }
#define W_REF_CYCLES	{ HW, UK, 0x00, 0x03, 0, 0 }	/* perf's fixed-2 pseudo-encoding */
#define W_BRANCHES	{ HW, UK, 0xc4, 0x00, 0, 0 }
#define W_BRANCH_MISSES	{ HW, UK, 0xc5, 0x00, 0, 0 }
#define W_LLC_REFS	{ HW, UK, 0x2e, 0x4f, 0, 0 }
#define W_LLC_MISSES	{ HW, UK, 0x2e, 0x41, 0, 0 }
#define W_TASK_CLOCK	{ SW, 0, 0, 0, 0, PMCDRV_SW_TASK_CLOCK }
#define W_CTX_SWITCHES	{ SW, 0, 0, 0, 0, PMCDRV_SW_CONTEXT_SWITCHES }
#define W_MIGRATIONS	{ SW, 0, 0, 0, 0, PMCDRV_SW_CPU_MIGRATIONS }

static const struct accept_case names[] = {
	{ "instructions", W_INSTRUCTIONS },
	{ "cycles", W_CYCLES },
	{ "cpu-cycles", W_CYCLES },
	{ "ref-cycles", W_REF_CYCLES },
	{ "branches", W_BRANCHES },
	{ "branch-instructions", W_BRANCHES },
	{ "branch-misses", W_BRANCH_MISSES },
	{ "llc-references", W_LLC_REFS },
	{ "cache-references", W_LLC_REFS },
	{ "llc-misses", W_LLC_MISSES },
	{ "cache-misses", W_LLC_MISSES },
	{ "task-clock", W_TASK_CLOCK },
	{ "context-switches", W_CTX_SWITCHES },
	{ "cs", W_CTX_SWITCHES },
	{ "cpu-migrations", W_MIGRATIONS },
	{ "migrations", W_MIGRATIONS },
};

static const struct accept_case codes[] = {
	/* 0xUUEE: umask << 8 | event */
	{ "0x00c0", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "0x013c", { HW, UK, 0x3c, 0x01, 0, 0 } },
	{ "0xc0", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "0x4f2e", { HW, UK, 0x2e, 0x4f, 0, 0 } },
	{ "0X412E", { HW, UK, 0x2e, 0x41, 0, 0 } },
	{ "0xffff", { HW, UK, 0xff, 0xff, 0, 0 } },
	{ "0x0", { HW, UK, 0x00, 0x00, 0, 0 } },
	{ "0x00000000000000c4", { HW, UK, 0xc4, 0x00, 0, 0 } },	/* 16 digits */
	/* rHEX: event 7:0, umask 15:8, edge 18, inv 23, cmask 31:24 */
	{ "r00c0", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "r01c2", { HW, UK, 0xc2, 0x01, 0, 0 } },
	{ "rc0", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "r0", { HW, UK, 0x00, 0x00, 0, 0 } },
	{ "r1c0", { HW, UK, 0xc0, 0x01, 0, 0 } },
	{ "r10000c0", { HW, UK, 0xc0, 0x00, 1, 0 } },			/* cmask=1 */
	{ "r4003c", { HW, UK | EDGE, 0x3c, 0x00, 0, 0 } },		/* edge */
	{ "r18000c0", { HW, UK | INV, 0xc0, 0x00, 1, 0 } },		/* inv + cmask=1 */
	{ "r104003c", { HW, UK | EDGE, 0x3c, 0x00, 1, 0 } },		/* edge + cmask=1 */
	{ "rff84ffff", { HW, UK | EDGE | INV, 0xff, 0xff, 0xff, 0 } },	/* every allowed bit */
	{ "rFF84FFFF", { HW, UK | EDGE | INV, 0xff, 0xff, 0xff, 0 } },
	{ "r00000000000000c0", { HW, UK, 0xc0, 0x00, 0, 0 } },		/* 16 digits */
	/* cpu/field,.../ */
	{ "cpu/event=0xc0/", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "cpu/event=0xc0,umask=0x01,cmask=1,inv,edge/", { HW, UK | INV | EDGE, 0xc0, 0x01, 1, 0 } },
	{ "cpu/event=192,umask=1,cmask=2/", { HW, UK, 0xc0, 0x01, 2, 0 } },
	{ "cpu/event=0xc0,cmask=1,inv=0,edge=1/", { HW, UK | EDGE, 0xc0, 0x00, 1, 0 } },
	{ "cpu/event=0xc0,cmask=1,inv=1,edge=0/", { HW, UK | INV, 0xc0, 0x00, 1, 0 } },
	{ "cpu/event=0xc0,edge=0/", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "cpu/event=0xc0,inv=0/", { HW, UK, 0xc0, 0x00, 0, 0 } },	/* inv=0 needs no cmask */
	{ "cpu/cmask=3,inv,umask=0x4f,event=0x2e/", { HW, UK | INV, 0x2e, 0x4f, 3, 0 } },
	{ "cpu/event=0,umask=0,cmask=0/", { HW, UK, 0x00, 0x00, 0, 0 } },
	{ "cpu/event=255,umask=255,cmask=255/", { HW, UK, 0xff, 0xff, 0xff, 0 } },
	{ "cpu/event=0xff,umask=0xFF,cmask=0XFF/", { HW, UK, 0xff, 0xff, 0xff, 0 } },
	{ "cpu/umask=0x01,event=0x3c/", { HW, UK, 0x3c, 0x01, 0, 0 } },
};

static const struct accept_case modifiers[] = {
	{ "instructions:u", { HW, U, 0xc0, 0x00, 0, 0 } },
	{ "instructions:k", { HW, K, 0xc0, 0x00, 0, 0 } },
	{ "instructions:uk", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "instructions:ku", { HW, UK, 0xc0, 0x00, 0, 0 } },
	{ "instructions", { HW, UK, 0xc0, 0x00, 0, 0 } },		/* default: both */
	{ "cpu-cycles:k", { HW, K, 0x3c, 0x00, 0, 0 } },
	{ "llc-misses:u", { HW, U, 0x2e, 0x41, 0, 0 } },
	{ "0x00c0:u", { HW, U, 0xc0, 0x00, 0, 0 } },
	{ "0x013c:k", { HW, K, 0x3c, 0x01, 0, 0 } },
	{ "r01c2:k", { HW, K, 0xc2, 0x01, 0, 0 } },
	{ "r18000c0:u", { HW, U | INV, 0xc0, 0x00, 1, 0 } },
	{ "r4003c:ku", { HW, UK | EDGE, 0x3c, 0x00, 0, 0 } },
	{ "cpu/event=0xc0/:u", { HW, U, 0xc0, 0x00, 0, 0 } },
	{ "cpu/event=0xc0,umask=0x01,cmask=1,inv,edge/:k",
	  { HW, K | INV | EDGE, 0xc0, 0x01, 1, 0 } },
	{ "cpu/event=0xc0,umask=1/:uk", { HW, UK, 0xc0, 0x01, 0, 0 } },
};

static void run_accept(const struct accept_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct pmc_evlist l;
		char err[256] = "";
		int ret;

		memset(&l, 0, sizeof(l));
		ret = pmc_evlist_parse(&l, c[i].arg, err, sizeof(err));
		CHECK(ret == 0, "'%s': returned %d (%s), want 0", c[i].arg, ret, err);
		CHECK(l.n == 1, "'%s': n = %u, want 1", c[i].arg, l.n);
		if (ret || l.n != 1)
			continue;
		check_event(__LINE__, c[i].arg, &l.ev[0], c[i].arg, &c[i].w);
	}
}

static void test_names(void)
{
	run_accept(names, ARRAY_SIZE(names));
}

static void test_codes(void)
{
	run_accept(codes, ARRAY_SIZE(codes));
}

static void test_modifiers(void)
{
	run_accept(modifiers, ARRAY_SIZE(modifiers));
}

/* The parser's name table agrees with the shared architectural table. */
static void test_arch_table(void)
{
	static const struct { int arch; unsigned int event, umask; } a[] = {
		{ PMC_ARCH_CORE_CYCLES, 0x3c, 0x00 },
		{ PMC_ARCH_INSTRUCTIONS, 0xc0, 0x00 },
		{ PMC_ARCH_REF_CYCLES, 0x00, 0x03 },
		{ PMC_ARCH_LLC_REFERENCES, 0x2e, 0x4f },
		{ PMC_ARCH_LLC_MISSES, 0x2e, 0x41 },
		{ PMC_ARCH_BRANCHES, 0xc4, 0x00 },
		{ PMC_ARCH_BRANCH_MISSES, 0xc5, 0x00 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(a); i++) {
		CHECK(pmc_arch_events[a[i].arch].event == a[i].event &&
		      pmc_arch_events[a[i].arch].umask == a[i].umask,
		      "arch event %d: 0x%02x/0x%02x, SDM says 0x%02x/0x%02x", a[i].arch,
		      pmc_arch_events[a[i].arch].event, pmc_arch_events[a[i].arch].umask,
		      a[i].event, a[i].umask);
	}
}

/* ---- lists ---------------------------------------------------------------- */

static void test_list_mixed(void)
{
	static const char *arg =
		"cpu/event=0xc0,umask=0x01,cmask=1,inv,edge/:u,cycles:k,0x013c,r01c2:uk,"
		"task-clock,cpu/event=0x2e,umask=0x41/,cs,r18000c0:k,cpu/umask=0x4f,event=0x2e/";
	static const struct { const char *name; struct want w; } want[] = {
		{ "cpu/event=0xc0,umask=0x01,cmask=1,inv,edge/:u", { HW, U | INV | EDGE, 0xc0, 0x01, 1, 0 } },
		{ "cycles:k", { HW, K, 0x3c, 0x00, 0, 0 } },
		{ "0x013c", { HW, UK, 0x3c, 0x01, 0, 0 } },
		{ "r01c2:uk", { HW, UK, 0xc2, 0x01, 0, 0 } },
		{ "task-clock", W_TASK_CLOCK },
		{ "cpu/event=0x2e,umask=0x41/", { HW, UK, 0x2e, 0x41, 0, 0 } },
		{ "cs", W_CTX_SWITCHES },
		{ "r18000c0:k", { HW, K | INV, 0xc0, 0x00, 1, 0 } },
		{ "cpu/umask=0x4f,event=0x2e/", { HW, UK, 0x2e, 0x4f, 0, 0 } },
	};
	struct pmc_evlist l;
	char err[256] = "";
	size_t i;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = pmc_evlist_parse(&l, arg, err, sizeof(err));
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(l.n, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		check_event(__LINE__, want[i].name, &l.ev[i], want[i].name, &want[i].w);
}

static void test_list_simple(void)
{
	struct pmc_evlist l;
	char err[256] = "";
	const struct want wi = W_INSTRUCTIONS, wc = W_CYCLES;

	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cycles,instructions", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);
	check_event(__LINE__, "list[0]", &l.ev[0], "cycles", &wc);
	check_event(__LINE__, "list[1]", &l.ev[1], "instructions", &wi);

	/* A cpu/.../ term last, and one alone with its fields' commas. */
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cycles,cpu/event=0xc0,umask=0/", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 2);
	CU_ASSERT_STRING_EQUAL(l.ev[1].name, "cpu/event=0xc0,umask=0/");
	CU_ASSERT_EQUAL(l.ev[1].ev.event, 0xc0);
}

static void test_list_append(void)
{
	struct pmc_evlist l;
	char err[256] = "";
	const struct want wc = W_CYCLES, wi = W_INSTRUCTIONS, ws = W_CTX_SWITCHES;
	const struct want wr = { HW, U, 0xc2, 0x01, 0, 0 };

	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cycles", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(l.n, 1);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "instructions,cs", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(l.n, 3);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "r01c2:u", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 4);
	check_event(__LINE__, "append[0]", &l.ev[0], "cycles", &wc);
	check_event(__LINE__, "append[1]", &l.ev[1], "instructions", &wi);
	check_event(__LINE__, "append[2]", &l.ev[2], "cs", &ws);
	check_event(__LINE__, "append[3]", &l.ev[3], "r01c2:u", &wr);

	/* A failing call leaves the events already there alone. */
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "bogus", err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(l.n, 4);
	check_event(__LINE__, "after failure[0]", &l.ev[0], "cycles", &wc);
	check_event(__LINE__, "after failure[3]", &l.ev[3], "r01c2:u", &wr);
}

static void test_limit(void)
{
	struct pmc_evlist l;
	char err[256] = "", arg[512] = "", limit[16];
	unsigned int i;

	snprintf(limit, sizeof(limit), "%d", PMCDRV_MAX_EVENTS);
	/* 16 events in one argument. */
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
		strcat(arg, i ? ",cycles" : "cycles");
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, arg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(l.n, PMCDRV_MAX_EVENTS);
	/* The 17th, in a second call. */
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "instructions", err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(l.n, PMCDRV_MAX_EVENTS);
	CHECK(strstr(err, limit), "17th event: message '%s' does not give the limit", err);

	/* 17 events in one argument. */
	strcat(arg, ",instructions");
	memset(&l, 0, sizeof(l));
	err[0] = '\0';
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, arg, err, sizeof(err)), -EINVAL);
	CU_ASSERT(l.n <= PMCDRV_MAX_EVENTS);
	CHECK(strstr(err, limit), "17 events: message '%s' does not give the limit", err);

	/* 15 one at a time, then two more: the 17th fails. */
	memset(&l, 0, sizeof(l));
	for (i = 0; i < PMCDRV_MAX_EVENTS - 1; i++)
		CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "branches", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cycles,instructions", err, sizeof(err)), -EINVAL);
	CU_ASSERT(l.n <= PMCDRV_MAX_EVENTS);
	/* Software events count against the limit too. */
	memset(&l, 0, sizeof(l));
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
		CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "task-clock", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cs", err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(l.n, PMCDRV_MAX_EVENTS);
}

/*
 * perf's PMU prefixes of a hybrid part: cpu_core/.../ and cpu_atom/.../
 * name the core type the event counts on, with a built-in name, fields or
 * a name of that type's in the kernel's data; modifiers after ':' or, as
 * perf writes them, right after the closing '/'.
 */
static void test_core_type_prefixes(void)
{
	static const struct {
		const char *arg;
		uint32_t core_type, flags, event, umask;
	} ok[] = {
		{ "cpu_core/instructions/:u", PMCDRV_CORE_TYPE_CORE, U, 0xc0, 0x00 },
		{ "cpu_atom/cycles/u", PMCDRV_CORE_TYPE_ATOM, U, 0x3c, 0x00 },
		{ "cpu_core/cycles/uk", PMCDRV_CORE_TYPE_CORE, UK, 0x3c, 0x00 },
		{ "cpu_core/event=0xc2,umask=0x2/", PMCDRV_CORE_TYPE_CORE, UK, 0xc2, 0x02 },
		{ "cpu_atom/event=0xc2/k", PMCDRV_CORE_TYPE_ATOM, K, 0xc2, 0x00 },
		{ "cpu/event=0xc0/u", 0, U, 0xc0, 0x00 },
		/* Alder Lake's data: one name, an encoding per core type */
		{ "cpu_core/BR_INST_RETIRED.COND/", PMCDRV_CORE_TYPE_CORE, UK, 0xc4, 0x11 },
		{ "cpu_atom/BR_INST_RETIRED.COND/:u", PMCDRV_CORE_TYPE_ATOM, U, 0xc4, 0x7e },
		/* perf's raw config inside a PMU's slashes, fields after it */
		{ "cpu_core/r01d1/", PMCDRV_CORE_TYPE_CORE, UK, 0xd1, 0x01 },
		{ "cpu_atom/r02c2/u", PMCDRV_CORE_TYPE_ATOM, U, 0xc2, 0x02 },
		{ "cpu_core/r01d1,umask=0x4/:k", PMCDRV_CORE_TYPE_CORE, K, 0xd1, 0x04 },
	};
	static const struct {
		const char *arg, *needle;
	} no[] = {
		{ "cpu_core/task-clock/", "software event" },
		{ "cpu_core/instructions", "missing its closing '/'" },
		{ "cpu_core/cycles/x", "unknown modifier 'x'" },
		{ "cpu_core/TOPDOWN_BE_BOUND.REORDER_BUFFER/", "P-cores (cpu_core)" },
		{ "cpu_atom/event=0xc0,bogus=1/", "unknown field" },
		{ "cpu_core/r1000001d1/", "a raw config has event, umask" },	/* bit 32 */
		{ "cpu_core/r01d1x/", "unknown field 'r01d1x'" },
		{ "cpu_core/umask=1,r01d1/", "unknown field 'r01d1'" },	/* rHEX first, as perf's */
	};
	struct pmc_evlist l;
	char err[512];
	size_t i;
	int ret;

	setenv("PMCDRV_FORCE_CPUID", "GenuineIntel-6-97-2", 1);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		memset(&l, 0, sizeof(l));
		ret = pmc_evlist_parse(&l, ok[i].arg, err, sizeof(err));
		CHECK(ret == 0 && l.n == 1, "'%s': returned %d (%s)", ok[i].arg, ret, ret ? err : "");
		if (ret || l.n != 1)
			continue;
		CHECK(l.ev[0].ev.core_type == ok[i].core_type && l.ev[0].ev.flags == ok[i].flags &&
		      l.ev[0].ev.event == ok[i].event && l.ev[0].ev.umask == ok[i].umask &&
		      !strcmp(l.ev[0].name, ok[i].arg),
		      "'%s': core type 0x%x flags 0x%x code 0x%02x%02x", ok[i].arg,
		      l.ev[0].ev.core_type, l.ev[0].ev.flags, l.ev[0].ev.umask, l.ev[0].ev.event);
	}
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		memset(&l, 0, sizeof(l));
		err[0] = '\0';
		ret = pmc_evlist_parse(&l, no[i].arg, err, sizeof(err));
		CHECK(ret == -EINVAL && strstr(err, no[i].needle), "'%s': returned %d, \"%s\" lacks \"%s\"",
		      no[i].arg, ret, err, no[i].needle);
	}
	unsetenv("PMCDRV_FORCE_CPUID");
}

/* ---- rejected forms ------------------------------------------------------- */

struct reject_case {
	const char *arg;
	const char *needle;	/* the message must contain this (the offending term) */
	const char *needle2;	/* and this, when not NULL (the bad part of it) */
};

static const struct reject_case rejects[] = {
	/* empty list and empty terms */
	{ "", "empty", NULL },
	{ ",", "empty", NULL },
	{ "cycles,,instructions", "empty", NULL },
	{ "cycles,", "empty", NULL },
	{ ",cycles", "empty", NULL },
	{ "cpu/event=0xc0/,", "empty", NULL },
	/* unknown names */
	{ "bogus", "'bogus'", NULL },
	{ "cycles,bogus,instructions", "'bogus'", NULL },
	{ "bogus:u", "bogus", NULL },
	{ "Cycles", "'Cycles'", NULL },
	{ "cycles ", "'cycles '", NULL },
	{ " cycles", "' cycles'", NULL },
	{ "instruction", "'instruction'", NULL },
	{ "llc_misses", "'llc_misses'", NULL },
	{ "cpu", "'cpu'", NULL },
	{ "page-faults", "'page-faults'", NULL },
	{ "0x", "'0x'", NULL },
	{ "r", "'r'", NULL },
	{ "r:u", "'r:u'", "nearest" },	/* no hex: a name, with its nearest ones */
	{ "R00c0", "'R00c0'", NULL },
	{ "c0", "'c0'", NULL },
	{ "-1", "'-1'", NULL },
	/* modifiers */
	{ "cycles:p", "cycles:p", "'p'" },
	{ "cycles:x", "cycles:x", "'x'" },
	{ "cycles:U", "cycles:U", "'U'" },
	{ "instructions:up", "instructions:up", "'p'" },
	{ "instructions:ppp", "instructions:ppp", "'p'" },
	{ "0x00c0:x", "0x00c0:x", "'x'" },
	{ "r00c0:p", "r00c0:p", "'p'" },
	{ "cpu/event=0xc0/:x", "cpu/event=0xc0/:x", "'x'" },
	{ "cycles,instructions:p", "instructions:p", NULL },
	{ "cycles:", "cycles:", NULL },
	{ "0x00c0:", "0x00c0:", NULL },
	{ "cpu/event=0xc0/:", "cpu/event=0xc0/:", NULL },
	{ "cycles::u", "cycles:", NULL },
	/* modifiers on software events */
	{ "task-clock:u", "task-clock:u", NULL },
	{ "context-switches:k", "context-switches:k", NULL },
	{ "cs:uk", "cs:uk", NULL },
	{ "cpu-migrations:ku", "cpu-migrations:ku", NULL },
	{ "migrations:u", "migrations:u", NULL },
	{ "cycles,task-clock:k", "task-clock:k", NULL },
	/* 0xUUEE codes */
	{ "0x10000", "0x10000", NULL },
	{ "0x1ffff", "0x1ffff", NULL },
	{ "0xffffffffffffffff", "0xffffffffffffffff", NULL },
	{ "0x000000000000000c0", "0x000000000000000c0", NULL },	/* 17 digits */
	{ "0xzz", "0xzz", NULL },
	{ "0xc0g", "0xc0g", NULL },
	{ "0x-1", "0x-1", NULL },
	{ "0x c0", "0x c0", NULL },
	{ "0x10000:u", "0x10000:u", NULL },
	/* raw: only event, umask, edge, inv, cmask */
	{ "r100c0", "r100c0", "0x10000" },		/* USR, bit 16 */
	{ "r200c0", "r200c0", "0x20000" },		/* OS, bit 17 */
	{ "r800c0", "r800c0", "0x80000" },		/* PC, bit 19 */
	{ "r1000c0", "r1000c0", "0x100000" },		/* INT, bit 20 */
	{ "r1004c0", "r1004c0", "0x100000" },		/* INT too: bit 20, not cmask */
	{ "r2000c0", "r2000c0", "0x200000" },		/* AnyThread, bit 21 */
	{ "r4000c0", "r4000c0", "0x400000" },		/* EN, bit 22 */
	{ "r1000000c0", "r1000000c0", "0x100000000" },	/* IN_TX, bit 32 */
	{ "r2000000c0", "r2000000c0", "0x200000000" },	/* IN_TXCP, bit 33 */
	{ "r8000000000000000", "r8000000000000000", "0x8000000000000000" },
	{ "rffffffff", "rffffffff", "0x7b0000" },
	{ "r330c0:u", "r330c0:u", "0x30000" },		/* USR + OS */
	{ "r000000000000000c0", "r000000000000000c0", NULL },	/* 17 digits */
	{ "rzz", "rzz", NULL },
	{ "rxc0", "rxc0", NULL },
	{ "r0x1", "r0x1", NULL },
	{ "r-1", "r-1", NULL },
	{ "r c0", "r c0", NULL },
	/* cpu/.../ */
	{ "cpu/event=0xc0", "cpu/event=0xc0", NULL },
	{ "cpu/event=0xc0,umask=1", "cpu/event=0xc0,umask=1", NULL },
	{ "cycles,cpu/event=0xc0", "cpu/event=0xc0", NULL },
	{ "cpu/", "cpu/", NULL },
	{ "cpu//", "cpu//", NULL },
	{ "cpu//:u", "cpu//", NULL },
	{ "cpu/umask=1/", "cpu/umask=1/", "event=" },
	{ "cpu/umask=1,cmask=1/", "cpu/umask=1,cmask=1/", "event=" },
	{ "cpu/event=0xc0/x", "cpu/event=0xc0/x", NULL },
	{ "cpu/event=0xc0/uz", "cpu/event=0xc0/uz", "modifier" },	/* perf's /u, then a bad letter */
	{ "cpu/,event=0xc0/", "cpu/,event=0xc0/", NULL },
	{ "cpu/event=0xc0,,umask=1/", "cpu/event=0xc0,,umask=1/", NULL },
	{ "cpu/event=0xc0,foo=1/", "cpu/event=0xc0,foo=1/", "'foo'" },
	{ "cpu/evnt=0xc0/", "cpu/evnt=0xc0/", "'evnt'" },
	{ "cpu/Event=0xc0/", "cpu/Event=0xc0/", "'Event'" },
	{ "cpu/event=0xc0,ldlat=3/", "cpu/event=0xc0,ldlat=3/", "'ldlat'" },
	{ "cpu/config=0xc0/", "cpu/config=0xc0/", "'config'" },
	{ "cpu/event=0xc0,=1/", "cpu/event=0xc0,=1/", NULL },
	/* field values */
	{ "cpu/event=256/", "cpu/event=256/", "event" },
	{ "cpu/event=0x100/", "cpu/event=0x100/", "event" },
	{ "cpu/event=0xc0,umask=0x100/", "cpu/event=0xc0,umask=0x100/", "umask" },
	{ "cpu/event=0xc0,umask=256/", "cpu/event=0xc0,umask=256/", "umask" },
	{ "cpu/event=0xc0,cmask=1000/", "cpu/event=0xc0,cmask=1000/", "cmask" },
	{ "cpu/event=0xc0,cmask=0x100/", "cpu/event=0xc0,cmask=0x100/", "cmask" },
	{ "cpu/event=99999999999999999999999/", "cpu/event=99999999999999999999999/", "event" },
	{ "cpu/event=18446744073709551616/", "cpu/event=18446744073709551616/", "event" },
	{ "cpu/event=-1/", "cpu/event=-1/", "event" },
	{ "cpu/event=0xc0,umask=-0x1/", "cpu/event=0xc0,umask=-0x1/", "umask" },
	{ "cpu/event=0xc0,cmask=-1/", "cpu/event=0xc0,cmask=-1/", "cmask" },
	{ "cpu/event=0xc0,cmask=+1/", "cpu/event=0xc0,cmask=+1/", "cmask" },
	{ "cpu/event=/", "cpu/event=/", "event" },
	{ "cpu/event/", "cpu/event/", "event" },
	{ "cpu/event=0x/", "cpu/event=0x/", "event" },
	{ "cpu/event=zz/", "cpu/event=zz/", "event" },
	{ "cpu/event=0xc0u/", "cpu/event=0xc0u/", "event" },
	{ "cpu/event=0xc0,umask/", "cpu/event=0xc0,umask/", "umask" },
	{ "cpu/event=0xc0,cmask=1,inv=2/", "cpu/event=0xc0,cmask=1,inv=2/", "inv" },
	{ "cpu/event=0xc0,edge=-1/", "cpu/event=0xc0,edge=-1/", "edge" },
	{ "cpu/event=0xc0,edge=/", "cpu/event=0xc0,edge=/", "edge" },
	{ "cpu/event=0xc0,edge=yes/", "cpu/event=0xc0,edge=yes/", "edge" },
	/* fields pmcdrv controls itself */
	{ "cpu/event=0xc0,any/", "cpu/event=0xc0,any/", "any" },
	{ "cpu/event=0xc0,any=1/", "cpu/event=0xc0,any=1/", "any" },
	{ "cpu/event=0xc0,any=0/", "cpu/event=0xc0,any=0/", "any" },
	{ "cpu/event=0xc0,pc/", "cpu/event=0xc0,pc/", "pc" },
	{ "cpu/event=0xc0,int=1/", "cpu/event=0xc0,int=1/", "int" },
	{ "cpu/int,event=0xc0/", "cpu/int,event=0xc0/", "int" },
	{ "cpu/event=0xc0,en/", "cpu/event=0xc0,en/", "en" },
	/* inv needs a non-zero cmask */
	{ "cpu/event=0xc0,inv/", "cpu/event=0xc0,inv/", "cmask" },
	{ "cpu/event=0xc0,inv=1/", "cpu/event=0xc0,inv=1/", "cmask" },
	{ "cpu/event=0xc0,inv,cmask=0/", "cpu/event=0xc0,inv,cmask=0/", "cmask" },
	{ "cpu/event=0xc0,inv/:u", "cpu/event=0xc0,inv/:u", "cmask" },
	{ "r8000c0", "r8000c0", "cmask" },
	{ "r8400c0:k", "r8400c0:k", "cmask" },
	/* the first bad term of a list is named */
	{ "cycles,r100c0,bogus", "r100c0", NULL },
	{ "task-clock,cpu/event=0xc0,foo/,instructions", "'foo'", NULL },
};

static void test_rejects(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		const struct reject_case *c = &rejects[i];
		struct pmc_evlist l;
		char err[512];
		int ret;

		memset(&l, 0, sizeof(l));
		memset(err, 0, sizeof(err));
		ret = pmc_evlist_parse(&l, c->arg, err, sizeof(err));
		CHECK(ret == -EINVAL, "'%s': returned %d, want -EINVAL (n = %u, ev[0] '%s')",
		      c->arg, ret, l.n, l.ev[0].name);
		CHECK(err[0], "'%s': no error message", c->arg);
		CHECK(strstr(err, c->needle), "'%s': message \"%s\" lacks \"%s\"", c->arg, err,
		      c->needle);
		CHECK(!c->needle2 || strstr(err, c->needle2), "'%s': message \"%s\" lacks \"%s\"",
		      c->arg, err, c->needle2 ? c->needle2 : "");
		/* A single bad term adds nothing. */
		if (strncmp(c->arg, "cpu/", 4) ? !strchr(c->arg, ',') :
		    !strchr(strrchr(c->arg, '/'), ','))
			CHECK(l.n == 0 || ret != -EINVAL, "'%s': n = %u after failure", c->arg, l.n);
	}
}

/* Over-long terms: 79 characters fit the name, 80 do not. */
static void test_long_terms(void)
{
	struct pmc_evlist l;
	char err[256] = "", arg[1024];
	const char *fit = "cpu/event=0xc0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,cmask=0/";
	const char *over = "cpu/event=0xc0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,edge=0,cmask=00/";
	const struct want w = { HW, UK, 0xc0, 0, 0, 0 };

	CU_ASSERT_EQUAL_FATAL(strlen(fit), PMC_EVENT_NAME_MAX - 1);
	CU_ASSERT_EQUAL_FATAL(strlen(over), PMC_EVENT_NAME_MAX);

	memset(&l, 0, sizeof(l));
	CHECK(pmc_evlist_parse(&l, fit, err, sizeof(err)) == 0, "79 chars: %s", err);
	CU_ASSERT_EQUAL_FATAL(l.n, 1);
	check_event(__LINE__, "79 chars", &l.ev[0], fit, &w);

	memset(&l, 0, sizeof(l));
	err[0] = '\0';
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, over, err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(l.n, 0);
	CHECK(strstr(err, "cpu/event=0xc0,edge="), "80 chars: message '%s' does not name it", err);
	CHECK(strstr(err, "long"), "80 chars: message '%s' does not say why", err);

	/* A long name, inside a list, with a modifier. */
	memset(arg, 'a', sizeof(arg));
	memcpy(arg, "cycles,", 7);
	memcpy(arg + sizeof(arg) - 4, ":u", 3);
	memset(&l, 0, sizeof(l));
	err[0] = '\0';
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, arg, err, sizeof(err)), -EINVAL);
	CU_ASSERT(l.n <= 1);
	CHECK(strstr(err, "aaaaaaaaaaaaaaaaaaaa"), "long name: message '%s' does not name it", err);
	CHECK(strstr(err, "long"), "long name: message '%s' does not say why", err);

	/* A long field value: -EINVAL, no overflow of the number buffer. */
	snprintf(arg, sizeof(arg), "cpu/event=0x%060d/", 0);
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, arg, err, sizeof(err)), -EINVAL);
	snprintf(arg, sizeof(arg), "cpu/event=0x%029d/", 1);	/* 31 characters: fits */
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, arg, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(l.ev[0].ev.event, 1);
}

/* The caller's message buffer: truncated, always terminated, may be absent. */
static void test_err_buffer(void)
{
	struct pmc_evlist l;
	char err[8];

	memset(&l, 0, sizeof(l));
	memset(err, 'X', sizeof(err));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "bogus-event-name", err, sizeof(err)), -EINVAL);
	CU_ASSERT_EQUAL(strnlen(err, sizeof(err)), sizeof(err) - 1);

	memset(err, 'X', sizeof(err));
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "bogus", err, 1), -EINVAL);
	CU_ASSERT_EQUAL(err[0], '\0');
	CU_ASSERT_EQUAL(err[1], 'X');

	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "bogus", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "", NULL, 0), -EINVAL);
	CU_ASSERT_EQUAL(pmc_evlist_parse(&l, "cycles", NULL, 0), 0);
	CU_ASSERT_EQUAL(l.n, 1);
}

/* ---- cpu/.../ field values: the corners ------------------------------------- */

/*
 * Field values are decimal or 0x hex, as perf reads them: a leading 0 is
 * not octal (umask=010 is 10, cmask=08 is 8), as strtoull(..., 0) would have it.
 */
static void test_field_decimal_leading_zero(void)
{
	static const struct accept_case c[] = {
		{ "cpu/event=0xc0,umask=010/", { HW, UK, 0xc0, 10, 0, 0 } },
		{ "cpu/event=0xc0,cmask=08/", { HW, UK, 0xc0, 0, 8, 0 } },
		{ "cpu/event=0192/", { HW, UK, 0xc0, 0, 0, 0 } },
		{ "cpu/event=0xc0,cmask=00/", { HW, UK, 0xc0, 0, 0, 0 } },
	};

	run_accept(c, ARRAY_SIZE(c));
}

/*
 * An empty field is rejected ("cpu/,event=0xc0/", "cpu/event=0xc0,,umask=1/"),
 * and so is a trailing comma inside cpu/.../, with the same message.
 */
static void test_field_trailing_comma(void)
{
	static const struct reject_case c[] = {
		{ "cpu/event=0xc0,/", "cpu/event=0xc0,/", "empty" },
		{ "cpu/event=0xc0,umask=1,/:u", "cpu/event=0xc0,umask=1,/:u", "empty" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct pmc_evlist l;
		char err[256] = "";
		int ret;

		memset(&l, 0, sizeof(l));
		ret = pmc_evlist_parse(&l, c[i].arg, err, sizeof(err));
		CHECK(ret == -EINVAL, "'%s': returned %d, want -EINVAL", c[i].arg, ret);
		CHECK(strstr(err, c[i].needle) && strstr(err, c[i].needle2),
		      "'%s': message \"%s\" lacks \"%s\" / \"%s\"", c[i].arg, err, c[i].needle,
		      c[i].needle2);
	}
}

/*
 * No blanks in a field value ("event= 0xc0"), as in names, 0x codes and r
 * codes (strtoull() alone would skip them); parse_num() also refuses a sign.
 */
static void test_field_whitespace(void)
{
	static const char *const c[] = {
		"cpu/event= 0xc0/",
		"cpu/event=0xc0,umask=\t1/",
		"cpu/event=0xc0,cmask=1,inv= 1/",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct pmc_evlist l;
		char err[256] = "";
		int ret;

		memset(&l, 0, sizeof(l));
		ret = pmc_evlist_parse(&l, c[i], err, sizeof(err));
		CHECK(ret == -EINVAL, "'%s': returned %d, want -EINVAL", c[i], ret);
	}
}

/*
 * A repeated field overrides the earlier one, as in perf: for event, umask
 * and cmask (cpu/event=1,event=2/ is event 2) and for inv and edge too
 * (cpu/event=0xc0,edge,edge=0/ has no edge).
 */
static void test_field_later_wins(void)
{
	static const struct accept_case c[] = {
		{ "cpu/event=1,event=0xc0/", { HW, UK, 0xc0, 0, 0, 0 } },
		{ "cpu/event=0xc0,umask=1,umask=2/", { HW, UK, 0xc0, 2, 0, 0 } },
		{ "cpu/event=0xc0,edge,edge=0/", { HW, UK, 0xc0, 0, 0, 0 } },
		{ "cpu/event=0xc0,cmask=1,inv,inv=0/", { HW, UK, 0xc0, 0, 1, 0 } },
	};

	run_accept(c, ARRAY_SIZE(c));
}

/* ---- pmc_event_known_name ----------------------------------------------- */

/* Raw 0x013C is REF_XCLK on a GP counter: not ref-cycles (fixed 2, 0x0300), so no name. */
static void test_raw_013c_is_not_ref_cycles(void)
{
	static const char *const c[] = { "0x013c", "r13c", "r013c:u", "cpu/event=0x3c,umask=1/" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct pmc_evlist l;
		char err[256] = "";
		const char *k;

		memset(&l, 0, sizeof(l));
		CHECK(pmc_evlist_parse(&l, c[i], err, sizeof(err)) == 0, "'%s': %s", c[i], err);
		if (l.n != 1)
			continue;
		CHECK(l.ev[0].ev.event == 0x3c && l.ev[0].ev.umask == 0x01, "'%s': event %#x umask %#x",
		      c[i], l.ev[0].ev.event, l.ev[0].ev.umask);
		k = pmc_event_known_name(&l.ev[0].ev);
		CHECK(!k, "'%s': known name '%s', want none", c[i], k ? k : "");
	}
}

static void test_known_name_round_trip(void)
{
	static const struct { const char *arg, *canonical; } c[] = {
		{ "instructions", "instructions" },
		{ "cycles", "cycles" },
		{ "cpu-cycles", "cycles" },
		{ "ref-cycles", "ref-cycles" },
		{ "branches", "branches" },
		{ "branch-instructions", "branches" },
		{ "branch-misses", "branch-misses" },
		{ "llc-references", "llc-references" },
		{ "cache-references", "llc-references" },
		{ "llc-misses", "llc-misses" },
		{ "cache-misses", "llc-misses" },
		{ "task-clock", "task-clock" },
		{ "context-switches", "context-switches" },
		{ "cs", "context-switches" },
		{ "cpu-migrations", "cpu-migrations" },
		{ "migrations", "cpu-migrations" },
		/* other spellings of the same events */
		{ "0x00c0", "instructions" },
		{ "0xc0", "instructions" },
		{ "0x0300", "ref-cycles" },
		{ "0x003c", "cycles" },
		{ "0x4f2e", "llc-references" },
		{ "0x412e", "llc-misses" },
		{ "r00c4", "branches" },
		{ "r300", "ref-cycles" },
		{ "cpu/event=0,umask=3/", "ref-cycles" },
		{ "cpu/event=0xc5/", "branch-misses" },
		{ "cpu/event=0x3c,umask=0/", "cycles" },
		{ "cpu/event=0x2e,umask=0x41,cmask=0,inv=0,edge=0/", "llc-misses" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct pmc_evlist l, l2;
		char err[256] = "";
		const char *k;

		memset(&l, 0, sizeof(l));
		CHECK(pmc_evlist_parse(&l, c[i].arg, err, sizeof(err)) == 0, "'%s': %s",
		      c[i].arg, err);
		if (l.n != 1)
			continue;
		k = pmc_event_known_name(&l.ev[0].ev);
		CHECK(k && !strcmp(k, c[i].canonical), "'%s': known name '%s', want '%s'",
		      c[i].arg, k ? k : "(null)", c[i].canonical);
		if (!k)
			continue;
		/* The name parses back to the very same event. */
		memset(&l2, 0, sizeof(l2));
		CHECK(pmc_evlist_parse(&l2, k, err, sizeof(err)) == 0, "'%s' -> '%s': %s",
		      c[i].arg, k, err);
		CHECK(l2.n == 1 && !memcmp(&l2.ev[0].ev, &l.ev[0].ev, sizeof(l.ev[0].ev)),
		      "'%s' -> '%s': parses to a different event", c[i].arg, k);
		CHECK(l2.n == 1 && pmc_event_known_name(&l2.ev[0].ev) == k,
		      "'%s' -> '%s': not a fixed point", c[i].arg, k);
	}
}

static void test_known_name_none(void)
{
	static const char *const c[] = {
		"0x01c0",			/* another umask */
		"0x00c1",
		"0x00a4",
		"0x01a4",			/* TOPDOWN.SLOTS_P; topdown-slots is 0x0400 */
		"r0",
		"cpu/event=0xc0,cmask=1/",	/* any modification */
		"cpu/event=0xc0,edge/",
		"cpu/event=0x3c,umask=1,cmask=1,inv/",
		"r18000c0",
		"r4003c",
		"rff84ffff",
	};
	struct pmcdrv_event ev;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct pmc_evlist l;
		char err[256] = "";
		const char *k;

		memset(&l, 0, sizeof(l));
		CHECK(pmc_evlist_parse(&l, c[i], err, sizeof(err)) == 0, "'%s': %s", c[i], err);
		if (l.n != 1)
			continue;
		k = pmc_event_known_name(&l.ev[0].ev);
		CHECK(!k, "'%s': known name '%s', want none", c[i], k ? k : "");
	}

	/* Hand-built events: unknown sw_id, unknown type, SW with HW fields. */
	memset(&ev, 0, sizeof(ev));
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));		/* type 0 */
	ev.type = PMCDRV_EVENT_SW;
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));		/* sw_id 0 */
	ev.sw_id = 4;
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));
	ev.sw_id = 0;
	ev.event = 0xc0;
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));		/* SW, instructions' fields */
	ev.type = 3;
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));
	ev.type = PMCDRV_EVENT_HW;
	ev.sw_id = PMCDRV_SW_TASK_CLOCK;
	ev.event = 0xc1;
	CU_ASSERT_PTR_NULL(pmc_event_known_name(&ev));		/* HW with a sw_id */
	ev.event = 0xc0;
	ev.flags = UK;
	CU_ASSERT_STRING_EQUAL(pmc_event_known_name(&ev), "instructions");
	ev.type = PMCDRV_EVENT_SW;
	ev.sw_id = PMCDRV_SW_CPU_MIGRATIONS;
	CU_ASSERT_STRING_EQUAL(pmc_event_known_name(&ev), "cpu-migrations");
}

/* ---- pmc_evlist_default ------------------------------------------------- */

struct default_case {
	const char *what;
	unsigned int flags, events_len, events_avail;
	const char *names[8];	/* NULL-terminated */
};

#define SW3 "task-clock", "context-switches", "cpu-migrations"

static const struct default_case defaults[] = {
	{ "no PMU", 0, 0, 0, { SW3, NULL } },
	{ "no PMU flag, events listed", 0, 7, 0x7f, { SW3, NULL } },
	{ "all 7 events", PMCDRV_INFO_ARCH_PERFMON, 7, 0x7f,
	  { SW3, "cycles", "instructions", "branches", "branch-misses", NULL } },
	{ "8 events (topdown)", PMCDRV_INFO_ARCH_PERFMON, 8, 0xff,
	  { SW3, "cycles", "instructions", "branches", "branch-misses", NULL } },
	{ "branches and branch-misses unavailable", PMCDRV_INFO_ARCH_PERFMON, 7, 0x1f,
	  { SW3, "cycles", "instructions", NULL } },
	{ "branches unavailable", PMCDRV_INFO_ARCH_PERFMON, 7, 0x5f,
	  { SW3, "cycles", "instructions", "branch-misses", NULL } },
	{ "branch-misses unavailable", PMCDRV_INFO_ARCH_PERFMON, 7, 0x3f,
	  { SW3, "cycles", "instructions", "branches", NULL } },
	{ "cycles unavailable", PMCDRV_INFO_ARCH_PERFMON, 7, 0x7e,
	  { SW3, "instructions", "branches", "branch-misses", NULL } },
	{ "short event vector (3)", PMCDRV_INFO_ARCH_PERFMON, 3, 0x07,
	  { SW3, "cycles", "instructions", NULL } },
	{ "avail bits beyond events_len", PMCDRV_INFO_ARCH_PERFMON, 5, 0x7f,
	  { SW3, "cycles", "instructions", NULL } },
	{ "PMU, no events", PMCDRV_INFO_ARCH_PERFMON, 0, 0, { SW3, NULL } },
};

static void test_default(void)
{
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		const struct default_case *c = &defaults[i];
		struct pmcdrv_info info;
		struct pmc_evlist l;
		unsigned int n = 0;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		info.flags = c->flags;
		info.events_len = c->events_len;
		info.events_avail = c->events_avail;
		if (c->flags & PMCDRV_INFO_ARCH_PERFMON) {
			info.perfmon_version = 4;
			info.num_gp = 4;
			info.gp_width = 48;
			info.num_fixed = 3;
			info.fixed_width = 48;
		}
		/* Whatever the list held before is replaced. */
		memset(&l, 0xa5, sizeof(l));
		pmc_evlist_default(&l, &info);

		while (c->names[n])
			n++;
		CHECK(l.n == n, "%s: n = %u, want %u", c->what, l.n, n);
		for (j = 0; j < n && j < l.n; j++) {
			struct pmc_evlist w;
			char err[256] = "";
			char what[128];
			struct want ww;

			/* Each is exactly what its name parses to. */
			memset(&w, 0, sizeof(w));
			CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&w, c->names[j], err, sizeof(err)), 0);
			ww = (struct want){ w.ev[0].ev.type, w.ev[0].ev.flags, w.ev[0].ev.event,
					    w.ev[0].ev.umask, w.ev[0].ev.cmask, w.ev[0].ev.sw_id };
			snprintf(what, sizeof(what), "%s [%zu]", c->what, j);
			check_event(__LINE__, what, &l.ev[j], c->names[j], &ww);
		}
	}
}

/* The default set's events, field by field. */
static void test_default_fields(void)
{
	static const struct { const char *name; struct want w; } want[] = {
		{ "task-clock", W_TASK_CLOCK },
		{ "context-switches", W_CTX_SWITCHES },
		{ "cpu-migrations", W_MIGRATIONS },
		{ "cycles", W_CYCLES },
		{ "instructions", W_INSTRUCTIONS },
		{ "branches", W_BRANCHES },
		{ "branch-misses", W_BRANCH_MISSES },
	};
	struct pmcdrv_info info;
	struct pmc_evlist l;
	size_t i;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.flags = PMCDRV_INFO_ARCH_PERFMON;
	info.events_len = 7;
	info.events_avail = 0x7f;
	memset(&l, 0, sizeof(l));
	pmc_evlist_default(&l, &info);
	CU_ASSERT_EQUAL_FATAL(l.n, ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++)
		check_event(__LINE__, want[i].name, &l.ev[i], want[i].name, &want[i].w);
	/* The rest of the list stays zero. */
	for (i = ARRAY_SIZE(want); i < PMCDRV_MAX_EVENTS; i++)
		CU_ASSERT_EQUAL(l.ev[i].ev.type, 0);
}

/*
 * pmc_evlist_topdown_groups(): a PERF_METRICS event alone gets a group
 * with a new topdown-slots of its modes (one group per modes), one alone
 * with a slots event alone joins it, a group without slots gets one, and a
 * list with no room for the slots is -ENOSPC.
 */
static void test_topdown_groups(void)
{
	static struct pmc_evlist l;
	char err[256];
	unsigned int i;

	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&l, "topdown-retiring:u,topdown-bad-spec:u,topdown-fe-bound,"
					       "instructions,{topdown-be-bound,cycles}", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(l.nr_groups, 1);
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_topdown_groups(&l), 0);
	/* retiring:u and bad-spec:u with a new slots:u; fe-bound with a new slots; be-bound's group one */
	CU_ASSERT_EQUAL(l.n, 9);
	CU_ASSERT_EQUAL(l.nr_groups, 3);
	CU_ASSERT_EQUAL(l.ev[0].ev.group, l.ev[1].ev.group);
	CU_ASSERT_NOT_EQUAL(l.ev[0].ev.group, 0);
	CU_ASSERT_NOT_EQUAL(l.ev[2].ev.group, l.ev[0].ev.group);
	CU_ASSERT_NOT_EQUAL(l.ev[2].ev.group, 0);
	CU_ASSERT_EQUAL(l.ev[3].ev.group, 0);
	for (i = 6; i < 9; i++)
		CU_ASSERT_STRING_EQUAL(l.ev[i].name, i == 6 ? "topdown-slots:u" : "topdown-slots");
	CU_ASSERT_EQUAL(l.ev[6].ev.group, l.ev[0].ev.group);
	CU_ASSERT_EQUAL(l.ev[7].ev.group, l.ev[2].ev.group);
	CU_ASSERT_EQUAL(l.ev[8].ev.group, l.ev[4].ev.group);
	/* a slots event alone joins the group: nothing appended */
	memset(&l, 0, sizeof(l));
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&l, "slots,topdown-retiring", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_topdown_groups(&l), 0);
	CU_ASSERT_EQUAL(l.n, 2);
	CU_ASSERT_NOT_EQUAL(l.ev[0].ev.group, 0);
	CU_ASSERT_EQUAL(l.ev[0].ev.group, l.ev[1].ev.group);
	/* no room */
	memset(&l, 0, sizeof(l));
	for (i = 0; i < PMCDRV_MAX_EVENTS - 1; i++)
		CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&l, "instructions", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&l, "topdown-retiring", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(pmc_evlist_topdown_groups(&l), -ENOSPC);
}

void register_event_tests(void)
{
	static const struct unit_test tests[] = {
		{ "names and aliases", test_names },
		{ "top-down events grouped with slots", test_topdown_groups },
		{ "0x, r and cpu/.../ codes", test_codes },
		{ ":u, :k, :uk, :ku and the default", test_modifiers },
		{ "architectural encodings", test_arch_table },
		{ "simple lists", test_list_simple },
		{ "mixed list", test_list_mixed },
		{ "repeated calls append", test_list_append },
		{ "16-event limit", test_limit },
		{ "rejected forms", test_rejects },
		{ "over-long terms", test_long_terms },
		{ "error buffer", test_err_buffer },
		{ "field value with a leading 0 is decimal", test_field_decimal_leading_zero },
		{ "trailing comma inside cpu/.../ is rejected", test_field_trailing_comma },
		{ "blanks in field values are rejected", test_field_whitespace },
		{ "a repeated field wins, inv and edge too", test_field_later_wins },
		{ "known names round trip", test_known_name_round_trip },
		{ "raw 0x013c is not ref-cycles", test_raw_013c_is_not_ref_cycles },
		{ "no known name", test_known_name_none },
		{ "default set", test_default },
		{ "default set fields", test_default_fields },
		{ "hybrid PMU prefixes (cpu_core/, cpu_atom/)", test_core_type_prefixes },
	};
	UNIT_ADD_SUITE("events", tests);
}
