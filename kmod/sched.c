// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv scheduler hooks and per-CPU folding.
 *
 * Each tracked task has a struct pmcd_task_ctx in a global RCU hash keyed
 * by its task_struct (track.c).  While at least one task session is attached, probes
 * sit on the sched_switch, sched_process_fork, sched_process_exec and
 * sched_process_exit tracepoints:
 *
 *  - switch (rq lock held, IRQs off): between two tasks of one session,
 *    nothing but the switch count (the counters keep running); otherwise
 *    stop and fold the outgoing session's counters and start the incoming
 *    one's (hw.c writes only what differs; docs/design.md "The switch path");
 *  - fork (parent's context, preemption off): track the child from a
 *    pre-allocated pool, so nothing allocates in atomic context;
 *  - exec: start a task armed with enable-on-exec; untrack a task whose
 *    new image is not dumpable (setuid), as perf does;
 *  - exit (the task's own context): fold its last counts, untrack it.
 *
 * Untracked tasks cost one per-CPU read and one hash lookup per switch, and
 * only while some session is attached.  Per-CPU state is touched only with
 * IRQs off on its own CPU (probes, IPIs, hotplug callbacks).  The periodic
 * fold runs while any session (task or CPU) is attached.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/coredump.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <asm/mmu_context.h>
#include <asm/page.h>
#include <asm/processor-flags.h>

#include "debug.h"
#include "hw.h"
#include "internal.h"
#include "selfread.h"

/* Probe registration, the PMU claim, CPU owners and the counts of each (internal.h). */
DEFINE_MUTEX(pmcd_global_lock);
unsigned int pmcd_probe_users;	/* attached task sessions, under pmcd_global_lock */
unsigned int pmcd_cpu_sessions;	/* attached CPU sessions, under pmcd_global_lock */
static void pmcd_fold_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pmcd_fold_work, pmcd_fold_fn);
static unsigned long pmcd_fold_period;	/* jiffies; 0: no counters to fold */
/* The probes are on the tracepoints: under pmcd_global_lock; READ_ONCE in IPIs. */
static bool pmcd_probes_registered;

/* ---- per-CPU counting: IRQs off, on the CPU itself ------------------------ */

/*
 * Sharing a CPU (docs/design.md "CPU and task sessions together").  Each
 * CPU has two slots: pmcd_cpus for the task sessions that switch in and
 * out, pmcd_cpu_pinned for its CPU session, loaded from ATTACH to close
 * and never touched by a switch between tasks.  The CPU session is
 * pinned, as perf's pinned events are: its counters always run, except
 * while a thread that may execute RDPMC runs (then it is held off, its
 * counters folded, stopped and scrubbed with the rest, so that thread
 * cannot read what it counts).  A task session whose programs would
 * write a register of the CPU session's (a counter, PERF_METRICS, an
 * extra register: pmc_prog_use_overlap()) is placed on the counters the
 * CPU session leaves (pmcd_task_replace()), or where it does not fit
 * yields on that CPU: it is loaded, its time runs, none of its counters
 * does.  Either way a yielded
 * slot's time goes to its session's time_yielded, so its READ reports
 * less time running than enabled and pmcctl scales, as perf does for an
 * event that did not get its counter.  Programs that fit together both
 * count exactly: their GLOBAL_CTRL bits and FIXED_CTR_CTRL fields are
 * set and cleared each on its own (hw.c).
 */
static const struct pmc_prog pmcd_prog_none;
static const struct pmcd_hw_caps *pmcd_sched_caps;

/*
 * Each CPU's re-placed program (pmcd_task_replace()), for task session
 * @sess_id beside CPU session @pin_id, with the scratch that builds it:
 * built at a switch-in, kept while the same two meet there again.
 */
struct pmcd_alt {
	u64 sess_id;
	u64 pin_id;
	struct pmc_prog prog;
	struct pmc_event_spec specs[PMCDRV_MAX_EVENTS];
	u32 idx[PMCDRV_MAX_EVENTS];
};

static DEFINE_PER_CPU(struct pmcd_alt, pmcd_alts);

/* This CPU's slot for @s: a CPU session's, or the task sessions'.  IRQs off. */
static struct pmcd_cpu *pmcd_slot_of(const struct pmcd_session *s)
{
	return s->cpu >= 0 ? this_cpu_ptr(&pmcd_cpu_pinned) : this_cpu_ptr(&pmcd_cpus);
}

static void pmcd_pinned_hold(bool hold);

/* Does task session @s overlap this CPU's CPU session, which counts?  IRQs off. */
static bool pmcd_task_overlaps(const struct pmcd_session *s)
{
	const struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	return unlikely(pin->sess) && !pin->yielded &&
	       pmc_prog_use_overlap(&pin->sess->use, &s->use);
}

/*
 * Task session @s, which overlaps this CPU's CPU session, on other
 * counters: its events placed again as CONFIG places them
 * (pmc_assign_counters(): fixed counters first, then the lowest free GP
 * counter), but only on counters the CPU session leaves, in the same slot
 * order, so that its counts fold as ever.  As perf places a task's events
 * around a CPU's pinned ones.  NULL when they do not fit there, or the
 * session cannot move: it multiplexes, its events name core types, it
 * has topdown metrics, or an extra register of the CPU session's.  IRQs
 * off; the program is this CPU's until the next call.
 */
static const struct pmc_prog *pmcd_task_replace(const struct pmcd_session *s)
{
	const struct pmcd_session *pin = this_cpu_ptr(&pmcd_cpu_pinned)->sess;
	struct pmcd_alt *a = this_cpu_ptr(&pmcd_alts);
	struct pmc_prog_use extra = s->use;
	unsigned int i, n = 0;

	if (s->mux || s->typed || s->prog.td_mask)
		return NULL;
	extra.counters = 0;
	if (pmc_prog_use_overlap(&pin->use, &extra))
		return NULL;
	if (a->sess_id == s->id && a->pin_id == pin->id)
		return &a->prog;
	a->sess_id = 0;
	for (i = 0; i < s->nr_events; i++) {
		if (s->events[i].type == PMCDRV_EVENT_HW)
			pmc_event_to_spec(&s->events[i], &a->specs[n++]);
	}
	if (pmc_assign_counters(a->specs, n, &pmcd_sched_caps->cpu.pm, ~pin->use.counters, a->idx))
		return NULL;
	pmc_prog_build(a->specs, a->idx, n, &pmcd_sched_caps->cpu.pm,
		       pmcd_sched_caps->flags & PMCDRV_INFO_FW_WRITE, &a->prog);
	a->prog.extra = s->prog.extra;
	a->sess_id = s->id;
	a->pin_id = pin->id;
	return &a->prog;
}

/*
 * On a hybrid part: the share of this CPU's core type in what
 * pmcd_cpu_account() adds, before pc->last[] moves on to @vals, and the
 * time each event on the counters was there.
 */
static void pmcd_cpu_account_type(struct pmcd_cpu *pc, const u64 *vals, u64 dt)
{
	struct pmcd_session *s = pc->sess;
	const struct pmc_prog *p = pc->prog;
	unsigned int i, h;

	for (i = 0; vals && i < p->nr; i++) {
		h = pc->map ? pc->map[i] : i;
		atomic64_add(pmc_delta(pc->last[i], vals[i], p->width[i]),
			     &s->type_vals[pc->type][h]);
		atomic64_add(dt, &s->type_running[pc->type][h]);
	}
	atomic64_add(dt, &s->type_time[pc->type]);
}

/*
 * pmcd_cpu_account() for a cgroup session: the counts go to the cgroups
 * of pc->cg_mask, and to the session's sum when there is one; to nobody
 * while a task of no counted cgroup runs.
 */
static void pmcd_cpu_account_cg(struct pmcd_cpu *pc, const u64 *vals, u64 dt)
{
	struct pmcd_session *s = pc->sess;
	const struct pmc_prog *p = pc->prog;
	struct pmcd_cgroups *cgs = s->cg;
	bool any = !bitmap_empty(pc->cg_mask, PMCDRV_MAX_CGROUPS);
	unsigned int i, h, c;
	u64 d;

	if (unlikely(pc->type >= 0) && any)
		pmcd_cpu_account_type(pc, vals, dt);
	for (i = 0; vals && i < p->nr; i++) {
		h = pc->map ? pc->map[i] : i;
		d = pmc_delta(pc->last[i], vals[i], p->width[i]);
		pc->last[i] = vals[i];
		if (!any)
			continue;
		atomic64_add(d, &s->hw_vals[h]);
		if (s->mux)
			atomic64_add(dt, &s->hw_running[h]);
		for_each_set_bit(c, pc->cg_mask, cgs->nr) {
			atomic64_add(d, &cgs->cg[c].vals[h]);
			if (s->mux)
				atomic64_add(dt, &cgs->cg[c].running[h]);
		}
	}
	if (!any)
		return;
	pmcd_time_add(&s->time_enabled, &s->time_yielded, dt, pc->yielded);
	for_each_set_bit(c, pc->cg_mask, cgs->nr)
		pmcd_time_add(&cgs->cg[c].time_enabled, &cgs->cg[c].time_yielded, dt, pc->yielded);
}

/*
 * Add what pc->sess counted here since the last fold, up to the raw values
 * @vals (NULL: the counters did not count).  With multiplexing the events
 * of the loaded step were on the counters all that time.
 */
static void pmcd_cpu_account(struct pmcd_cpu *pc, const u64 *vals)
{
	struct pmcd_session *s = pc->sess;
	const struct pmc_prog *p = pc->prog;
	u64 now = local_clock(), dt = now - pc->t_last;
	unsigned int i, h;

	if (unlikely(s->cg)) {
		pmcd_cpu_account_cg(pc, vals, dt);
		pc->t_last = now;
		return;
	}
	if (unlikely(pc->type >= 0))
		pmcd_cpu_account_type(pc, vals, dt);
	for (i = 0; vals && i < p->nr; i++) {
		h = pc->map ? pc->map[i] : i;
		atomic64_add(pmc_delta(pc->last[i], vals[i], p->width[i]), &s->hw_vals[h]);
		if (s->mux)
			atomic64_add(dt, &s->hw_running[h]);
		pc->last[i] = vals[i];
	}
	pmcd_time_add(&s->time_enabled, &s->time_yielded, dt, pc->yielded);
	pc->t_last = now;
}

/*
 * Fold what pc->sess counted here; with @stop, stop its counters first.
 * Only vals[0 .. pc->prog->nr) is written and read (a self-read page's
 * session does not multiplex, so its program is as long as pc->prog): not
 * cleared at the declaration (__uninitialized: CONFIG_INIT_STACK_ALL_ZERO
 * would zero all 16 on every fold, a READ's and a switch's).
 */
static void pmcd_cpu_fold_hw(struct pmcd_cpu *pc, bool stop)
{
	struct pmcd_session *s = pc->sess;
	u64 vals[PMCDRV_MAX_EVENTS] __uninitialized;
	bool hw = pc->prog->nr && !pc->suspended;
	unsigned int faults;

	if (hw && stop) {
		faults = pmcd_hw_stop(pc->prog, vals);
		if (unlikely(faults))
			atomic64_add(faults, &s->hw_faults);
	} else if (hw) {
		pmcd_hw_read(pc->prog, vals);
	}
	pmcd_cpu_account(pc, hw ? vals : NULL);
	if (stop)
		pmcd_self_out(pc, hw ? vals : NULL);
	else
		pmcd_self_folded(pc, hw ? vals : NULL);
}

/*
 * Load step @step of pc->sess's rotation @k (this CPU's: pmcd_mux_index())
 * as the program of this CPU.
 */
static void pmcd_mux_load(struct pmcd_cpu *pc, unsigned int k, unsigned int step)
{
	const struct pmcd_mux *m = pc->sess->mux;
	const struct pmcd_mux_step *st;

	pc->step = step % m->nr[k];
	st = &m->steps[m->first[k] + pc->step];
	pc->prog = &st->prog;
	pc->map = st->hw;
}

/*
 * The rotation tick (a hard hrtimer: hardirq context, IRQs off, also on
 * PREEMPT_RT): fold and stop the step on the counters, start the next.
 * Runs only while a multiplexing session counts on this CPU: started by
 * pmcd_cpu_start(), cancelled by pmcd_cpu_fold_stop() on this CPU with
 * IRQs off, so it never meets them half-way.
 */
static enum hrtimer_restart pmcd_mux_tick(struct hrtimer *t)
{
	struct pmcd_cpu *pc = container_of(t, struct pmcd_cpu, mux_timer);
	struct pmcd_session *s = pc->sess;
	u64 vals[PMCDRV_MAX_EVENTS];
	unsigned int faults, k;

	/* Not this CPU's (a timer migrated off a dying CPU): nothing of its own to rotate. */
	if ((pc != this_cpu_ptr(&pmcd_cpus) && pc != this_cpu_ptr(&pmcd_cpu_pinned)) || !s ||
	    !s->mux || pc->suspended || pc->yielded)
		return HRTIMER_NORESTART;
	faults = pmcd_hw_stop(pc->prog, vals);
	pmcd_cpu_account(pc, vals);
	k = pmcd_mux_index(s, pc);
	pmcd_mux_load(pc, k, pc->step + 1);
	WRITE_ONCE(s->mux_next[k], pc->step);
	faults += pmcd_hw_start(pc->prog, pc->last, s->id, false);
	if (unlikely(faults))
		atomic64_add(faults, &s->hw_faults);
	hrtimer_forward_now(t, ns_to_ktime(s->mux->interval_ns));
	return HRTIMER_RESTART;
}

/* Fold what pc->sess counted here, its counters running on. */
void pmcd_cpu_fold(struct pmcd_cpu *pc)
{
	pmcd_cpu_fold_hw(pc, false);
}

/*
 * Start pc->sess's counters on this CPU from wherever they stand (the
 * hardware layer says where: a stopped counter keeps its value).  The
 * session's cpumask says where it may hold unfolded counts; the bit is set
 * before counting starts.  @scrub: the task that runs now may execute
 * RDPMC (pmcd_may_rdpmc()): first zero every counter that may hold another
 * owner's count (hw.c).
 */
void pmcd_cpu_start(struct pmcd_cpu *pc, bool scrub)
{
	struct pmcd_session *s = pc->sess;
	unsigned int faults, k;
	u64 left;

	cpumask_set_cpu(smp_processor_id(), &s->loaded);
	if (unlikely(pc->yielded)) {
		/* Loaded, its time running, none of its counters ("Sharing a CPU", above). */
		pc->prog = &pmcd_prog_none;
		pc->map = NULL;
	} else if (unlikely(s->mux)) {
		/* Where the rotation stands, with what is left of its step. */
		k = pmcd_mux_index(s, pc);
		pmcd_mux_load(pc, k, READ_ONCE(s->mux_next[k]));
		left = READ_ONCE(s->mux_left[k]);
		/* A core type whose events fit at once (one step) has nothing to rotate. */
		if (s->mux->nr[k] > 1)
			hrtimer_start(&pc->mux_timer,
				      ns_to_ktime(left ? left : s->mux->interval_ns),
				      HRTIMER_MODE_REL_PINNED_HARD);
	} else {
		pmcd_session_load(s, pc);
		if (pc->alt)
			pc->prog = pc->alt;	/* no core types: no map */
	}
	if (pc->prog->nr) {
		faults = pmcd_hw_start(pc->prog, pc->last, s->id, scrub);
		if (unlikely(faults))
			atomic64_add(faults, &s->hw_faults);
	} else {
		memset(pc->last, 0, sizeof(pc->last));
	}
	pc->t_last = local_clock();
	pmcd_self_in(pc, pc->prog->nr ? pc->last : NULL);
}

/*
 * Stop pc->sess's counters on this CPU and fold what they counted.  A
 * multiplexing session's tick stops with them; what was left of its step
 * goes on at its next start (anywhere, or on a hybrid part with core types
 * on a CPU of this type: each type's rotation is its own), so a task that
 * never runs a whole interval at a time still rotates.
 */
void pmcd_cpu_fold_stop(struct pmcd_cpu *pc)
{
	struct pmcd_session *s = pc->sess;
	unsigned int k;
	s64 left;

	if (unlikely(s->mux) && !pc->yielded) {
		k = pmcd_mux_index(s, pc);
		if (s->mux->nr[k] > 1) {
			left = ktime_to_ns(hrtimer_get_remaining(&pc->mux_timer));
			hrtimer_try_to_cancel(&pc->mux_timer);
			WRITE_ONCE(s->mux_left[k], left > 0 ? (u64)left : 1);
		}
	}
	pmcd_cpu_fold_hw(pc, true);
}

/* May @ctx's session count while @ctx runs? */
static bool pmcd_ctx_counts(const struct pmcd_task_ctx *ctx)
{
	return !READ_ONCE(ctx->dead) && !ctx->armed_exec && READ_ONCE(ctx->sess->enabled);
}

static void pmcd_ctx_note_cpu(struct pmcd_task_ctx *ctx, int cpu)
{
	if (ctx->last_cpu >= 0 && ctx->last_cpu != cpu)
		atomic64_inc(&ctx->sess->nr_migrations);
	ctx->last_cpu = cpu;
}

/*
 * Start @ctx's session here (@scrub: as pmcd_cpu_start()).  Not on a CPU
 * whose offline callback has run: the scheduler still switches in a task
 * that was queued there, once, to push it away (balance_push()); counters
 * started then would stay programmed, unknown to anyone, through the CPU's
 * death and its next INIT.
 */
static void pmcd_cpu_sched_in(struct pmcd_cpu *pc, struct pmcd_task_ctx *ctx, bool scrub)
{
	if (unlikely(pc->offline) || !pmcd_ctx_counts(ctx))
		return;
	pmcd_ctx_note_cpu(ctx, smp_processor_id());
	pc->active = ctx;
	pc->sess = ctx->sess;
	pc->alt = NULL;
	/* Beside a CPU session it overlaps: on the counters that one leaves, or none. */
	if (unlikely(pmcd_task_overlaps(ctx->sess))) {
		pc->alt = pmcd_task_replace(ctx->sess);
		pc->yielded = !pc->alt;
	}
	pmcd_cpu_start(pc, scrub);
}

/*
 * Stop pc->active's session here and start it again, scrubbed: its thread
 * just became able to read the counters with RDPMC (hw.c).  IRQs off,
 * pc->active set.
 */
void pmcd_cpu_restart(struct pmcd_cpu *pc)
{
	struct pmcd_task_ctx *ctx = pc->active;

	pmcd_cpu_sched_out(pc, false);
	pmcd_pinned_hold(true);
	pmcd_cpu_sched_in(pc, ctx, true);
}

/* Fold and stop whatever runs here: a tracked task's or a CPU session's counters. */
void pmcd_cpu_sched_out(struct pmcd_cpu *pc, bool context_switch)
{
	struct pmcd_session *s = pc->sess;

	pmcd_cpu_fold_stop(pc);
	if (context_switch) {
		atomic64_inc(&s->nr_switches);
		pmcd_self_switched(pc->active);
	}
	pc->active = NULL;
	pc->sess = NULL;
	pc->yielded = false;
	pc->alt = NULL;
	/* Folded: a READ that no longer sees this CPU sees the counts. */
	smp_mb__before_atomic();
	cpumask_clear_cpu(smp_processor_id(), &s->loaded);
}

/*
 * The switch from pc->active to @ctx of another session, when the counters
 * may run on for it untouched: see pmcd_cpu_may_hand_over().  The outgoing
 * session is folded at the values read now, and the incoming one counts
 * from them: one RDPMC per counter, no register write.  IRQs off.
 */
static void pmcd_cpu_hand_over(struct pmcd_cpu *pc, struct pmcd_task_ctx *ctx)
{
	struct pmcd_session *s = pc->sess;
	int cpu = smp_processor_id();
	u64 vals[PMCDRV_MAX_EVENTS];

	pmcd_hw_read(pc->prog, vals);
	pmcd_cpu_account(pc, vals);
	pmcd_self_out(pc, vals);
	atomic64_inc(&s->nr_switches);
	pmcd_self_switched(pc->active);
	/* Folded: a READ that no longer sees this CPU sees the counts. */
	smp_mb__before_atomic();
	cpumask_clear_cpu(cpu, &s->loaded);
	pmcd_ctx_note_cpu(ctx, cpu);
	pc->active = ctx;
	pc->sess = ctx->sess;
	cpumask_set_cpu(cpu, &ctx->sess->loaded);
	pmcd_session_load(ctx->sess, pc);
	pc->alt = NULL;
	pmcd_hw_handover(ctx->sess->id);
	/* pc->last and pc->t_last are where the fold left them: from here. */
	pmcd_self_in(pc, vals);
}

/*
 * May the counters that run pc->active's session go on for @ctx's, another
 * session's, as they stand?  When neither multiplexes, the counters run
 * here now (not across suspend), @ctx counts, its thread may not execute
 * RDPMC (it would read the other session's counts in the raw values: a
 * start for it scrubs them instead, hw.c), and the two programs are the
 * same and count in user mode only (pmc_prog_handover()).  IRQs off.
 */
static bool pmcd_cpu_may_hand_over(const struct pmcd_cpu *pc, const struct pmcd_task_ctx *ctx,
				   bool rdpmc)
{
	const struct pmcd_session *from = pc->sess, *to = ctx->sess;

	return !rdpmc && !from->mux && !to->mux && !pc->suspended && !pc->offline &&
	       from->prog.nr && pmcd_ctx_counts(ctx) &&
	       pmc_prog_handover(pc->prog, pmcd_session_prog(to, pc));
}

/* ---- tracepoint probes ------------------------------------------------------ */

/*
 * sched_switch, IRQs off: may perf_events zero counters as this CPU switches
 * to @next, in a way this CPU has not had under this claim (@seen; hw.c,
 * pmcd_hw_perf_clears())?  Linux 6.1, context_switch() in
 * kernel/sched/core.c and switch_mm_irqs_off() in arch/x86/mm/tlb.c: a
 * kernel thread (no mm) keeps the loaded address space; a task with one
 * switches to it, and cr4_update_pce_mm() runs "if (next != real_prev)".
 * PMCD_PERF_ANY_MM, with PMCD_PERF_RDPMC_MM when the new address space's
 * perf_rdpmc_allowed is non-zero.  Not only pmcdrv's pages count: dup_mm()
 * copies perf_rdpmc_allowed into a child without the mappings, so a process
 * forked while its parent had a perf_events page has it too.  Inline and
 * cheap, on every switch until the CPU has had both: after its first
 * switch of address space, three loads here until one goes to a process
 * that may use RDPMC.  Whether the address space really changes is
 * pmcd_perf_clear_first()'s question.
 */
static __always_inline unsigned int pmcd_perf_new(const struct task_struct *next,
						  unsigned int seen)
{
	const struct mm_struct *mm = next->mm;
	unsigned int what = PMCD_PERF_ANY_MM;

	if (!mm)
		return 0;
	if (atomic_read(&mm->context.perf_rdpmc_allowed))
		what |= PMCD_PERF_RDPMC_MM;
	return what & ~seen ? what : 0;
}

/*
 * May @t execute RDPMC once it runs?  The kernel's test, cr4_update_pce_mm()
 * in arch/x86/mm/tlb.c (Linux 6.1): its address space's perf_rdpmc_allowed
 * is non-zero (a self-read page of pmcdrv's or a perf_events mapping in the
 * process, or a count dup_mm() copied into a child from its parent).
 * Negative counts are non-zero too, as for the kernel.  A kernel thread has
 * no user mode.  pmcdrv narrows CR4.PCE further (selfread.c); the counters
 * are scrubbed for the wider test.  Not seen: rdpmc=2 (root's sysfs switch
 * that opens RDPMC to every task; its static key is not exported).
 */
static __always_inline bool pmcd_may_rdpmc(const struct task_struct *t)
{
	return t->mm && atomic_read(&t->mm->context.perf_rdpmc_allowed);
}

/*
 * Hold this CPU's CPU session off (@hold: fold, stop, and leave it loaded
 * with no counter) or let it count again, if it is not so already.  The
 * task slot must not run then (the caller stopped it, or it runs nothing
 * the CPU session's program overlaps).  IRQs off.
 */
static void pmcd_pinned_hold(bool hold)
{
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	if (!pin->sess || pin->yielded == hold)
		return;
	pmcd_cpu_fold_stop(pin);
	pin->yielded = hold;
	pmcd_cpu_start(pin, false);
}

/*
 * The task slot again, when it yielded or moved to other counters for a
 * CPU session that went: stopped and started anew, on its own.  IRQs off.
 */
static void pmcd_task_slot_again(struct pmcd_cpu *pc)
{
	struct pmcd_task_ctx *ctx = pc->active;

	if (!ctx || (!pc->yielded && !pc->alt))
		return;
	pmcd_cpu_sched_out(pc, false);
	pmcd_cpu_sched_in(pc, ctx, pmcd_may_rdpmc(current));
}

/*
 * Load CPU session @s on this CPU (an IPI, or the CPU's online callback),
 * beside whatever task session runs here: held off at once if the current
 * thread may execute RDPMC, while the switch probe is there to let it go
 * (without probes no task session is attached, and no thread has a
 * self-read page).  A task session that overlaps it yields.  Everything
 * on the CPU is its to count: nothing to scrub for it.
 */
void pmcd_pinned_start(struct pmcd_session *s)
{
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	struct pmcd_task_ctx *ctx = pc->active;
	bool rdpmc = pmcd_may_rdpmc(current);

	if (pin->sess)
		return;
	/* The task slot stops first: its program may overlap the new one's. */
	if (ctx)
		pmcd_cpu_sched_out(pc, false);
	pin->sess = s;
	pin->yielded = rdpmc && READ_ONCE(pmcd_probes_registered);
	pmcd_cpu_start(pin, false);
	if (ctx)
		pmcd_cpu_sched_in(pc, ctx, rdpmc);
}

/*
 * @what is new here (pmcd_perf_new()): if the switch to @next changes
 * address space (cpu_tlbstate.loaded_mm, whose page tables CR3 holds:
 * __get_current_cr3_fast(); with IRQs off no flush IPI moves CR3 before the
 * switch), stop what runs and zero the counters first.  IRQs off.
 */
static noinline void pmcd_perf_clear_first(struct pmcd_cpu *pc, const struct task_struct *next,
					   unsigned int what)
{
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	if ((__get_current_cr3_fast() & CR3_ADDR_MASK) == __pa(next->mm->pgd))
		return;
	if (pc->active)
		pmcd_cpu_sched_out(pc, true);
	/*
	 * The CPU session too: folded, stopped, and started again from the
	 * zeroed counters (held off after, by the caller, if @next may
	 * execute RDPMC).  perf's zeroing comes later in this switch
	 * (switch_mm_irqs_off()): what the CPU session counts from its
	 * restart to then, in kernel mode, is lost, once per claim and CPU,
	 * never wrapped (it counts from zero).  Not time off its counters.
	 */
	if (pin->sess)
		pmcd_cpu_fold_stop(pin);
	pmcd_hw_perf_clears(what);
	if (pin->sess)
		pmcd_cpu_start(pin, false);
}

static void pmcd_probe_switch(void *data, bool preempt, struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);
	struct pmcd_task_ctx *ctx;
	unsigned int seen, what;
	bool rdpmc;

	rcu_read_lock();
	ctx = pmcd_lookup(next);
	/*
	 * perf_events may zero counters as this switch changes address space
	 * (hw.c, pmcd_hw_perf_clears()): the first time on this CPU under this
	 * claim, stop what runs and zero the counters first, whatever @next is.
	 */
	seen = pmcd_hw_perf_handled();
	if (unlikely(seen != PMCD_PERF_ALL)) {
		what = pmcd_perf_new(next, seen);
		if (unlikely(what))
			pmcd_perf_clear_first(pc, next, what);
	}
	/*
	 * perf's rule for its RDPMC users (Linux 6.1, cr4_update_pce_mm() in
	 * arch/x86/mm/tlb.c calls perf_clear_dirty_counters() whenever a CPU
	 * switches to an address space whose perf_rdpmc_allowed is non-zero),
	 * applied to pmcdrv's counters: a task that may execute RDPMC finds
	 * them holding its own counting session's counts or zeros, nothing
	 * else, whether its own session counts now or not (docs/security.md).
	 */
	rdpmc = pmcd_may_rdpmc(next);
	if (unlikely(pin->sess) && pin->yielded != rdpmc) {
		/*
		 * The CPU session is held off while a thread that may execute
		 * RDPMC runs, and counts again after it (the task slot stops
		 * first: its program may overlap the CPU session's).
		 */
		if (pc->active)
			pmcd_cpu_sched_out(pc, true);
		pmcd_pinned_hold(rdpmc);
	} else if (pc->active) {
		/*
		 * Unless @next may read the counters with RDPMC while they can
		 * hold another session's counts: then they stop and start
		 * again, zeroed (hw.c).
		 */
		if (ctx && ctx->sess == pc->sess && pmcd_ctx_counts(ctx) &&
		    (likely(!rdpmc) || pmcd_hw_clean_for(ctx->sess->id))) {
			/*
			 * Both tasks are the session's: its counts are one sum,
			 * so its counters keep running, untouched.
			 */
			atomic64_inc(&pc->sess->nr_switches);
			pmcd_ctx_note_cpu(ctx, smp_processor_id());
			/* A thread with a page takes its share here (selfread.c). */
			pmcd_self_handover(pc, ctx);
			goto out;
		}
		/* Another session with the same user-mode program: the counters run on. */
		if (ctx && pmcd_cpu_may_hand_over(pc, ctx, rdpmc)) {
			pmcd_cpu_hand_over(pc, ctx);
			goto out;
		}
		pmcd_cpu_sched_out(pc, true);
	}
	if (ctx)
		pmcd_cpu_sched_in(pc, ctx, rdpmc);
	/* Nothing of pmcdrv's counts for @next: it may read only zeros. */
	if (unlikely(rdpmc) && !pc->sess)
		pmcd_hw_scrub_idle();
out:
	/* RDPMC only for a thread with its own self-read page (selfread.c). */
	if (unlikely(READ_ONCE(pmcd_self_nr_maps)))
		pmcd_self_pce_switch(next, ctx);
	rcu_read_unlock();
}

