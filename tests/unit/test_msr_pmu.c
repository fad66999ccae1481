// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libpmc's MSR register layer (user/libpmc/msr_pmu.c) against a
 * fake MSR device: a register file that fails the Nth access on request.
 * A full save, assign, start, stop and restore is run once to count its
 * accesses, then again with a failure injected at every one of them; each
 * time every register must end as it was found (or, where the restore
 * itself failed, be named in the list of registers left to put back).
 */
#include <CUnit/Basic.h>
#include <errno.h>
#include <string.h>

#include "libpmc.h"
#include "unit.h"

#define FAKE_NR_MSR	0x500	/* 0 .. IA32_A_PMC0 + a few */

struct fake_msr {
	uint64_t reg[FAKE_NR_MSR];
	bool exists[FAKE_NR_MSR];
	unsigned int accesses;	/* reads and writes so far */
	unsigned int writes;
	unsigned int fail_at;	/* this access (1-based) fails with -EIO; 0: none */
};

static int fake_access(struct fake_msr *f, uint32_t msr)
{
	if (msr >= FAKE_NR_MSR || !f->exists[msr])
		return -EIO;
	if (++f->accesses == f->fail_at)
		return -EIO;
	return 0;
}

static int fake_read(void *dev, uint32_t msr, uint64_t *val)
{
	struct fake_msr *f = dev;
	int err = fake_access(f, msr);

	if (!err)
		*val = f->reg[msr];
	return err;
}

static int fake_write(void *dev, uint32_t msr, uint64_t val)
{
	struct fake_msr *f = dev;
	int err = fake_access(f, msr);

	if (err)
		return err;
	f->writes++;
	if (msr == PMC_MSR_PERF_GLOBAL_OVF_CTRL)
		f->reg[PMC_MSR_PERF_GLOBAL_STATUS] &= ~val;	/* write 1s to clear */
	else
		f->reg[msr] = val;
	return 0;
}

static const struct pmc_msr_ops fake_ops = { .read = fake_read, .write = fake_write };

/* Skylake-like: v4, 4 GP and 3 fixed counters of 48 bits. */
static const struct pmc_arch_perfmon skl = {
	.version = 4, .num_gp = 4, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	.events_len = 7, .events_avail = 0x7f, .fixed_mask = 0x7,
};

/* A PMU someone else has left configured but disabled (or, with @foreign, enabled on PMC1). */
static void fake_init(struct fake_msr *f, bool foreign)
{
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < skl.num_gp; i++) {
		f->exists[PMC_MSR_PMC0 + i] = true;
		f->exists[PMC_MSR_PERFEVTSEL0 + i] = true;
		f->reg[PMC_MSR_PMC0 + i] = 0x1000 + i;		/* fits a legacy write */
		f->reg[PMC_MSR_PERFEVTSEL0 + i] = 0x4300c4 & ~PMC_EVTSEL_EN;
	}
	for (i = 0; i < skl.num_fixed; i++) {
		f->exists[PMC_MSR_FIXED_CTR0 + i] = true;
		f->reg[PMC_MSR_FIXED_CTR0 + i] = 0x2000 + i;
	}
	f->exists[PMC_MSR_FIXED_CTR_CTRL] = true;
	f->exists[PMC_MSR_PERF_GLOBAL_STATUS] = true;
	f->exists[PMC_MSR_PERF_GLOBAL_CTRL] = true;
	f->exists[PMC_MSR_PERF_GLOBAL_OVF_CTRL] = true;
	f->reg[PMC_MSR_FIXED_CTR_CTRL] = 0x800;		/* fixed 2: PMI only, counts in no mode */
	f->reg[PMC_MSR_PERF_GLOBAL_CTRL] = 0x70000000fULL;
	f->reg[PMC_MSR_PERF_GLOBAL_STATUS] = 0x8;	/* an old overflow of PMC3, not ours */
	if (foreign)
		f->reg[PMC_MSR_PERFEVTSEL0 + 1] |= PMC_EVTSEL_EN;
}

/* instructions:u (fixed 0) and branches:u (a GP counter). */
static const struct pmc_event_spec specs[] = {
	{ .event = 0xc0, .umask = 0x00, .flags = PMC_EVF_USER },
	{ .event = 0xc4, .umask = 0x00, .flags = PMC_EVF_USER },
};

/* Every register equals @was, but those named in p->unrestored. */
static void assert_restored(const struct fake_msr *f, const struct fake_msr *was,
			    const struct pmc_msr_pmu *p)
{
	unsigned int msr, i;
	bool listed;

	for (msr = 0; msr < FAKE_NR_MSR; msr++) {
		if (!f->exists[msr] || f->reg[msr] == was->reg[msr])
			continue;
		listed = false;
		for (i = 0; i < p->nr_unrestored; i++) {
			if (p->unrestored[i].msr == msr) {
				listed = true;
				CU_ASSERT_EQUAL(p->unrestored[i].val, was->reg[msr]);
			}
			/* Overflow bits are put back by writing them to OVF_CTRL. */
			if (msr == PMC_MSR_PERF_GLOBAL_STATUS &&
			    p->unrestored[i].msr == PMC_MSR_PERF_GLOBAL_OVF_CTRL &&
			    (f->reg[msr] & ~p->unrestored[i].val) == was->reg[msr])
				listed = true;
		}
		CU_ASSERT_TRUE(listed);
		if (!listed)
			fprintf(stderr, "  MSR 0x%x is 0x%llx, was 0x%llx, not reported\n", msr,
				(unsigned long long)f->reg[msr], (unsigned long long)was->reg[msr]);
	}
}

