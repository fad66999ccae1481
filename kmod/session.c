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
#include <linux/cred.h>
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
#include <linux/user_namespace.h>
#include <linux/workqueue.h>

#include "hw.h"
#include "internal.h"
#include "selfread.h"
#include "session.h"

static const struct pmcd_hw_caps *pmcd_caps;

/* Every session, oldest first (PMCDRV_IOC_SESSIONS).  Lock order: this, then s->lock. */
static LIST_HEAD(pmcd_sessions);
static DEFINE_MUTEX(pmcd_sessions_lock);

/* ---- the PMU claim, shared by every session that counts hardware events ------ */

/*
 * pmcdrv holds the PMU (reserve_perfctr_nmi(), hw.c) only while some
 * session counts hardware events: configured, attached, enabled, and with a
 * task left to count (or a CPU).  Each such session holds one share
 * (s->hw_counting); CONFIG takes one for the time of its check.  When the
 * last share goes while sessions with hardware events are still open (one
 * disabled, one whose tasks exited, one not attached yet), the claim
 * lingers PMCD_CLAIM_LINGER, as perf delays turning its sched key off
 * (perf_sched_delayed() in kernel/events/core.c), so that a session
 * disabled and enabled again does not release and claim the PMU each time;
 * then perf_events may have the counters.  A session that counts again
 * claims them back, or fails with EBUSY.  When the last such session closes,
 * the claim goes at once: perf started right after a pmcctl run finds the
 * PMU free.
 */
#define PMCD_CLAIM_LINGER	HZ
static unsigned int pmcd_hw_users;	/* shares, under pmcd_global_lock */
static unsigned int pmcd_hw_sessions;	/* open sessions with hardware events, likewise */
static bool pmcd_hw_held;		/* the claim is held, under pmcd_global_lock */
static void pmcd_hw_idle_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pmcd_hw_idle_work, pmcd_hw_idle_fn);

static int pmcd_hw_get(void)
{
	int err = 0;

	mutex_lock(&pmcd_global_lock);
	if (!pmcd_hw_held) {
		err = pmcd_hw_claim(pmcd_caps);
		pmcd_hw_held = !err;
	}
	if (!err)
		pmcd_hw_users++;
	mutex_unlock(&pmcd_global_lock);
	return err;
}

static void pmcd_hw_idle_locked(void)
{
	lockdep_assert_held(&pmcd_global_lock);
	if (!pmcd_hw_users && pmcd_hw_held) {
		pmcd_hw_release(pmcd_caps);
		pmcd_hw_held = false;
	}
}

/* The last share went: let go at once, or after the linger while sessions may count again. */
static void pmcd_hw_unused_locked(void)
{
	if (pmcd_hw_users)
		return;
	if (pmcd_hw_sessions)
		mod_delayed_work(system_wq, &pmcd_hw_idle_work, PMCD_CLAIM_LINGER);
	else
		pmcd_hw_idle_locked();
}

static void pmcd_hw_put(void)
{
	mutex_lock(&pmcd_global_lock);
	pmcd_hw_users--;
	pmcd_hw_unused_locked();
	mutex_unlock(&pmcd_global_lock);
}

/* A session with hardware events is configured (@open) or gone for good. */
static void pmcd_hw_session(bool open)
{
	mutex_lock(&pmcd_global_lock);
	if (open) {
		pmcd_hw_sessions++;
	} else {
		pmcd_hw_sessions--;
		pmcd_hw_unused_locked();
	}
	mutex_unlock(&pmcd_global_lock);
}

static void pmcd_hw_idle_fn(struct work_struct *work)
{
	mutex_lock(&pmcd_global_lock);
	pmcd_hw_idle_locked();
	mutex_unlock(&pmcd_global_lock);
}

/* @s counts hardware events from now: take its share.  Called with s->lock held. */
static int pmcd_counting_get(struct pmcd_session *s)
{
	int err;

	if (!s->hw || s->hw_counting)
		return 0;
	err = pmcd_hw_get();
	if (!err)
		WRITE_ONCE(s->hw_counting, true);
	return err;
}