/* The fork pools' refill (pmcd_sched_init()). */
static struct workqueue_struct *pmcd_pool_wq;

/*
 * Track @child in @parent's session.  Called with pmcd_hash_lock held.  A
 * task has one context at most: ATTACH refuses a task whose fork has not
 * reached wake_up_new_task() yet (session.c), which comes after this
 * probe, so @child cannot be tracked already; the lookup keeps it so.
 */
static void pmcd_track_child_locked(struct pmcd_task_ctx *parent, struct task_struct *child)
{
	struct pmcd_session *s = parent->sess;
	struct pmcd_task_ctx *ctx;

	if (parent->dead || s->closing || pmcd_lookup(child))
		return;
	/*
	 * Every context taken is replaced at once, on a high-priority worker
	 * (queueing work already queued costs one atomic bit): a pool refilled
	 * only below a low mark ran dry in bursts that the full pool absorbs.
	 */
	ctx = list_first_entry_or_null(&s->pool, struct pmcd_task_ctx, node);
	queue_work(pmcd_pool_wq, &s->refill);
	if (!ctx) {
		atomic64_inc(&s->lost_tasks);
		return;
	}
	list_del(&ctx->node);
	s->pool_count--;
	ctx->armed_exec = parent->armed_exec;
	pmcd_track_locked(s, ctx, child);
}

