// SPDX-License-Identifier: GPL-2.0
/*
 * pmcdrv permissions: who may count kernel mode, a whole CPU, or another
 * task (docs/design.md, "Permissions").
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/kernel.h>
#include <linux/mm_types.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "debug.h"
#include "internal.h"

/*
 * The strictest perf_event_paranoid pmcdrv knows: Debian's 3, "no
 * unprivileged perf at all" (its patch to kernel/events/core.c,
 * perf_event_open(): paranoid > 2 needs CAP_PERFMON).  An unreadable or
 * garbled sysctl is treated as this, never as something looser.
 */
#define PMCD_PARANOID_STRICTEST	3

/*
 * perf_event_paranoid is not exported to modules: read the sysctl, through
 * init's root, so that a caller in a chroot of its own cannot substitute
 * the file, and with init's credentials, so that the caller's own (a root
 * directory it may not search, say) cannot make the read fail.
 */
static int pmcd_perf_paranoid(void)
{
	const struct cred *icred, *old;
	char buf[16] = "";
	struct path root;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int val;

	task_lock(&init_task);
	get_fs_root(init_task.fs, &root);
	task_unlock(&init_task);
	icred = get_task_cred(&init_task);
	old = override_creds(icred);
	f = file_open_root(&root, "proc/sys/kernel/perf_event_paranoid", O_RDONLY, 0);
	path_put(&root);
	if (IS_ERR(f)) {
		val = PMCD_PARANOID_STRICTEST;
	} else {
		n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
		filp_close(f, NULL);
		if (n <= 0 || kstrtoint(strim(buf), 10, &val))
			val = PMCD_PARANOID_STRICTEST;
	}
	/* Balanced on every kernel, whether override_creds() takes a reference or not. */
	revert_creds(old);
	put_cred(icred);
	return val;
}

/*
 * Any counting at all (CONFIG, and ATTACH again): Debian's patch to
 * perf_event_open() (kernel/events/core.c, Debian's 6.1) refuses
 * everything while perf_event_paranoid > 2 unless the caller is
 *
 *	if (perf_paranoid_any() && !capable(CAP_SYS_ADMIN))
 *		return -EACCES;
 *
 * CAP_SYS_ADMIN itself, not CAP_PERFMON.  pmcdrv does the same unless the
 * administrator opted in by giving the device to a group (not root's) that
 * the caller is in (docs/security.md).
 */
bool pmcd_may_count(kgid_t dev_gid)
{
	if (pmcd_perf_paranoid() <= 2 || capable(CAP_SYS_ADMIN))
		return true;
	return !gid_eq(dev_gid, GLOBAL_ROOT_GID) && in_group_p(dev_gid);
}

/* Counting kernel mode: perf's rule for events that are not CPU-wide. */
bool pmcd_may_count_kernel(void)
{
	return perfmon_capable() || pmcd_perf_paranoid() <= 1;
}

/* Counting a CPU sees every task on it: perf's rule for CPU events. */
bool pmcd_may_count_cpu(void)
{
	return perfmon_capable() || pmcd_perf_paranoid() <= 0;
}

/*
 * ptrace_has_cap() of kernel/ptrace.c (Linux 6.1), for a mode without
 * PTRACE_MODE_NOAUDIT.
 */
static bool pmcd_ptrace_has_cap(struct user_namespace *ns)
{
	return ns_capable(ns, CAP_SYS_PTRACE);
}

/*
 * task_still_dumpable() of kernel/ptrace.c (6.1), for a task that still has
 * its mm (pmcd_may_attach_locked() answers for one without).
 */
static bool pmcd_task_still_dumpable(struct mm_struct *mm)
{
	if (get_dumpable(mm) == SUID_DUMP_USER)
		return true;
	return pmcd_ptrace_has_cap(mm->user_ns);
}

/*
 * May the caller count @task?  ptrace_may_access() is not exported to
 * modules, so this is __ptrace_may_access() of kernel/ptrace.c (Linux 6.1),
 * called under task_lock(@task) (pmcd_may_attach() below),
 * for mode PTRACE_MODE_READ_REALCREDS (perf_check_permission()'s), rule by
 * rule.  The caller holds @task->signal->exec_update_lock for reading, as
 * perf_event_open() does, so the credentials checked are still the task's
 * when it is tracked.  Returns 0, -EPERM, or -ESRCH for a task past exit_mm().
 */
static int pmcd_may_attach_locked(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	kuid_t caller_uid;
	kgid_t caller_gid;

	/* "Don't let security modules deny introspection" */
	if (same_thread_group(task, current))
		return 0;
	rcu_read_lock();
	/* PTRACE_MODE_REALCREDS: the caller's real ids, not its fs ids. */
	caller_uid = cred->uid;
	caller_gid = cred->gid;
	tcred = __task_cred(task);
	if (uid_eq(caller_uid, tcred->euid) &&
	    uid_eq(caller_uid, tcred->suid) &&
	    uid_eq(caller_uid, tcred->uid)  &&
	    gid_eq(caller_gid, tcred->egid) &&
	    gid_eq(caller_gid, tcred->sgid) &&
	    gid_eq(caller_gid, tcred->gid))
		goto ok;
	if (pmcd_ptrace_has_cap(tcred->user_ns))
		goto ok;
	rcu_read_unlock();
	return -EPERM;
ok:
	rcu_read_unlock();
	/*
	 * As the kernel: read dumpability after the credentials (pairs with
	 * the write barrier in commit_creds()), and check it on both ways in,
	 * CAP_SYS_PTRACE's too, against the mm's user namespace.
	 */
	smp_rmb();
	pmcd_debug_delay(PMCD_DELAY_PERM);
	/*
	 * A task without an mm is past exit_mm() (a kernel thread is refused
	 * before this): the kernel then looks at task->user_dumpable, a field
	 * not every supported kernel has.  Nothing of it is left to count, so
	 * ATTACH answers as for a task seen exiting earlier (session.c): ESRCH.
	 * The caller passed the credential check above, so the answer tells
	 * it nothing it could not see in /proc.
	 */
	if (!task->mm)
		return -ESRCH;
	if (!pmcd_task_still_dumpable(task->mm))
		return -EPERM;
	/*
	 * security_ptrace_access_check() (the LSM hook) is not exported to
	 * modules: not consulted (docs/security.md).
	 */
	return 0;
}

/*
 * ptrace_may_access() of kernel/ptrace.c (6.1): the check runs under
 * task_lock(), which keeps task->mm, and the mm's flags and user namespace
 * read through it, from going away under it in exit_mm().
 */
int pmcd_may_attach(struct task_struct *task)
{
	int err;

	task_lock(task);
	err = pmcd_may_attach_locked(task);
	task_unlock(task);
	return err;
}
