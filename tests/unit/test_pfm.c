// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libpfm4 names in -e (user/libpmc/pfm.c, the libpfm4 half of
 * user/libpmc/events.c) and of the {a,b} group syntax: names -> ABI fields on
 * Skylake's tables (LIBPFM_FORCE_PMU=skl, set before libpfm4 initializes,
 * so the results do not depend on the host), perf's event.umask spelling,
 * nearest names, refusals naming the field, groups and their errors, and
 * the event listing pmcctl list prints.
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpmc.h"
#include "pfm-internal.h"
#include "unit.h"

#define U	PMCDRV_EVF_USER
#define K	PMCDRV_EVF_KERNEL
#define UK	(U | K)
#define EDGE	PMCDRV_EVF_EDGE
#define INV	PMCDRV_EVF_INV

/* libpfm4 reads LIBPFM_FORCE_PMU once, in pfm_initialize(): before any test runs. */
__attribute__((constructor)) static void force_skylake(void)
{
	setenv("LIBPFM_FORCE_PMU", "skl", 1);
}

#define CHECK(cond, ...)	do {						\
	char msg_[768];								\
	snprintf(msg_, sizeof(msg_), __VA_ARGS__);				\
	CU_assertImplementation(!!(cond), __LINE__, msg_, __FILE__, "", CU_FALSE); \
} while (0)

static const struct {
	const char *arg;
	unsigned int event, umask, cmask, flags;
} good[] = {
	{ "INST_RETIRED:ANY_P", 0xc0, 0x00, 0, UK },
	{ "INST_RETIRED:ANY_P:u", 0xc0, 0x00, 0, U },
	{ "skl::INST_RETIRED:ANY_P:u", 0xc0, 0x00, 0, U },
	{ "skl::INST_RETIRED:ANY_P:k", 0xc0, 0x00, 0, K },
	{ "inst_retired:any_p", 0xc0, 0x00, 0, UK },
	{ "MEM_LOAD_RETIRED:L3_MISS", 0xd1, 0x20, 0, UK },
	{ "skl::MEM_LOAD_RETIRED:L3_MISS:u", 0xd1, 0x20, 0, U },
	/* perf's spelling: dots before the first ':' are libpfm4's ':'. */
	{ "mem_load_retired.l3_miss", 0xd1, 0x20, 0, UK },
	{ "mem_load_retired.l3_miss:k", 0xd1, 0x20, 0, K },
	{ "inst_retired.any_p:u", 0xc0, 0x00, 0, U },
	/* :uk as for the built-in names (libpfm4 spells it :u:k). */
	{ "INST_RETIRED:ANY_P:uk", 0xc0, 0x00, 0, UK },
	{ "INST_RETIRED:ANY_P:ku", 0xc0, 0x00, 0, UK },
	{ "INST_RETIRED:ANY_P:u:k", 0xc0, 0x00, 0, UK },
	{ "mem_load_retired.l3_miss:uk", 0xd1, 0x20, 0, UK },
	{ "br_inst_retired.near_call", 0xc4, 0x02, 0, UK },
	/* The default unit mask when none is given. */
	{ "BR_INST_RETIRED", 0xc4, 0x00, 0, UK },
	{ "BACLEARS", 0xe6, 0x01, 0, UK },
	/* Unit masks that imply a cmask. */
	{ "CYCLE_ACTIVITY:STALLS_L3_MISS", 0xa3, 0x06, 6, UK },
	/* libpfm4's modifiers. */
	{ "UOPS_ISSUED:ANY:c=1:i", 0x0e, 0x01, 1, UK | INV },
	{ "UOPS_ISSUED:ANY:e:c=1", 0x0e, 0x01, 1, UK | EDGE },
	{ "UOPS_ISSUED:ANY:c=4:u", 0x0e, 0x01, 4, U },
};