static void pmcd_probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	struct pmcd_task_ctx *ctx;
	unsigned long flags;

	pmcd_self_fork(parent, child);
	/* The debug build's window for the fork/ATTACH race test (debug.h). */
	pmcd_debug_delay(PMCD_DELAY_FORK);
	rcu_read_lock();
	ctx = pmcd_lookup(parent);
	if (ctx && ctx->sess->inherit) {
		raw_spin_lock_irqsave(&pmcd_hash_lock, flags);
		pmcd_track_child_locked(ctx, child);
		raw_spin_unlock_irqrestore(&pmcd_hash_lock, flags);
	}
	rcu_read_unlock();
}

/*
 * The current task @ctx stops being counted: fold and stop its counters if
 * they run here, untrack it, and if that took it out set *@mark (a session
 * flag set under pmcd_hash_lock, before the untracking; NULL for none).
 * IRQs off, RCU read side; the caller frees @ctx after an RCU grace period
 * when this returns true.
 */
static bool pmcd_retire_current(struct pmcd_task_ctx *ctx, bool *mark)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	bool untracked;

	if (pc->active == ctx)
		pmcd_cpu_sched_out(pc, false);
	raw_spin_lock(&pmcd_hash_lock);
	/* Before the untracking's release of nr_tasks: READ's EXITED comes with it. */
	if (mark && !ctx->dead)
		WRITE_ONCE(*mark, true);
	untracked = pmcd_untrack_locked(ctx);
	raw_spin_unlock(&pmcd_hash_lock);
	return untracked;
}

