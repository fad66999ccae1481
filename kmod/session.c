// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv per-task contexts.
 *
 * A session (one open file) counts a set of events for the tasks it tracks.
 * Each tracked task has a struct pmc_task_ctx in a global RCU hash keyed by
 * its task_struct.  While at least one session is attached, probes sit on
 * the sched_switch, sched_process_fork, sched_process_exec and
 * sched_process_exit tracepoints:
 *
 *  - switch (rq lock held, IRQs off): fold and stop the counters of the
 *    outgoing tracked task, program and zero them for the incoming one;
 *  - fork (parent's context, preemption off): track the child from a
 *    pre-allocated pool, so nothing allocates in atomic context;
 *  - exec: start a task armed with enable-on-exec;
 *  - exit (the task's own context): fold its last counts, untrack it.
 *
 * A CPU session (ATTACH with PMCDRV_ATTACH_CPU) instead runs its counters on
 * one CPU from attach to close, whatever runs there; it needs no probes.
 * Task and CPU sessions exclude each other (EBUSY), so the switch probe
 * never meets a CPU session's counters.
 *
 * Untracked tasks cost one per-CPU read and one hash lookup per switch, and
 * only while some session is attached.  Locking: pmc_hash_lock (raw: taken
 * in the probes, also on PREEMPT_RT) guards the hash, the session task lists
 * and the pools; s->lock (mutex) serialises a session's ioctls;
 * pmc_global_lock guards probe registration, the PMU claim and the CPU
 * owners, which change only with cpus_read_lock() also held, so hotplug
 * callbacks may read them.  Lock order: s->lock, pmc_global_lock,
 * cpus_read_lock.  Per-CPU state is touched only with IRQs off on its own
 * CPU (probes, IPIs, hotplug callbacks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/hash.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "hw.h"
#include "session.h"

#define PMC_HASH_BITS		8
#define PMC_POOL_TARGET		32	/* spare contexts per inheriting session */
#define PMC_POOL_LOW		8	/* refill below this */

struct pmc_session {
	struct kref ref;
	struct mutex lock;		/* serialises this session's ioctls */
	bool configured;
	bool attached;
	bool hw_claimed;
	bool inherit;
	bool closing;			/* under pmc_hash_lock: no new tasks */
	bool exited;			/* under pmc_hash_lock: the attached task exited */
	bool enabled;			/* READ_ONCE in probes */
	bool task_sw;			/* has context-switches or cpu-migrations */
	int cpu;			/* a CPU session's CPU; -1 for a task session */
	unsigned int nr_events;
	struct pmcdrv_event events[PMCDRV_MAX_EVENTS];
	s8 hw_slot[PMCDRV_MAX_EVENTS];	/* event -> prog slot, -1 for software */
	struct pmc_prog prog;
	atomic64_t hw_vals[PMCDRV_MAX_EVENTS];
	atomic64_t time_enabled;	/* = time running: there is no multiplexing */
	atomic64_t nr_switches;
	atomic64_t nr_migrations;
	atomic64_t lost_tasks;
	unsigned int nr_tasks;		/* under pmc_hash_lock */
	struct list_head tasks;		/* under pmc_hash_lock */
	struct list_head pool;		/* under pmc_hash_lock */
	unsigned int pool_count;	/* under pmc_hash_lock */
	struct work_struct refill;
};

struct pmc_task_ctx {
	struct hlist_node hnode;	/* pmc_hash, RCU */
	struct list_head node;		/* session's tasks, pool, or a private list */
	struct task_struct *task;	/* untracked at its exit, before it is freed */
	struct pmc_session *sess;	/* holds a reference while tracked */
	bool root;			/* the attached task */
	bool armed_exec;		/* waits for exec (touched by the task's CPU) */
	bool dead;			/* untracked: never program again */
	int last_cpu;
	struct rcu_head rcu;
};

/* What runs on one CPU; only touched there with IRQs off. */
struct pmc_cpu {
	struct pmc_session *sess;	/* whose counters run here, NULL for none */
	struct pmc_task_ctx *active;	/* tracked, enabled current task (task session) */
	u64 last[PMCDRV_MAX_EVENTS];	/* raw counter values at the last fold */
	u64 t_last;			/* local_clock() at the last fold */
	bool suspended;			/* counters stopped across suspend */
};

static DEFINE_PER_CPU(struct pmc_cpu, pmc_cpus);
static struct hlist_head pmc_hash[1 << PMC_HASH_BITS];
static DEFINE_RAW_SPINLOCK(pmc_hash_lock);
static DEFINE_MUTEX(pmc_global_lock);
static unsigned int pmc_probe_users;	/* under pmc_global_lock */
static unsigned int pmc_hw_users;	/* under pmc_global_lock */
static unsigned int pmc_cpu_sessions;	/* attached CPU sessions, under pmc_global_lock */
/* The CPU session of each CPU: changed under pmc_global_lock and cpus_read_lock. */
static DEFINE_PER_CPU(struct pmc_session *, pmc_cpu_owner);
static const struct pmc_hw_caps *pmc_caps;
static enum cpuhp_state pmc_cpuhp_state;
static void pmc_fold_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pmc_fold_work, pmc_fold_fn);
static unsigned long pmc_fold_period;	/* jiffies; 0: no counters to fold */

/* ---- per-CPU counting: IRQs off, on the CPU itself ------------------------ */

static struct pmc_task_ctx *pmc_lookup(struct task_struct *t)
{
	struct pmc_task_ctx *ctx;

	hlist_for_each_entry_rcu(ctx, &pmc_hash[hash_ptr(t, PMC_HASH_BITS)], hnode,
				 lockdep_is_held(&pmc_hash_lock)) {
		if (ctx->task == t)
			return ctx;
	}
	return NULL;
}

static void pmc_cpu_fold(struct pmc_cpu *pc)
{
	struct pmc_session *s = pc->sess;
	u64 vals[PMCDRV_MAX_EVENTS], now = local_clock();
	unsigned int i;

	if (s->prog.nr && !pc->suspended) {
		pmc_hw_read(&s->prog, vals);
		for (i = 0; i < s->prog.nr; i++) {
			atomic64_add(pmc_delta(pc->last[i], vals[i], s->prog.width[i]),
				     &s->hw_vals[i]);
			pc->last[i] = vals[i];
		}
	}
	atomic64_add(now - pc->t_last, &s->time_enabled);
	pc->t_last = now;
}

/* Program pc->sess's counters from zero on this CPU. */
static void pmc_cpu_start(struct pmc_cpu *pc)
{
	struct pmc_session *s = pc->sess;

	if (s->prog.nr)
		pmc_hw_start(&s->prog);
	memset(pc->last, 0, sizeof(pc->last));
	pc->t_last = local_clock();
}

/* Fold pc->sess's counts and stop its counters on this CPU. */
static void pmc_cpu_fold_stop(struct pmc_cpu *pc)
{
	struct pmc_session *s = pc->sess;

	pmc_cpu_fold(pc);
	if (s->prog.nr && !pc->suspended)
		pmc_hw_stop(&s->prog);
}

static void pmc_cpu_sched_in(struct pmc_cpu *pc, struct pmc_task_ctx *ctx)
{
	struct pmc_session *s = ctx->sess;
	int cpu = smp_processor_id();

	if (READ_ONCE(ctx->dead) || ctx->armed_exec || !READ_ONCE(s->enabled))
		return;
	if (ctx->last_cpu >= 0 && ctx->last_cpu != cpu)
		atomic64_inc(&s->nr_migrations);
	ctx->last_cpu = cpu;
	pc->active = ctx;
	pc->sess = s;
	pmc_cpu_start(pc);
}

/* Fold and stop whatever runs here: a tracked task's or a CPU session's counters. */
static void pmc_cpu_sched_out(struct pmc_cpu *pc, bool context_switch)
{
	struct pmc_session *s = pc->sess;

	pmc_cpu_fold_stop(pc);
	if (context_switch)
		atomic64_inc(&s->nr_switches);
	pc->active = NULL;
	pc->sess = NULL;
}

/* ---- tracepoint probes ------------------------------------------------------ */

static void pmc_probe_switch(void *data, bool preempt, struct task_struct *prev,
			     struct task_struct *next, unsigned int prev_state)
{
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);
	struct pmc_task_ctx *ctx;

	if (pc->active)
		pmc_cpu_sched_out(pc, true);
	rcu_read_lock();
	ctx = pmc_lookup(next);
	if (ctx)
		pmc_cpu_sched_in(pc, ctx);
	rcu_read_unlock();
}

static void pmc_pool_refill(struct work_struct *work);

/* Track @child in @parent's session.  Called with pmc_hash_lock held. */
static void pmc_track_child_locked(struct pmc_task_ctx *parent, struct task_struct *child)
{
	struct pmc_session *s = parent->sess;
	struct pmc_task_ctx *ctx;

	if (parent->dead || s->closing)
		return;
	ctx = list_first_entry_or_null(&s->pool, struct pmc_task_ctx, node);
	if (!ctx) {
		atomic64_inc(&s->lost_tasks);
		schedule_work(&s->refill);
		return;
	}
	list_del(&ctx->node);
	if (--s->pool_count < PMC_POOL_LOW)
		schedule_work(&s->refill);
	ctx->task = child;
	ctx->sess = s;
	ctx->root = false;
	ctx->armed_exec = parent->armed_exec;
	ctx->dead = false;
	ctx->last_cpu = -1;
	kref_get(&s->ref);
	hlist_add_head_rcu(&ctx->hnode, &pmc_hash[hash_ptr(child, PMC_HASH_BITS)]);
	list_add(&ctx->node, &s->tasks);
	s->nr_tasks++;
}

static void pmc_probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	struct pmc_task_ctx *ctx;
	unsigned long flags;

	rcu_read_lock();
	ctx = pmc_lookup(parent);
	if (ctx && ctx->sess->inherit) {
		raw_spin_lock_irqsave(&pmc_hash_lock, flags);
		pmc_track_child_locked(ctx, child);
		raw_spin_unlock_irqrestore(&pmc_hash_lock, flags);
	}
	rcu_read_unlock();
}

