// SPDX-License-Identifier: GPL-2.0
/*
 * libpmc: the PMU registers of one CPU through its MSR device, for counting
 * without the module.  It reads every register it may touch before writing
 * any, programs the counters from the shared logic's struct pmc_prog
 * (pmc_assign_counters, pmc_prog_build), reads them, and writes the saved
 * values back in an order that never leaves a counter enabled with a
 * configuration that is not its owner's.  It never prints.
 */
#include <errno.h>
#include <string.h>

#include "libpmc.h"

static int msr_dev_read(void *dev, uint32_t msr, uint64_t *val)
{
	return pmc_msr_read(dev, msr, val);
}

static int msr_dev_write(void *dev, uint32_t msr, uint64_t val)
{
	return pmc_msr_write(dev, msr, val);
}

static const struct pmc_msr_ops msr_dev_ops = {
	.read = msr_dev_read,
	.write = msr_dev_write,
};

void pmc_msr_pmu_init_ops(struct pmc_msr_pmu *p, const struct pmc_msr_ops *ops, void *dev,
			  const struct pmc_arch_perfmon *pm, bool fw_write)
{
	memset(p, 0, sizeof(*p));
	p->ops = ops;
	p->dev = dev;
	p->pm = *pm;
	p->fw_write = fw_write;
}

void pmc_msr_pmu_init(struct pmc_msr_pmu *p, struct pmc_msr *dev, const struct pmc_arch_perfmon *pm,
		      bool fw_write)
{
	pmc_msr_pmu_init_ops(p, &msr_dev_ops, dev, pm, fw_write);
}

static int pmu_rd(struct pmc_msr_pmu *p, uint32_t msr, uint64_t *val)
{
	int err = p->ops->read(p->dev, msr, val);

	if (err && !p->err) {
		p->err = err;
		p->err_msr = msr;
	}
	return err;
}

static int pmu_wr(struct pmc_msr_pmu *p, uint32_t msr, uint64_t val)
{
	int err = p->ops->write(p->dev, msr, val);

	if (!err) {
		p->dirty = true;
	} else if (!p->err) {
		p->err = err;
		p->err_msr = msr;
	}
	return err;
}

int pmc_msr_pmu_save(struct pmc_msr_pmu *p)
{
	const struct pmc_arch_perfmon *pm = &p->pm;
	unsigned int i;

	p->err = 0;
	p->fixed_ctrl = 0;
	for (i = 0; i < pm->num_gp && !p->err; i++) {
		if (!pmu_rd(p, PMC_MSR_PERFEVTSEL0 + i, &p->evtsel[i]))
			pmu_rd(p, PMC_MSR_PMC0 + i, &p->gp[i]);
	}
	for (i = 0; i < PMC_MAX_FIXED && !p->err; i++) {
		if (pm->fixed_mask & BIT_ULL(i))
			pmu_rd(p, PMC_MSR_FIXED_CTR0 + i, &p->fixed[i]);
	}
	if (pm->fixed_mask && !p->err)
		pmu_rd(p, PMC_MSR_FIXED_CTR_CTRL, &p->fixed_ctrl);
	if (pm->version >= 2 && !p->err && !pmu_rd(p, PMC_MSR_PERF_GLOBAL_CTRL, &p->global_ctrl))
		pmu_rd(p, PMC_MSR_PERF_GLOBAL_STATUS, &p->global_status);
	if (p->err)
		return p->err;
	p->foreign = pmc_enabled_counters(pm, p->evtsel, p->fixed_ctrl);
	return 0;
}

/* GP counters whose value a legacy (32-bit, sign-extending) write cannot put back. */
static uint64_t pmu_unrestorable(const struct pmc_msr_pmu *p)
{
	uint64_t mask = 0, w;
	unsigned int i;

	for (i = 0; i < p->pm.num_gp && !p->fw_write; i++) {
		if (!pmc_legacy_write_value(p->gp[i], p->pm.gp_width, &w))
			mask |= BIT_ULL(i);
	}
	return mask;
}

int pmc_msr_pmu_assign(struct pmc_msr_pmu *p, const struct pmc_event_spec *specs, unsigned int n,
		      bool force)
{
	uint64_t all = pmc_counter_mask(&p->pm), keep = pmu_unrestorable(p);
	uint32_t idx[PMCDRV_MAX_EVENTS];

	if (p->foreign && !force)
		return -EBUSY;
	if (pmc_assign_counters(specs, n, &p->pm, all & ~keep & ~p->foreign, idx) &&
	    pmc_assign_counters(specs, n, &p->pm, all & ~keep, idx))
		return pmc_assign_counters(specs, n, &p->pm, all, idx) ? -ENOSPC : -ERANGE;
	pmc_prog_build(specs, idx, n, &p->pm, p->fw_write, &p->prog);
	return 0;
}

