// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv sessions: the lifetime of one open file and its ioctl operations.
 *
 * A session counts a set of events (CONFIG) for the tasks it tracks
 * (ATTACH to a task, sched.c) or for one CPU (ATTACH_CPU, cpu_session.c).
 * Locking: pmcd_hash_lock (raw: taken in the probes, also on PREEMPT_RT)
 * guards the hash, the session task lists and the pools; s->lock (mutex)
 * serialises a session's ioctls; pmcd_global_lock guards probe
 * registration, the PMU claim and the CPU owners, which change only with
 * cpus_read_lock() also held, so hotplug callbacks may read them.  Lock
 * order: s->lock, pmcd_global_lock, cpus_read_lock.  See docs/design.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "hw.h"
#include "internal.h"
#include "selfread.h"
#include "session.h"

static unsigned int pmcd_hw_users;	/* under pmcd_global_lock */
static const struct pmcd_hw_caps *pmcd_caps;

/* ---- the PMU claim, shared by every session with a hardware event ------------ */

static int pmcd_hw_get(void)
{
	int err = 0;

	mutex_lock(&pmcd_global_lock);
	if (!pmcd_hw_users)
		err = pmcd_hw_claim(pmcd_caps);
	if (!err)
		pmcd_hw_users++;
	mutex_unlock(&pmcd_global_lock);
	return err;
}

/*
 * INFO's view of the counters.  Under pmcd_global_lock, so that its trial
 * reservation (hw.c) never meets a CONFIG's claim, which would then fail
 * with EBUSY for nothing.  The scan sends an IPI to every CPU: for a caller
 * without CAP_PERFMON it is done at most once per PMCD_INFO_SCAN_MS, and
 * the answer shared (docs/security.md).
 */
#define PMCD_INFO_SCAN_MS	100

void pmcd_sessions_hw_usage(struct pmcd_hw_usage *usage, bool *claimed)
{
	static struct pmcd_hw_usage cache;	/* under pmcd_global_lock */
	static unsigned long cache_at;
	static bool cache_valid, cache_claimed;

	mutex_lock(&pmcd_global_lock);
	*claimed = pmcd_hw_users > 0;
	if (!perfmon_capable() && cache_valid && cache_claimed == *claimed &&
	    time_before(jiffies, cache_at + msecs_to_jiffies(PMCD_INFO_SCAN_MS))) {
		*usage = cache;
	} else {
		/* While our sessions hold the PMU, a trial reservation finds only us. */
		pmcd_hw_usage(pmcd_caps, !*claimed, usage);
		cache = *usage;
		cache_claimed = *claimed;
		cache_at = jiffies;
		cache_valid = true;
	}
	mutex_unlock(&pmcd_global_lock);
}

static void pmcd_hw_put(void)
{
	mutex_lock(&pmcd_global_lock);
	if (!--pmcd_hw_users)
		pmcd_hw_release(pmcd_caps);
	mutex_unlock(&pmcd_global_lock);
}

/*
 * May the caller count what @s counts?  At CONFIG, and again at ATTACH by
 * whoever holds the file then: perf checks an event's privileges and its
 * target in one call (perf_event_open()), so pmcdrv does not let the
 * CONFIG caller's privileges count a target chosen by another.
 */
static bool pmcd_may_count_config(const struct pmcd_session *s)
{
	return pmcd_may_count(s->dev_gid) && (!s->kernel || pmcd_may_count_kernel());
}

/* ---- session lifetime ----------------------------------------------------- */

static void pmcd_pool_refill(struct work_struct *work)
{
	struct pmcd_session *s = container_of(work, struct pmcd_session, refill);
	struct pmcd_task_ctx *ctx;
	unsigned long flags;
	bool full = false;

	while (!full) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			return;
		raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
		if (s->closing || s->pool_count >= PMC_POOL_TARGET) {
			full = true;
		} else {
			list_add(&ctx->node, &s->pool);
			s->pool_count++;
			ctx = NULL;
		}
		raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
		kfree(ctx);
	}
}

