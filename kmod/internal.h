/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the session files share: the session, task context and per-CPU
 * structs (track.c), the locks and counts under pmcd_global_lock (sched.c), and the
 * calls one file makes into another.  Layers, top down, each calling only
 * those below it: main.c (the device), session.c (lifetime and the ioctl
 * operations), cpu_session.c (CPU sessions, hotplug, syscore), selfmap.c
 * (self-read's mmap and READ_SELF), sched.c (tracepoint probes, per-CPU
 * folding, the periodic fold), selfread.c (a thread's own counts on the
 * switch path, CR4.PCE), track.c (the tracked-task hash, per-CPU state),
 * perm.c (who may count what), hw.c (registers).  tests/layers-check.sh
 * holds the module to that order.  See docs/architecture.md.
 */
#ifndef PMCDRV_INTERNAL_H
#define PMCDRV_INTERNAL_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>
#include <linux/pmcdrv.h>
#include <pmcdrv/pmu.h>

struct pmcd_hw_caps;
struct pmcd_self;
struct task_struct;
struct tracepoint;
struct cgroup;

/*
 * A multiplexing session's rotation (docs/design.md "Multiplexing"): step r
 * puts unit r and the units after it that fit on the counters; @hw maps a
 * program slot to the session's hardware event.  Built at CONFIG, read-only
 * afterwards.
 */
struct pmcd_mux {
	u64 interval_ns;
	unsigned int nr_steps;
	/*
	 * Each core type's rotation, steps[first[k] ..] (nr[k] of them), k
	 * as pmcd_typed_index() (0 alone without core types): a type's steps
	 * hold only the events that count there (pmc_mux_prepare_type()).
	 */
	unsigned int first[PMCDRV_MAX_CORE_TYPES + 1];
	unsigned int nr[PMCDRV_MAX_CORE_TYPES + 1];
	struct pmcd_mux_step {
		struct pmc_prog prog;
		u8 hw[PMCDRV_MAX_EVENTS];
	} steps[];
};

/*
 * A hybrid part's session whose events name core types (perf's cpu_core/
 * and cpu_atom/): the program of each core type they name, and of every
 * other type (prog[nr]), each with only the events that count on that
 * type, hw[k] mapping prog[k]'s slots to the session's hardware events
 * (pmc_prog_for_core_type()).  Built at CONFIG, read-only afterwards;
 * pmcd_session_load() picks a CPU's.
 */
struct pmcd_typed {
	unsigned int nr;
	u8 core_type[PMCDRV_MAX_CORE_TYPES];
	struct pmc_prog prog[PMCDRV_MAX_CORE_TYPES + 1];
	u8 hw[PMCDRV_MAX_CORE_TYPES + 1][PMCDRV_MAX_EVENTS];
};

/*
 * A cgroup session's cgroups (cgroup.c), each with its own counts: what
 * the session counted while a task of it (or of its subtree) ran.  Set
 * before ATTACH starts the session, freed after it stopped for good.
 */
struct pmcd_cgroups {
	unsigned int cpu;		/* the session's CPU, from before ATTACH sets s->cpu */
	unsigned int nr;
	struct pmcd_cg {
		struct cgroup *cgrp;		/* referenced */
		atomic64_t vals[PMCDRV_MAX_EVENTS];
		atomic64_t running[PMCDRV_MAX_EVENTS];	/* with mux: ns each was on a counter */
		atomic64_t time_enabled;
		atomic64_t time_yielded;	/* of time_enabled, held off (sched.c) */
	} cg[];
};

/* Spare contexts per inheriting session, each replaced as the fork probe takes it. */
#define PMC_POOL_TARGET		32