static void pmc_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	struct pmc_cpu *pc;
	struct pmc_task_ctx *ctx;
	unsigned long flags;

	/* IRQs off across lookup and programming: a stopping IPI sees the result. */
	local_irq_save(flags);
	rcu_read_lock();
	ctx = pmc_lookup(p);
	if (ctx && ctx->armed_exec) {
		ctx->armed_exec = false;
		pc = this_cpu_ptr(&pmc_cpus);
		if (!pc->sess)
			pmc_cpu_sched_in(pc, ctx);
	}
	rcu_read_unlock();
	local_irq_restore(flags);
}

static void pmc_ctx_free_rcu(struct rcu_head *head);

/* Untrack @ctx (if still tracked).  Called with pmc_hash_lock held. */
static bool pmc_untrack_locked(struct pmc_task_ctx *ctx)
{
	if (ctx->dead)
		return false;
	WRITE_ONCE(ctx->dead, true);
	hlist_del_rcu(&ctx->hnode);
	list_del(&ctx->node);
	ctx->sess->nr_tasks--;
	return true;
}

static void pmc_probe_exit(void *data, struct task_struct *p)
{
	struct pmc_cpu *pc;
	struct pmc_task_ctx *ctx;
	unsigned long flags;
	bool untracked = false;

	local_irq_save(flags);
	rcu_read_lock();
	ctx = pmc_lookup(p);
	if (ctx) {
		pc = this_cpu_ptr(&pmc_cpus);
		if (pc->active == ctx)
			pmc_cpu_sched_out(pc, false);
		raw_spin_lock(&pmc_hash_lock);
		untracked = pmc_untrack_locked(ctx);
		if (untracked && ctx->root)
			ctx->sess->exited = true;
		raw_spin_unlock(&pmc_hash_lock);
	}
	rcu_read_unlock();
	local_irq_restore(flags);
	if (untracked)
		call_rcu(&ctx->rcu, pmc_ctx_free_rcu);
}

