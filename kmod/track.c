// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv's tracked tasks and per-CPU state, the bottom of the session
 * files: each tracked task has a struct pmcd_task_ctx in a global RCU hash
 * keyed by its task_struct (looked up in the switch probe, under
 * rcu_read_lock() with IRQs off; changed under pmcd_hash_lock), and each CPU
 * a struct pmcd_cpu, touched only on that CPU with IRQs off.  Uses nothing
 * of the files above it (internal.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "internal.h"

#define PMC_HASH_BITS		10	/* 1024 chains: docs/design.md, "Latency bounds" */

DEFINE_PER_CPU(struct pmcd_cpu, pmcd_cpus);
DEFINE_PER_CPU(struct pmcd_cpu, pmcd_cpu_pinned);
static struct hlist_head pmcd_hash[1 << PMC_HASH_BITS];
DEFINE_RAW_SPINLOCK(pmcd_hash_lock);

struct pmcd_task_ctx *pmcd_lookup(struct task_struct *t)
{
	struct pmcd_task_ctx *ctx;

	hlist_for_each_entry_rcu(ctx, &pmcd_hash[hash_ptr(t, PMC_HASH_BITS)], hnode,
				 lockdep_is_held(&pmcd_hash_lock)) {
		if (ctx->task == t)
			return ctx;
	}
	return NULL;
}

/*
 * Track @t with @ctx in session @s.  The context holds a reference of each:
 * a context found in the hash is never that of a task_struct freed and used
 * again for another task.  Called with pmcd_hash_lock held.
 */
void pmcd_track_locked(struct pmcd_session *s, struct pmcd_task_ctx *ctx, struct task_struct *t)
{
	get_task_struct(t);
	ctx->task = t;
	ctx->sess = s;
	ctx->dead = false;
	ctx->last_cpu = -1;
	kref_get(&s->ref);
	hlist_add_head_rcu(&ctx->hnode, &pmcd_hash[hash_ptr(t, PMC_HASH_BITS)]);
	list_add(&ctx->node, &s->tasks);
	/* Read without the lock by READ (pmcd_read_session()). */
	WRITE_ONCE(s->nr_tasks, s->nr_tasks + 1);
}

/* Untrack @ctx (if still tracked).  Called with pmcd_hash_lock held. */
bool pmcd_untrack_locked(struct pmcd_task_ctx *ctx)
{
	unsigned int nr;

	if (ctx->dead)
		return false;
	WRITE_ONCE(ctx->dead, true);
	hlist_del_rcu(&ctx->hnode);
	list_del(&ctx->node);
	nr = ctx->sess->nr_tasks - 1;
	/*
	 * READ reads the count without the lock (pmcd_read_session()): when
	 * it finds none left, what the task folded before this is in the
	 * totals, and the session's secure_exec is set if it went at a
	 * setuid exec.
	 */
	smp_store_release(&ctx->sess->nr_tasks, nr);
	/* A session that counts and has no task left lets go of the claim (session.c). */
	if (!nr && READ_ONCE(ctx->sess->hw_counting))
		queue_work(system_wq, &ctx->sess->idle);
	return true;
}

/*
 * The CPUs where @s's tasks are or last ran, into @mask, when it tracks at
 * most PMCD_TASK_CPUS_MAX tasks (the walk is done with IRQs off); false
 * when it tracks more, and then every CPU is the answer.  A task that moves
 * to another CPU after this read switches in there after it, and reads the
 * session's state then: the caller writes that state and issues smp_mb()
 * before calling, and the switch has its own full barrier (__schedule():
 * smp_mb__after_spinlock()) after the task was moved.
 */
#define PMCD_TASK_CPUS_MAX	64

bool pmcd_session_task_cpus(struct pmcd_session *s, struct cpumask *mask)
{
	struct pmcd_task_ctx *ctx;
	unsigned long flags;
	bool fits;

	cpumask_clear(mask);
	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	fits = s->nr_tasks <= PMCD_TASK_CPUS_MAX;
	if (fits) {
		list_for_each_entry(ctx, &s->tasks, node)
			__cpumask_set_cpu(task_cpu(ctx->task), mask);
	}
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	return fits;
}