/* Stop our counters and nothing else: their GLOBAL_CTRL bits, EVTSELs and FIXED_CTR_CTRL fields. */
static void pmu_quiesce(struct pmc_msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i;

	if (g->has_global)
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl & ~g->global_mask);
	for (i = 0; i < g->nr; i++) {
		if (g->sel_msr[i])
			pmu_wr(p, g->sel_msr[i], 0);
	}
	if (g->fixed_ctrl_mask)
		pmu_wr(p, PMC_MSR_FIXED_CTR_CTRL, p->fixed_ctrl & ~g->fixed_ctrl_mask);
}

int pmc_msr_pmu_start(struct pmc_msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i;

	p->err = 0;
	p->wrapped = 0;
	pmu_quiesce(p);
	for (i = 0; i < g->nr && !p->err; i++)
		pmu_wr(p, g->ctr_msr[i], 0);
	for (i = 0; i < g->nr && !p->err; i++) {
		if (g->sel_msr[i])
			pmu_wr(p, g->sel_msr[i], g->evtsel[i]);
	}
	if (g->fixed_ctrl_mask && !p->err)
		pmu_wr(p, PMC_MSR_FIXED_CTR_CTRL,
		       (p->fixed_ctrl & ~g->fixed_ctrl_mask) | g->fixed_ctrl);
	if (g->has_global && !p->err)
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl | g->global_mask);
	return p->err;
}

int pmc_msr_pmu_stop(struct pmc_msr_pmu *p, uint64_t *vals)
{
	const struct pmc_prog *g = &p->prog;
	uint64_t v, status;
	unsigned int i;

	p->err = 0;
	if (g->has_global) {
		pmu_wr(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl & ~g->global_mask);
	} else {
		for (i = 0; i < g->nr; i++) {
			if (g->sel_msr[i])
				pmu_wr(p, g->sel_msr[i], 0);
		}
	}
	for (i = 0; i < g->nr; i++) {
		vals[i] = 0;
		if (!pmu_rd(p, g->ctr_msr[i], &v))
			vals[i] = pmc_delta(0, v, g->width[i]);
	}
	/* A counter that wrapped set its overflow bit: pmc_msr_pmu_restore() clears what we set. */
	if (g->has_global) {
		/* Unreadable: clear every bit we may have set (clearing a clear bit changes nothing). */
		if (pmu_rd(p, PMC_MSR_PERF_GLOBAL_STATUS, &status))
			status = ~0ULL;
		p->wrapped = status & ~p->global_status & g->global_mask;
	}
	return p->err;
}

static void pmu_put(struct pmc_msr_pmu *p, uint32_t msr, uint64_t val)
{
	if (pmu_wr(p, msr, val) && p->nr_unrestored < PMC_MSR_PMU_MAX_WRITTEN)
		p->unrestored[p->nr_unrestored++] = (struct pmc_msr_write){ msr, val };
}

int pmc_msr_pmu_restore(struct pmc_msr_pmu *p)
{
	const struct pmc_prog *g = &p->prog;
	unsigned int i, n;
	uint64_t w;

	if (!p->dirty)
		return 0;
	p->err = 0;
	p->nr_unrestored = 0;
	pmu_quiesce(p);
	for (i = 0; i < g->nr; i++) {
		n = g->idx[i];
		if (n >= PMC_GLOBAL_FIXED_SHIFT)
			pmu_put(p, g->ctr_msr[i], p->fixed[n - PMC_GLOBAL_FIXED_SHIFT]);
		else if (p->fw_write)
			pmu_put(p, g->ctr_msr[i], p->gp[n]);
		else if (pmc_legacy_write_value(p->gp[n], p->pm.gp_width, &w))
			pmu_put(p, PMC_MSR_PMC0 + n, w);	/* pmc_msr_pmu_assign() made sure */
	}
	for (i = 0; i < g->nr; i++) {
		if (g->sel_msr[i])
			pmu_put(p, g->sel_msr[i], p->evtsel[g->idx[i]]);
	}
	if (g->fixed_ctrl_mask)
		pmu_put(p, PMC_MSR_FIXED_CTR_CTRL, p->fixed_ctrl);
	if (p->wrapped)
		pmu_put(p, PMC_MSR_PERF_GLOBAL_OVF_CTRL, p->wrapped);
	if (g->has_global)
		pmu_put(p, PMC_MSR_PERF_GLOBAL_CTRL, p->global_ctrl);
	p->dirty = false;
	return p->err;
}
