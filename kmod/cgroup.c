// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv cgroup sessions (ATTACH with PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_CGROUP):
 * a CPU session (cpu_session.c) whose counters run on its CPU from attach to
 * close, and whose counts go, fold by fold, to the cgroups of the task that
 * runs there.  pmcd_cpu.cg_mask says which: each counted cgroup whose
 * subtree holds the task (perf_cgroup_match() in kernel/events/core.c,
 * Linux 6.1, matches a cgroup event the same way), none for a task of no
 * counted cgroup, whose counts go nowhere.  Only the unified (v2)
 * hierarchy: task_dfl_cgroup().
 *
 * The mask changes
 *  - at a switch to a task of another cgroup (the sched_switch probe): one
 *    fold, that is one read of each counter and no register write;
 *  - when tasks move between cgroups (the cgroup_attach_task probe): on
 *    every CPU with a cgroup session, here at once and elsewhere by an IPI,
 *    as perf_cgroup_attach() has each moved task's CPU switch its cgroup;
 *  - when the session starts on its CPU (attach, enable, CPU online, resume).
 * A switch between two tasks of one cgroup costs a compare of cgroup ids:
 * a cgroup's place in the tree never changes, so neither does its mask.
 *
 * The session holds a reference on each of its cgroups: one removed while
 * counted keeps its final counts (READ_CGROUP's flag CGROUP_REMOVED).  The
 * probes are registered while some cgroup session is attached; those need
 * CAP_PERFMON (or the paranoid setting of a CPU session), so their text
 * patching is not for every user to repeat.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cgroup.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>

#include "internal.h"

#ifdef CONFIG_CGROUPS

/*
 * Which of pc->sess's cgroups @t is of: when that changed since the last
 * look, fold what the counters hold for the old ones and take the new.
 * @force: look even if @t's cgroup is the one seen last.  IRQs off, on
 * pc's CPU, with a cgroup session there.
 */
static void pmcd_cg_set(struct pmcd_cpu *pc, struct task_struct *t, bool force)
{
	const struct pmcd_cgroups *cgs = pc->sess->cg;
	DECLARE_BITMAP(mask, PMCDRV_MAX_CGROUPS);
	struct cgroup *cgrp;
	unsigned int i;
	u64 id;

	rcu_read_lock();
	cgrp = task_dfl_cgroup(t);
	id = cgroup_id(cgrp);
	if (id == pc->cg_id && !force)
		goto out_unlock;
	pc->cg_id = id;
	bitmap_zero(mask, PMCDRV_MAX_CGROUPS);
	for (i = 0; i < cgs->nr; i++) {
		if (cgroup_is_descendant(cgrp, cgs->cg[i].cgrp))
			__set_bit(i, mask);
	}
	if (bitmap_equal(mask, pc->cg_mask, PMCDRV_MAX_CGROUPS))
		goto out_unlock;
	pmcd_cpu_fold(pc);
	bitmap_copy(pc->cg_mask, mask, PMCDRV_MAX_CGROUPS);
out_unlock:
	rcu_read_unlock();
}

/* Is a cgroup session counting on this CPU?  IRQs off. */
static bool pmcd_cg_here(const struct pmcd_cpu *pc)
{
	return pc->sess && pc->sess->cg && !pc->suspended && !pc->offline;
}

/*
 * pc->sess, a cgroup session, has just started here (pmcd_cpu_start()):
 * its counts go to the current task's cgroups from now.  What the counters
 * took between the start and this fold goes nowhere: a few instructions of
 * the IPI or callback that started them.  IRQs off.
 */
void pmcd_cg_start(struct pmcd_cpu *pc)
{
	if (!pc->sess->cg)
		return;
	bitmap_zero(pc->cg_mask, PMCDRV_MAX_CGROUPS);
	pmcd_cg_set(pc, current, true);
}

static void pmcd_cg_probe_switch(void *data, bool preempt, struct task_struct *prev,
				 struct task_struct *next, unsigned int prev_state)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpu_pinned);

	if (pmcd_cg_here(pc))
		pmcd_cg_set(pc, next, false);
}

/* Cgroup sessions on each CPU (0 or 1 but for a moment): under pmcd_global_lock. */
static DEFINE_PER_CPU(unsigned int, pmcd_cg_nr);
static DEFINE_PER_CPU(call_single_data_t, pmcd_cg_csd);

/* IPI: tasks moved between cgroups; the current task may be one of them. */
static void pmcd_cg_recheck(void *info)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpu_pinned);

	if (pmcd_cg_here(pc))
		pmcd_cg_set(pc, current, false);
}

