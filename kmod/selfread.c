// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv self-read: a tracked thread's own counts, read from user space
 * with RDPMC and a page it maps, in the style of perf_event_mmap_page.
 *
 * A thread that maps its session's file (or asks PMCDRV_IOC_READ_SELF)
 * gets a struct pmcd_self: its own accumulated counts.  The session's
 * counters are shared by its tasks and keep running across a switch
 * between two of them (sched.c), so a thread's share is taken at its own
 * switch-in and switch-out: raw counter values (base) and what it counted
 * up to them (offset).  Only threads with a pmcd_self pay for this; the
 * page shows it as
 *
 *	value = offset + ((rdpmc(index - 1) - base) & mask), mask = 2^width - 1
 *
 * with a sequence count changed around every update (the thread's
 * switch-in, switch-out, fold; a migration is a switch-out and a
 * switch-in).  Every update runs on the thread's own CPU with IRQs off
 * while the thread is not in user space, so a reader in the thread sees an
 * update either whole or not at all, and retries on a changed sequence
 * (compiler barriers suffice, as for perf's page).
 *
 * RDPMC at CPL 3 needs CR4.PCE, and pmcdrv sets it only while a thread
 * that mapped its page runs.  The kernel's rule is per process
 * (arch/x86/events/core.c, x86_pmu_event_mapped(), and switch_mm_irqs_off()
 * in arch/x86/mm/tlb.c): mm->context.perf_rdpmc_allowed counts mappings of
 * a process, and while it is non-zero the kernel sets CR4.PCE whenever it
 * switches to that address space and clears it for any other.  Each mapping
 * of a page of a session with hardware events counts one there (vm_ops open
 * and close), so the kernel never opens RDPMC to another process; and the
 * switch probe narrows it to the thread (pmcd_self_pce_switch()): a thread
 * of such a process without a page of its own gets CR4.PCE cleared, also
 * after switch_mm_irqs_off() has set it (a hard irq_work, which runs as the
 * switch re-enables interrupts, before the thread is back in user space).
 * Never for everyone, never for a thread without a mapping.
 *
 * The thread's time is live on the page too, as perf_event_mmap_page's
 * cap_user_time: where the TSC runs at a constant rate and the kernel
 * trusts it, the thread's time is counted in TSC cycles converted with a
 * mult and shift fixed at module load, and the page carries the TSC of
 * the last update and that conversion (PMCDRV_SELF_TIME_TSC), so a reader
 * adds the time since with RDTSC, in the same sequence loop, exactly as
 * the next update will.  Otherwise the time is local_clock()'s, as of the
 * last update.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/gfp.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/tlbflush.h>
#include <asm/tsc.h>

#include "compat.h"
#include "hw.h"
#include "internal.h"
#include "selfread.h"
#include "session.h"

static_assert(sizeof(struct pmcdrv_self_page) == PMCDRV_SELF_PAGE_SIZE_VER0);
static_assert(sizeof(struct pmcdrv_self_page) <= PAGE_SIZE);

/*
 * pmcdrv's mappings in one address space, the share of its
 * perf_rdpmc_allowed that is pmcdrv's: looked up by the switch and fork
 * probes under RCU, without a lock and without a walk, whatever users map.
 * An entry lives while the address space has a mapping (nr > 0), so the
 * mm it is keyed by is alive while it is hashed; the mmap path makes it
 * before the first mapping (pmcd_self_maps_prepare()).
 */
struct pmcd_mm_maps {
	struct hlist_node node;		/* pmcd_mm_hash, RCU */
	const struct mm_struct *mm;
	int nr;				/* under pmcd_self_lock; READ_ONCE outside */
	struct rcu_head rcu;
};

#define PMCD_MM_HASH_BITS	8
static DEFINE_HASHTABLE(pmcd_mm_hash, PMCD_MM_HASH_BITS);
/* Changes to pmcd_mm_hash and to each pmcd_self's mappings: process context only. */
static DEFINE_SPINLOCK(pmcd_self_lock);
unsigned int pmcd_self_nr_maps;	/* READ_ONCE outside the lock */

/* ---- the thread's time: TSC cycles where it can, else local_clock() ----------- */

/* TSC cycles to ns, set at module load: 0 when the TSC cannot serve. */
static u32 pmcd_self_tsc_mult;
static u32 pmcd_self_tsc_shift;

/*
 * As x86's arch_perf_update_userpage() requires for cap_user_time: a TSC
 * at a constant rate (CONSTANT_TSC), known (tsc_khz), and not marked
 * unstable.  Each stretch of the thread's time is taken on one CPU
 * (switch-in to switch-out), so TSCs of different CPUs never meet.
 */
static void pmcd_self_tsc_init(void)
{
	u32 mult, shift;

	if (!boot_cpu_has(X86_FEATURE_TSC) || !boot_cpu_has(X86_FEATURE_CONSTANT_TSC) ||
	    !tsc_khz || check_tsc_unstable())
		return;
	/* kHz to ns; the shift is at most 32, as the page's reader needs. */
	clocks_calc_mult_shift(&mult, &shift, tsc_khz, NSEC_PER_MSEC, 1);
	pmcd_self_tsc_mult = mult;
	pmcd_self_tsc_shift = shift;
}

/* Now, in the unit of @self's time. */
static u64 pmcd_self_clock(const struct pmcd_self *self)
{
	return self->tsc ? rdtsc_ordered() : local_clock();
}

/* ns of @delta in the unit of @self's time: what the page's reader computes. */
static u64 pmcd_self_ns(const struct pmcd_self *self, u64 delta)
{
	return self->tsc ? mul_u64_u32_shr(delta, pmcd_self_tsc_mult, pmcd_self_tsc_shift) : delta;
}

/* ---- the thread's counts: its CPU, IRQs off -------------------------------- */

/*
 * Do pc->active's counters run here?  Its program (pc->prog: the
 * session's, its core type's, or beside a CPU session another placement
 * or none; a self-read session does not multiplex).
 */
static bool pmcd_self_hw(const struct pmcd_cpu *pc)
{
	return pc->prog->nr && !pc->suspended;
}

/*
 * Add what the thread counted since the last update, up to @raw (NULL: no
 * hardware): base[] by the slots of pc->prog, acc[] by hardware event.
 */
static void pmcd_self_account(struct pmcd_self *self, const struct pmcd_cpu *pc, const u64 *raw)
{
	const struct pmc_prog *p = pc->prog;
	u64 now = pmcd_self_clock(self);
	unsigned int i, h;

	for (i = 0; raw && i < p->nr; i++) {
		h = pc->map ? pc->map[i] : i;
		self->acc[h] += pmc_delta(self->base[i], raw[i], p->width[i]);
		self->base[i] = raw[i];
	}
	self->t_acc += pmcd_self_ns(self, now - self->t_base);
	self->t_base = now;
}

/* The thread's value of event @i of @s (offset: what it counted up to base). */
u64 pmcd_self_value(const struct pmcd_self *self, const struct pmcd_session *s,
		    unsigned int i)
{
	const struct pmcdrv_event *ev = &s->events[i];

	if (ev->type == PMCDRV_EVENT_HW)
		return self->acc[s->hw_slot[i]];
	if (ev->sw_id == PMCDRV_SW_TASK_CLOCK)
		return self->t_acc;
	if (ev->sw_id == PMCDRV_SW_CONTEXT_SWITCHES)
		return self->nr_switches;
	return self->nr_migrations;
}

/*
 * The slot of pc->prog that counts hardware event @h; -1 when none does
 * (an event of another core type).
 */
static int pmcd_self_slot(const struct pmcd_cpu *pc, int h)
{
	unsigned int j;

	if (!pc->map)
		return h < (int)pc->prog->nr ? h : -1;
	for (j = 0; j < pc->prog->nr; j++) {
		if (pc->map[j] == h)
			return j;
	}
	return -1;
}

/*
 * Write the page from @self; @pc: the counters run, as pc->prog has them
 * (the hardware indexes are valid), NULL: they do not.
 */
void pmcd_self_publish(struct pmcd_self *self, const struct pmcd_session *s,
		       const struct pmcd_cpu *pc)
{
	struct pmcdrv_self_page *pg = self->pg;
	unsigned int i;
	int slot, j;

	WRITE_ONCE(pg->seq, pg->seq + 1);
	barrier();
	pg->flags = (pc ? PMCDRV_SELF_COUNTING : 0) | (self->rdpmc ? PMCDRV_SELF_RDPMC : 0);
	pg->core_type = self->core_type;
	pg->time_enabled = self->t_acc;
	pg->time_running = self->t_acc;
	/* The time runs since t_base, in cycles: the reader adds the rest. */
	if (self->tsc && self->counting) {
		pg->flags |= PMCDRV_SELF_TIME_TSC;
		pg->time_cycles = self->t_base;
	} else {
		pg->time_cycles = 0;
	}
	for (i = 0; i < pg->nr_events; i++) {
		struct pmcdrv_self_event *e = &pg->events[i];

		slot = s->hw_slot[i];
		j = slot >= 0 && pc ? pmcd_self_slot(pc, slot) : -1;
		e->offset = pmcd_self_value(self, s, i);
		e->width = slot >= 0 ? s->prog.width[slot] : 0;
		e->mask = e->width ? GENMASK_ULL(e->width - 1, 0) : 0;
		if (j >= 0) {
			e->index = pmcd_hw_rdpmc_ecx(pc->prog->idx[j]) + 1;
			e->base = self->base[j];
		} else {
			e->index = 0;
			e->base = 0;
		}
	}
	barrier();
	WRITE_ONCE(pg->seq, pg->seq + 1);
}

/* @raw, or the counters read now into @buf when @raw is NULL; NULL without hardware. */
static const u64 *pmcd_self_raw(struct pmcd_cpu *pc, const u64 *raw, u64 *buf)
{
	if (!pmcd_self_hw(pc))
		return NULL;
	if (!raw) {
		pmcd_hw_read(pc->prog, buf);
		raw = buf;
	}
	return raw;
}

void pmcd_self_start(struct pmcd_cpu *pc, const u64 *raw)
{
	struct pmcd_self *self = pc->active->self;
	int cpu = smp_processor_id();
	u64 buf[PMCDRV_MAX_EVENTS];

	raw = pmcd_self_raw(pc, raw, buf);
	if (raw)
		memcpy(self->base, raw, pc->prog->nr * sizeof(*raw));
	self->t_base = pmcd_self_clock(self);
	self->counting = true;
	if (self->last_cpu >= 0 && self->last_cpu != cpu)
		self->nr_migrations++;
	self->last_cpu = cpu;
	self->core_type = pc->core_type;
	pmcd_self_publish(self, pc->sess, raw ? pc : NULL);
}

void pmcd_self_stop(struct pmcd_cpu *pc, const u64 *raw)
{
	struct pmcd_self *self = pc->active->self;
	u64 buf[PMCDRV_MAX_EVENTS];

	if (!self->counting)
		return;
	pmcd_self_account(self, pc, pmcd_self_raw(pc, raw, buf));
	self->counting = false;
	pmcd_self_publish(self, pc->sess, NULL);
}

void pmcd_self_fold(struct pmcd_cpu *pc, const u64 *raw)
{
	struct pmcd_self *self = pc->active->self;
	u64 buf[PMCDRV_MAX_EVENTS];

	if (!self->counting)
		return;
	raw = pmcd_self_raw(pc, raw, buf);
	pmcd_self_account(self, pc, raw);
	pmcd_self_publish(self, pc->sess, raw ? pc : NULL);
}

/* ---- lifetime ----------------------------------------------------------------- */

static void pmcd_self_release(struct kref *ref)
{
	struct pmcd_self *self = container_of(ref, struct pmcd_self, ref);

	__free_page(self->page);
	kfree(self);
}

/* Drop a reference: the context's (when it is freed) or a mapping's. */
void pmcd_self_put(struct pmcd_self *self)
{
	if (self)
		kref_put(&self->ref, pmcd_self_release);
}

struct pmcd_self *pmcd_self_alloc(const struct pmcd_session *s)
{
	struct pmcd_self *self = kzalloc(sizeof(*self), GFP_KERNEL);

	if (!self)
		return NULL;
	self->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!self->page) {
		kfree(self);
		return NULL;
	}
	kref_init(&self->ref);
	self->pg = page_address(self->page);
	self->pg->version = PMCDRV_SELF_PAGE_VERSION;
	self->pg->size = sizeof(*self->pg);
	/* The page describes the first PMCDRV_SELF_MAX_EVENTS; READ_SELF gives all. */
	self->pg->nr_events = min_t(u32, s->nr_events, PMCDRV_SELF_MAX_EVENTS);
	self->last_cpu = -1;
	self->rdpmc = s->prog.nr > 0;
	/* A TSC marked unstable since the module loaded: local_clock() for new pages. */
	self->tsc = pmcd_self_tsc_mult && !check_tsc_unstable();
	if (self->tsc) {
		self->pg->time_mult = pmcd_self_tsc_mult;
		self->pg->time_shift = pmcd_self_tsc_shift;
	}
	return self;
}