struct pmcd_session *pmcd_session_create(kgid_t dev_gid)
{
	static atomic64_t ids = ATOMIC64_INIT(0);
	struct pmcd_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	kref_init(&s->ref);
	mutex_init(&s->lock);
	INIT_LIST_HEAD(&s->tasks);
	INIT_LIST_HEAD(&s->pool);
	INIT_WORK(&s->refill, pmcd_pool_refill);
	s->enabled = true;
	s->cpu = -1;
	s->id = atomic64_inc_return(&ids);
	s->dev_gid = dev_gid;
	return s;
}

/*
 * Close untracks at most this many tasks per hold of pmcd_hash_lock (a raw
 * lock, IRQs off, also on PREEMPT_RT), then lets IRQs and the scheduler in:
 * the IRQs-off time of a close is bounded whatever the number of tasks it
 * tracks (docs/design.md, "Latency bounds").
 */
#define PMCD_CLOSE_BATCH	64

/* Untrack up to PMCD_CLOSE_BATCH tasks of closing @s onto @dead; false when none is left. */
static bool pmcd_close_batch(struct pmcd_session *s, struct list_head *dead)
{
	struct pmcd_task_ctx *ctx;
	unsigned long flags;
	unsigned int n;
	bool more;

	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	/* No task joins a closing session (the fork probe checks), so this ends. */
	s->closing = true;
	for (n = 0; n < PMCD_CLOSE_BATCH && !list_empty(&s->tasks); n++) {
		ctx = list_first_entry(&s->tasks, struct pmcd_task_ctx, node);
		pmcd_untrack_locked(ctx);
		list_add(&ctx->node, dead);
	}
	more = !list_empty(&s->tasks);
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	return more;
}

void pmcd_session_close(struct pmcd_session *s)
{
	struct pmcd_task_ctx *ctx, *tmp;
	unsigned long flags;
	LIST_HEAD(dead);

	mutex_lock(&s->lock);
	if (s->attached && s->cpu >= 0)
		pmcd_cpu_detach(s);
	while (pmcd_close_batch(s, &dead))
		cond_resched();
	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	list_splice_init(&s->pool, &dead);
	s->pool_count = 0;
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);

	/*
	 * A probe that found a context before it was untracked ran with IRQs
	 * off: wait for it.  Only attached task sessions ever had contexts; a
	 * CPU session was stopped synchronously by pmcd_cpu_detach().
	 */
	if (s->attached && s->cpu < 0) {
		pmcd_session_stop(s);
		synchronize_rcu();
	}
	cancel_work_sync(&s->refill);
	list_for_each_entry_safe(ctx, tmp, &dead, node) {
		pmcd_ctx_free(ctx);
	}
	if (s->attached && s->cpu < 0)
		pmcd_probes_put();
	if (s->hw_claimed)
		pmcd_hw_put();
	mutex_unlock(&s->lock);
	pmcd_session_put(s);
}

/* ---- ioctl operations --------------------------------------------------------- */

/*
 * perf's default rotation interval: PERF_CPU_HRTIMER, 1000 / HZ ms
 * (kernel/events/core.c), the default of perf_event_mux_interval_ms.
 */
static u64 pmcd_mux_default_ns(void)
{
	return max(1000 / HZ, 1) * NSEC_PER_MSEC;
}

/* The rotation of a session whose events do not fit at once (docs/design.md). */
static int pmcd_mux_build(struct pmcd_session *s, const struct pmcdrv_config *cfg)
{
	bool fw = pmcd_caps->flags & PMCDRV_INFO_FW_WRITE;
	struct pmc_mux_work *w;
	struct pmcd_mux *m;
	unsigned int r;

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	pmc_mux_prepare(cfg, pmcd_caps->extra, w);
	m = kvzalloc(struct_size(m, steps, w->nr_units), GFP_KERNEL);
	if (!m) {
		kfree(w);
		return -ENOMEM;
	}
	m->nr_steps = w->nr_units;
	m->interval_ns = cfg->mux_interval_ns ? cfg->mux_interval_ns : pmcd_mux_default_ns();
	for (r = 0; r < m->nr_steps; r++) {
		pmc_mux_step(w, &pmcd_caps->cpu.pm, pmcd_caps->extra, ~0ULL, r);
		pmc_prog_build(w->step_specs, w->idx, w->nr, &pmcd_caps->cpu.pm, fw,
			       &m->steps[r].prog);
		m->steps[r].prog.extra = w->extra;
		memcpy(m->steps[r].hw, w->hw, sizeof(w->hw));
	}
	kfree(w);
	s->mux = m;
	return 0;
}

