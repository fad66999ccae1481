// SPDX-License-Identifier: GPL-2.0
/*
 * pmcctl info's sessions section (user/pmcctl/sessions.c): state and event
 * formatting, the text table and JSON, --revoke's arguments; and libpmc's
 * pmc_event_format() read back by pmc_evlist_parse().
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"
#include "unit.h"
#include "sessions.h"
#include "json_check.h"

#define SELF_PID	777

static const char *fake_user(uint32_t uid, char *buf, size_t len)
{
	if (uid == 1000)
		snprintf(buf, len, "alice");
	else
		snprintf(buf, len, "%u", uid);
	return buf;
}

/* A session of @events (-e syntax, NULL: none) with @flags. */
static struct pmcdrv_session_info mk(uint64_t id, uint32_t flags, uint32_t uid, int pid,
				     const char *comm, const char *events)
{
	struct pmcdrv_session_info si;
	struct pmc_evlist l = { .n = 0 };
	char err[256] = "";
	unsigned int i;

	memset(&si, 0, sizeof(si));
	si.id = id;
	si.flags = flags;
	si.uid = uid;
	si.pid = pid;
	snprintf(si.comm, sizeof(si.comm), "%s", comm);
	if (events) {
		CU_ASSERT_EQUAL_FATAL(pmc_evlist_parse(&l, events, err, sizeof(err)), 0);
		for (i = 0; i < l.n; i++)
			si.events[i] = l.ev[i].ev;
		si.nr_events = l.n;
	}
	return si;
}

static void test_state(void)
{
	static const struct {
		uint32_t flags;
		uint32_t cpu, nr_tasks;
		const char *want;
	} cases[] = {
		{ 0, 0, 0, "open" },
		{ PMCDRV_SESSION_ENABLED, 0, 0, "open" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ENABLED, 0, 0, "configured" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED, 0, 1, "attached, 1 task" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED | PMCDRV_SESSION_ENABLED, 0, 0,
		  "enabled, 0 tasks" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED | PMCDRV_SESSION_ENABLED |
		  PMCDRV_SESSION_COUNTING, 0, 3, "counting, 3 tasks" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED | PMCDRV_SESSION_ENABLED |
		  PMCDRV_SESSION_COUNTING | PMCDRV_SESSION_CPU, 5, 0, "counting, CPU 5" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED | PMCDRV_SESSION_CPU, 0, 0,
		  "attached, CPU 0" },
		{ PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ATTACHED | PMCDRV_SESSION_COUNTING |
		  PMCDRV_SESSION_REVOKED | PMCDRV_SESSION_CPU, 2, 4, "revoked" },
	};
	struct pmcdrv_session_info si;
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&si, 0, sizeof(si));
		si.flags = cases[i].flags;
		si.cpu = cases[i].cpu;
		si.nr_tasks = cases[i].nr_tasks;
		session_state(&si, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			printf("\nflags 0x%x: '%s', want '%s'\n", cases[i].flags, buf, cases[i].want);
		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
	}
}

static void test_events(void)
{
	static const struct {
		const char *events;	/* NULL: none */
		uint32_t flags;
		const char *want;
	} cases[] = {
		{ NULL, 0, "none" },
		{ "instructions:u,cycles:k,ref-cycles", 0, "instructions:u,cycles:k,ref-cycles" },
		{ "task-clock,context-switches", 0, "task-clock,context-switches" },
		{ "0x20d1:u", 0, "cpu/event=0xd1,umask=0x20/:u" },
		{ "cpu/event=0xc2,umask=0x1,cmask=2,inv,edge/", 0,
		  "cpu/event=0xc2,umask=0x01,cmask=2,inv,edge/" },
		{ "instructions,{cycles:u,branches:u},branch-misses", 0,
		  "instructions,{cycles:u,branches:u},branch-misses" },
		{ "{instructions,cycles}:u", 0, "{instructions:u,cycles:u}" },
		{ "instructions,cycles", PMCDRV_SESSION_EVENTS_HIDDEN, "hidden (2 events)" },
		{ "instructions", PMCDRV_SESSION_EVENTS_HIDDEN, "hidden (1 event)" },
	};
	struct pmcdrv_session_info si;
	char buf[1024];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		si = mk(1, cases[i].flags, 0, 1, "x", cases[i].events);
		if (cases[i].flags & PMCDRV_SESSION_EVENTS_HIDDEN)	/* the kernel zeroes them */
			memset(si.events, 0, sizeof(si.events));
		session_events(&si, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			printf("\n'%s': '%s', want '%s'\n", cases[i].events, buf, cases[i].want);
		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
	}
	/* Cut short, still terminated. */
	si = mk(1, 0, 0, 1, "x", "instructions,cycles");
	session_events(&si, buf, 8);
	CU_ASSERT_STRING_EQUAL(buf, "instruc");
}