/*
 * cgroup_attach_task (Linux 6.1, cgroup_attach_task() in
 * kernel/cgroup/cgroup.c, after cgroup_migrate() moved @task, and with
 * @threadgroup its threads): the cgroups of whatever runs on a CPU with a
 * cgroup session may have changed.  A task that moves itself (writing its
 * own pid to cgroup.procs) is seen here at once, before it returns to user
 * mode; one running elsewhere a moment later, by an IPI, as perf's
 * perf_cgroup_attach() calls __perf_cgroup_move() on the task's CPU.  The
 * tracepoint runs under trace_cgroup_path_lock with IRQs off
 * (TRACE_CGROUP_PATH in kernel/cgroup/cgroup-internal.h), so these probes
 * never run at once and each CPU's call_single_data is used by one caller
 * at a time, as smp_call_function_single_async() requires; one still in
 * flight (-EBUSY) will look at the CPU's current task when it lands.
 */
static void pmcd_cg_probe_attach(void *data, struct cgroup *dst, const char *path,
				 struct task_struct *task, bool threadgroup)
{
	unsigned long flags;
	int cpu, this;

	local_irq_save(flags);
	this = smp_processor_id();
	for_each_online_cpu(cpu) {
		if (!READ_ONCE(per_cpu(pmcd_cg_nr, cpu)))
			continue;
		if (cpu == this)
			pmcd_cg_recheck(NULL);
		else
			smp_call_function_single_async(cpu, per_cpu_ptr(&pmcd_cg_csd, cpu));
	}
	local_irq_restore(flags);
}

static const char *const pmcd_cg_tp_names[] = { "sched_switch", "cgroup_attach_task" };
static void *const pmcd_cg_probes[] = { pmcd_cg_probe_switch, pmcd_cg_probe_attach };
static struct tracepoint *pmcd_cg_tps[ARRAY_SIZE(pmcd_cg_tp_names)];
static unsigned int pmcd_cg_users;	/* attached cgroup sessions, under pmcd_global_lock */

static void pmcd_cg_noop(void *info)
{
}

/* The last cgroup session went: the probes go, and no IPI of theirs is left in flight. */
static void pmcd_cg_probes_unregister(void)
{
	unsigned int i;

	for (i = ARRAY_SIZE(pmcd_cg_probes); i--;)
		tracepoint_probe_unregister(pmcd_cg_tps[i], pmcd_cg_probes[i], NULL);
	tracepoint_synchronize_unregister();
	/* Queued calls run in order: one that waits comes after any still queued. */
	on_each_cpu(pmcd_cg_noop, NULL, 1);
}

static int pmcd_cg_probes_get(unsigned int cpu)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&pmcd_global_lock);
	if (!pmcd_cg_users) {
		for (i = 0; i < ARRAY_SIZE(pmcd_cg_probes); i++) {
			err = tracepoint_probe_register(pmcd_cg_tps[i], pmcd_cg_probes[i], NULL);
			if (err)
				goto err_unregister;
		}
	}
	pmcd_cg_users++;
	per_cpu(pmcd_cg_nr, cpu)++;
	goto out_unlock;

err_unregister:
	while (i--)
		tracepoint_probe_unregister(pmcd_cg_tps[i], pmcd_cg_probes[i], NULL);
	tracepoint_synchronize_unregister();
out_unlock:
	mutex_unlock(&pmcd_global_lock);
	return err;
}

static void pmcd_cg_probes_put(unsigned int cpu)
{
	mutex_lock(&pmcd_global_lock);
	per_cpu(pmcd_cg_nr, cpu)--;
	if (!--pmcd_cg_users)
		pmcd_cg_probes_unregister();
	mutex_unlock(&pmcd_global_lock);
}

static void pmcd_cg_free(struct pmcd_cgroups *cgs)
{
	unsigned int i;

	for (i = 0; i < cgs->nr; i++)
		cgroup_put(cgs->cg[i].cgrp);
	kvfree(cgs);
}

/*
 * Make @s, about to attach to @cpu, a cgroup session of the cgroups of
 * @fds: -EBADF when one is not a cgroup v2 directory, -ENOENT when one
 * was removed, -EOPNOTSUPP without the kernel's cgroup_attach_task
 * tracepoint.  Called with s->lock held.
 */