/*
 * The current task @p stops being counted, at its exit or its setuid exec
 * (@secure_exec: mark the sessions SECURE_EXEC): every context it has goes
 * (one at most: pmcd_track_child_locked()).  IRQs off, RCU read side.
 */
static void pmcd_retire_task(struct task_struct *p, bool secure_exec)
{
	struct pmcd_task_ctx *ctx;

	while ((ctx = pmcd_lookup(p)) &&
	       pmcd_retire_current(ctx, secure_exec ? &ctx->sess->secure_exec : NULL))
		pmcd_ctx_free_later(ctx);
}

static void pmcd_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			    struct linux_binprm *bprm)
{
	struct pmcd_cpu *pc;
	struct pmcd_task_ctx *ctx;
	unsigned long flags;

	/* IRQs off across lookup and programming: a stopping IPI sees the result. */
	local_irq_save(flags);
	rcu_read_lock();
	ctx = pmcd_lookup(p);
	if (ctx && get_dumpable(p->mm) != SUID_DUMP_USER) {
		/*
		 * perf's rule, begin_new_exec() in fs/exec.c: "Disable
		 * monitoring for regular users when executing setuid
		 * binaries" (perf_event_exit_task() when the new mm is not
		 * SUID_DUMP_USER).  Keep what was counted before the exec,
		 * count neither the new image nor its future children.
		 */
		pmcd_retire_task(p, true);
	} else if (ctx && ctx->armed_exec) {
		ctx->armed_exec = false;
		pc = this_cpu_ptr(&pmcd_cpus);
		if (!pc->sess)
			pmcd_cpu_sched_in(pc, ctx, pmcd_may_rdpmc(p));
	}
	rcu_read_unlock();
	local_irq_restore(flags);
}

