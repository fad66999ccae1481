// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv CPU sessions (ATTACH with PMCDRV_ATTACH_CPU): a session's counters
 * run on one CPU from attach to close, whatever runs there, like a
 * perf_event with pid == -1.  No probes: the program is loaded once by an
 * IPI into the CPU's second slot, beside the task sessions' (a cgroup
 * session's counts are shared out by probes of its own: cgroup.c).  The
 * switch probe leaves it alone, but for holding it off while a thread that
 * may execute RDPMC runs (sched.c, "Sharing a CPU").  CPU hotplug (cpuhp) and
 * suspend (syscore) fold, stop and restart whatever runs on a CPU, for both
 * kinds of session, and clear (going) or forget (coming back) what the
 * hardware layer knows of the CPU's registers.
 *
 * The owner of each CPU changes only under pmcd_global_lock and
 * cpus_read_lock(), so the hotplug callbacks (hotplug lock held for
 * writing) see a stable owner.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <linux/syscore_ops.h>

#include "compat.h"
#include "hw.h"
#include "internal.h"

/* The CPU session of each CPU: changed under pmcd_global_lock and cpus_read_lock. */
static DEFINE_PER_CPU(struct pmcd_session *, pmcd_cpu_owner);
static enum cpuhp_state pmcd_cpuhp_state;

/* IPI (or hotplug callback): run CPU session @info on this CPU. */
static void pmcd_ipi_cpu_start(void *info)
{
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	if (pin->sess)
		return;
	pmcd_pinned_start(info);
	pmcd_cg_start(pin);
}

/*
 * Make @s the CPU session of @cpu and start it there.  -ENXIO: offline;
 * -EBUSY: the CPU has one.  Called with s->lock held.
 */
int pmcd_cpu_attach(struct pmcd_session *s, unsigned int cpu)
{
	int err;

	mutex_lock(&pmcd_global_lock);
	cpus_read_lock();
	err = -ENXIO;
	if (!cpu_online(cpu))
		goto out_cpus_unlock;
	err = -EBUSY;
	if (per_cpu(pmcd_cpu_owner, cpu))
		goto out_cpus_unlock;
	WRITE_ONCE(per_cpu(pmcd_cpu_owner, cpu), s);
	if (!pmcd_cpu_sessions++)
		pmcd_fold_arm();
	s->cpu = cpu;
	s->attached = true;
	if (READ_ONCE(s->enabled))
		smp_call_function_single(cpu, pmcd_ipi_cpu_start, s, 1);
	err = 0;
out_cpus_unlock:
	cpus_read_unlock();
	mutex_unlock(&pmcd_global_lock);
	return err;
}

/* Stop a CPU session and give its CPU back.  Called with s->lock held. */
void pmcd_cpu_detach(struct pmcd_session *s)
{
	mutex_lock(&pmcd_global_lock);
	cpus_read_lock();
	WRITE_ONCE(per_cpu(pmcd_cpu_owner, s->cpu), NULL);
	pmcd_session_stop(s);
	pmcd_cpu_sessions--;
	cpus_read_unlock();
	mutex_unlock(&pmcd_global_lock);
}

/*
 * ENABLE and DISABLE of an attached CPU session: a CPU coming online reads
 * 'enabled' in its hotplug callback, so it changes under cpus_read_lock().
 * Called with s->lock held.
 */
void pmcd_cpu_session_enable(struct pmcd_session *s)
{
	cpus_read_lock();
	WRITE_ONCE(s->enabled, true);
	if (cpu_online(s->cpu))
		smp_call_function_single(s->cpu, pmcd_ipi_cpu_start, s, 1);
	cpus_read_unlock();
}

void pmcd_cpu_session_disable(struct pmcd_session *s)
{
	cpus_read_lock();
	WRITE_ONCE(s->enabled, false);
	pmcd_session_stop(s);
	cpus_read_unlock();
}

/* ---- CPU hotplug and suspend ---------------------------------------------------- */

static void pmcd_cpu_set_type(struct pmcd_cpu *pc)
{
	const u32 *ids;
	int t = pmcd_hw_core_type_index();

	pc->type = t;
	pc->core_type = t >= 0 && t < pmcd_hw_core_types(&ids) ? ids[t] >> 24 : 0;
}

/*
 * Task sessions program counters lazily at every switch-in, so for them a
 * CPU that comes online needs nothing; a CPU session restarts on its CPU.
 * A CPU that goes away folds and stops what it runs.  Both run on @cpu
 * itself with the hotplug lock held for writing, so the owner is stable.
 */
static int pmcd_cpu_online(unsigned int cpu)
{
	struct pmcd_session *s = READ_ONCE(per_cpu(pmcd_cpu_owner, cpu));
	unsigned long flags;

	local_irq_save(flags);
	/* Its core type before anything counts here: READ's split (hw.c), the self-read page. */
	pmcd_cpu_set_type(this_cpu_ptr(&pmcd_cpus));
	pmcd_cpu_set_type(this_cpu_ptr(&pmcd_cpu_pinned));
	this_cpu_ptr(&pmcd_cpus)->offline = false;
	this_cpu_ptr(&pmcd_cpu_pinned)->offline = false;
	/* Whatever ran here while the CPU was away may have left anything. */
	pmcd_hw_cpu_back("online");
	if (s && READ_ONCE(s->enabled))
		pmcd_ipi_cpu_start(s);
	local_irq_restore(flags);
	return 0;
}

static int pmcd_cpu_offline(unsigned int cpu)
{
	struct pmcd_cpu *pc, *pin;
	unsigned long flags;

	local_irq_save(flags);
	pc = this_cpu_ptr(&pmcd_cpus);
	pin = this_cpu_ptr(&pmcd_cpu_pinned);
	if (pc->sess)
		pmcd_cpu_sched_out(pc, false);
	if (pin->sess)
		pmcd_cpu_sched_out(pin, false);
	pmcd_hw_clear_cpu();
	/* Until the CPU is online again: see pmcd_cpu_sched_in(). */
	pc->offline = true;
	pin->offline = true;
	local_irq_restore(flags);
	return 0;
}

/* Syscore callbacks run on the last CPU with IRQs off. */
static void pmcd_suspend_slot(struct pmcd_cpu *pc)
{
	if (pc->sess) {
		pmcd_cpu_fold_stop(pc);
		pc->suspended = true;
	}
}

static int pmcd_suspend(PMCD_SYSCORE_ARG)
{
	pmcd_suspend_slot(this_cpu_ptr(&pmcd_cpus));
	pmcd_suspend_slot(this_cpu_ptr(&pmcd_cpu_pinned));
	pmcd_hw_clear_cpu();
	return 0;
}

static void pmcd_resume(PMCD_SYSCORE_ARG)
{
	struct pmcd_cpu *pc = this_cpu_ptr(&pmcd_cpus);
	struct pmcd_cpu *pin = this_cpu_ptr(&pmcd_cpu_pinned);

	pc->suspended = false;
	pin->suspended = false;
	pmcd_hw_cpu_back("resume");	/* the firmware may have reset the PMU */
	/*
	 * What the firmware left in the counters is nobody's to read:
	 * scrubbed by the first start (the second finds them zeroed).
	 */
	if (pc->sess)
		pmcd_cpu_start(pc, true);
	if (pin->sess) {
		pmcd_cpu_start(pin, !pc->sess);
		pmcd_cg_start(pin);
	}
}

static struct pmcd_syscore pmcd_syscore = {
	.ops = {
		.suspend = pmcd_suspend,
		.resume = pmcd_resume,
	},
};

int pmcd_cpu_sessions_init(void)
{
	int ret;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "pmcdrv:online", pmcd_cpu_online,
				pmcd_cpu_offline);
	if (ret < 0)
		return ret;
	pmcd_cpuhp_state = ret;
	pmcd_register_syscore(&pmcd_syscore);
	return 0;
}

void pmcd_cpu_sessions_exit(void)
{
	pmcd_unregister_syscore(&pmcd_syscore);
	cpuhp_remove_state(pmcd_cpuhp_state);
}