static const struct {
	const char *name;
	void *probe;
} pmc_probes[] = {
	/* exit first and switch last: a tracked task is never missed at exit */
	{ "sched_process_exit", pmc_probe_exit },
	{ "sched_process_fork", pmc_probe_fork },
	{ "sched_process_exec", pmc_probe_exec },
	{ "sched_switch", pmc_probe_switch },
};

static struct tracepoint *pmc_tps[ARRAY_SIZE(pmc_probes)];

static void pmc_find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pmc_probes); i++) {
		if (!strcmp(tp->name, pmc_probes[i].name))
			pmc_tps[i] = tp;
	}
}

/* IPI: fold whatever runs on this CPU (the periodic fold). */
static void pmc_ipi_fold_any(void *info)
{
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);

	if (pc->sess)
		pmc_cpu_fold(pc);
}

/*
 * Counters are folded at every switch and READ; this work folds every CPU
 * at least every pmc_fold_period as well, so that a task that never
 * switches, or a CPU session nobody reads, cannot wrap a counter twice
 * unseen.  It runs while any session is attached.
 */
static void pmc_fold_fn(struct work_struct *work)
{
	bool busy;

	mutex_lock(&pmc_global_lock);
	busy = pmc_probe_users || pmc_cpu_sessions;
	mutex_unlock(&pmc_global_lock);
	if (!busy)
		return;
	on_each_cpu(pmc_ipi_fold_any, NULL, 1);
	schedule_delayed_work(&pmc_fold_work, pmc_fold_period);
}