static void pmcd_probe_exit(void *data, struct task_struct *p)
{
	unsigned long flags;

	local_irq_save(flags);
	rcu_read_lock();
	pmcd_retire_task(p, false);
	rcu_read_unlock();
	local_irq_restore(flags);
}

static const struct {
	const char *name;
	void *probe;
} pmcd_probes[] = {
	/* exit first and switch last: a tracked task is never missed at exit */
	{ "sched_process_exit", pmcd_probe_exit },
	{ "sched_process_fork", pmcd_probe_fork },
	{ "sched_process_exec", pmcd_probe_exec },
	{ "sched_switch", pmcd_probe_switch },
};

static struct tracepoint *pmcd_tps[ARRAY_SIZE(pmcd_probes)];

struct pmcd_tp_query {
	const char *const *names;
	struct tracepoint **tps;
	unsigned int n;
};

static void pmcd_find_tp(struct tracepoint *tp, void *priv)
{
	const struct pmcd_tp_query *q = priv;
	unsigned int i;

	for (i = 0; i < q->n; i++) {
		if (!strcmp(tp->name, q->names[i]))
			q->tps[i] = tp;
	}
}

int pmcd_find_tracepoints(const char *const *names, struct tracepoint **tps, unsigned int n,
			  bool quiet)
{
	struct pmcd_tp_query q = { .names = names, .tps = tps, .n = n };
	unsigned int i;

	for_each_kernel_tracepoint(pmcd_find_tp, &q);
	for (i = 0; i < n; i++) {
		if (!tps[i]) {
			if (!quiet)
				pr_err("kernel tracepoint %s not found\n", names[i]);
			return -ENOENT;
		}
	}
	return 0;
}