/* ---- CR4.PCE: per thread, within the kernel's per-process rule ------------------ */

/* @mm's entry, or NULL.  RCU read side, or pmcd_self_lock held. */
static struct pmcd_mm_maps *pmcd_mm_maps_find(const struct mm_struct *mm)
{
	struct pmcd_mm_maps *m;

	hash_for_each_possible_rcu(pmcd_mm_hash, m, node, (unsigned long)mm,
				   lockdep_is_held(&pmcd_self_lock)) {
		if (m->mm == mm)
			return m;
	}
	return NULL;
}

/* Mappings of pmcdrv pages in @mm (counted in its perf_rdpmc_allowed).  RCU read side. */
static int pmcd_self_maps_in(const struct mm_struct *mm)
{
	const struct pmcd_mm_maps *m = pmcd_mm_maps_find(mm);

	return m ? READ_ONCE(m->nr) : 0;
}

/*
 * Before the first mapping of a page in @mm (the mmap path, process
 * context): make @mm's entry, so that vm_ops open never allocates.
 */
int pmcd_self_maps_prepare(struct mm_struct *mm)
{
	struct pmcd_mm_maps *fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);

	if (!fresh)
		return -ENOMEM;
	spin_lock(&pmcd_self_lock);
	if (!pmcd_mm_maps_find(mm)) {
		fresh->mm = mm;
		hash_add_rcu(pmcd_mm_hash, &fresh->node, (unsigned long)mm);
		fresh = NULL;
	}
	spin_unlock(&pmcd_self_lock);
	kfree(fresh);
	return 0;
}