int pmcd_session_config(struct pmcd_session *s, struct pmcdrv_config *cfg,
			int (*publish)(const struct pmcdrv_config *cfg, void *arg), void *arg)
{
	/* Scratch of 32 events: off the stack. */
	struct pmcd_config_scratch {
		struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
		u32 counter[PMCDRV_MAX_EVENTS], idx[PMCDRV_MAX_EVENTS];
	} *w;
	struct pmc_config_verdict v;
	struct pmc_extra_prog xp;
	unsigned int i, nhw = 0;
	int err;

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	mutex_lock(&s->lock);
	err = -EALREADY;
	if (s->configured)
		goto out_unlock;
	err = pmc_config_check(cfg, &pmcd_caps->cpu.pm, ~0ULL, w->counter, &v);
	if (!err)
		err = pmc_config_extra(cfg, pmcd_caps->extra, &xp, &v);
	if (err) {
		pr_debug("config refused: %s (event %u)\n", pmc_config_strerror(&v), v.bad_index);
		goto out_unlock;
	}
	s->kernel = v.has_kernel;
	err = -EACCES;
	if (!pmcd_may_count_config(s))
		goto out_unlock;
	if (v.has_hw) {
		err = pmcd_hw_get();
		if (err)
			goto out_unlock;
		s->hw_claimed = true;
	}
	for (i = 0; i < cfg->nr_events; i++) {
		cfg->events[i].counter = w->counter[i];
		s->hw_slot[i] = -1;
		if (cfg->events[i].type != PMCDRV_EVENT_HW) {
			if (cfg->events[i].sw_id != PMCDRV_SW_TASK_CLOCK)
				s->task_sw = true;
			continue;
		}
		pmc_event_to_spec(&cfg->events[i], &w->specs[nhw]);
		w->idx[nhw] = w->counter[i];
		s->hw_slot[i] = nhw++;
	}
	if (v.mux) {
		err = pmcd_mux_build(s, cfg);
		if (err)
			goto out_unclaim;
	}
	/* The caller learns the result before the session keeps it: all or nothing. */
	err = publish(cfg, arg);
	if (err)
		goto out_free_mux;
	if (!v.mux) {
		pmc_prog_build(w->specs, w->idx, nhw, &pmcd_caps->cpu.pm,
			       pmcd_caps->flags & PMCDRV_INFO_FW_WRITE, &s->prog);
		s->prog.extra = xp;
	}
	memcpy(s->events, cfg->events, sizeof(s->events));
	s->nr_events = cfg->nr_events;
	s->inherit = !(cfg->flags & PMCDRV_CONFIG_NO_INHERIT);
	s->configured = true;
	mutex_unlock(&s->lock);
	kfree(w);
	return 0;

out_free_mux:
	kvfree(s->mux);
	s->mux = NULL;
out_unclaim:
	s->task_sw = false;
	if (s->hw_claimed) {
		s->hw_claimed = false;
		pmcd_hw_put();
	}
out_unlock:
	mutex_unlock(&s->lock);
	kfree(w);
	return err;
}

static int pmcd_pool_fill(struct pmcd_session *s, struct list_head *list, unsigned int n)
{
	struct pmcd_task_ctx *ctx;

	while (n--) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			return -ENOMEM;
		list_add(&ctx->node, list);
	}
	return 0;
}

/*
 * ATTACH to a task still being forked waits this long for the fork to
 * finish, PMCD_ATTACH_NEW_MS at a time, then says EAGAIN (abi.md).
 */
#define PMCD_ATTACH_NEW_MS	5
#define PMCD_ATTACH_NEW_TRIES	200

/* ATTACH comes once, after CONFIG.  Called with s->lock held. */
static int pmcd_attach_allowed(const struct pmcd_session *s)
{
	if (!s->configured)
		return -EBADFD;
	if (s->attached)
		return -EALREADY;
	return 0;
}