/* IPI: fold whatever runs on this CPU (the periodic fold). */
static void pmcd_ipi_fold_any(void *info)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	if (pc->sess)
		pmcd_cpu_fold(pc);
	if (pin->sess)
		pmcd_cpu_fold(pin);
}

/*
 * Counters are folded at every switch and READ; this work folds every CPU
 * at least every pmcd_fold_period as well, so that a task that never
 * switches, or a CPU session nobody reads, cannot wrap a counter twice
 * unseen.  It runs while any session is attached.
 */
static void pmcd_fold_fn(struct work_struct *work)
{
	bool busy;

	mutex_lock(&pmcd_global_lock);
	busy = pmcd_probe_users || pmcd_cpu_sessions;
	mutex_unlock(&pmcd_global_lock);
	if (!busy)
		return;
	on_each_cpu(pmcd_ipi_fold_any, NULL, 1);
	schedule_delayed_work(&pmcd_fold_work, pmcd_fold_period);
}

/* The first attached session starts the periodic fold.  Under pmcd_global_lock. */
void pmcd_fold_arm(void)
{
	lockdep_assert_held(&pmcd_global_lock);
	if (pmcd_fold_period)
		schedule_delayed_work(&pmcd_fold_work, pmcd_fold_period);
}

/*
 * The probes stay registered for PMCD_PROBES_LINGER after the last attached
 * task session closes, as perf_events delays turning its sched_in/out
 * static key off (perf_sched_delayed() in kernel/events/core.c, Linux 6.1:
 * HZ).  Each registration and unregistration patches kernel text on every
 * CPU (the tracepoints' static keys: text_poke_bp() and its sync IPIs) and
 * waits for a grace period, so a loop of open, ATTACH and close patched
 * text twice an iteration; now at most once a second.  Lingering probes
 * find no tracked task and nothing of pmcdrv's running: they only look up
 * @next.  A CPU session counts beside them: the switch probe leaves its
 * slot alone but for holding it off for a thread that may use RDPMC, and
 * the unregistration lets go of every CPU session so held.
 */