/* @s counts no more: give its share back.  Called with s->lock held. */
static void pmcd_counting_put(struct pmcd_session *s)
{
	if (!s->hw_counting)
		return;
	WRITE_ONCE(s->hw_counting, false);
	pmcd_hw_put();
}

/*
 * A task session that holds a share with no task left counts nothing: give
 * it back.  Its last task's untrack queues this check (track.c) when it
 * sees the share, and a share taken with the tasks already gone is checked
 * here, under the lock that orders the two.  Called with s->lock held.
 */
static void pmcd_counting_recheck(struct pmcd_session *s)
{
	unsigned long flags;
	bool none;

	if (s->cpu >= 0 || !s->attached)
		return;
	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	none = !s->nr_tasks;
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	if (none)
		pmcd_counting_put(s);
}

static void pmcd_session_idle_fn(struct work_struct *work)
{
	struct pmcd_session *s = container_of(work, struct pmcd_session, idle);

	mutex_lock(&s->lock);
	pmcd_counting_recheck(s);
	mutex_unlock(&s->lock);
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
	*claimed = pmcd_hw_held;
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
	INIT_WORK(&s->idle, pmcd_session_idle_fn);
	s->enabled = true;
	s->cpu = -1;
	s->id = atomic64_inc_return(&ids);
	s->dev_gid = dev_gid;
	s->uid = current_euid();
	s->opener = get_task_pid(current, PIDTYPE_TGID);
	get_task_comm(s->comm, current);
	mutex_lock(&pmcd_sessions_lock);
	list_add_tail(&s->all, &pmcd_sessions);
	mutex_unlock(&pmcd_sessions_lock);
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

/*
 * Stop @s for good: stop counting everywhere, untrack every task, give its
 * CPU, its probes and its share of the claim back.  Once, at close or at
 * a revoke.  Called with s->lock held.
 */
static void pmcd_session_teardown(struct pmcd_session *s)
{
	struct pmcd_task_ctx *ctx, *tmp;
	unsigned long flags;
	LIST_HEAD(dead);

	if (s->torn_down)
		return;
	s->torn_down = true;
	if (s->attached && s->cpu >= 0)
		pmcd_cpu_detach(s);
	pmcd_cg_put(s);
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
	pmcd_counting_put(s);
	if (s->hw)
		pmcd_hw_session(false);
}

void pmcd_session_close(struct pmcd_session *s)
{
	mutex_lock(&s->lock);
	pmcd_session_teardown(s);
	mutex_unlock(&s->lock);
	/* The last untrack may have queued the claim check; it finds nothing to give back. */
	cancel_work_sync(&s->idle);
	mutex_lock(&pmcd_sessions_lock);
	list_del(&s->all);
	mutex_unlock(&pmcd_sessions_lock);
	pmcd_session_put(s);
}

/* ---- who counts: the list of sessions, and revoking one ------------------------ */

/* Is the caller allowed to see what @s counts?  Its opener's user and CAP_PERFMON are. */
static bool pmcd_may_see_events(const struct pmcd_session *s)
{
	return perfmon_capable() || uid_eq(current_euid(), s->uid);
}

/* @s as PMCDRV_IOC_SESSIONS shows it to the caller, into zeroed @e.  s->lock held. */
static void pmcd_session_describe(struct pmcd_session *s, struct pmcdrv_session_info *e)
{
	unsigned long flags;

	e->id = s->id;
	e->uid = from_kuid_munged(current_user_ns(), s->uid);
	e->pid = pid_vnr(s->opener);
	memcpy(e->comm, s->comm, sizeof(e->comm));
	e->comm[sizeof(e->comm) - 1] = '\0';
	if (s->configured)
		e->flags |= PMCDRV_SESSION_CONFIGURED;
	if (s->attached)
		e->flags |= PMCDRV_SESSION_ATTACHED;
	if (READ_ONCE(s->enabled) && !s->torn_down)
		e->flags |= PMCDRV_SESSION_ENABLED;
	if (s->hw_counting)
		e->flags |= PMCDRV_SESSION_COUNTING;
	if (s->revoked)
		e->flags |= PMCDRV_SESSION_REVOKED;
	if (s->attached && s->cpu >= 0) {
		e->flags |= PMCDRV_SESSION_CPU;
		e->cpu = s->cpu;
	}
	raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
	e->nr_tasks = s->nr_tasks;
	raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	e->nr_events = s->nr_events;
	if (!pmcd_may_see_events(s))
		e->flags |= PMCDRV_SESSION_EVENTS_HIDDEN;
	else
		memcpy(e->events, s->events, sizeof(e->events));
}

unsigned int pmcd_sessions_list(struct pmcdrv_session_info *out, unsigned int max)
{
	struct pmcd_session *s;
	unsigned int n = 0;

	mutex_lock(&pmcd_sessions_lock);
	list_for_each_entry(s, &pmcd_sessions, all) {
		if (n < max) {
			memset(&out[n], 0, sizeof(out[n]));
			mutex_lock(&s->lock);
			pmcd_session_describe(s, &out[n]);
			mutex_unlock(&s->lock);
		}
		n++;
	}
	mutex_unlock(&pmcd_sessions_lock);
	return n;
}

int pmcd_session_revoke(u64 id)
{
	struct pmcd_session *s, *found = NULL;
	int err;

	if (!perfmon_capable())
		return -EPERM;
	mutex_lock(&pmcd_sessions_lock);
	list_for_each_entry(s, &pmcd_sessions, all) {
		if (s->id == id) {
			found = s;
			kref_get(&s->ref);
			break;
		}
	}
	mutex_unlock(&pmcd_sessions_lock);
	if (!found)
		return -ESRCH;
	mutex_lock(&found->lock);
	err = -EALREADY;
	if (!found->revoked) {
		pmcd_session_teardown(found);
		WRITE_ONCE(found->revoked, true);
		err = 0;
		pr_info("session %llu of uid %u (%s) revoked by uid %u\n", found->id,
			from_kuid(&init_user_ns, found->uid), found->comm,
			from_kuid(&init_user_ns, current_euid()));
	}
	mutex_unlock(&found->lock);
	pmcd_session_put(found);
	return err;
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

/*
 * How many steps a rotation of @w takes: one when every event fits at once
 * (a core type whose events fit its counters) or it holds none (every
 * event names another type: an empty program), else one per unit.
 */
static unsigned int pmcd_mux_nr_steps(struct pmc_mux_work *w, const struct pmc_arch_perfmon *pm)
{
	if (!w->nr_units || pmc_mux_step(w, pm, pmcd_caps->extra, ~0ULL, 0) == w->nhw)
		return 1;
	return w->nr_units;
}

/*
 * Rotation @k of a session (struct pmcd_mux): of every event, or on a
 * hybrid part with core types, of those that count on the CPUs of that
 * type (t->core_type[k], every other type for k == t->nr), planned on
 * that type's counters (@pm: with each type's GP counters).  Without @m,
 * its number of steps alone.
 */
static unsigned int pmcd_mux_rotation(struct pmcd_session *s, const struct pmcdrv_config *cfg,
				      const struct pmc_arch_perfmon *pm, unsigned int k,
				      struct pmc_mux_work *w, struct pmcd_mux *m)
{
	bool fw = pmcd_caps->flags & PMCDRV_INFO_FW_WRITE;
	const struct pmcd_typed *t = s->typed;
	struct pmc_arch_perfmon tpm = pmcd_caps->cpu.pm;
	unsigned int r, n;
	u32 type;

	if (t) {
		type = k < t->nr ? t->core_type[k] : 0;
		pmc_mux_prepare_type(cfg, pmcd_caps->extra, type, w);
		pmc_type_perfmon(pm, type, &tpm);
	} else {
		pmc_mux_prepare(cfg, pmcd_caps->extra, w);
	}
	n = pmcd_mux_nr_steps(w, &tpm);
	for (r = 0; m && r < n; r++) {
		struct pmcd_mux_step *st = &m->steps[m->first[k] + r];

		pmc_mux_step(w, &tpm, pmcd_caps->extra, ~0ULL, r);
		pmc_prog_build(w->step_specs, w->idx, w->nr, &tpm, fw, &st->prog);
		st->prog.extra = w->extra;
		memcpy(st->hw, w->hw, sizeof(w->hw));
		pmc_prog_use(&st->prog, &s->use);
	}
	return n;
}

/*
 * The rotations of a session whose events do not fit at once
 * (docs/design.md): one, or on a hybrid part with core types one per type
 * (s->typed's, and every other type's).
 */
static int pmcd_mux_build(struct pmcd_session *s, const struct pmcdrv_config *cfg,
			  const struct pmc_arch_perfmon *pm)
{
	unsigned int k, nr = s->typed ? s->typed->nr + 1 : 1, total = 0;
	unsigned int steps[PMCDRV_MAX_CORE_TYPES + 1];
	struct pmc_mux_work *w;
	struct pmcd_mux *m;

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	for (k = 0; k < nr; k++) {
		steps[k] = pmcd_mux_rotation(s, cfg, pm, k, w, NULL);
		total += steps[k];
	}
	m = kvzalloc(struct_size(m, steps, total), GFP_KERNEL);
	if (!m) {
		kfree(w);
		return -ENOMEM;
	}
	m->nr_steps = total;
	m->interval_ns = cfg->mux_interval_ns ? cfg->mux_interval_ns : pmcd_mux_default_ns();
	for (k = 0, total = 0; k < nr; k++) {
		m->first[k] = total;
		m->nr[k] = steps[k];
		total += steps[k];
		pmcd_mux_rotation(s, cfg, pm, k, w, m);
	}
	kfree(w);
	s->mux = m;
	return 0;
}

/* The core types that the events of @specs name, in the order first named. */
static void pmcd_typed_types(struct pmcd_typed *t, const struct pmc_event_spec *specs,
			     unsigned int nhw)
{
	unsigned int i, k;

	for (i = 0; i < nhw; i++) {
		if (!specs[i].core_type)
			continue;
		for (k = 0; k < t->nr && t->core_type[k] != specs[i].core_type; k++)
			;
		if (k == t->nr && t->nr < PMCDRV_MAX_CORE_TYPES)
			t->core_type[t->nr++] = specs[i].core_type;
	}
}

/*
 * The programs of a session whose events name core types: one per type
 * named (pmcd_typed_types()), then one for every other type
 * (pmcd_session_load()), each with only the events that count there, on
 * the counters pmc_config_check() gave them (a session that multiplexes
 * has a rotation per type instead: pmcd_mux_build()).  What each writes
 * is the session's use.
 */
static void pmcd_typed_build(struct pmcd_session *s, const struct pmc_event_spec *specs,
			     const u32 *idx, unsigned int nhw, struct pmc_type_work *w)
{
	struct pmcd_typed *t = s->typed;
	bool fw = pmcd_caps->flags & PMCDRV_INFO_FW_WRITE;
	unsigned int k;

	for (k = 0; k <= t->nr; k++) {
		pmc_prog_for_core_type(specs, idx, nhw, k < t->nr ? t->core_type[k] : 0,
				       &pmcd_caps->cpu.pm, fw, w, &t->prog[k], t->hw[k]);
		t->prog[k].extra = s->prog.extra;
		pmc_prog_use(&t->prog[k], &s->use);
	}
}

int pmcd_session_config(struct pmcd_session *s, struct pmcdrv_config *cfg,
			int (*publish)(const struct pmcdrv_config *cfg, void *arg), void *arg)
{
	/* Scratch of 32 events: off the stack. */
	struct pmcd_config_scratch {
		struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
		u32 counter[PMCDRV_MAX_EVENTS], idx[PMCDRV_MAX_EVENTS];
		struct pmc_type_work type;
		struct pmc_arch_perfmon pm;
	} *w;
	struct pmc_config_verdict v;
	struct pmc_extra_prog xp;
	unsigned int i, nhw = 0;
	int err;

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	mutex_lock(&s->lock);
	err = -EOWNERDEAD;
	if (s->revoked)
		goto out_unlock;
	err = -EALREADY;
	if (s->configured)
		goto out_unlock;
	/* On a hybrid part, each core type's GP counters: a type's events may take its own. */
	w->pm = pmcd_caps->cpu.pm;
	pmcd_hw_type_perfmon(&w->pm);
	err = pmc_config_check(cfg, &w->pm, ~0ULL, w->counter, &v);
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
		/*
		 * The PMU must be free now: EBUSY here, not at ATTACH.  The
		 * claim lingers for the ATTACH that normally follows.
		 */
		err = pmcd_hw_get();
		if (err)
			goto out_unlock;
		s->hw = true;
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
	for (i = 0; i < nhw && !w->specs[i].core_type; i++)
		;
	if (i < nhw) {
		/* Events that name core types: a program or rotation per type. */
		s->typed = kzalloc(sizeof(*s->typed), GFP_KERNEL);
		err = -ENOMEM;
		if (!s->typed)
			goto out_forget;
		pmcd_typed_types(s->typed, w->specs, nhw);
	}
	if (v.mux) {
		err = pmcd_mux_build(s, cfg, &w->pm);
		if (err)
			goto out_free_typed;
	}
	/* The caller learns the result before the session keeps it: all or nothing. */
	err = publish(cfg, arg);
	if (err)
		goto out_free_mux;
	if (!v.mux) {
		pmc_prog_build(w->specs, w->idx, nhw, &pmcd_caps->cpu.pm,
			       pmcd_caps->flags & PMCDRV_INFO_FW_WRITE, &s->prog);
		s->prog.extra = xp;
		/*
		 * With core types, events of two types may share a counter
		 * here: this program is never loaded, each type's is.
		 */
		if (s->typed)
			pmcd_typed_build(s, w->specs, w->idx, nhw, &w->type);
		else
			pmc_prog_use(&s->prog, &s->use);
	}
	memcpy(s->events, cfg->events, sizeof(s->events));
	s->nr_events = cfg->nr_events;
	s->inherit = !(cfg->flags & PMCDRV_CONFIG_NO_INHERIT);
	s->configured = true;
	if (s->hw) {
		/* Counted as open first: the check's share goes without releasing the claim. */
		pmcd_hw_session(true);
		pmcd_hw_put();
	}
	mutex_unlock(&s->lock);
	kfree(w);
	return 0;

out_free_mux:
	kvfree(s->mux);
	s->mux = NULL;
	memset(&s->use, 0, sizeof(s->use));
out_free_typed:
	kfree(s->typed);
	s->typed = NULL;
out_forget:
	s->task_sw = false;
	if (s->hw) {
		s->hw = false;
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
	if (s->revoked)
		return -EOWNERDEAD;
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
	/* An enabled session counts from here: its share first, seen by the untrack (track.c). */
	if (s->enabled) {
		err = pmcd_counting_get(s);
		if (err)
			goto out_free_spares;
	}
	err = pmcd_probes_get();
	if (err)
		goto out_counting_put;
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
out_counting_put:
	pmcd_counting_put(s);
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
	return pmcd_session_attach_cgroups(s, cpu, NULL, 0);
}

int pmcd_session_attach_cgroups(struct pmcd_session *s, unsigned int cpu, const s32 *fds,
				unsigned int nr)
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
	if (nr) {
		err = pmcd_cg_get(s, cpu, fds, nr);
		if (err)
			goto out_unlock;
	}
	if (s->enabled) {
		err = pmcd_counting_get(s);
		if (err)
			goto out_put_cgroups;
	}
	err = pmcd_cpu_attach(s, cpu);
	if (!err)
		goto out_unlock;
	pmcd_counting_put(s);
out_put_cgroups:
	pmcd_cg_put(s);
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
static bool pmcd_task_session_set(struct pmcd_session *s, bool on, cpumask_var_t *cpus)
{
	WRITE_ONCE(s->enabled, on);
	smp_mb();	/* enabled, then the tasks' CPUs: pairs with __schedule()'s */
	return alloc_cpumask_var(cpus, GFP_KERNEL) && pmcd_session_task_cpus(s, *cpus);
}

static void pmcd_task_session_enable(struct pmcd_session *s)
{
	cpumask_var_t cpus;

	if (pmcd_task_session_set(s, true, &cpus))
		on_each_cpu_mask(cpus, pmcd_ipi_start, s, 1);
	else
		on_each_cpu(pmcd_ipi_start, s, 1);
	free_cpumask_var(cpus);
}

static void pmcd_task_session_disable(struct pmcd_session *s)
{
	cpumask_var_t cpus;

	if (pmcd_task_session_set(s, false, &cpus)) {
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

/*
 * ENABLE of an attached session takes its share of the claim first (EBUSY
 * when perf_events took the PMU after pmcdrv let it go), and gives it back
 * if its tasks are all gone by then.  DISABLE gives it back.
 */
int pmcd_session_enable(struct pmcd_session *s)
{
	int err;

	mutex_lock(&s->lock);
	err = pmcd_configured(s);
	if (err)
		goto out_unlock;
	if (!s->attached) {
		WRITE_ONCE(s->enabled, true);	/* nothing runs anywhere yet */
	} else if (!READ_ONCE(s->enabled)) {
		err = pmcd_counting_get(s);
		if (err)
			goto out_unlock;
		pmcd_attached_set_enabled(s, true);
		pmcd_counting_recheck(s);
	}
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

int pmcd_session_disable(struct pmcd_session *s)
{
	int err;

	mutex_lock(&s->lock);
	err = pmcd_configured(s);
	if (err)
		goto out_unlock;
	if (!s->attached) {
		WRITE_ONCE(s->enabled, false);	/* nothing runs anywhere yet */
	} else if (READ_ONCE(s->enabled)) {
		pmcd_attached_set_enabled(s, false);
		pmcd_counting_put(s);
	}
out_unlock:
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
	unsigned int i, t;
	int err;

	mutex_lock(&s->lock);
	err = pmcd_configured(s);
	if (err) {
		mutex_unlock(&s->lock);
		return err;
	}
	running = s->attached && READ_ONCE(s->enabled);
	if (running)
		pmcd_attached_set_enabled(s, false);
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++) {
		atomic64_set(&s->hw_vals[i], 0);
		atomic64_set(&s->hw_running[i], 0);
	}
	atomic64_set(&s->time_enabled, 0);
	atomic64_set(&s->time_yielded, 0);
	for (t = 0; t < PMCDRV_MAX_CORE_TYPES; t++) {
		for (i = 0; i < PMCDRV_MAX_EVENTS; i++) {
			atomic64_set(&s->type_vals[t][i], 0);
			atomic64_set(&s->type_running[t][i], 0);
		}
		atomic64_set(&s->type_time[t], 0);
	}
	pmcd_cg_reset(s);
	atomic64_set(&s->nr_switches, 0);
	atomic64_set(&s->nr_migrations, 0);
	if (running)
		pmcd_attached_set_enabled(s, true);
	mutex_unlock(&s->lock);
	return 0;
}

/*
 * READ's split by core type on a hybrid part, from the same fold as
 * @rt->read (s->lock held): each type's raw counts, which add up to the
 * session's, its time, and how long each event was on a counter there
 * (less than the type's time where the session multiplexes, yielded, or
 * the event names another type).  Out of line: inlined, its locals cost
 * every READ a stack canary and a saved register.
 */
static noinline void pmcd_read_types(struct pmcd_session *s, struct pmcdrv_read_types *rt)
{
	unsigned int t, i, nr;
	const u32 *ids;

	nr = pmcd_hw_core_types(&ids);
	for (t = 0; t < nr; t++) {
		struct pmcdrv_read_type *ty = &rt->types[t];

		ty->cpuid_1a = ids[t];
		ty->time_enabled = atomic64_read(&s->type_time[t]);
		for (i = 0; i < s->nr_events; i++) {
			const struct pmcdrv_event *ev = &s->events[i];

			if (ev->type == PMCDRV_EVENT_HW) {
				ty->values[i] = atomic64_read(&s->type_vals[t][s->hw_slot[i]]);
				rt->time_running[t][i] =
					atomic64_read(&s->type_running[t][s->hw_slot[i]]);
			} else {
				if (ev->sw_id == PMCDRV_SW_TASK_CLOCK)
					ty->values[i] = ty->time_enabled;
				rt->time_running[t][i] = ty->time_enabled;
			}
		}
	}
	rt->nr_types = nr;
}

/*
 * ns @s counted on CPUs of core type @core_type (CPUID.1AH:EAX[31:24])
 * while enabled: the time an event of that type could count.
 */
static u64 pmcd_type_time(struct pmcd_session *s, u32 core_type)
{
	unsigned int t, nr;
	const u32 *ids;
	u64 ns = 0;

	nr = pmcd_hw_core_types(&ids);
	for (t = 0; t < nr; t++) {
		if (ids[t] >> 24 == core_type)
			ns += atomic64_read(&s->type_time[t]);
	}
	return ns;
}

/*
 * READ, or with @cgroup >= 0 READ_CGROUP of that cgroup: -EBADFD before
 * ATTACH, -EOPNOTSUPP when @s is no cgroup session, -EINVAL for an index
 * it does not have.  With @rt (READ only: @r is &rt->read), the split by
 * core type too.
 */
static int pmcd_read_session(struct pmcd_session *s, struct pmcdrv_read *r, s64 cgroup,
			     struct pmcdrv_read_types *rt)
{
	unsigned int i, nr_tasks;
	bool secure_exec;
	int err;

	mutex_lock(&s->lock);
	err = pmcd_configured(s);
	if (!err && cgroup >= 0 && !s->attached)
		err = -EBADFD;
	else if (!err && cgroup >= 0 && !s->cg)
		err = -EOPNOTSUPP;
	else if (!err && cgroup >= 0 && cgroup >= s->cg->nr)
		err = -EINVAL;
	if (err) {
		mutex_unlock(&s->lock);
		return err;
	}
	/*
	 * The tracked tasks, without pmcd_hash_lock: a snapshot of the count
	 * (attached and cpu are ours, under s->lock).  Taken before the fold:
	 * a task folds its last counts before it is untracked, and the
	 * count's release there pairs with this acquire, so when none is
	 * left (EXITED) the totals read below are final.  secure_exec is set
	 * before that same release: EXITED never comes without SECURE_EXEC
	 * when the last task went at a setuid exec (pmcd_retire_current()).
	 */
	nr_tasks = smp_load_acquire(&s->nr_tasks);
	secure_exec = READ_ONCE(s->secure_exec);
	pmcd_session_fold(s);
	r->nr_events = s->nr_events;
	r->lost_tasks = atomic64_read(&s->lost_tasks);
	r->hw_faults = atomic64_read(&s->hw_faults);
	if (cgroup >= 0) {
		pmcd_cg_read(s, cgroup, r);
		goto flags;
	}
	/*
	 * Some counter of the session runs whenever it counts on a CPU, but
	 * where it yielded to the CPU's CPU session, or was held off for a
	 * thread that may execute RDPMC (sched.c, "Sharing a CPU").
	 */
	pmcd_time_read(&s->time_enabled, &s->time_yielded, &r->time_enabled, &r->time_running);
	for (i = 0; i < s->nr_events; i++) {
		const struct pmcdrv_event *ev = &s->events[i];

		r->times[i].time_enabled = r->time_enabled;
		r->times[i].time_running = ev->type == PMCDRV_EVENT_HW ? r->time_running :
					   r->time_enabled;
		if (ev->type == PMCDRV_EVENT_HW && s->mux) {
			r->times[i].time_running = atomic64_read(&s->hw_running[s->hw_slot[i]]);
			/*
			 * Taking turns, an event of one core type could count
			 * only on that type: its time there is its enabled
			 * time, so that its estimate (values x enabled /
			 * running) is that type's, never scaled by the time on
			 * the other types.
			 */
			if (unlikely(ev->core_type))
				r->times[i].time_enabled = pmcd_type_time(s, ev->core_type);
		}
		if (ev->type == PMCDRV_EVENT_HW)
			r->values[i] = atomic64_read(&s->hw_vals[s->hw_slot[i]]);
		else if (ev->sw_id == PMCDRV_SW_TASK_CLOCK)
			r->values[i] = r->time_enabled;
		else if (ev->sw_id == PMCDRV_SW_CONTEXT_SWITCHES)
			r->values[i] = atomic64_read(&s->nr_switches);
		else
			r->values[i] = atomic64_read(&s->nr_migrations);
	}
	if (rt)
		pmcd_read_types(s, rt);
flags:
	if (READ_ONCE(s->enabled))
		r->flags |= PMCDRV_READ_ENABLED;
	if (r->lost_tasks)
		r->flags |= PMCDRV_READ_LOST_TASKS;
	if (r->hw_faults)
		r->flags |= PMCDRV_READ_HW_FAULTS;
	/* Some event was off its counter for part of its time: times[] say how long. */
	if (s->mux || r->time_running < r->time_enabled)
		r->flags |= PMCDRV_READ_MULTIPLEXED;
	r->nr_tasks = nr_tasks;
	if (nr_tasks || (s->attached && s->cpu >= 0))
		r->flags |= PMCDRV_READ_ATTACHED;
	/* Final only when no tracked task remains: inherited children still count. */
	if (s->attached && s->cpu < 0 && !nr_tasks)
		r->flags |= PMCDRV_READ_EXITED;
	if (secure_exec)
		r->flags |= PMCDRV_READ_SECURE_EXEC;
	mutex_unlock(&s->lock);
	return 0;
}

int pmcd_session_read(struct pmcd_session *s, struct pmcdrv_read *r)
{
	return pmcd_read_session(s, r, -1, NULL);
}

int pmcd_session_read_types(struct pmcd_session *s, struct pmcdrv_read_types *rt)
{
	return pmcd_read_session(s, &rt->read, -1, rt);
}

int pmcd_session_read_cgroup(struct pmcd_session *s, unsigned int i, struct pmcdrv_read *r)
{
	return pmcd_read_session(s, r, i, NULL);
}

int pmcd_sessions_init(const struct pmcd_hw_caps *caps)
{
	int err;

	pmcd_caps = caps;
	err = pmcd_sched_init(caps);
	if (err)
		return err;
	pmcd_cg_init();
	return pmcd_cpu_sessions_init();
}

void pmcd_sessions_exit(void)
{
	/* No session is left (each holds the module): a lingering claim goes now. */
	cancel_delayed_work_sync(&pmcd_hw_idle_work);
	mutex_lock(&pmcd_global_lock);
	pmcd_hw_idle_locked();
	mutex_unlock(&pmcd_global_lock);
	/*
	 * Its rcu_barrier() waits for the RCU callbacks that queue the freeing
	 * of exited tasks' contexts, and its destroy_workqueue() for that
	 * freeing: no callback into this module is left after it (the CPU
	 * teardown below queues none: no session is left to fold).
	 */
	pmcd_sched_exit();
	pmcd_cpu_sessions_exit();
}