/* What pmc_event_format() writes, pmc_evlist_parse() reads back as the same event. */
static void test_event_format_round_trip(void)
{
	static const char *const events[] = {
		"instructions", "cycles:u", "ref-cycles:k", "branch-misses", "task-clock",
		"cpu-migrations", "0x01c2:u", "r018401c2", "cpu/event=0x3c,umask=0,cmask=1,inv/:k",
		"topdown-slots", "cpu/event=0xc0,edge,cmask=3/", "cpu_core/instructions/:u",
		"cpu_atom/event=0xc2,umask=0x2/k", "cpu_core/cycles/",
	};
	struct pmc_evlist a = { .n = 0 }, b = { .n = 0 };
	char err[256], buf[PMC_EVENT_NAME_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		a.n = b.n = 0;
		if (pmc_evlist_parse(&a, events[i], err, sizeof(err)))
			printf("\n%s: %s\n", events[i], err);
		CU_ASSERT_EQUAL_FATAL(a.n, 1);
		CU_ASSERT_TRUE(pmc_event_format(&a.ev[0].ev, buf, sizeof(buf)) > 0);
		if (pmc_evlist_parse(&b, buf, err, sizeof(err))) {
			printf("\n'%s' -> '%s': %s\n", events[i], buf, err);
			CU_FAIL("formatted event does not parse");
			continue;
		}
		a.ev[0].ev.flags &= PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL | PMCDRV_EVF_EDGE | PMCDRV_EVF_INV;
		b.ev[0].ev.flags &= PMCDRV_EVF_USER | PMCDRV_EVF_KERNEL | PMCDRV_EVF_EDGE | PMCDRV_EVF_INV;
		if (memcmp(&a.ev[0].ev, &b.ev[0].ev, sizeof(a.ev[0].ev)))
			printf("\n'%s' -> '%s' reads back as another event\n", events[i], buf);
		CU_ASSERT_EQUAL(memcmp(&a.ev[0].ev, &b.ev[0].ev, sizeof(a.ev[0].ev)), 0);
	}
	/* Too small: -ENOSPC, terminated. */
	CU_ASSERT_EQUAL(pmc_event_format(&a.ev[0].ev, buf, 4), -ENOSPC);
	CU_ASSERT_EQUAL(strlen(buf), 3);
}

#define CFG	(PMCDRV_SESSION_CONFIGURED | PMCDRV_SESSION_ENABLED)
#define ATT	(CFG | PMCDRV_SESSION_ATTACHED)

static unsigned int fixture(struct pmcdrv_session_info *l)
{
	l[0] = mk(3, ATT | PMCDRV_SESSION_COUNTING, 1000, 4242, "pmcctl", "instructions:u,cycles:u");
	l[0].nr_tasks = 2;
	l[1] = mk(4, CFG, 0, SELF_PID, "pmcctl", NULL);	/* pmcctl info's own: not listed */
	l[2] = mk(7, ATT | PMCDRV_SESSION_COUNTING | PMCDRV_SESSION_CPU, 0, 5150, "pmcctl",
		  "{cycles,0x20d1}");
	l[2].cpu = 1;
	l[3] = mk(9, ATT | PMCDRV_SESSION_REVOKED | PMCDRV_SESSION_EVENTS_HIDDEN, 1001, 6000,
		  "bench-server", NULL);
	l[3].nr_events = 3;
	return 4;
}

static char *text_of(const struct pmcdrv_session_info *l, unsigned int n, int err, bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	if (json)
		sessions_json(f, l, n, err, SELF_PID, fake_user);
	else
		sessions_text(f, l, n, err, SELF_PID, fake_user);
	fclose(f);
	return out;
}