/* The first attached session starts the periodic fold.  Under pmc_global_lock. */
static void pmc_fold_arm(void)
{
	lockdep_assert_held(&pmc_global_lock);
	if (pmc_fold_period)
		schedule_delayed_work(&pmc_fold_work, pmc_fold_period);
}

/* Register the probes for the first attached session. */
static int pmc_probes_get(void)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&pmc_global_lock);
	if (pmc_cpu_sessions) {
		err = -EBUSY;
		goto out_unlock;
	}
	if (pmc_probe_users++)
		goto out_unlock;
	pmc_fold_arm();
	for (i = 0; i < ARRAY_SIZE(pmc_probes); i++) {
		err = tracepoint_probe_register(pmc_tps[i], pmc_probes[i].probe, NULL);
		if (err)
			goto err_unregister;
	}
	goto out_unlock;

err_unregister:
	while (i--)
		tracepoint_probe_unregister(pmc_tps[i], pmc_probes[i].probe, NULL);
	tracepoint_synchronize_unregister();
	pmc_probe_users--;
out_unlock:
	mutex_unlock(&pmc_global_lock);
	return err;
}

static void pmc_probes_put(void)
{
	unsigned int i;

	mutex_lock(&pmc_global_lock);
	if (!--pmc_probe_users) {
		for (i = ARRAY_SIZE(pmc_probes); i--;)
			tracepoint_probe_unregister(pmc_tps[i], pmc_probes[i].probe, NULL);
		tracepoint_synchronize_unregister();
	}
	mutex_unlock(&pmc_global_lock);
}

static int pmc_hw_get(void)
{
	int err = 0;

	mutex_lock(&pmc_global_lock);
	if (!pmc_hw_users)
		err = pmc_hw_claim(pmc_caps);
	if (!err)
		pmc_hw_users++;
	mutex_unlock(&pmc_global_lock);
	return err;
}

bool pmc_sessions_hw_claimed(void)
{
	bool claimed;

	mutex_lock(&pmc_global_lock);
	claimed = pmc_hw_users > 0;
	mutex_unlock(&pmc_global_lock);
	return claimed;
}

static void pmc_hw_put(void)
{
	mutex_lock(&pmc_global_lock);
	if (!--pmc_hw_users)
		pmc_hw_release(pmc_caps);
	mutex_unlock(&pmc_global_lock);
}

/* ---- session lifetime ----------------------------------------------------- */

static void pmc_session_free(struct kref *ref)
{
	kfree(container_of(ref, struct pmc_session, ref));
}

static void pmc_ctx_free_rcu(struct rcu_head *head)
{
	struct pmc_task_ctx *ctx = container_of(head, struct pmc_task_ctx, rcu);

	kref_put(&ctx->sess->ref, pmc_session_free);
	kfree(ctx);
}

static void pmc_pool_refill(struct work_struct *work)
{
	struct pmc_session *s = container_of(work, struct pmc_session, refill);
	struct pmc_task_ctx *ctx;
	unsigned long flags;
	bool full = false;

	while (!full) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			return;
		raw_spin_lock_irqsave(&pmc_hash_lock, flags);
		if (s->closing || s->pool_count >= PMC_POOL_TARGET) {
			full = true;
		} else {
			list_add(&ctx->node, &s->pool);
			s->pool_count++;
			ctx = NULL;
		}
		raw_spin_unlock_irqrestore(&pmc_hash_lock, flags);
		kfree(ctx);
	}
}

struct pmc_session *pmc_session_create(void)
{
	struct pmc_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return NULL;
	kref_init(&s->ref);
	mutex_init(&s->lock);
	INIT_LIST_HEAD(&s->tasks);
	INIT_LIST_HEAD(&s->pool);
	INIT_WORK(&s->refill, pmc_pool_refill);
	s->enabled = true;
	s->cpu = -1;
	return s;
}

/* IPI: fold the session's counts on this CPU; stop them too if @stop. */
struct pmc_ipi_arg {
	struct pmc_session *s;
	bool stop;
	bool rebase;		/* discard what was counted since the last fold */
};