/*
 * Should @t, a task with an address space, run with CR4.PCE?  Yes when it
 * has its own page mapped; otherwise only if perf_events allows RDPMC in
 * its process (mappings there beyond pmcdrv's).  NULL: does the kernel's
 * rule (the process has a mapping) set it here?  RCU read side, IRQs off.
 */
static bool pmcd_self_pce_want(struct task_struct *t, const struct pmcd_task_ctx *ctx)
{
	const struct pmcd_self *self = ctx ? READ_ONCE(ctx->self) : NULL;
	int allowed = atomic_read(&t->mm->context.perf_rdpmc_allowed);

	if (self && READ_ONCE(self->nr_maps) && READ_ONCE(self->mm) == t->mm)
		return true;
	return allowed > 0 && allowed > pmcd_self_maps_in(t->mm);
}

/* The task this CPU's irq_work takes CR4.PCE away from, after its switch. */
static DEFINE_PER_CPU(struct task_struct *, pmcd_pce_target);

static void pmcd_self_pce_fix(struct irq_work *work)
{
	if (current == __this_cpu_read(pmcd_pce_target))
		cr4_clear_bits_irqsoff(X86_CR4_PCE);
	__this_cpu_write(pmcd_pce_target, NULL);
}

/* Hard: on PREEMPT_RT too it runs in the interrupt, before user space. */
static DEFINE_PER_CPU(struct irq_work, pmcd_pce_work);