static void expect_text(const char *got, const char *want)
{
	if (strcmp(got, want))
		printf("\ngot:\n%s\nwant:\n%s\n", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
}

static void test_text(void)
{
	struct pmcdrv_session_info l[4];
	unsigned int n = fixture(l);
	char *out;

	out = text_of(l, n, 0, false);
	expect_text(out,
		"Sessions:          3\n"
		"  ID     USER       PID     COMM             STATE                EVENTS\n"
		"  3      alice      4242    pmcctl           counting, 2 tasks    instructions:u,cycles:u\n"
		"  7      0          5150    pmcctl           counting, CPU 1      {cycles,cpu/event=0xd1,umask=0x20/}\n"
		"  9      1001       6000    bench-server     revoked              hidden (3 events)\n"
		"PMU claim:         held by session 3, 7 (counting)\n");
	free(out);
	/* Only pmcctl's own open, nobody counting. */
	out = text_of(&l[1], 1, 0, false);
	expect_text(out, "Sessions:          none\nPMU claim:         nobody: no session counts\n");
	free(out);
	out = text_of(NULL, 0, -ENOTTY, false);
	expect_text(out, "Sessions:          not available from this module\n");
	free(out);
}

/* The members inside braces: one valid JSON object on one line. */
static void check_json(const char *members)
{
	size_t n = strlen(members), i, j = 0;
	char *obj = malloc(n + 8);

	CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
	obj[j++] = '{';
	for (i = 0; i < n; i++)
		obj[j++] = members[i] == '\n' ? ' ' : members[i];
	obj[j++] = '}';
	obj[j] = '\0';
	if (!json_object_line(obj, j))
		printf("\nnot JSON: %s\n", obj);
	CU_ASSERT_TRUE(json_object_line(obj, j));
	free(obj);
}

static void test_json(void)
{
	struct pmcdrv_session_info l[4];
	unsigned int n = fixture(l);
	char *out;

	out = text_of(l, n, 0, true);
	check_json(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"pmu_claim\": [3, 7]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"events\": [\"cycles\", \"cpu/event=0xd1,umask=0x20/\"]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"events_hidden\": true, \"events\": null"));
	CU_ASSERT_PTR_NULL(strstr(out, "\"id\": 4,"));
	free(out);
	out = text_of(&l[1], 1, 0, true);
	check_json(out);
	expect_text(out, "  \"sessions\": [],\n  \"pmu_claim\": []");
	free(out);
	out = text_of(NULL, 0, -ENOTTY, true);
	check_json(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "\"sessions_error\": \"not available from this module\""));
	free(out);
}

static void test_revoke_args(void)
{
	static const char *const bad[] = { "", "x", "-1", "+3", " 3", "3 ", "3x", "0x10", "ALL",
					   "99999999999999999999999" };
	struct revoke_list rl = { .n = 0 };
	struct pmcdrv_session_info si;
	char err[256];
	size_t i;

	CU_ASSERT_EQUAL(revoke_list_add(&rl, "12", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(revoke_list_add(&rl, "0", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(revoke_list_add(&rl, "18446744073709551615", err, sizeof(err)), 0);
	CU_ASSERT_FALSE(rl.all);
	CU_ASSERT_EQUAL(revoke_list_add(&rl, "all", err, sizeof(err)), 0);
	CU_ASSERT_TRUE(rl.all);
	CU_ASSERT_EQUAL(rl.n, 3);
	CU_ASSERT_EQUAL(rl.ids[0], 12);
	CU_ASSERT_EQUAL(rl.ids[1], 0);
	CU_ASSERT_EQUAL(rl.ids[2], UINT64_MAX);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(revoke_list_add(&rl, bad[i], err, sizeof(err)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "give a session ID"));
	}
	CU_ASSERT_EQUAL(rl.n, 3);
	while (rl.n < REVOKE_MAX)
		CU_ASSERT_EQUAL_FATAL(revoke_list_add(&rl, "5", err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(revoke_list_add(&rl, "5", err, sizeof(err)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "at most"));

	si = mk(1, ATT, 0, 100, "a", NULL);
	CU_ASSERT_TRUE(revoke_all_takes(&si, SELF_PID));
	si.pid = SELF_PID;
	CU_ASSERT_FALSE(revoke_all_takes(&si, SELF_PID));
	si = mk(1, ATT | PMCDRV_SESSION_REVOKED, 0, 100, "a", NULL);
	CU_ASSERT_FALSE(revoke_all_takes(&si, SELF_PID));
}

static void test_strerror(void)
{
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_session_strerror(-EOWNERDEAD, 0), "revoked by an administrator"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_session_strerror(-EOWNERDEAD, PMCDRV_IOC_READ),
				      "pmcctl info --revoke"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_session_strerror(-EBUSY, PMCDRV_IOC_ENABLE),
				      "could not take it back"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pmc_session_strerror(-EBUSY, PMCDRV_IOC_ATTACH),
				      "another pmcdrv session"));
	CU_ASSERT_STRING_EQUAL(pmc_session_strerror(-EBUSY, PMCDRV_IOC_CONFIG), strerror(EBUSY));
	CU_ASSERT_STRING_EQUAL(pmc_session_strerror(-ESRCH, 0), strerror(ESRCH));
}

void register_sessions_tests(void)
{
	static const struct unit_test tests[] = {
		{ "session state words and targets", test_state },
		{ "session events: names, raw, groups, hidden", test_events },
		{ "pmc_event_format reads back as the same event", test_event_format_round_trip },
		{ "sessions table, PMU claim, old module", test_text },
		{ "sessions JSON", test_json },
		{ "--revoke arguments and --revoke all's choice", test_revoke_args },
		{ "pmc_session_strerror: EOWNERDEAD, EBUSY by call", test_strerror },
	};

	UNIT_ADD_SUITE("sessions", tests);
}