static void pmc_ipi_fold(void *info)
{
	const struct pmc_ipi_arg *a = info;
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);

	if (pc->sess != a->s)
		return;
	if (a->stop) {
		pmc_cpu_sched_out(pc, false);
	} else if (a->rebase) {
		if (a->s->prog.nr && !pc->suspended)
			pmc_hw_read(&a->s->prog, pc->last);
		pc->t_last = local_clock();
	} else {
		pmc_cpu_fold(pc);
	}
}

/* IPI: start the session on this CPU if its current task is tracked by it. */
static void pmc_ipi_start(void *info)
{
	struct pmc_session *s = info;
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);
	struct pmc_task_ctx *ctx;

	if (pc->sess)
		return;
	rcu_read_lock();
	ctx = pmc_lookup(current);
	if (ctx && ctx->sess == s)
		pmc_cpu_sched_in(pc, ctx);
	rcu_read_unlock();
}

/*
 * Fold (and stop, or rebase) the session wherever it runs: on every CPU for
 * a task session, on its own CPU for a CPU session (nothing to do if that
 * is offline: the teardown callback folded it).  Called with s->lock held.
 */
static void pmc_session_fold_all(struct pmc_session *s, bool stop, bool rebase)
{
	struct pmc_ipi_arg a = { .s = s, .stop = stop, .rebase = rebase };

	if (s->attached && s->cpu >= 0)
		smp_call_function_single(s->cpu, pmc_ipi_fold, &a, 1);
	else
		on_each_cpu(pmc_ipi_fold, &a, 1);
}

/* IPI (or hotplug callback): run CPU session @info on this CPU. */
static void pmc_ipi_cpu_start(void *info)
{
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);

	if (pc->sess)
		return;
	pc->sess = info;
	pmc_cpu_start(pc);
}

/* Stop a CPU session and give its CPU back.  Called with s->lock held. */
static void pmc_cpu_detach(struct pmc_session *s)
{
	mutex_lock(&pmc_global_lock);
	cpus_read_lock();
	WRITE_ONCE(per_cpu(pmc_cpu_owner, s->cpu), NULL);
	pmc_session_fold_all(s, true, false);
	pmc_cpu_sessions--;
	cpus_read_unlock();
	mutex_unlock(&pmc_global_lock);
}

void pmc_session_close(struct pmc_session *s)
{
	struct pmc_task_ctx *ctx, *tmp;
	unsigned long flags;
	LIST_HEAD(dead);

	mutex_lock(&s->lock);
	if (s->attached && s->cpu >= 0)
		pmc_cpu_detach(s);
	raw_spin_lock_irqsave(&pmc_hash_lock, flags);
	s->closing = true;
	list_for_each_entry_safe(ctx, tmp, &s->tasks, node) {
		pmc_untrack_locked(ctx);
		list_add(&ctx->node, &dead);
	}
	list_splice_init(&s->pool, &dead);
	s->pool_count = 0;
	raw_spin_unlock_irqrestore(&pmc_hash_lock, flags);

	/*
	 * A probe that found a context before it was untracked ran with IRQs
	 * off: wait for it.  Only attached task sessions ever had contexts; a
	 * CPU session was stopped synchronously by pmc_cpu_detach().
	 */
	if (s->attached && s->cpu < 0) {
		pmc_session_fold_all(s, true, false);
		synchronize_rcu();
	}
	cancel_work_sync(&s->refill);
	list_for_each_entry_safe(ctx, tmp, &dead, node) {
		if (ctx->sess)
			kref_put(&ctx->sess->ref, pmc_session_free);
		kfree(ctx);
	}
	if (s->attached && s->cpu < 0)
		pmc_probes_put();
	if (s->hw_claimed)
		pmc_hw_put();
	mutex_unlock(&s->lock);
	kref_put(&s->ref, pmc_session_free);
}

/* ---- ioctl operations --------------------------------------------------------- */

/*
 * perf_event_paranoid is not exported to modules: read the sysctl, through
 * init's root, so that a caller in a chroot of its own cannot substitute
 * the file.
 */
static int pmc_perf_paranoid(void)
{
	char buf[16] = "";
	struct path root;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int val;

	task_lock(&init_task);
	get_fs_root(init_task.fs, &root);
	task_unlock(&init_task);
	f = file_open_root(&root, "proc/sys/kernel/perf_event_paranoid", O_RDONLY, 0);
	path_put(&root);
	if (IS_ERR(f))
		return 2;
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0 || kstrtoint(strim(buf), 10, &val))
		return 2;	/* unknown: assume the kernel's default */
	return val;
}