int pmcd_session_attach(struct pmcd_session *s, pid_t pid, bool enable_on_exec)
{
	struct pmcd_task_ctx *ctx, *tmp;
	struct task_struct *t = NULL;
	unsigned int tries;
	unsigned long flags;
	LIST_HEAD(spares);
	int err;

	mutex_lock(&s->lock);
	err = pmcd_attach_allowed(s);
	if (err)
		goto out_unlock;
	err = -ESRCH;
	if (pid) {
		/* find_vpid() needs RCU or a reference: find_get_pid() takes one. */
		struct pid *p = find_get_pid(pid);

		t = get_pid_task(p, PIDTYPE_PID);
		put_pid(p);
	} else {
		t = current;
		get_task_struct(t);
	}
	if (!t)
		goto out_unlock;
	err = -EPERM;
	if (t->flags & PF_KTHREAD)
		goto out_put_task;
	/*
	 * An exiting task (PF_EXITING is set before exit_mm()) is not there to
	 * count: ESRCH, before the permission check would find it without an
	 * address space and say EPERM.  Checked again under pmcd_hash_lock.
	 */
	err = -ESRCH;
	if (t->flags & PF_EXITING)
		goto out_put_task;
	err = pmcd_pool_fill(s, &spares, 1 + (s->inherit ? PMC_POOL_TARGET : 0));
	if (err)
		goto out_free_spares;
	err = pmcd_probes_get();
	if (err)
		goto out_free_spares;
	for (tries = 0;; tries++) {
		/*
		 * As perf_event_open() (kernel/events/core.c): hold the
		 * target's exec_update_lock from the permission check until
		 * the task is tracked, so that an exec changing its
		 * credentials (begin_new_exec() holds the lock for writing)
		 * comes either before the check or after the tracking, where
		 * the exec probe sees it (sched.c).  And as perf, which checks
		 * the event's privileges and the target in one call, the
		 * privileges of what the session counts are checked again
		 * here, with the credentials of whoever holds the file now.
		 */
		err = down_read_interruptible(&t->signal->exec_update_lock);
		if (err)
			goto out_probes_put;
		err = pmcd_may_attach(t);
		if (!err && !pmcd_may_count_config(s))
			err = -EACCES;
		if (err)
			goto out_exec_unlock;

		ctx = list_first_entry(&spares, struct pmcd_task_ctx, node);
		list_del(&ctx->node);
		ctx->armed_exec = enable_on_exec;

		raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
		/*
		 * PF_EXITING is set before the exit probe runs, which takes
		 * this lock.  A task still being forked (TASK_NEW until
		 * wake_up_new_task(), Linux 6.1 kernel/sched/core.c) is
		 * findable by pid from attach_pid() in copy_process() on, but
		 * the fork probe, which tracks it in its parent's inheriting
		 * session, comes after that (trace_sched_process_fork() in
		 * kernel_clone()), before wake_up_new_task(): wait for it, so
		 * that a task never gets two contexts.  Seen under this lock,
		 * a task past TASK_NEW was past the fork probe's critical
		 * section too.
		 */
		if (t->flags & PF_EXITING)
			err = -ESRCH;
		else if (pmcd_lookup(t))
			err = -EEXIST;
		else if (READ_ONCE(t->__state) & TASK_NEW)
			err = -EAGAIN;
		if (!err) {
			pmcd_track_locked(s, ctx, t);
			list_splice_init(&spares, &s->pool);
			s->pool_count = s->inherit ? PMC_POOL_TARGET : 0;
		}
		raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
		up_read(&t->signal->exec_update_lock);
		if (!err)
			break;
		list_add(&ctx->node, &spares);
		if (err != -EAGAIN || tries >= PMCD_ATTACH_NEW_TRIES)
			goto out_probes_put;
		if (msleep_interruptible(PMCD_ATTACH_NEW_MS)) {
			err = -EINTR;
			goto out_probes_put;
		}
	}
	s->attached = true;

	/* Start now where the task runs, rather than at its next switch. */
	if (!enable_on_exec) {
		if (t == current) {
			local_irq_save(flags);
			pmcd_ipi_start(s);
			local_irq_restore(flags);
		} else {
			smp_call_function_single(task_cpu(t), pmcd_ipi_start, s, 1);
		}
	}
	put_task_struct(t);
	mutex_unlock(&s->lock);
	return 0;

out_exec_unlock:
	up_read(&t->signal->exec_update_lock);
out_probes_put:
	pmcd_probes_put();
out_free_spares:
	list_for_each_entry_safe(ctx, tmp, &spares, node)
		kfree(ctx);
out_put_task:
	put_task_struct(t);
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

int pmcd_session_attach_cpu(struct pmcd_session *s, unsigned int cpu)
{
	int err;

	mutex_lock(&s->lock);
	err = pmcd_attach_allowed(s);
	if (err)
		goto out_unlock;
	err = -ENXIO;
	if (cpu >= nr_cpu_ids)
		goto out_unlock;
	cpu = array_index_nospec(cpu, nr_cpu_ids);
	/* Context switches and migrations are properties of tasks. */
	err = -EOPNOTSUPP;
	if (s->task_sw)
		goto out_unlock;
	err = -EACCES;
	if (!pmcd_may_count_cpu() || !pmcd_may_count_config(s))
		goto out_unlock;
	err = pmcd_cpu_attach(s, cpu);
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

/*
 * ENABLE and DISABLE of an attached task session.  Called with s->lock
 * held.  The IPIs go where the session's tasks are, as perf's ENABLE goes
 * to its task's CPU (event_function_call() in kernel/events/core.c), when
 * it has few tasks (pmcd_session_task_cpus()); to every CPU otherwise, or
 * without memory for the mask.  A task that switches in elsewhere reads
 * @enabled there: written before the tasks' CPUs are read, with a barrier.
 */
static void pmcd_task_session_enable(struct pmcd_session *s)
{
	cpumask_var_t cpus;

	WRITE_ONCE(s->enabled, true);
	smp_mb();	/* enabled, then the tasks' CPUs: pairs with __schedule()'s */
	if (zalloc_cpumask_var(&cpus, GFP_KERNEL) && pmcd_session_task_cpus(s, cpus))
		on_each_cpu_mask(cpus, pmcd_ipi_start, s, 1);
	else
		on_each_cpu(pmcd_ipi_start, s, 1);
	free_cpumask_var(cpus);
}

static void pmcd_task_session_disable(struct pmcd_session *s)
{
	cpumask_var_t cpus;

	WRITE_ONCE(s->enabled, false);
	smp_mb();	/* enabled, then the tasks' CPUs: pairs with __schedule()'s */
	if (zalloc_cpumask_var(&cpus, GFP_KERNEL) && pmcd_session_task_cpus(s, cpus)) {
		/* And wherever its counters are still loaded. */
		cpumask_or(cpus, cpus, &s->loaded);
		pmcd_session_stop_on(s, cpus);
	} else {
		pmcd_session_stop(s);
	}
	free_cpumask_var(cpus);
}

/* ENABLE or DISABLE of an attached session of either kind.  Called with s->lock held. */
static void pmcd_attached_set_enabled(struct pmcd_session *s, bool on)
{
	if (s->cpu >= 0 && on)
		pmcd_cpu_session_enable(s);
	else if (s->cpu >= 0)
		pmcd_cpu_session_disable(s);
	else if (on)
		pmcd_task_session_enable(s);
	else
		pmcd_task_session_disable(s);
}

int pmcd_session_enable(struct pmcd_session *s)
{
	int err = 0;

	mutex_lock(&s->lock);
	if (!s->configured)
		err = -EBADFD;
	else if (!s->attached)
		WRITE_ONCE(s->enabled, true);	/* nothing runs anywhere yet */
	else if (!READ_ONCE(s->enabled))
		pmcd_attached_set_enabled(s, true);
	mutex_unlock(&s->lock);
	return err;
}

int pmcd_session_disable(struct pmcd_session *s)
{
	int err = 0;

	mutex_lock(&s->lock);
	if (!s->configured)
		err = -EBADFD;
	else if (!s->attached)
		WRITE_ONCE(s->enabled, false);	/* nothing runs anywhere yet */
	else if (READ_ONCE(s->enabled))
		pmcd_attached_set_enabled(s, false);
	mutex_unlock(&s->lock);
	return err;
}

/*
 * RESET is one cut for every CPU: stop the session wherever it counts (each
 * CPU folds and stops; with enabled clear none starts it again), zero the
 * totals while nothing can fold into them, and start it again.  Rebasing
 * each CPU and zeroing afterwards lost what a CPU folded in between (a
 * switch after its rebase, before the zero).  What the tasks do during the
 * RESET call itself is not counted.
 */
int pmcd_session_reset(struct pmcd_session *s)
{
	bool running;
	unsigned int i;

	mutex_lock(&s->lock);
	if (!s->configured) {
		mutex_unlock(&s->lock);
		return -EBADFD;
	}
	running = s->attached && READ_ONCE(s->enabled);
	if (running)
		pmcd_attached_set_enabled(s, false);
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++) {
		atomic64_set(&s->hw_vals[i], 0);
		atomic64_set(&s->hw_running[i], 0);
	}
	atomic64_set(&s->time_enabled, 0);
	atomic64_set(&s->nr_switches, 0);
	atomic64_set(&s->nr_migrations, 0);
	if (running)
		pmcd_attached_set_enabled(s, true);
	mutex_unlock(&s->lock);
	return 0;
}

int pmcd_session_read(struct pmcd_session *s, struct pmcdrv_read *r)
{
	unsigned long flags;
	unsigned int i;

	mutex_lock(&s->lock);
	if (!s->configured) {
		mutex_unlock(&s->lock);
		return -EBADFD;
	}
	pmcd_session_fold(s);
	r->nr_events = s->nr_events;
	r->time_enabled = atomic64_read(&s->time_enabled);
	/* Some counter of the session runs whenever it counts on a CPU. */
	r->time_running = r->time_enabled;
	r->lost_tasks = atomic64_read(&s->lost_tasks);
	r->hw_faults = atomic64_read(&s->hw_faults);
	for (i = 0; i < s->nr_events; i++) {
		const struct pmcdrv_event *ev = &s->events[i];

		r->times[i].time_enabled = r->time_enabled;
		r->times[i].time_running = r->time_enabled;
		if (ev->type == PMCDRV_EVENT_HW && s->mux)
			r->times[i].time_running = atomic64_read(&s->hw_running[s->hw_slot[i]]);
		if (ev->type == PMCDRV_EVENT_HW)
			r->values[i] = atomic64_read(&s->hw_vals[s->hw_slot[i]]);
		else if (ev->sw_id == PMCDRV_SW_TASK_CLOCK)
			r->values[i] = r->time_enabled;
		else if (ev->sw_id == PMCDRV_SW_CONTEXT_SWITCHES)
			r->values[i] = atomic64_read(&s->nr_switches);
		else
			r->values[i] = atomic64_read(&s->nr_migrations);
	}
	if (READ_ONCE(s->enabled))
		r->flags |= PMCDRV_READ_ENABLED;
	if (r->lost_tasks)
		r->flags |= PMCDRV_READ_LOST_TASKS;
	if (r->hw_faults)
		r->flags |= PMCDRV_READ_HW_FAULTS;
	if (s->mux)
		r->flags |= PMCDRV_READ_MULTIPLEXED;
	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	r->nr_tasks = s->nr_tasks;
	if (s->nr_tasks || (s->attached && s->cpu >= 0))
		r->flags |= PMCDRV_READ_ATTACHED;
	/* Final only when no tracked task remains: inherited children still count. */
	if (s->attached && s->cpu < 0 && !s->nr_tasks)
		r->flags |= PMCDRV_READ_EXITED;
	if (s->secure_exec)
		r->flags |= PMCDRV_READ_SECURE_EXEC;
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	mutex_unlock(&s->lock);
	return 0;
}

int pmcd_sessions_init(const struct pmcd_hw_caps *caps)
{
	int err;

	pmcd_caps = caps;
	err = pmcd_sched_init(caps);
	if (err)
		return err;
	return pmcd_cpu_sessions_init();
}

void pmcd_sessions_exit(void)
{
	pmcd_sched_exit();
	pmcd_cpu_sessions_exit();
	/* Contexts of exited tasks are freed by RCU callbacks in this module. */
	rcu_barrier();
}
