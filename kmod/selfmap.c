// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv self-read, the entry points of a thread: mapping its session's
 * file (its self-read page) and PMCDRV_IOC_READ_SELF.  Both create the
 * thread's struct pmcd_self on first use and start it counting; the page,
 * the thread's counts on the switch path and CR4.PCE are selfread.c's.
 * Above the switch path (sched.c): a thread that becomes able to use RDPMC
 * while its counters run gets them restarted, scrubbed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "compat.h"
#include "hw.h"
#include "internal.h"
#include "selfread.h"
#include "session.h"

/*
 * The calling thread's context in @s with its pmcd_self, created if it has
 * none yet (counting from now: if the session's counters run here for it,
 * from their values now).  Process context; takes no sleeping lock, so
 * that mmap (mmap_lock held) may call it.
 */
static int pmcd_self_current(struct pmcd_session *s, struct pmcd_task_ctx **out)
{
	struct pmcd_self *fresh = NULL;
	struct pmcd_task_ctx *ctx;
	struct pmcd_cpu *pc;
	unsigned long flags;
	int err;

	if (READ_ONCE(s->revoked))
		return -EOWNERDEAD;
	if (!READ_ONCE(s->attached))
		return -EBADFD;
	/* A multiplexing session's events are not all on counters (abi.md). */
	if (s->cpu >= 0 || s->mux)
		return -EOPNOTSUPP;
	for (;;) {
		local_irq_save(flags);
		rcu_read_lock();
		ctx = pmcd_lookup(current);
		err = -ESRCH;
		if (!ctx || ctx->sess != s || READ_ONCE(ctx->dead))
			goto out_unlock;
		err = 0;
		if (ctx->self || !fresh)
			goto out_unlock;
		/* Only the thread itself installs its pmcd_self: no race. */
		WRITE_ONCE(ctx->self, fresh);
		fresh = NULL;
		pc = this_cpu_ptr(&pmcd_cpus);
		if (pc->active == ctx && ctx->self->rdpmc && !pmcd_hw_clean_for(s->id))
			pmcd_cpu_restart(pc);	/* scrubbed, and pmcd_self_start() */
		else if (pc->active == ctx)
			pmcd_self_start(pc, NULL);
		else
			pmcd_self_publish(ctx->self, s, NULL);
		/*
		 * Its session does not count here now (disabled, or armed for
		 * exec): the thread reads zeros, not what the last session
		 * left in the counters (the switch probe's rule, sched.c).
		 */
		if (pc->active != ctx && ctx->self->rdpmc && !pc->sess)
			pmcd_cpu_scrub_for_rdpmc();
out_unlock:
		rcu_read_unlock();
		local_irq_restore(flags);
		if (err || ctx->self)
			break;
		fresh = pmcd_self_alloc(s);
		if (!fresh)
			return -ENOMEM;
	}
	pmcd_self_put(fresh);
	*out = ctx;
	return err;
}

/* ---- the mapping ---------------------------------------------------------------- */

static void pmcd_self_vm_open(struct vm_area_struct *vma)
{
	struct pmcd_self *self = vma->vm_private_data;

	kref_get(&self->ref);
	pmcd_self_map_count(self, vma->vm_mm, true);
}

static void pmcd_self_vm_close(struct vm_area_struct *vma)
{
	struct pmcd_self *self = vma->vm_private_data;

	pmcd_self_map_count(self, vma->vm_mm, false);
	pmcd_self_put(self);
}

static vm_fault_t pmcd_self_vm_fault(struct vm_fault *vmf)
{
	struct pmcd_self *self = vmf->vma->vm_private_data;

	if (vmf->pgoff || (vmf->flags & FAULT_FLAG_WRITE))
		return VM_FAULT_SIGBUS;
	get_page(self->page);
	vmf->page = self->page;
	return 0;
}

static const struct vm_operations_struct pmcd_self_vm_ops = {
	.open	= pmcd_self_vm_open,
	.close	= pmcd_self_vm_close,
	.fault	= pmcd_self_vm_fault,
};

int pmcd_self_mmap(struct pmcd_session *s, struct vm_area_struct *vma)
{
	struct pmcd_task_ctx *ctx;
	int err;

	if (!(vma->vm_flags & VM_SHARED) || vma->vm_pgoff != PMCDRV_SELF_MMAP_OFFSET ||
	    vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	/* A topdown metric is folded by the module, not a counter RDPMC reads (abi.md). */
	if (s->prog.td_mask)
		return -EOPNOTSUPP;
	err = pmcd_self_current(s, &ctx);
	if (!err && ctx->self->rdpmc)
		err = pmcd_self_maps_prepare(vma->vm_mm);
	if (err)
		return err;
	/*
	 * Read-only for good, one page, not inherited, not in core dumps.
	 * VM_IO: madvise(MADV_DOFORK) refuses to make it inherited (EINVAL,
	 * Linux 6.1 mm/madvise.c), so the mapping lives in the address space
	 * that made it and no other, as its count in perf_rdpmc_allowed
	 * assumes (selfread.c), and get_user_pages() refuses the page.
	 */
	pmcd_vm_flags_mod(vma, VM_IO | VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP, VM_MAYWRITE);
	vma->vm_ops = &pmcd_self_vm_ops;
	vma->vm_private_data = ctx->self;
	pmcd_self_vm_open(vma);
	/* RDPMC from this thread's return to user space: not beside a CPU session's counts. */
	if (ctx->self->rdpmc)
		pmcd_cpu_rdpmc_now(s);
	return 0;
}

/* ---- PMCDRV_IOC_READ_SELF ---------------------------------------------------------- */

int pmcd_self_read(struct pmcd_session *s, struct pmcdrv_read *r)
{
	struct pmcd_task_ctx *ctx;
	struct pmcd_self *self;
	struct pmcd_cpu *pc;
	unsigned long flags;
	unsigned int i;
	int err;

	mutex_lock(&s->lock);
	err = pmcd_configured(s);
	if (err)
		goto out_unlock;
	err = pmcd_self_current(s, &ctx);
	if (err)
		goto out_unlock;
	self = ctx->self;
	local_irq_save(flags);
	pc = this_cpu_ptr(&pmcd_cpus);
	/* Counting here now: bring the counts up to this moment, as a fold does. */
	if (pc->active == ctx)
		pmcd_self_fold(pc, NULL);
	for (i = 0; i < s->nr_events; i++)
		r->values[i] = pmcd_self_value(self, s, i);
	r->time_enabled = self->t_acc;
	local_irq_restore(flags);
	r->time_running = r->time_enabled;
	r->nr_events = s->nr_events;
	r->nr_tasks = 1;
	r->flags = PMCDRV_READ_ATTACHED;
	if (READ_ONCE(s->enabled))
		r->flags |= PMCDRV_READ_ENABLED;
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}
