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
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/string.h>

#include "internal.h"

/*
 * perf_event_paranoid is not exported to modules: read the sysctl, through
 * init's root, so that a caller in a chroot of its own cannot substitute
 * the file.
 */
static int pmcd_perf_paranoid(void)
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
 * May the caller count @t?  ptrace_may_access() is not exported to modules,
 * so this is its credential core for PTRACE_MODE_READ_REALCREDS: same
 * thread group, or the caller's real uid/gid equal to all of the target's,
 * with the target dumpable; or CAP_SYS_PTRACE over the target's namespace.
 * LSM ptrace hooks are not consulted (docs/design.md).
 */
bool pmcd_may_attach(struct task_struct *t)
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