struct pmcd_session {
	struct kref ref;
	struct mutex lock;		/* serialises this session's ioctls */
	bool configured;
	bool attached;
	bool hw;			/* has hardware events (set at CONFIG) */
	bool hw_counting;		/* holds a share of the PMU claim (session.c); READ_ONCE */
	bool torn_down;			/* stopped for good: closed or revoked */
	bool revoked;			/* READ_ONCE outside s->lock */
	bool inherit;
	bool closing;			/* under pmcd_hash_lock: no new tasks */
	bool enabled;			/* READ_ONCE in probes */
	bool task_sw;			/* has context-switches or cpu-migrations */
	bool secure_exec;		/* set under pmcd_hash_lock: a task exec'd a setuid image */
	bool kernel;			/* counts kernel mode (set at CONFIG) */
	kgid_t dev_gid;			/* the device's group at open (perm.c) */
	int cpu;			/* a CPU session's CPU; -1 for a task session */
	u64 id;				/* unique, never 0: whose counts a counter holds (hw.c) */
	unsigned int nr_events;
	struct pmcdrv_event events[PMCDRV_MAX_EVENTS];
	s8 hw_slot[PMCDRV_MAX_EVENTS];	/* event -> prog slot, -1 for software */
	struct pmc_prog prog;
	struct pmcd_typed *typed;	/* NULL: every event counts on every core type */
	atomic64_t hw_vals[PMCDRV_MAX_EVENTS];
	atomic64_t time_enabled;	/* ns counted on a CPU while enabled */
	struct pmcd_mux *mux;		/* NULL: every event fits the counters at once */
	/* What its programs (each step's) take of a PMU: two sessions on one CPU (sched.c) */
	struct pmc_prog_use use;
	atomic64_t time_yielded;	/* ns of time_enabled with its counters yielded (sched.c) */
	struct pmcd_cgroups *cg;	/* a cgroup session's cgroups; NULL for others */
	atomic64_t hw_running[PMCDRV_MAX_EVENTS];	/* with mux: ns each was on a counter */
	/*
	 * On a hybrid part: hw_vals and time_enabled split by core type
	 * (pmcd_cpu.type), and the ns each event was on a counter there.
	 */
	atomic64_t type_vals[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];
	atomic64_t type_time[PMCDRV_MAX_CORE_TYPES];
	atomic64_t type_running[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];
	/* with mux: the step of each rotation (struct pmcd_mux) to load next (any CPU) */
	unsigned int mux_next[PMCDRV_MAX_CORE_TYPES + 1];
	/* with mux: ns of each rotation's step left at its last stop */
	u64 mux_left[PMCDRV_MAX_CORE_TYPES + 1];
	atomic64_t nr_switches;
	atomic64_t nr_migrations;
	atomic64_t lost_tasks;
	atomic64_t hw_faults;		/* MSR accesses that faulted for it (hw.c) */
	struct cpumask loaded;		/* CPUs where it may count now (READ folds there) */
	unsigned int nr_tasks;		/* written under pmcd_hash_lock; READ: smp_load_acquire */
	struct list_head tasks;		/* under pmcd_hash_lock */
	struct list_head pool;		/* under pmcd_hash_lock */
	unsigned int pool_count;	/* under pmcd_hash_lock */
	struct work_struct refill;
	struct work_struct idle;	/* its last task left: let go of the claim */
	struct list_head all;		/* every session (session.c), oldest first */
	kuid_t uid;			/* the opener's euid */
	struct pid *opener;		/* the opener's thread group */
	char comm[TASK_COMM_LEN];	/* the opener's comm at open */
};

struct pmcd_task_ctx {
	struct hlist_node hnode;	/* pmcd_hash, RCU */
	struct list_head node;		/* session's tasks, pool, or a private list */
	struct task_struct *task;	/* referenced while set: untracked at its exit */
	struct pmcd_session *sess;	/* holds a reference while tracked */
	bool armed_exec;		/* waits for exec (touched by the task's CPU) */
	bool dead;			/* untracked: never program again */
	int last_cpu;
	struct pmcd_self *self;		/* its own counts, once it asked (selfread.c) */
	struct rcu_work free_work;	/* freed after a grace period (sched.c) */
};

/*
 * What runs on one CPU; only touched there with IRQs off.  A task
 * session's counters stay loaded and running across a switch between two
 * of its tasks (active changes, sess does not).
 */