int pmc_session_config(struct pmc_session *s, struct pmcdrv_config *cfg)
{
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	struct pmc_config_verdict v;
	u32 counter[PMCDRV_MAX_EVENTS], idx[PMCDRV_MAX_EVENTS];
	unsigned int i, nhw = 0;
	int err;

	mutex_lock(&s->lock);
	err = -EALREADY;
	if (s->configured)
		goto out_unlock;
	err = pmc_config_check(cfg, &pmc_caps->cpu.pm, ~0ULL, counter, &v);
	if (err) {
		pr_debug("config refused: %s (event %u)\n", pmc_config_strerror(&v), v.bad_index);
		goto out_unlock;
	}
	err = -EACCES;
	if (v.has_kernel && !perfmon_capable() && pmc_perf_paranoid() > 1)
		goto out_unlock;
	if (v.has_hw) {
		err = pmc_hw_get();
		if (err)
			goto out_unlock;
		s->hw_claimed = true;
	}
	for (i = 0; i < cfg->nr_events; i++) {
		cfg->events[i].counter = counter[i];
		s->hw_slot[i] = -1;
		if (cfg->events[i].type != PMCDRV_EVENT_HW) {
			if (cfg->events[i].sw_id != PMCDRV_SW_TASK_CLOCK)
				s->task_sw = true;
			continue;
		}
		pmc_event_to_spec(&cfg->events[i], &specs[nhw]);
		idx[nhw] = counter[i];
		s->hw_slot[i] = nhw++;
	}
	pmc_prog_build(specs, idx, nhw, &pmc_caps->cpu.pm,
		       pmc_caps->flags & PMCDRV_INFO_FW_WRITE, &s->prog);
	memcpy(s->events, cfg->events, sizeof(s->events));
	s->nr_events = cfg->nr_events;
	s->inherit = !(cfg->flags & PMCDRV_CONFIG_NO_INHERIT);
	s->configured = true;
	err = 0;
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

/*
 * May the caller count @t?  ptrace_may_access() is not exported to modules,
 * so this is its credential core for PTRACE_MODE_READ_REALCREDS: same
 * thread group, or the caller's real uid/gid equal to all of the target's,
 * with the target dumpable; or CAP_SYS_PTRACE over the target's namespace.
 * LSM ptrace hooks are not consulted (docs/design.md).
 */
static bool pmc_may_attach(struct task_struct *t)
{
	const struct cred *cred = current_cred(), *tcred;
	bool ok;

	if (same_thread_group(t, current))
		return true;
	rcu_read_lock();
	tcred = __task_cred(t);
	ok = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	     uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	     gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	if (ok) {
		task_lock(t);
		ok = !t->mm || get_dumpable(t->mm) == SUID_DUMP_USER;
		task_unlock(t);
	}
	if (!ok)
		ok = ns_capable(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	return ok;
}

static int pmc_pool_fill(struct pmc_session *s, struct list_head *list, unsigned int n)
{
	struct pmc_task_ctx *ctx;

	while (n--) {
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
		if (!ctx)
			return -ENOMEM;
		list_add(&ctx->node, list);
	}
	return 0;
}

/* ATTACH comes once, after CONFIG.  Called with s->lock held. */
static int pmc_attach_allowed(const struct pmc_session *s)
{
	if (!s->configured)
		return -EBADFD;
	if (s->attached)
		return -EALREADY;
	return 0;
}

int pmc_session_attach(struct pmc_session *s, pid_t pid, bool enable_on_exec)
{
	struct pmc_task_ctx *ctx, *tmp;
	struct task_struct *t = NULL;
	unsigned long flags;
	LIST_HEAD(spares);
	int err;

	mutex_lock(&s->lock);
	err = pmc_attach_allowed(s);
	if (err)
		goto out_unlock;
	err = -ESRCH;
	if (pid) {
		t = get_pid_task(find_vpid(pid), PIDTYPE_PID);
	} else {
		t = current;
		get_task_struct(t);
	}
	if (!t)
		goto out_unlock;
	err = -EPERM;
	if ((t->flags & PF_KTHREAD) || !pmc_may_attach(t))
		goto out_put_task;
	err = pmc_pool_fill(s, &spares, 1 + (s->inherit ? PMC_POOL_TARGET : 0));
	if (err)
		goto out_free_spares;
	err = pmc_probes_get();
	if (err)
		goto out_free_spares;

	ctx = list_first_entry(&spares, struct pmc_task_ctx, node);
	list_del(&ctx->node);
	ctx->task = t;
	ctx->sess = s;
	ctx->root = true;
	ctx->armed_exec = enable_on_exec;
	ctx->last_cpu = -1;

	raw_spin_lock_irqsave(&pmc_hash_lock, flags);
	/* PF_EXITING is set before the exit probe runs, which takes this lock. */
	if (t->flags & PF_EXITING)
		err = -ESRCH;
	else if (pmc_lookup(t))
		err = -EEXIST;
	if (!err) {
		kref_get(&s->ref);
		hlist_add_head_rcu(&ctx->hnode, &pmc_hash[hash_ptr(t, PMC_HASH_BITS)]);
		list_add(&ctx->node, &s->tasks);
		s->nr_tasks++;
		list_splice_init(&spares, &s->pool);
		s->pool_count = s->inherit ? PMC_POOL_TARGET : 0;
	}
	raw_spin_unlock_irqrestore(&pmc_hash_lock, flags);
	if (err) {
		list_add(&ctx->node, &spares);
		pmc_probes_put();
		goto out_free_spares;
	}
	s->attached = true;

	/* Start now where the task runs, rather than at its next switch. */
	if (!enable_on_exec) {
		if (t == current) {
			local_irq_save(flags);
			pmc_ipi_start(s);
			local_irq_restore(flags);
		} else {
			smp_call_function_single(task_cpu(t), pmc_ipi_start, s, 1);
		}
	}
	put_task_struct(t);
	mutex_unlock(&s->lock);
	return 0;

out_free_spares:
	list_for_each_entry_safe(ctx, tmp, &spares, node)
		kfree(ctx);
out_put_task:
	put_task_struct(t);
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

int pmc_session_attach_cpu(struct pmc_session *s, unsigned int cpu)
{
	int err;

	mutex_lock(&s->lock);
	err = pmc_attach_allowed(s);
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
	/* Counting a CPU sees every task on it: perf's rule for CPU events. */
	err = -EACCES;
	if (!perfmon_capable() && pmc_perf_paranoid() > 0)
		goto out_unlock;

	mutex_lock(&pmc_global_lock);
	cpus_read_lock();
	err = -ENXIO;
	if (!cpu_online(cpu))
		goto out_cpus_unlock;
	err = -EBUSY;
	if (pmc_probe_users || per_cpu(pmc_cpu_owner, cpu))
		goto out_cpus_unlock;
	WRITE_ONCE(per_cpu(pmc_cpu_owner, cpu), s);
	if (!pmc_cpu_sessions++)
		pmc_fold_arm();
	s->cpu = cpu;
	s->attached = true;
	if (READ_ONCE(s->enabled))
		smp_call_function_single(cpu, pmc_ipi_cpu_start, s, 1);
	err = 0;
out_cpus_unlock:
	cpus_read_unlock();
	mutex_unlock(&pmc_global_lock);
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}

int pmc_session_enable(struct pmc_session *s, bool on)
{
	bool cpu_sess;
	int err = 0;

	mutex_lock(&s->lock);
	cpu_sess = s->attached && s->cpu >= 0;
	if (!s->configured) {
		err = -EBADFD;
	} else if (!s->attached) {
		WRITE_ONCE(s->enabled, on);	/* nothing runs anywhere yet */
	} else if (READ_ONCE(s->enabled) != on) {
		/* A CPU coming online reads 'enabled' in its hotplug callback. */
		if (cpu_sess)
			cpus_read_lock();
		WRITE_ONCE(s->enabled, on);
		if (on && cpu_sess) {
			if (cpu_online(s->cpu))
				smp_call_function_single(s->cpu, pmc_ipi_cpu_start, s, 1);
		} else if (on) {
			on_each_cpu(pmc_ipi_start, s, 1);
		} else {
			pmc_session_fold_all(s, true, false);
		}
		if (cpu_sess)
			cpus_read_unlock();
	}
	mutex_unlock(&s->lock);
	return err;
}

int pmc_session_reset(struct pmc_session *s)
{
	unsigned int i;

	mutex_lock(&s->lock);
	if (!s->configured) {
		mutex_unlock(&s->lock);
		return -EBADFD;
	}
	pmc_session_fold_all(s, false, true);
	for (i = 0; i < PMCDRV_MAX_EVENTS; i++)
		atomic64_set(&s->hw_vals[i], 0);
	atomic64_set(&s->time_enabled, 0);
	atomic64_set(&s->nr_switches, 0);
	atomic64_set(&s->nr_migrations, 0);
	mutex_unlock(&s->lock);
	return 0;
}

int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r)
{
	unsigned long flags;
	unsigned int i;

	mutex_lock(&s->lock);
	if (!s->configured) {
		mutex_unlock(&s->lock);
		return -EBADFD;
	}
	pmc_session_fold_all(s, false, false);
	r->nr_events = s->nr_events;
	r->time_enabled = atomic64_read(&s->time_enabled);
	/* Counters run whenever a tracked task is on a CPU: no multiplexing. */
	r->time_running = r->time_enabled;
	r->lost_tasks = atomic64_read(&s->lost_tasks);
	for (i = 0; i < s->nr_events; i++) {
		const struct pmcdrv_event *ev = &s->events[i];

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
	raw_spin_lock_irqsave(&pmc_hash_lock, flags);
	r->nr_tasks = s->nr_tasks;
	if (s->nr_tasks || (s->attached && s->cpu >= 0))
		r->flags |= PMCDRV_READ_ATTACHED;
	if (s->exited)
		r->flags |= PMCDRV_READ_EXITED;
	raw_spin_unlock_irqrestore(&pmc_hash_lock, flags);
	mutex_unlock(&s->lock);
	return 0;
}

/* ---- CPU hotplug and suspend ---------------------------------------------------- */

/*
 * Task sessions program counters lazily at every switch-in, so for them a
 * CPU that comes online needs nothing; a CPU session restarts on its CPU.
 * A CPU that goes away folds and stops what it runs.  Both run on @cpu
 * itself with the hotplug lock held for writing, so the owner is stable.
 */
static int pmc_cpu_online(unsigned int cpu)
{
	struct pmc_session *s = READ_ONCE(per_cpu(pmc_cpu_owner, cpu));
	unsigned long flags;

	if (s && READ_ONCE(s->enabled)) {
		local_irq_save(flags);
		pmc_ipi_cpu_start(s);
		local_irq_restore(flags);
	}
	return 0;
}

static int pmc_cpu_offline(unsigned int cpu)
{
	struct pmc_cpu *pc;
	unsigned long flags;

	local_irq_save(flags);
	pc = this_cpu_ptr(&pmc_cpus);
	if (pc->sess)
		pmc_cpu_sched_out(pc, false);
	local_irq_restore(flags);
	return 0;
}

/* Syscore callbacks run on the last CPU with IRQs off. */
static int pmc_suspend(void)
{
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);

	if (pc->sess) {
		pmc_cpu_fold_stop(pc);
		pc->suspended = true;
	}
	return 0;
}

static void pmc_resume(void)
{
	struct pmc_cpu *pc = this_cpu_ptr(&pmc_cpus);

	pc->suspended = false;
	if (pc->sess)
		pmc_cpu_start(pc);
}

static struct syscore_ops pmc_syscore_ops = {
	.suspend = pmc_suspend,
	.resume = pmc_resume,
};

int pmc_sessions_init(const struct pmc_hw_caps *caps)
{
	unsigned int i;
	int ret;

	pmc_caps = caps;
	if (caps->flags & PMCDRV_INFO_ARCH_PERFMON)
		pmc_fold_period = max(1UL, msecs_to_jiffies(pmc_fold_period_ms(&caps->cpu.pm)));
	for_each_kernel_tracepoint(pmc_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(pmc_probes); i++) {
		if (!pmc_tps[i]) {
			pr_err("kernel tracepoint %s not found\n", pmc_probes[i].name);
			return -ENOENT;
		}
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pmcdrv:online", pmc_cpu_online,
				pmc_cpu_offline);
	if (ret < 0)
		return ret;
	pmc_cpuhp_state = ret;
	register_syscore_ops(&pmc_syscore_ops);
	return 0;
}

void pmc_sessions_exit(void)
{
	/* No session is left (each holds the module); stop a fold still queued. */
	cancel_delayed_work_sync(&pmc_fold_work);
	unregister_syscore_ops(&pmc_syscore_ops);
	cpuhp_remove_state(pmc_cpuhp_state);
	/* Contexts of exited tasks are freed by RCU callbacks in this module. */
	rcu_barrier();
}
