/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-read: a tracked thread's own counts, in a page it maps read-only and
 * reads with RDPMC, and through PMCDRV_IOC_READ_SELF.  selfread.c keeps
 * them (the page, the thread's share on the switch path, CR4.PCE) and is
 * called by sched.c; selfmap.c, above sched.c, has the entry points (mmap,
 * READ_SELF).  The switch-path hooks below run on the thread's CPU with
 * IRQs off; they do nothing (one pointer test) for a task without a page.
 */
#ifndef PMCDRV_SELFREAD_H
#define PMCDRV_SELFREAD_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/pmcdrv.h>

#include "internal.h"

struct mm_struct;
struct page;

/* One thread's own counts; held by its context and by each mapping of its page. */
struct pmcd_self {
	struct kref ref;
	struct page *page;
	struct pmcdrv_self_page *pg;	/* page_address(page) */
	/* Below: on the thread's CPU with IRQs off, or by the thread with IRQs off. */
	u64 acc[PMCDRV_MAX_EVENTS];	/* per hardware event, up to base[] */
	u64 base[PMCDRV_MAX_EVENTS];	/* raw values at the last update, by slot of pc->prog */
	u64 t_acc;			/* ns counted, up to t_base */
	u64 t_base;			/* TSC (tsc) or local_clock() at the last update */
	u64 nr_switches;
	u64 nr_migrations;
	int last_cpu;
	bool counting;			/* base[] and t_base are live */
	/* Changed under pmcd_self_lock: its mappings, counted in mm's perf_rdpmc_allowed. */
	struct mm_struct *mm;		/* where they are (READ_ONCE outside the lock) */
	unsigned int nr_maps;
	bool rdpmc;			/* the session has hardware events */
	u8 core_type;			/* of the CPU it last started counting on (the page's) */
	bool tsc;			/* time in TSC cycles: the page's time is live */
};

/* selfread.c, for the entry points (selfmap.c): the record, its page and mappings */
struct pmcd_self *pmcd_self_alloc(const struct pmcd_session *s);
void pmcd_self_publish(struct pmcd_self *self, const struct pmcd_session *s,
		       const struct pmcd_cpu *pc);
u64 pmcd_self_value(const struct pmcd_self *self, const struct pmcd_session *s, unsigned int i);
int pmcd_self_maps_prepare(struct mm_struct *mm);
void pmcd_self_map_count(struct pmcd_self *self, struct mm_struct *mm, bool add);

/* selfread.c, for the switch path (sched.c) */
void pmcd_self_start(struct pmcd_cpu *pc, const u64 *raw);
void pmcd_self_stop(struct pmcd_cpu *pc, const u64 *raw);
void pmcd_self_fold(struct pmcd_cpu *pc, const u64 *raw);
void pmcd_self_fork(struct task_struct *parent, struct task_struct *child);
void pmcd_self_put(struct pmcd_self *self);
void pmcd_self_pce_switch(struct task_struct *next, const struct pmcd_task_ctx *ctx);
void pmcd_self_init(void);
void pmcd_self_exit(void);

/* Mappings of self-read pages (with RDPMC) anywhere: READ_ONCE. */
extern unsigned int pmcd_self_nr_maps;

/* pc->active begins counting here, from the raw values @raw (NULL: read them). */
static inline void pmcd_self_in(struct pmcd_cpu *pc, const u64 *raw)
{
	if (pc->active && pc->active->self)
		pmcd_self_start(pc, raw);
}

/* pc->active stops counting here (before its counters stop), @raw as above. */
static inline void pmcd_self_out(struct pmcd_cpu *pc, const u64 *raw)
{
	if (pc->active && pc->active->self)
		pmcd_self_stop(pc, raw);
}

/* pc->active was folded at @raw (NULL: no hardware values). */
static inline void pmcd_self_folded(struct pmcd_cpu *pc, const u64 *raw)
{
	if (pc->active && pc->active->self)
		pmcd_self_fold(pc, raw);
}

/*
 * May @ctx's thread read its counters with RDPMC (it has a self-read
 * record of a session with hardware events: a page, or soon one)?  NULL:
 * no task, a CPU session.
 */
static inline bool pmcd_self_rdpmc(const struct pmcd_task_ctx *ctx)
{
	return ctx && ctx->self && ctx->self->rdpmc;
}

static inline void pmcd_self_switched(struct pmcd_task_ctx *ctx)
{
	if (ctx && ctx->self)
		ctx->self->nr_switches++;
}

/*
 * A switch between two tasks of the session loaded here: @next becomes
 * pc->active.  One test when neither has a page (the common case).
 */
static inline void pmcd_self_handover(struct pmcd_cpu *pc, struct pmcd_task_ctx *next)
{
	if (likely(!pc->active->self && !next->self)) {
		pc->active = next;
		return;
	}
	pmcd_self_out(pc, NULL);
	pmcd_self_switched(pc->active);
	pc->active = next;
	pmcd_self_in(pc, NULL);
}

#endif /* PMCDRV_SELFREAD_H */