struct pmcd_cpu {
	struct pmcd_session *sess;	/* whose counters run here, NULL for none */
	struct pmcd_task_ctx *active;	/* tracked, enabled current task (task session) */
	const struct pmc_prog *prog;	/* sess's program loaded here (a step with mux) */
	const u8 *map;			/* prog slot -> hardware event; NULL: identity */
	unsigned int step;		/* with mux: the step loaded */
	struct hrtimer mux_timer;	/* rotates a multiplexing session's steps */
	u64 last[PMCDRV_MAX_EVENTS];	/* raw counter values at the last fold or start */
	u64 t_last;			/* local_clock() at the last fold */
	/*
	 * A cgroup session's: which of its cgroups the current task is of
	 * (its counts go there), and that task's cgroup id (cgroup.c).
	 */
	DECLARE_BITMAP(cg_mask, PMCDRV_MAX_CGROUPS);
	u64 cg_id;
	/*
	 * The session is loaded here, its time runs, but none of its
	 * counters does: a task session whose programs would write registers
	 * of the CPU session's, or a CPU session held off while a thread that
	 * may execute RDPMC runs (sched.c, "Sharing a CPU").
	 */
	bool yielded;
	/*
	 * A task session's events placed on the counters this CPU's CPU
	 * session leaves (sched.c, pmcd_task_replace()); NULL: its own program.
	 */
	const struct pmc_prog *alt;
	bool suspended;			/* counters stopped across suspend */
	bool offline;			/* torn down (cpuhp): nothing starts here */
	s8 type;			/* hybrid: core type index (hw.c); -1: no split */
	u8 core_type;			/* hybrid: CPUID.1AH:EAX[31:24]; 0 elsewhere */
};

/* Guards the counts below, probe registration, the PMU claim and CPU owners. */
extern struct mutex pmcd_global_lock;
extern unsigned int pmcd_probe_users;	/* attached task sessions */
extern unsigned int pmcd_cpu_sessions;	/* attached CPU sessions */
extern raw_spinlock_t pmcd_hash_lock;
DECLARE_PER_CPU(struct pmcd_cpu, pmcd_cpus);		/* task sessions */
DECLARE_PER_CPU(struct pmcd_cpu, pmcd_cpu_pinned);	/* the CPU's CPU session */

/* The session memory goes with its last reference (the file's, or a task context's). */
static inline void pmcd_session_release(struct kref *ref)
{
	struct pmcd_session *s = container_of(ref, struct pmcd_session, ref);

	kvfree(s->mux);
	kfree(s->typed);
	put_pid(s->opener);
	kfree(s);
}

static inline void pmcd_session_put(struct pmcd_session *s)
{
	kref_put(&s->ref, pmcd_session_release);
}

/* Which of @t's programs runs on @pc's CPU: its core type's, or every other type's. */
static inline unsigned int pmcd_typed_index(const struct pmcd_typed *t, const struct pmcd_cpu *pc)
{
	unsigned int k;

	for (k = 0; k < t->nr && t->core_type[k] != pc->core_type; k++)
		;
	return k;
}

/* Which rotation of multiplexing @s runs on @pc's CPU (struct pmcd_mux). */
static inline unsigned int pmcd_mux_index(const struct pmcd_session *s, const struct pmcd_cpu *pc)
{
	return likely(!s->typed) ? 0 : pmcd_typed_index(s->typed, pc);
}

/* The program of @s that runs on @pc's CPU: its own, or its core type's. */
static inline const struct pmc_prog *pmcd_session_prog(const struct pmcd_session *s,
						       const struct pmcd_cpu *pc)
{
	if (likely(!s->typed))
		return &s->prog;
	return &s->typed->prog[pmcd_typed_index(s->typed, pc)];
}

/*
 * Load that program as pc->prog, with pc->map: NULL for the session's own
 * (slot i is hardware event i), a core type's map for a core type's.
 */
static inline void pmcd_session_load(const struct pmcd_session *s, struct pmcd_cpu *pc)
{
	unsigned int k;

	if (likely(!s->typed)) {
		pc->prog = &s->prog;
		pc->map = NULL;
		return;
	}
	k = pmcd_typed_index(s->typed, pc);
	pc->prog = &s->typed->prog[k];
	pc->map = s->typed->hw[k];
}

/*
 * A time enabled and its share yielded (sched.c, "Sharing a CPU"): add @dt
 * to @enabled and, when @yielded, to @yielded_ns, in that order; read the
 * running time (enabled less yielded) with the yielded share first, so that
 * it never exceeds the enabled time it is taken from.
 */