int pmcd_cg_get(struct pmcd_session *s, unsigned int cpu, const s32 *fds, unsigned int nr)
{
	struct pmcd_cgroups *cgs;
	struct cgroup *cgrp;
	int err;

	if (!pmcd_cg_tps[1])
		return -EOPNOTSUPP;
	cgs = kvzalloc(struct_size(cgs, cg, nr), GFP_KERNEL);
	if (!cgs)
		return -ENOMEM;
	for (; cgs->nr < nr; cgs->nr++) {
		cgrp = cgroup_get_from_fd(fds[cgs->nr]);
		if (IS_ERR(cgrp)) {
			err = PTR_ERR(cgrp);
			goto err_free;
		}
		cgs->cg[cgs->nr].cgrp = cgrp;
	}
	err = pmcd_cg_probes_get(cpu);
	if (err)
		goto err_free;
	cgs->cpu = cpu;
	s->cg = cgs;
	return 0;

err_free:
	pmcd_cg_free(cgs);
	return err;
}

/*
 * @s stopped on its CPU for good, or its ATTACH failed after pmcd_cg_get()
 * (s->cpu is not set then: the CPU is the one the cgroups were got for).
 */
void pmcd_cg_put(struct pmcd_session *s)
{
	if (!s->cg)
		return;
	pmcd_cg_probes_put(s->cg->cpu);
	pmcd_cg_free(s->cg);
	s->cg = NULL;
}

/* RESET: the cgroups' counts too.  Called with s->lock held, the session stopped. */
void pmcd_cg_reset(struct pmcd_session *s)
{
	unsigned int i, j;

	for (i = 0; s->cg && i < s->cg->nr; i++) {
		struct pmcd_cg *c = &s->cg->cg[i];

		for (j = 0; j < PMCDRV_MAX_EVENTS; j++) {
			atomic64_set(&c->vals[j], 0);
			atomic64_set(&c->running[j], 0);
		}
		atomic64_set(&c->time_enabled, 0);
		atomic64_set(&c->time_yielded, 0);
	}
}

/*
 * READ_CGROUP's counts of cgroup @i (checked by the caller), folded: into
 * r's values (hardware events, and task-clock as the time) and times.
 * Called with s->lock held.
 */
void pmcd_cg_read(struct pmcd_session *s, unsigned int i, struct pmcdrv_read *r)
{
	const struct pmcd_cg *c = &s->cg->cg[i];
	unsigned int e;

	/* Held off while a thread that may execute RDPMC ran (sched.c): not running. */
	pmcd_time_read(&c->time_enabled, &c->time_yielded, &r->time_enabled, &r->time_running);
	for (e = 0; e < s->nr_events; e++) {
		const struct pmcdrv_event *ev = &s->events[e];

		r->times[e].time_enabled = r->time_enabled;
		r->times[e].time_running = r->time_running;
		if (ev->type != PMCDRV_EVENT_HW) {
			/* A CPU session has only task-clock (cpu-clock) of the software events. */
			r->values[e] = r->time_enabled;
			continue;
		}
		if (s->mux)
			r->times[e].time_running = atomic64_read(&c->running[s->hw_slot[e]]);
		r->values[e] = atomic64_read(&c->vals[s->hw_slot[e]]);
	}
	/* cgroup_is_dead() of kernel/cgroup/cgroup-internal.h (Linux 6.1): removed. */
	if (!(c->cgrp->self.flags & CSS_ONLINE))
		r->flags |= PMCDRV_READ_CGROUP_REMOVED;
}

int pmcd_cg_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_CSD(per_cpu_ptr(&pmcd_cg_csd, cpu), pmcd_cg_recheck, NULL);
	/* Without the tracepoint, no cgroup sessions (EOPNOTSUPP); the rest works. */
	if (pmcd_find_tracepoints(pmcd_cg_tp_names, pmcd_cg_tps, ARRAY_SIZE(pmcd_cg_tps), true))
		pmcd_cg_tps[1] = NULL;
	return 0;
}

#else /* !CONFIG_CGROUPS: no cgroup sessions */

void pmcd_cg_start(struct pmcd_cpu *pc)
{
}

int pmcd_cg_get(struct pmcd_session *s, unsigned int cpu, const s32 *fds, unsigned int nr)
{
	return -EOPNOTSUPP;
}

void pmcd_cg_put(struct pmcd_session *s)
{
}

void pmcd_cg_reset(struct pmcd_session *s)
{
}

void pmcd_cg_read(struct pmcd_session *s, unsigned int i, struct pmcdrv_read *r)
{
}

int pmcd_cg_init(void)
{
	return 0;
}

#endif /* CONFIG_CGROUPS */