static void test_pfm_names(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		struct pmc_evlist l = { 0 };
		const struct pmcdrv_event *ev = &l.ev[0].ev;
		char err[512] = "";
		int ret = pmc_evlist_parse(&l, good[i].arg, err, sizeof(err));

		CHECK(ret == 0 && l.n == 1, "'%s': %d %s", good[i].arg, ret, err);
		if (ret)
			continue;
		CHECK(ev->type == PMCDRV_EVENT_HW && ev->event == good[i].event &&
		      ev->umask == good[i].umask && ev->cmask == good[i].cmask &&
		      ev->flags == good[i].flags && !ev->sw_id && !ev->core_type,
		      "'%s': type %u event 0x%x umask 0x%x cmask %u flags 0x%x; want 0x%x 0x%x %u 0x%x",
		      good[i].arg, ev->type, ev->event, ev->umask, ev->cmask, ev->flags, good[i].event,
		      good[i].umask, good[i].cmask, good[i].flags);
		CHECK(!strcmp(l.ev[0].name, good[i].arg) && l.ev[0].ev.group == 0 && !l.ev[0].ev.extra,
		      "'%s': name '%s' group %u extra 0x%llx", good[i].arg, l.ev[0].name,
		      l.ev[0].ev.group, (unsigned long long)l.ev[0].ev.extra);
	}
}