static inline void pmcd_time_add(atomic64_t *enabled, atomic64_t *yielded_ns, u64 dt, bool yielded)
{
	atomic64_add(dt, enabled);
	if (unlikely(yielded)) {
		smp_mb__before_atomic();	/* enabled first: pairs with pmcd_time_read() */
		atomic64_add(dt, yielded_ns);
	}
}

static inline void pmcd_time_read(const atomic64_t *enabled, const atomic64_t *yielded_ns,
				  u64 *time_enabled, u64 *time_running)
{
	u64 yielded = atomic64_read(yielded_ns);

	smp_rmb();	/* yielded first: pairs with pmcd_time_add() */
	*time_enabled = atomic64_read(enabled);
	*time_running = *time_enabled - min(yielded, *time_enabled);
}

/* Calls on a session: EOWNERDEAD once revoked, EBADFD before CONFIG.  s->lock held. */
static inline int pmcd_configured(const struct pmcd_session *s)
{
	if (s->revoked)
		return -EOWNERDEAD;
	return s->configured ? 0 : -EBADFD;
}

/* track.c: the tracked tasks */
struct pmcd_task_ctx *pmcd_lookup(struct task_struct *t);
void pmcd_track_locked(struct pmcd_session *s, struct pmcd_task_ctx *ctx, struct task_struct *t);
bool pmcd_untrack_locked(struct pmcd_task_ctx *ctx);
bool pmcd_session_task_cpus(struct pmcd_session *s, struct cpumask *mask);

/* sched.c: probes, per-CPU counting and folding */
int pmcd_sched_init(const struct pmcd_hw_caps *caps);
void pmcd_sched_exit(void);
void pmcd_ctx_free(struct pmcd_task_ctx *ctx);
void pmcd_ctx_free_later(struct pmcd_task_ctx *ctx);
int pmcd_probes_get(void);
void pmcd_probes_put(void);
unsigned long pmcd_probes_registrations(void);
void pmcd_fold_arm(void);
void pmcd_cpu_start(struct pmcd_cpu *pc, bool scrub);
void pmcd_cpu_restart(struct pmcd_cpu *pc);
void pmcd_cpu_fold(struct pmcd_cpu *pc);
void pmcd_cpu_fold_stop(struct pmcd_cpu *pc);
void pmcd_cpu_sched_out(struct pmcd_cpu *pc, bool context_switch);
void pmcd_ipi_start(void *info);
void pmcd_pinned_start(struct pmcd_session *s);
void pmcd_cpu_scrub_for_rdpmc(void);
void pmcd_cpu_rdpmc_now(struct pmcd_session *s);
/* The kernel's tracepoints of @names, into @tps; -ENOENT (and a message) when one is missing. */
int pmcd_find_tracepoints(const char *const *names, struct tracepoint **tps, unsigned int n,
			  bool quiet);
/*
 * Wherever @s runs (every CPU for a task session, its own CPU for a CPU
 * session): fold its counts; or fold and stop them.  Called with s->lock
 * held.
 */
void pmcd_session_fold(struct pmcd_session *s);
void pmcd_session_stop(struct pmcd_session *s);
void pmcd_session_stop_on(struct pmcd_session *s, const struct cpumask *mask);

/* cgroup.c: the cgroups of cgroup sessions */
int pmcd_cg_init(void);
int pmcd_cg_get(struct pmcd_session *s, unsigned int cpu, const s32 *fds, unsigned int nr);
void pmcd_cg_put(struct pmcd_session *s);
void pmcd_cg_start(struct pmcd_cpu *pc);
void pmcd_cg_reset(struct pmcd_session *s);
void pmcd_cg_read(struct pmcd_session *s, unsigned int i, struct pmcdrv_read *r);

/* cpu_session.c */
int pmcd_cpu_sessions_init(void);
void pmcd_cpu_sessions_exit(void);
int pmcd_cpu_attach(struct pmcd_session *s, unsigned int cpu);
void pmcd_cpu_detach(struct pmcd_session *s);
void pmcd_cpu_session_enable(struct pmcd_session *s);
void pmcd_cpu_session_disable(struct pmcd_session *s);

/* perm.c */
bool pmcd_may_count(kgid_t dev_gid);
bool pmcd_may_count_kernel(void);
bool pmcd_may_count_cpu(void);
int pmcd_may_attach(struct task_struct *task);

#endif /* PMCDRV_INTERNAL_H */