/*
 * sched_switch, IRQs off, RCU read side, while some page is mapped: CR4.PCE
 * for @next (@ctx: its context, or NULL).  The probe runs before
 * switch_mm_irqs_off(), which sets the bit for the whole process when it
 * changes address space (or leaves a lazy one): a thread of the process
 * without its own page loses it again in the irq_work above.  A kernel
 * thread runs no user code: nothing to do.
 */
void pmcd_self_pce_switch(struct task_struct *next, const struct pmcd_task_ctx *ctx)
{
	if (!next->mm)
		return;
	if (pmcd_self_pce_want(next, ctx)) {
		cr4_set_bits_irqsoff(X86_CR4_PCE);
		return;
	}
	if (!atomic_read(&next->mm->context.perf_rdpmc_allowed))
		return;		/* the kernel's own rule clears it */
	cr4_clear_bits_irqsoff(X86_CR4_PCE);
	__this_cpu_write(pmcd_pce_target, next);
	irq_work_queue(this_cpu_ptr(&pmcd_pce_work));
}

/*
 * Module init, before any probe.  Not a static initializer: a module's
 * per-CPU initial values are copied without their relocations (Linux 6.1,
 * kernel/module/main.c: layout_and_allocate() clears SHF_ALLOC of the
 * per-CPU section, and apply_relocations() skips sections without it), so a
 * function pointer there reads NULL.
 */