/* The public encoder gives the same fields as the -e parser. */
static void test_pfm_encode(void)
{
	struct pmcdrv_event ev;
	const char *pmu = NULL, *desc = NULL;
	char err[512] = "";

	memset(&ev, 0xff, sizeof(ev));
	CU_ASSERT_EQUAL_FATAL(pmc_pfm_encode("MEM_LOAD_RETIRED:L3_MISS:u", &ev, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(ev.type, PMCDRV_EVENT_HW);
	CU_ASSERT_EQUAL(ev.event, 0xd1);
	CU_ASSERT_EQUAL(ev.umask, 0x20);
	CU_ASSERT_EQUAL(ev.cmask, 0);
	CU_ASSERT_EQUAL(ev.flags, U);
	CU_ASSERT_EQUAL(ev.counter, 0);
	CU_ASSERT_EQUAL(ev.core_type, 0);
	CU_ASSERT_EQUAL(pmc_pfm_pmu(&pmu, &desc), 0);
	CU_ASSERT_STRING_EQUAL(pmu, "skl");
	/* libpfm4 4.13 takes perf's event.umask spelling itself. */
	CU_ASSERT_EQUAL(pmc_pfm_encode("mem_load_retired.l3_miss", &ev, err, sizeof(err)), 0);
	CU_ASSERT_EQUAL(ev.umask, 0x20);
	/* Built-in names are the -e parser's; the encoder says -ENOENT for unknown names. */
	CU_ASSERT_EQUAL(pmc_pfm_encode("instructions", &ev, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nearest"));
	/* perf's spelling straight to the encoder: the event part is what is looked up. */
	CU_ASSERT_EQUAL(pmc_pfm_encode("mem_load_retird.l3_miss", &ev, err, sizeof(err)), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "nearest: MEM_LOAD_RETIRED"));
	CU_ASSERT_EQUAL(pmc_pfm_encode("INST_RETIRED:ANY_P", &ev, NULL, 0), 0);
}

static const struct {
	const char *arg;
	int ret;
	const char *needle, *needle2;
} bad_names[] = {
	/* What pmcdrv cannot program: named, with the fix. */
	{ "INST_RETIRED:ANY_P:t=1", -EOPNOTSUPP, "t=1", "AnyThread" },
	{ "INST_RETIRED:ANY_P:intx=1", -EOPNOTSUPP, "intx", "drop" },
	{ "INST_RETIRED:ANY_P:intxcp=1", -EOPNOTSUPP, "intxcp", "drop" },
	{ "MEM_TRANS_RETIRED:LOAD_LATENCY", -EOPNOTSUPP, "ldlat", "PEBS" },
	{ "FRONTEND_RETIRED:DSB_MISS", -EOPNOTSUPP, "MSR_PEBS_FRONTEND", "PEBS" },
	{ "UOPS_ISSUED:ANY:i", -EINVAL, "i (inv)", "c (cmask)" },
	/* Unknown names: the nearest ones, built-in names among them. */
	{ "INST_RETIRD", -EINVAL, "unknown event 'INST_RETIRD'", "nearest: INST_RETIRED" },
	{ "instructons", -EINVAL, "unknown event", "nearest: instructions" },
	{ "MEM_LOAD_RETIRE:L3_MISS", -EINVAL, "MEM_LOAD_RETIRED", "pmcctl list" },
	{ "mem_load_retird.l3_miss", -EINVAL, "perf's 'mem_load_retird.l3_miss' is libpfm4's 'mem_load_retird:l3_miss'",
	  "MEM_LOAD_RETIRED" },
	/* An event of another model. */
	{ "RETIRED_UOPS", -EINVAL, "this CPU (libpfm4 PMU skl) has no event RETIRED_UOPS", "amd64" },
	{ "hsw::INST_RETIRED:ANY_P", -EINVAL, "libpfm4 PMU hsw is not this CPU's (this CPU: skl)",
	  "drop the hsw:: prefix" },
	{ "skl::INST_RETIRD", -EINVAL, "unknown event 'skl::INST_RETIRD'", "nearest: INST_RETIRED" },
	/* Bad unit masks and modifiers: the event's unit masks. */
	{ "MEM_LOAD_RETIRED:FOO", -EINVAL, "MEM_LOAD_RETIRED:FOO", "L3_MISS" },
	{ "MEM_LOAD_RETIRED", -EINVAL, "unit mask", "L3_MISS" },
	{ "INST_RETIRED:ANY_P:c=300", -EINVAL, "INST_RETIRED:ANY_P:c=300", "c=N" },
	{ "mem_load_retired.l3_miss:x", -EINVAL, "perf's", "l3_miss:x" },
	/* The built-in forms keep their own messages. */
	{ "instructions:x", -EINVAL, "unknown modifier 'x'", "u = user" },
};

static void test_pfm_refusals(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		struct pmc_evlist l = { 0 };
		char err[512] = "";
		int ret = pmc_evlist_parse(&l, bad_names[i].arg, err, sizeof(err));

		CHECK(ret == bad_names[i].ret, "'%s': %d, want %d (%s)", bad_names[i].arg, ret, bad_names[i].ret, err);
		CHECK(strstr(err, bad_names[i].needle) && strstr(err, bad_names[i].needle2),
		      "'%s': message \"%s\" lacks \"%s\" or \"%s\"", bad_names[i].arg, err, bad_names[i].needle,
		      bad_names[i].needle2);
		CHECK(l.n == 0, "'%s': %u events kept", bad_names[i].arg, l.n);
	}
}

/* OFFCORE_RESPONSE_0/1: libpfm4's second code is MSR_OFFCORE_RSP_0/1's value, in ev.extra. */
static void test_pfm_offcore(void)
{
	static const struct {
		const char *arg;
		unsigned int event, umask, flags;
		unsigned long long extra;
	} oc[] = {
		/* skl: DMND_DATA_RD|DMND_RFO|DMND_CODE_RD|OTHER (bits 0-2, 15), L3_MISS_LOCAL (26), SNP_ANY (31-37) */
		{ "OFFCORE_RESPONSE_0:ANY_REQUEST:L3_MISS", 0xb7, 0x01, UK, 0x3f84008007ULL },
		{ "OFFCORE_RESPONSE_1:ANY_REQUEST:L3_MISS:u", 0xbb, 0x01, U, 0x3f84008007ULL },
		{ "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_MISS_LOCAL:SNP_ANY", 0xb7, 0x01, UK,
		  0x3f84000001ULL },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(oc); i++) {
		struct pmc_evlist l = { 0 };
		const struct pmcdrv_event *ev = &l.ev[0].ev;
		char err[512] = "";
		int ret = pmc_evlist_parse(&l, oc[i].arg, err, sizeof(err));

		CHECK(ret == 0 && l.n == 1, "'%s': %d %s", oc[i].arg, ret, err);
		if (ret)
			continue;
		CHECK(ev->event == oc[i].event && ev->umask == oc[i].umask && ev->flags == oc[i].flags &&
		      ev->extra == oc[i].extra && !ev->cmask && !ev->group && !ev->reserved1,
		      "'%s': event 0x%x umask 0x%x flags 0x%x extra 0x%llx; want 0x%x 0x%x 0x%x 0x%llx",
		      oc[i].arg, ev->event, ev->umask, ev->flags, (unsigned long long)ev->extra,
		      oc[i].event, oc[i].umask, oc[i].flags, oc[i].extra);
	}
}

static void test_edit_distance(void)
{
	CU_ASSERT_EQUAL(pmc_edit_distance("kitten", "sitting"), 3);
	CU_ASSERT_EQUAL(pmc_edit_distance("INST_RETIRED", "inst_retired"), 0);
	CU_ASSERT_EQUAL(pmc_edit_distance("", "abc"), 3);
	CU_ASSERT_EQUAL(pmc_edit_distance("abc", ""), 3);
	CU_ASSERT_EQUAL(pmc_edit_distance("INST_RETIRD", "INST_RETIRED"), 1);
}

static void test_groups(void)
{
	struct pmc_evlist l = { 0 };
	static const struct {
		unsigned int group, flags, event;
	} want[] = {
		{ 1, U, 0x3c }, { 1, U, 0xc0 }, { 0, UK, 0xc4 },
		{ 2, K, 0xc0 }, { 2, UK, 0x3c },	/* own :u plus the group's :k */
		{ 3, UK, 0xd1 },
		{ 0, 0, 0 },				/* task-clock */
		{ 4, UK, 0xc0 },
	};
	char err[512] = "";
	unsigned int i;
	int ret;

	ret = pmc_evlist_parse(&l, "{cycles,instructions}:u,branches,{INST_RETIRED:ANY_P,cycles:u}:k,"
			       "{mem_load_retired.l3_miss},task-clock", err, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	/* A second -e continues the numbering. */
	ret = pmc_evlist_parse(&l, "{r00c0}", err, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(l.n, ARRAY_SIZE(want));
	CU_ASSERT_EQUAL(l.nr_groups, 4);
	for (i = 0; i < l.n; i++) {
		CHECK(l.ev[i].ev.group == want[i].group, "event %u (%s): group %u, want %u", i,
		      l.ev[i].name, l.ev[i].ev.group, want[i].group);
		if (l.ev[i].ev.type != PMCDRV_EVENT_HW)
			continue;
		CHECK(l.ev[i].ev.flags == want[i].flags && l.ev[i].ev.event == want[i].event,
		      "event %u (%s): flags 0x%x event 0x%x, want 0x%x 0x%x", i, l.ev[i].name,
		      l.ev[i].ev.flags, l.ev[i].ev.event, want[i].flags, want[i].event);
	}
	CU_ASSERT_STRING_EQUAL(l.ev[0].name, "cycles");
	CU_ASSERT_STRING_EQUAL(l.ev[4].name, "cycles:u");
	/* cpu/.../ keeps its commas inside a group. */
	memset(&l, 0, sizeof(l));
	ret = pmc_evlist_parse(&l, "{cpu/event=0xc0,umask=0/,cycles}", err, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	CU_ASSERT_EQUAL(l.n, 2);
	CU_ASSERT_EQUAL(l.ev[0].ev.group, 1);
	CU_ASSERT_EQUAL(l.ev[1].ev.group, 1);
	CU_ASSERT_STRING_EQUAL(l.ev[0].name, "cpu/event=0xc0,umask=0/");
}

static const struct {
	const char *arg;
	const char *needle;
} bad_groups[] = {
	{ "{}", "empty group" },
	{ "cycles,{}", "empty group" },
	{ "{cycles,{instructions}}", "do not nest" },
	{ "cycles}", "without its '{'" },
	{ "{cycles", "missing its closing '}'" },
	{ "{cycles,instructions", "missing its closing '}'" },
	{ "{cycles}x", "after '}'" },
	{ "{cycles}}", "after '}'" },
	{ "{cycles}:", "empty modifier after '}'" },
	{ "{cycles}:z", "unknown group modifier 'z'" },
	{ "{task-clock,cycles}:u", "task-clock" },
	{ "cycles{instructions}", "starts a group only at the start" },
	{ "{cycles,}", "empty event" },
	{ "{,cycles}", "empty event" },
};

static void test_group_errors(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_groups); i++) {
		struct pmc_evlist l = { 0 };
		char err[512] = "";
		int ret = pmc_evlist_parse(&l, bad_groups[i].arg, err, sizeof(err));

		CHECK(ret == -EINVAL, "'%s': %d, want -EINVAL (%s)", bad_groups[i].arg, ret, err);
		CHECK(strstr(err, bad_groups[i].needle), "'%s': message \"%s\" lacks \"%s\"",
		      bad_groups[i].arg, err, bad_groups[i].needle);
	}
}

struct seen {
	unsigned int events, stop_at;
	bool inst_any_p, br_default_all, l3_miss;
};

static int count_event(const struct pmc_pfm_event *e, void *arg)
{
	struct seen *s = arg;
	unsigned int i;

	s->events++;
	CU_ASSERT_STRING_EQUAL(e->pmu, "skl");
	for (i = 0; i < e->nr_umasks; i++) {
		const struct pmc_pfm_umask *u = &e->umasks[i];

		if (!strcmp(e->name, "INST_RETIRED") && !strcmp(u->name, "ANY_P"))
			s->inst_any_p = e->code == 0xc0;
		if (!strcmp(e->name, "BR_INST_RETIRED") && !strcmp(u->name, "ALL_BRANCHES"))
			s->br_default_all = u->dfl;
		if (!strcmp(e->name, "MEM_LOAD_RETIRED") && !strcmp(u->name, "L3_MISS"))
			s->l3_miss = u->code == 0x20 && !u->dfl && *u->desc;
	}
	return s->stop_at && s->events == s->stop_at ? 42 : 0;
}

static void test_pfm_events(void)
{
	struct seen s = { 0 };

	CU_ASSERT_EQUAL(pmc_pfm_events(count_event, &s), 0);
	CHECK(s.events > 50, "skl lists %u events", s.events);
	CU_ASSERT(s.inst_any_p);
	CU_ASSERT(s.br_default_all);
	CU_ASSERT(s.l3_miss);
	memset(&s, 0, sizeof(s));
	s.stop_at = 3;
	CU_ASSERT_EQUAL(pmc_pfm_events(count_event, &s), 42);
	CU_ASSERT_EQUAL(s.events, 3);
}

static void *encode_many(void *arg)
{
	struct pmcdrv_event ev;
	unsigned int i;
	int bad = 0;

	(void)arg;
	for (i = 0; i < 200; i++) {
		if (pmc_pfm_encode("MEM_LOAD_RETIRED:L3_MISS:k", &ev, NULL, 0) || ev.umask != 0x20 ||
		    ev.flags != K)
			bad++;
	}
	return (void *)(long)bad;
}

/* One initialization, shared tables: encoding from several threads at once. */
static void test_pfm_threads(void)
{
	pthread_t t[4];
	unsigned int i;
	void *bad;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, encode_many, NULL), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		CU_ASSERT_EQUAL(pthread_join(t[i], &bad), 0);
		CU_ASSERT_PTR_NULL(bad);
	}
}

void register_pfm_tests(void)
{
	static const struct unit_test tests[] = {
		{ "libpfm4 names -> ABI fields (skl)", test_pfm_names },
		{ "pmc_pfm_encode() and pmc_pfm_pmu()", test_pfm_encode },
		{ "refusals name the field, unknown names the nearest", test_pfm_refusals },
		{ "OFFCORE_RESPONSE: the extra register value", test_pfm_offcore },
		{ "edit distance", test_edit_distance },
		{ "{a,b} groups and their modifiers", test_groups },
		{ "bad groups", test_group_errors },
		{ "pmc_pfm_events() lists skl", test_pfm_events },
		{ "encoding from several threads", test_pfm_threads },
	};

	UNIT_ADD_SUITE("pfm", tests);
}