/*
 * The command's sequence: save; assign; start; (the command runs and the
 * counters count); stop; restore, also after a failed start or stop.
 * Returns how far it got: 0 save failed, 1 assign failed, 2 start failed,
 * 3 stop failed, 4 restore failed, 5 all well.
 */
static int cycle(struct fake_msr *f, struct pmc_msr_pmu *p, bool force, uint64_t *vals)
{
	int stage = 0;

	pmc_msr_pmu_init_ops(p, &fake_ops, f, &skl, false);
	if (pmc_msr_pmu_save(p))
		return 0;
	if (pmc_msr_pmu_assign(p, specs, ARRAY_SIZE(specs), force))
		return 1;
	stage = 2;
	if (!pmc_msr_pmu_start(p)) {
		unsigned int i;

		/* The counters count: 100 events each, and the GP one wraps. */
		for (i = 0; i < p->prog.nr; i++)
			f->reg[p->prog.ctr_msr[i]] += 100;
		f->reg[PMC_MSR_PERF_GLOBAL_STATUS] |= p->prog.global_mask & 0xffffffffULL;
		stage = pmc_msr_pmu_stop(p, vals) ? 3 : 4;
	}
	if (pmc_msr_pmu_restore(p))
		return 4;
	return stage == 4 ? 5 : stage;
}

static void test_round_trip(void)
{
	struct fake_msr f, was;
	struct pmc_msr_pmu p;
	uint64_t vals[PMCDRV_MAX_EVENTS] = { 0 };

	fake_init(&f, false);
	was = f;
	CU_ASSERT_EQUAL(cycle(&f, &p, false, vals), 5);
	CU_ASSERT_EQUAL(p.prog.nr, 2);
	CU_ASSERT_EQUAL(vals[0], 100);
	CU_ASSERT_EQUAL(vals[1], 100);
	CU_ASSERT_EQUAL(p.nr_unrestored, 0);
	CU_ASSERT_NOT_EQUAL(p.wrapped, 0);	/* its overflow bit was cleared again */
	assert_restored(&f, &was, &p);
}

static void test_foreign(void)
{
	struct fake_msr f, was;
	struct pmc_msr_pmu p;
	uint64_t vals[PMCDRV_MAX_EVENTS];

	fake_init(&f, true);
	was = f;
	pmc_msr_pmu_init_ops(&p, &fake_ops, &f, &skl, false);
	CU_ASSERT_EQUAL(pmc_msr_pmu_save(&p), 0);
	CU_ASSERT_EQUAL(p.foreign, 0x2);
	CU_ASSERT_EQUAL(pmc_msr_pmu_assign(&p, specs, ARRAY_SIZE(specs), false), -EBUSY);
	CU_ASSERT_EQUAL(pmc_msr_pmu_restore(&p), 0);
	CU_ASSERT_EQUAL(f.writes, 0);		/* refused before any write */
	/* Forced: the free counters are still preferred, and all is put back. */
	CU_ASSERT_EQUAL(cycle(&f, &p, true, vals), 5);
	assert_restored(&f, &was, &p);
}

/* A value a legacy write cannot put back: that counter is not taken. */
static void test_unrestorable(void)
{
	struct fake_msr f, was;
	struct pmc_msr_pmu p;
	uint64_t vals[PMCDRV_MAX_EVENTS];
	unsigned int i;

	fake_init(&f, false);
	f.reg[PMC_MSR_PMC0] = 0x80000000ULL;	/* bit 31 set, upper bits clear */
	was = f;
	CU_ASSERT_EQUAL(cycle(&f, &p, false, vals), 5);
	for (i = 0; i < p.prog.nr; i++)
		CU_ASSERT_NOT_EQUAL(p.prog.idx[i], 0);
	assert_restored(&f, &was, &p);
}

static void test_fail_everywhere(void)
{
	struct fake_msr f, was;
	struct pmc_msr_pmu p;
	uint64_t vals[PMCDRV_MAX_EVENTS];
	unsigned int total, k, seen[6] = { 0 };
	int stage;

	fake_init(&f, false);
	CU_ASSERT_EQUAL_FATAL(cycle(&f, &p, false, vals), 5);
	total = f.accesses;
	CU_ASSERT_TRUE(total > 20);
	for (k = 1; k <= total; k++) {
		fake_init(&f, false);
		was = f;
		f.fail_at = k;
		stage = cycle(&f, &p, false, vals);
		seen[stage]++;
		CU_ASSERT_NOT_EQUAL(stage, 5);
		if (stage <= 1)
			CU_ASSERT_EQUAL(f.writes, 0);	/* nothing written before the save is whole */
		/* A failed stop before the restore is repaired by the restore's later writes. */
		if (stage == 4)
			CU_ASSERT_TRUE(p.nr_unrestored <= 1);
		assert_restored(&f, &was, &p);
	}
	/* Every step met a failure somewhere. */
	CU_ASSERT_TRUE(seen[0] && seen[2] && seen[3] && seen[4]);
}

void register_msr_pmu_tests(void)
{
	static const struct unit_test tests[] = {
		{ "save, count, restore", test_round_trip },
		{ "counters enabled by others", test_foreign },
		{ "values a legacy write cannot restore", test_unrestorable },
		{ "a failure at every access restores what it touched", test_fail_everywhere },
	};

	UNIT_ADD_SUITE("msr_pmu", tests);
}