void pmcd_self_init(void)
{
	struct irq_work *work;
	int cpu;

	for_each_possible_cpu(cpu) {
		work = per_cpu_ptr(&pmcd_pce_work, cpu);
		*work = IRQ_WORK_INIT_HARD(pmcd_self_pce_fix);
	}
	pmcd_self_tsc_init();
}

/* Module exit, the probes gone: no irq_work of pmcdrv's may still run. */
void pmcd_self_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&pmcd_pce_work, cpu));
}

/* IPI after a first or last mapping in @mm: CR4.PCE here as the switch would set it. */
static void pmcd_self_pce_ipi(void *info)
{
	struct mm_struct *mm = info;
	bool want;

	if (current->mm != mm)
		return;
	rcu_read_lock();
	want = pmcd_self_pce_want(current, pmcd_lookup(current));
	rcu_read_unlock();
	if (want)
		cr4_set_bits_irqsoff(X86_CR4_PCE);
	else
		cr4_clear_bits_irqsoff(X86_CR4_PCE);
}

/*
 * One more (@add) or one less mapping of @self in @mm.  Process context,
 * @mm's entry made before the first (pmcd_self_maps_prepare()); a mapping
 * is only ever in the address space that made it (VM_IO: no MADV_DOFORK).
 */
void pmcd_self_map_count(struct pmcd_self *self, struct mm_struct *mm, bool add)
{
	struct pmcd_mm_maps *m;

	if (!self->rdpmc)
		return;
	spin_lock(&pmcd_self_lock);
	m = pmcd_mm_maps_find(mm);
	if (!m) {
		/* Not prepared: count nothing rather than half (never seen). */
		spin_unlock(&pmcd_self_lock);
		return;
	}
	WRITE_ONCE(self->nr_maps, self->nr_maps + (add ? 1 : -1));
	WRITE_ONCE(self->mm, self->nr_maps ? mm : NULL);
	WRITE_ONCE(m->nr, m->nr + (add ? 1 : -1));
	WRITE_ONCE(pmcd_self_nr_maps, pmcd_self_nr_maps + (add ? 1 : -1));
	if (add)
		atomic_inc(&mm->context.perf_rdpmc_allowed);
	else
		atomic_dec(&mm->context.perf_rdpmc_allowed);
	if (!m->nr) {
		hash_del_rcu(&m->node);
		kfree_rcu(m, rcu);
	}
	spin_unlock(&pmcd_self_lock);
	/*
	 * Per thread: the mapping thread gains CR4.PCE now, and a thread whose
	 * page another thread unmaps loses it, wherever it runs.
	 */
	on_each_cpu_mask(mm_cpumask(mm), pmcd_self_pce_ipi, mm, 1);
}

/*
 * sched_process_fork: dup_mm() copies the parent's mm_struct whole, so a
 * child with its own address space starts with the parent's
 * perf_rdpmc_allowed, but without the mappings (VM_DONTCOPY): take ours
 * out of the child's count.  Preemption off, before the child runs.
 */
void pmcd_self_fork(struct task_struct *parent, struct task_struct *child)
{
	struct mm_struct *mm = child->mm;
	int ours;

	if (!READ_ONCE(pmcd_self_nr_maps) || !mm || mm == parent->mm)
		return;
	rcu_read_lock();
	ours = pmcd_self_maps_in(parent->mm);
	rcu_read_unlock();
	ours = min(ours, atomic_read(&mm->context.perf_rdpmc_allowed));
	if (ours > 0)
		atomic_sub(ours, &mm->context.perf_rdpmc_allowed);
}