#define PMCD_PROBES_LINGER	HZ
static unsigned long pmcd_probe_registrations;	/* each a text patch; INFO's figure */
static void pmcd_probes_idle_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pmcd_probes_idle_work, pmcd_probes_idle_fn);

/* IPI: a CPU session held off here counts again (no thread may use RDPMC now). */
static void pmcd_ipi_pinned_go(void *info)
{
	pmcd_pinned_hold(false);
}

static void pmcd_probes_unregister_locked(void)
{
	unsigned int i;

	lockdep_assert_held(&pmcd_global_lock);
	if (!pmcd_probes_registered)
		return;
	for (i = ARRAY_SIZE(pmcd_probes); i--;)
		tracepoint_probe_unregister(pmcd_tps[i], pmcd_probes[i].probe, NULL);
	tracepoint_synchronize_unregister();
	WRITE_ONCE(pmcd_probes_registered, false);
	/* No switch probe is left to let a held-off CPU session go: now. */
	if (pmcd_cpu_sessions)
		on_each_cpu(pmcd_ipi_pinned_go, NULL, 1);
}

/* The linger is over: unregister, unless a task session attached meanwhile. */
static void pmcd_probes_idle_fn(struct work_struct *work)
{
	mutex_lock(&pmcd_global_lock);
	if (!pmcd_probe_users)
		pmcd_probes_unregister_locked();
	mutex_unlock(&pmcd_global_lock);
}

/* How often the probes were registered since the module loaded (INFO). */
unsigned long pmcd_probes_registrations(void)
{
	return READ_ONCE(pmcd_probe_registrations);
}

/* Register the probes for the first attached session, unless they linger. */
int pmcd_probes_get(void)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&pmcd_global_lock);
	if (pmcd_probe_users++)
		goto out_unlock;
	pmcd_fold_arm();
	if (pmcd_probes_registered)
		goto out_unlock;
	for (i = 0; i < ARRAY_SIZE(pmcd_probes); i++) {
		err = tracepoint_probe_register(pmcd_tps[i], pmcd_probes[i].probe, NULL);
		if (err)
			goto err_unregister;
	}
	WRITE_ONCE(pmcd_probes_registered, true);
	WRITE_ONCE(pmcd_probe_registrations, pmcd_probe_registrations + 1);
	goto out_unlock;

err_unregister:
	while (i--)
		tracepoint_probe_unregister(pmcd_tps[i], pmcd_probes[i].probe, NULL);
	tracepoint_synchronize_unregister();
	pmcd_probe_users--;
out_unlock:
	mutex_unlock(&pmcd_global_lock);
	return err;
}

void pmcd_probes_put(void)
{
	mutex_lock(&pmcd_global_lock);
	if (!--pmcd_probe_users)
		mod_delayed_work(system_wq, &pmcd_probes_idle_work, PMCD_PROBES_LINGER);
	mutex_unlock(&pmcd_global_lock);
}

/* ---- folding a session wherever it runs ------------------------------------ */

/* What an IPI does to a session's counters on a CPU where they run. */
enum pmcd_fold_op {
	PMCD_FOLD,		/* add what was counted to the totals */
	PMCD_FOLD_STOP,		/* that, then stop them */
};

struct pmcd_ipi_arg {
	struct pmcd_session *s;
	enum pmcd_fold_op op;
};

static void pmcd_ipi_fold(void *info)
{
	const struct pmcd_ipi_arg *a = info;
	struct pmcd_cpu *pc = pmcd_slot_of(a->s);

	if (pc->sess != a->s)
		return;
	switch (a->op) {
	case PMCD_FOLD_STOP:
		pmcd_cpu_sched_out(pc, false);
		/* A task session that yielded to it gets its counters. */
		if (pc == this_cpu_ptr(&pmcd_cpu_pinned))
			pmcd_task_slot_again(this_cpu_ptr(&pmcd_cpus));
		break;
	case PMCD_FOLD:
		pmcd_cpu_fold(pc);
		break;
	}
}

/*
 * Run @op wherever @s runs: on every CPU for a task session, on its own
 * CPU for a CPU session (nothing to do if that is offline: the teardown
 * callback folded it).  Called with s->lock held.
 */
static void pmcd_session_on_cpus(struct pmcd_session *s, enum pmcd_fold_op op)
{
	struct pmcd_ipi_arg a = { .s = s, .op = op };

	if (s->attached && s->cpu >= 0)
		smp_call_function_single(s->cpu, pmcd_ipi_fold, &a, 1);
	else
		on_each_cpu(pmcd_ipi_fold, &a, 1);
}

/*
 * Is @s loaded on @cpu, this CPU, and on no other?  While every possible
 * CPU fits in one word, that is one compare of the word (no bit search).
 */
static bool pmcd_loaded_here_only(const struct pmcd_session *s, int cpu)
{
	if (nr_cpu_ids <= BITS_PER_LONG)
		return READ_ONCE(cpumask_bits(&s->loaded)[0]) == BIT(cpu);
	return cpumask_test_cpu(cpu, &s->loaded) && cpumask_any_but(&s->loaded, cpu) >= nr_cpu_ids;
}

/* pmcd_session_fold() on other CPUs: out of line, its argument on the stack. */
static noinline void pmcd_session_fold_ipi(struct pmcd_session *s)
{
	struct pmcd_ipi_arg a = { .s = s, .op = PMCD_FOLD };

	on_each_cpu_mask(&s->loaded, pmcd_ipi_fold, &a, 1);
}

/*
 * Fold where @s has counters loaded now, not on every CPU: a CPU that is
 * not in s->loaded folded its counts when it cleared its bit (ordered by
 * the barrier there and the one here).  A CPU that starts @s meanwhile has
 * nothing of it to fold yet.  Stop still goes to every CPU: it must also
 * catch a CPU about to start @s.
 */
void pmcd_session_fold(struct pmcd_session *s)
{
	struct pmcd_cpu *pc;
	unsigned long flags;

	/*
	 * Loaded on the reader's CPU alone (a thread reading its own counts):
	 * fold here with IRQs off, as smp_call_function_single() runs a call
	 * for its own CPU (perf_event_read()'s case), without
	 * on_each_cpu_mask()'s walk for other CPUs.
	 */
	local_irq_save(flags);
	if (pmcd_loaded_here_only(s, smp_processor_id())) {
		pc = pmcd_slot_of(s);
		if (pc->sess == s)
			pmcd_cpu_fold(pc);
		local_irq_restore(flags);
	} else {
		local_irq_restore(flags);
		pmcd_session_fold_ipi(s);
	}
	/* Pairs with pmcd_cpu_sched_out(): mask read before the totals. */
	smp_mb();
}

