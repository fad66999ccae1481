/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions and per-task contexts: what a session counts, which tasks it
 * tracks, and the scheduler hooks that give each task its own counts.
 * See docs/design.md.
 */
#ifndef PMCDRV_SESSION_H
#define PMCDRV_SESSION_H

#include <linux/pmcdrv.h>
#include <linux/uidgid.h>

struct pmcd_hw_caps;
struct pmcd_session;

int pmcd_sessions_init(const struct pmcd_hw_caps *caps);
void pmcd_sessions_exit(void);

struct pmcd_hw_usage;

/*
 * Who uses the counters (hw.c), and whether pmcdrv's sessions hold the PMU
 * (through the kernel's arbitration) now, in one step against CONFIG.
 */
void pmcd_sessions_hw_usage(struct pmcd_hw_usage *usage, bool *claimed);

/* One per open file, of a device of group @dev_gid.  NULL on allocation failure. */
struct pmcd_session *pmcd_session_create(kgid_t dev_gid);
/* At file release: stop counting everywhere, untrack every task, free. */
void pmcd_session_close(struct pmcd_session *s);

/* Validated-struct operations; each returns 0 or -errno (docs/abi.md). */
/*
 * CONFIG calls @publish with the result (counters filled in) before the
 * session takes it: if @publish fails (the caller's copy faulted), the
 * session is left unconfigured and its PMU claim undone.
 */
int pmcd_session_config(struct pmcd_session *s, struct pmcdrv_config *cfg,
			int (*publish)(const struct pmcdrv_config *cfg, void *arg), void *arg);
int pmcd_session_attach(struct pmcd_session *s, pid_t pid, bool enable_on_exec);
/* Count everything on @cpu instead of a task. */
int pmcd_session_attach_cpu(struct pmcd_session *s, unsigned int cpu);
/* A cgroup session: on @cpu, only while a task of the cgroups of @nr @fds runs. */
int pmcd_session_attach_cgroups(struct pmcd_session *s, unsigned int cpu, const s32 *fds,
				unsigned int nr);
int pmcd_session_enable(struct pmcd_session *s);
int pmcd_session_disable(struct pmcd_session *s);
int pmcd_session_reset(struct pmcd_session *s);
int pmcd_session_read(struct pmcd_session *s, struct pmcdrv_read *r);
/* READ with the split by core type of a hybrid part (zeroed by the caller). */
int pmcd_session_read_types(struct pmcd_session *s, struct pmcdrv_read_types *rt);
int pmcd_session_read_cgroup(struct pmcd_session *s, unsigned int i, struct pmcdrv_read *r);

/*
 * Who counts: up to @max sessions described into @out (none with @max 0);
 * returns how many there are.  Revoke ends session @id for its owner
 * (CAP_PERFMON: EPERM otherwise; ESRCH, EALREADY).
 */
unsigned int pmcd_sessions_list(struct pmcdrv_session_info *out, unsigned int max);
int pmcd_session_revoke(u64 id);

struct vm_area_struct;
/* selfread.c: the calling thread's page (mmap) and its own counts (READ_SELF). */
int pmcd_self_mmap(struct pmcd_session *s, struct vm_area_struct *vma);
int pmcd_self_read(struct pmcd_session *s, struct pmcdrv_read *r);

#endif /* PMCDRV_SESSION_H */