void pmcd_session_stop(struct pmcd_session *s)
{
	pmcd_session_on_cpus(s, PMCD_FOLD_STOP);
}

/* Stop a task session on the CPUs of @mask only (pmcd_session_task_cpus()). */
void pmcd_session_stop_on(struct pmcd_session *s, const struct cpumask *mask)
{
	struct pmcd_ipi_arg a = { .s = s, .op = PMCD_FOLD_STOP };

	on_each_cpu_mask(mask, pmcd_ipi_fold, &a, 1);
}

/*
 * The current thread may execute RDPMC from now on and nothing of its own
 * counts here: hold this CPU's CPU session off and zero the counters, so
 * that it reads zeros (the switch probe's rule).  IRQs off.
 */
void pmcd_cpu_scrub_for_rdpmc(void)
{
	pmcd_pinned_hold(true);
	pmcd_hw_scrub_idle();
}

/*
 * The current thread, of task session @s, has just mapped its page: it may
 * execute RDPMC once it returns to user space.  A CPU session that counts
 * here is held off now, not at the thread's next switch: its counters
 * restart on their own program, scrubbed, if they run here, or the
 * counters are scrubbed.  Process context.
 */
void pmcd_cpu_rdpmc_now(struct pmcd_session *s)
{
	struct pmcd_cpu *pin, *pc;
	unsigned long flags;

	local_irq_save(flags);
	pin = this_cpu_ptr(&pmcd_cpu_pinned);
	pc = this_cpu_ptr(&pmcd_cpus);
	if (pin->sess && !pin->yielded) {
		if (pc->active && pc->sess == s)
			pmcd_cpu_restart(pc);
		else if (!pc->sess)
			pmcd_cpu_scrub_for_rdpmc();
	}
	local_irq_restore(flags);
}

/* IPI: start the session on this CPU if its current task is tracked by it. */
void pmcd_ipi_start(void *info)
{
	struct pmcd_session *s = info;
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	struct pmcd_task_ctx *ctx;

	if (pc->sess)
		return;
	rcu_read_lock();
	ctx = pmcd_lookup(current);
	if (ctx && ctx->sess == s)
		pmcd_cpu_sched_in(pc, ctx, pmcd_may_rdpmc(current));
	rcu_read_unlock();
}

/*
 * Free a context that was tracked (or never was: ctx->task NULL), with the
 * references it holds: its self-read record, its session, its task.
 * Process context: the task's reference is dropped where that may sleep
 * (put_task_struct() may, on PREEMPT_RT).
 */
void pmcd_ctx_free(struct pmcd_task_ctx *ctx)
{
	pmcd_self_put(ctx->self);
	if (ctx->sess)
		pmcd_session_put(ctx->sess);
	if (ctx->task)
		put_task_struct(ctx->task);
	kfree(ctx);
}

static struct workqueue_struct *pmcd_free_wq;

static void pmcd_ctx_free_work(struct work_struct *work)
{
	pmcd_ctx_free(container_of(to_rcu_work(work), struct pmcd_task_ctx, free_work));
}

/*
 * Free an untracked @ctx once no probe can hold it (an RCU grace period),
 * in process context.  Any context, IRQs off too.
 */
void pmcd_ctx_free_later(struct pmcd_task_ctx *ctx)
{
	INIT_RCU_WORK(&ctx->free_work, pmcd_ctx_free_work);
	queue_rcu_work(pmcd_free_wq, &ctx->free_work);
}

int pmcd_sched_init(const struct pmcd_hw_caps *caps)
{
	const char *names[ARRAY_SIZE(pmcd_probes)];
	unsigned int i;
	int cpu, err;

	for_each_possible_cpu(cpu) {
		struct hrtimer *t = &per_cpu_ptr(&pmcd_cpus, cpu)->mux_timer;
		struct hrtimer *tp = &per_cpu_ptr(&pmcd_cpu_pinned, cpu)->mux_timer;

		hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		t->function = pmcd_mux_tick;
		hrtimer_init(tp, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		tp->function = pmcd_mux_tick;
	}
	pmcd_sched_caps = caps;
	if (caps->flags & PMCDRV_INFO_ARCH_PERFMON)
		pmcd_fold_period = max(1UL, msecs_to_jiffies(pmc_fold_period_ms(&caps->cpu.pm)));
	for (i = 0; i < ARRAY_SIZE(pmcd_probes); i++)
		names[i] = pmcd_probes[i].name;
	err = pmcd_find_tracepoints(names, pmcd_tps, ARRAY_SIZE(pmcd_probes), false);
	if (err)
		return err;
	pmcd_free_wq = alloc_workqueue("pmcdrv_free", 0, 0);
	if (!pmcd_free_wq)
		return -ENOMEM;
	/*
	 * The fork pools' refill: unbound, so that it runs on whichever CPU
	 * is free, not behind the forking task on its own CPU (a SCHED_FIFO
	 * parent, or a storm that keeps that CPU busy); high priority, as
	 * the forks it races; a rescuer, as it allocates.
	 */
	pmcd_pool_wq = alloc_workqueue("pmcdrv_pool", WQ_UNBOUND | WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!pmcd_pool_wq)
		goto err_free_wq;
	pmcd_self_init();
	return 0;

err_free_wq:
	destroy_workqueue(pmcd_free_wq);
	return -ENOMEM;
}

void pmcd_sched_exit(void)
{
	/* No session is left (each holds the module); stop a fold still queued. */
	int cpu;

	cancel_delayed_work_sync(&pmcd_fold_work);
	cancel_delayed_work_sync(&pmcd_probes_idle_work);
	mutex_lock(&pmcd_global_lock);
	pmcd_probes_unregister_locked();
	mutex_unlock(&pmcd_global_lock);
	/* Each tick was cancelled where its session stopped: this only waits. */
	for_each_possible_cpu(cpu) {
		hrtimer_cancel(&per_cpu_ptr(&pmcd_cpus, cpu)->mux_timer);
		hrtimer_cancel(&per_cpu_ptr(&pmcd_cpu_pinned, cpu)->mux_timer);
	}
	pmcd_self_exit();
	/* Contexts queued for freeing: their grace periods, then their work. */
	rcu_barrier();
	destroy_workqueue(pmcd_free_wq);
	/* Each session cancelled its refill at close. */
	destroy_workqueue(pmcd_pool_wq);
}
