/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pmcdrv: user-space ABI of /dev/pmcdrv.
 *
 * This header is the only contract between pmcdrv.ko and user space.
 *
 * Conventions (see docs/abi.md for the full reference):
 *  - Every struct starts with a __u32 'size' that the caller sets to the
 *    size of the struct it was compiled with.  Structs only grow; each
 *    published layout has a PMCDRV_*_SIZE_VER<n> constant.  The kernel
 *    rejects a size below VER0 with EINVAL, and a larger size whose bytes
 *    beyond the kernel's layout are not all zero with E2BIG (the semantics
 *    of copy_struct_from_user()).  Output is written back for
 *    min(size, kernel size) bytes.
 *  - Fields named reserved* must be zero on input (EINVAL otherwise); the
 *    kernel writes zero to them on output.
 *  - The size bits encoded in the ioctl number are ignored; 'size' is
 *    authoritative.  Unknown commands fail with ENOTTY.
 *  - Only __u32 and __u64 fields, naturally aligned, no implicit padding,
 *    so 32-bit and 64-bit callers share one layout.
 */
#ifndef _UAPI_LINUX_PMCDRV_H
#define _UAPI_LINUX_PMCDRV_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PMCDRV_DEVICE_NAME	"pmcdrv"
#define PMCDRV_API_VERSION	1

/*
 * ioctl type byte: 0xD2 is free in Documentation/userspace-api/ioctl/
 * ioctl-number.rst (Linux 6.1) and no uapi header uses it.  The first ABI
 * used 0xB7, which nsfs (NS_GET_*) and remoteproc use.
 */
#define PMCDRV_IOC_MAGIC	0xD2

/* struct pmcdrv_info.vendor */
enum pmcdrv_vendor {
	PMCDRV_VENDOR_UNKNOWN	= 0,
	PMCDRV_VENDOR_INTEL	= 1,
	PMCDRV_VENDOR_AMD	= 2,
	PMCDRV_VENDOR_OTHER	= 3,
};

/* struct pmcdrv_info.flags */
#define PMCDRV_INFO_ARCH_PERFMON	(1U << 0) /* CPUID.0AH reports a PMU */
#define PMCDRV_INFO_PDCM		(1U << 1) /* perf_capabilities is valid */
#define PMCDRV_INFO_FW_WRITE		(1U << 2) /* full-width PMC writes */
#define PMCDRV_INFO_HYPERVISOR		(1U << 3) /* CPUID.01H:ECX[31] */
#define PMCDRV_INFO_GLOBAL_INUSE	(1U << 4) /* in_use_hw read GLOBAL_INUSE */
#define PMCDRV_INFO_CLAIMED		(1U << 5) /* pmcdrv's sessions hold the PMU now */
#define PMCDRV_INFO_HW_FAULTS		(1U << 6) /* some PMU MSR access faulted: hw_faults */
/*
 * A hybrid part (P-cores and E-cores): the counters are those CPUID.0AH
 * reports, the ones every core type has, and only the architectural events
 * (the same encoding and meaning on every type) are counted.
 */
#define PMCDRV_INFO_HYBRID		(1U << 7)

/*
 * PMCDRV_IOC_INFO: what the CPU's PMU offers and who is using it.
 *
 * Counter masks (avail_mask, in_use_*) use the IA32_PERF_GLOBAL_CTRL layout:
 * bit i is general-purpose counter i, bit 32+i is fixed counter i.
 */
struct pmcdrv_info {
	__u32 size;			/* in: sizeof(struct pmcdrv_info) */
	__u32 api_version;		/* out: PMCDRV_API_VERSION */
	__u32 flags;			/* out: PMCDRV_INFO_* */
	__u32 vendor;			/* out: enum pmcdrv_vendor */
	__u32 vendor_id[4];		/* out: CPUID.0H vendor string, NUL-padded */
	__u32 family;			/* out: display family */
	__u32 model;			/* out: display model */
	__u32 stepping;			/* out */
	__u32 perfmon_version;		/* out: CPUID.0AH:EAX[7:0], 0 = none */
	__u32 num_gp;			/* out: general-purpose counters per CPU */
	__u32 gp_width;			/* out: their width in bits */
	__u32 num_fixed;		/* out: fixed-function counters */
	__u32 fixed_width;		/* out: their width in bits */
	__u32 events_len;		/* out: CPUID.0AH:EAX[31:24] */
	__u32 events_avail;		/* out: bit n = architectural event n available */
	__u32 nr_cpus;			/* out: online CPUs inspected for in_use_* */
	__u32 reserved0;		/* must be zero */
	__u64 perf_capabilities;	/* out: IA32_PERF_CAPABILITIES if PDCM */
	__u64 avail_mask;		/* out: counters that exist */
	__u64 in_use_hw;		/* out: enabled in hardware on any CPU (CLAIMED: ours) */
	__u64 in_use_reserved;		/* out: held by another kernel user (perf, NMI watchdog) */
	/*
	 * out: PMU MSR accesses of the module that faulted (#GP) since it was
	 * loaded, on any CPU; 0 from a module older than the field (it was
	 * reserved[0]).  Not checked on input.
	 */
	__u64 hw_faults;
	/*
	 * out: how often the module registered its scheduler probes since it
	 * was loaded; each registration, and the unregistration after it,
	 * patches kernel text on every CPU.  0 from a module older than the
	 * field (it was reserved[0]).  Not checked on input.
	 */
	__u64 probe_registrations;
	__u64 reserved[2];		/* must be zero */
};

#define PMCDRV_INFO_SIZE_VER0	144

/* ---- Sessions: one open file of /dev/pmcdrv counts one set of events ---- */

/*
 * Events of one session.  A caller built with the first layout (16 events
 * of PMCDRV_EVENT_SIZE_VER0 bytes, PMCDRV_CONFIG_SIZE_VER0) keeps working:
 * the module reads the layout its 'size' and 'event_size' describe.
 */
#define PMCDRV_MAX_EVENTS	32
#define PMCDRV_MAX_EVENTS_VER0	16

/* struct pmcdrv_event.type */
enum pmcdrv_event_type {
	PMCDRV_EVENT_HW		= 1,	/* a PMU event given by its fields */
	PMCDRV_EVENT_SW		= 2,	/* a software event: sw_id */
};

/* struct pmcdrv_event.sw_id */
enum pmcdrv_sw_event {
	PMCDRV_SW_TASK_CLOCK		= 1,	/* ns on a CPU while enabled */
	PMCDRV_SW_CONTEXT_SWITCHES	= 2,	/* times a tracked task left a CPU */
	PMCDRV_SW_CPU_MIGRATIONS	= 3,	/* times it came back on another CPU */
};

/* struct pmcdrv_event.flags (PMCDRV_EVENT_HW) */
#define PMCDRV_EVF_USER		(1U << 0)	/* count at CPL > 0 */
#define PMCDRV_EVF_KERNEL	(1U << 1)	/* count at CPL 0 */
#define PMCDRV_EVF_EDGE		(1U << 2)	/* EVTSEL.E */
#define PMCDRV_EVF_INV		(1U << 3)	/* EVTSEL.INV (needs cmask) */
#define PMCDRV_EVF_NO_FIXED	(1U << 4)	/* use a general-purpose counter */

/*
 * One event.  A hardware event is never a raw EVTSEL value: the module
 * builds the register from these fields, so EN, INT, AnyThread, pin
 * control and reserved bits cannot be set from user space.
 */
/* Core types of a hybrid part (CPUID.1AH:EAX[31:24]). */
#define PMCDRV_CORE_TYPE_ATOM	0x20	/* an E-core */
#define PMCDRV_CORE_TYPE_CORE	0x40	/* a P-core */

struct pmcdrv_event {
	__u32 type;		/* enum pmcdrv_event_type */
	__u32 flags;		/* PMCDRV_EVF_* (HW); 0 for SW */
	__u32 event;		/* HW: event select, 0..0xff */
	__u32 umask;		/* HW: unit mask, 0..0xff */
	__u32 cmask;		/* HW: counter mask, 0..0xff */
	__u32 sw_id;		/* SW: enum pmcdrv_sw_event */
	__u32 counter;		/* out: GLOBAL_CTRL bit of the counter it got (HW), ~0 for SW */
	/*
	 * HW on a hybrid part: count only on CPUs of this core type
	 * (CPUID.1AH:EAX[31:24], PMCDRV_CORE_TYPE_*), as perf's cpu_atom/.../
	 * and cpu_core/.../ do; 0: on every core type.  It was reserved: a
	 * caller from before it passes 0.
	 */
	__u32 core_type;
	/* ---- PMCDRV_EVENT_SIZE_VER1 ---- */
	/*
	 * HW: the value of the event's extra register, for the events of the
	 * model that have one (OFFCORE_RESPONSE: MSR_OFFCORE_RSP_0/1); must be
	 * zero for every other event.  Checked against the model's valid bits.
	 */
	__u64 extra;
	/*
	 * Events with the same non-zero group are counted together or not at
	 * all (perf's {a,b}); 0: the event is a group of its own.
	 */
	__u32 group;
	__u32 reserved1;	/* must be zero */
};

#define PMCDRV_EVENT_SIZE_VER0	32
#define PMCDRV_EVENT_SIZE_VER1	48

/* struct pmcdrv_config.flags */
#define PMCDRV_CONFIG_NO_INHERIT	(1U << 0)	/* do not follow forks and threads */

/*
 * PMCDRV_IOC_CONFIG: the events of this session, once, before ATTACH.
 * Hardware events claim the PMU for pmcdrv (EBUSY while perf_events or
 * the NMI watchdog holds it).
 */
struct pmcdrv_config {
	__u32 size;			/* in: sizeof(struct pmcdrv_config) */
	__u32 flags;			/* in: PMCDRV_CONFIG_* */
	__u32 nr_events;		/* in: 1..PMCDRV_MAX_EVENTS */
	/*
	 * in: sizeof(struct pmcdrv_event) of the caller, the stride of
	 * events[]; 0 (a caller of the first layout) means
	 * PMCDRV_EVENT_SIZE_VER0.  events[] holds (size - 32) / event_size
	 * entries.
	 */
	__u32 event_size;
	/*
	 * in: with more hardware events than counters (or extra registers
	 * that two of them need with different values), the session
	 * multiplexes: its scheduling units (a group, or a lone event) take
	 * turns on the counters, one turn every mux_interval_ns of the time it
	 * counts on a CPU.  0: perf's default, 1000 / HZ ms of the kernel (4 ms
	 * at HZ=250, kernel/events/core.c PERF_CPU_HRTIMER); otherwise
	 * PMCDRV_MUX_INTERVAL_MIN_NS..PMCDRV_MUX_INTERVAL_MAX_NS (EINVAL
	 * outside).  Ignored by a session that fits the counters.  It
	 * was reserved[0]: a caller of the first layout passes 0.
	 */
	__u64 mux_interval_ns;
	__u64 reserved[1];		/* must be zero */
	struct pmcdrv_event events[PMCDRV_MAX_EVENTS];	/* unused entries must be zero */
};

/* bounds of mux_interval_ns; perf_event_mux_interval_ms is at least 1 ms too */
#define PMCDRV_MUX_INTERVAL_MIN_NS	1000000ULL
#define PMCDRV_MUX_INTERVAL_MAX_NS	1000000000ULL

/* 16 events of PMCDRV_EVENT_SIZE_VER0 bytes */
#define PMCDRV_CONFIG_SIZE_VER0	544
/* 32 events of PMCDRV_EVENT_SIZE_VER1 bytes */
#define PMCDRV_CONFIG_SIZE_VER1	1568

/* struct pmcdrv_attach.flags */
#define PMCDRV_ATTACH_ENABLE_ON_EXEC	(1U << 0)	/* start counting at the task's next exec */
#define PMCDRV_ATTACH_CPU		(1U << 1)	/* count everything that runs on 'cpu' */
/* with PMCDRV_ATTACH_CPU: count only the tasks of cgroup_fds' cgroups there */
#define PMCDRV_ATTACH_CGROUP		(1U << 2)

/* cgroups of one cgroup session, at most */
#define PMCDRV_MAX_CGROUPS	64

/*
 * PMCDRV_IOC_ATTACH: count a task (and, unless NO_INHERIT, every task it
 * creates from now on), pid 0 being the caller; or, with PMCDRV_ATTACH_CPU,
 * everything that runs on one CPU (a CPU session: pid must be 0, no
 * ENABLE_ON_EXEC).  Once per session.
 *
 * With PMCDRV_ATTACH_CPU | PMCDRV_ATTACH_CGROUP, a cgroup session: the
 * session counts on 'cpu' only while a task of one of the nr_cgroups
 * cgroups (each with its subtree, as perf's cgroup events: a cgroup v2
 * directory's file descriptor, opened O_RDONLY) runs there.  READ gives
 * the counts of the time any of them ran, READ_CGROUP each cgroup's own.
 * The fds may be closed after ATTACH: the session holds the cgroups.
 */
struct pmcdrv_attach {
	__u32 size;			/* in: sizeof(struct pmcdrv_attach) */
	__u32 flags;			/* in: PMCDRV_ATTACH_* */
	__s32 pid;			/* in: 0 = calling thread */
	__u32 cpu;			/* in: the CPU with PMCDRV_ATTACH_CPU, else zero */
	/*
	 * in, with PMCDRV_ATTACH_CGROUP (else zero): the address of
	 * nr_cgroups (1..PMCDRV_MAX_CGROUPS) __s32 file descriptors.  They
	 * were reserved[0] and [1]: a caller of the first layout passes 0.
	 */
	__u64 cgroup_fds;
	__u32 nr_cgroups;
	__u32 reserved1;		/* must be zero */
};

#define PMCDRV_ATTACH_SIZE_VER0	32

/* struct pmcdrv_read.flags */
#define PMCDRV_READ_ENABLED	(1U << 0)	/* the session is enabled */
#define PMCDRV_READ_ATTACHED	(1U << 1)	/* at least one task is tracked now */
/*
 * No tracked task remains (the attached task and every task that inherited
 * the session exited, or stopped being counted at a setuid exec): the
 * counts are final.
 */
#define PMCDRV_READ_EXITED	(1U << 2)
#define PMCDRV_READ_LOST_TASKS	(1U << 3)	/* some new tasks were not tracked: lost_tasks */
/* a tracked task exec'd a non-dumpable (setuid) image: not counted from there */
#define PMCDRV_READ_SECURE_EXEC	(1U << 4)
/* an MSR access faulted while this session's counters were programmed or read */
#define PMCDRV_READ_HW_FAULTS	(1U << 5)
/*
 * The session multiplexes (pmcdrv_config.mux_interval_ns): each event's
 * time_running is its own, in times[] (PMCDRV_READ_SIZE_VER1).
 */
#define PMCDRV_READ_MULTIPLEXED	(1U << 6)
/* READ_CGROUP: the cgroup was removed; its counts are final */
#define PMCDRV_READ_CGROUP_REMOVED	(1U << 7)

/* PMCDRV_IOC_READ: every value of the session in one call. */
struct pmcdrv_read {
	__u32 size;			/* in: sizeof(struct pmcdrv_read) */
	__u32 flags;			/* out: PMCDRV_READ_* */
	__u32 nr_events;		/* out: events configured */
	__u32 nr_tasks;			/* out: tasks tracked now */
	__u64 time_enabled;		/* out: ns tracked tasks were on a CPU while enabled */
	__u64 time_running;		/* out: ns of that the counters were counting */
	/*
	 * out: new tasks not tracked because the session's pool of
	 * preallocated task contexts was empty at their fork (forks faster
	 * than the pool refills, or memory short for the refill)
	 */
	__u64 lost_tasks;
	/*
	 * out: PMU MSR accesses that faulted (#GP) while this session's
	 * counters were started or stopped; its counts may be wrong.  0 from a
	 * module older than the field (it was reserved[0]).  Not checked on input.
	 */
	__u64 hw_faults;
	/*
	 * in, READ_CGROUP: which of the session's cgroups (an index into
	 * pmcdrv_attach.cgroup_fds); zero for READ and READ_SELF.  It was
	 * reserved[0].
	 */
	__u64 cgroup;
	__u64 reserved[1];		/* must be zero */
	/* out: in the order of pmcdrv_config.events (16 in PMCDRV_READ_SIZE_VER0) */
	__u64 values[PMCDRV_MAX_EVENTS];
	/* ---- PMCDRV_READ_SIZE_VER1 ---- */
	/*
	 * out: per event, ns its tracked tasks were on a CPU while enabled and
	 * ns of that the event was on a counter (equal unless the session
	 * multiplexes: see pmcdrv_config.mux_interval_ns); the scaled estimate
	 * of a count is values[i] * time_enabled / time_running.
	 */
	struct pmcdrv_read_time {
		__u64 time_enabled;
		__u64 time_running;
	} times[PMCDRV_MAX_EVENTS];
};

/* 16 values */
#define PMCDRV_READ_SIZE_VER0	192
/* 32 values and their times */
#define PMCDRV_READ_SIZE_VER1	832

/* ---- READ on a hybrid CPU: the counts of each core type ------------------- */

/* Core types READ can tell apart (an Arrow Lake-H has three kinds of core). */
#define PMCDRV_MAX_CORE_TYPES	4

/* One core type's share of a session's counts. */
struct pmcdrv_read_type {
	/*
	 * CPUID.1AH:EAX of this type's CPUs: the core type in bits 31:24 (0x20
	 * an E-core, Intel Atom; 0x40 a P-core, Intel Core), the native model ID
	 * in bits 23:0.
	 */
	__u32 cpuid_1a;
	__u32 reserved;
	/* ns the tracked tasks were on a CPU of this type while enabled */
	__u64 time_enabled;
	/*
	 * The raw counts there, in the order of pmcdrv_config.events: a
	 * hardware event's count, task-clock's ns; 0 for context-switches
	 * and cpu-migrations, which are not split.  Never scaled: the values
	 * of all types add up to pmcdrv_read.values exactly.
	 */
	__u64 values[PMCDRV_MAX_EVENTS];
};

/*
 * PMCDRV_IOC_READ with read.size = sizeof(struct pmcdrv_read_types): the
 * same reply, and on a hybrid CPU (PMCDRV_INFO_HYBRID) the split by core
 * type, taken in the same fold.  A module older than this layout answers
 * read.size = PMCDRV_READ_SIZE_VER1 and leaves the rest as it was (zeros).
 */
struct pmcdrv_read_types {
	struct pmcdrv_read read;
	/*
	 * out: entries of types[] filled, one per core type seen online since
	 * the module loaded, in the order first seen; 0 where the CPU is not
	 * hybrid, and for READ_SELF and READ_CGROUP.  (A module of the
	 * PMCDRV_READ_SIZE_VER2 layout also left it 0 while the session
	 * multiplexed.)
	 */
	__u32 nr_types;
	__u32 reserved;
	struct pmcdrv_read_type types[PMCDRV_MAX_CORE_TYPES];
	/*
	 * out (PMCDRV_READ_SIZE_VER3): ns each event of types[t] was on a
	 * counter of that type while enabled, in the order of
	 * pmcdrv_config.events; a software event's, that type's time_enabled.
	 * Less than the type's time_enabled where its events take turns
	 * (multiplexing: each core type has its own turns), or the session
	 * yielded its counters; 0 for an event that names another core type.
	 * A type's estimate of an event is values x time_enabled / this, never
	 * the session's whole time.
	 */
	__u64 time_running[PMCDRV_MAX_CORE_TYPES][PMCDRV_MAX_EVENTS];
};

/* the split by core type */
#define PMCDRV_READ_SIZE_VER2	1928
/* and each core type's running times */
#define PMCDRV_READ_SIZE_VER3	2952

/* ---- Self-read: a tracked thread reads its own counts ---------------------- */

/*
 * mmap(NULL, page size, PROT_READ, MAP_SHARED, session fd, PMCDRV_SELF_MMAP_OFFSET)
 * by a thread the session tracks maps that thread's own page: its counts
 * since it first mapped the page or asked PMCDRV_IOC_READ_SELF, never the
 * other tasks' of the session.  The page is read-only (PROT_WRITE: EPERM),
 * not inherited by fork (the child maps its own), and lives until the last
 * mapping and the thread's tracking are gone.  Errors: EINVAL (not
 * MAP_SHARED, other length or offset), EPERM (PROT_WRITE), EBADFD (not
 * attached), EOPNOTSUPP (a CPU session), ESRCH (the calling thread is not
 * tracked by this session), ENOMEM.  docs/abi.md has the read protocol.
 */
#define PMCDRV_SELF_MMAP_OFFSET		0
/* events a self-read page describes: the first 16 of the session */
#define PMCDRV_SELF_MAX_EVENTS		16
#define PMCDRV_SELF_PAGE_VERSION	1

/* struct pmcdrv_self_page.flags */
#define PMCDRV_SELF_COUNTING	(1U << 0)	/* counting on a CPU now: index is live */
#define PMCDRV_SELF_RDPMC	(1U << 1)	/* hardware events: RDPMC allowed in this process */
#define PMCDRV_SELF_TIME_TSC	(1U << 2)	/* time runs: add the TSC since time_cycles */

/*
 * One event of the page.  While index != 0 its value is
 *   offset + ((rdpmc(index - 1) - base) & mask)
 * and otherwise offset (a software event, or the thread is not counting).
 */
struct pmcdrv_self_event {
	__u32 index;		/* RDPMC's ECX + 1 (bit 30: fixed counter); 0: read offset */
	__u32 width;		/* counter width in bits, 0 for software events */
	__u64 offset;		/* the thread's count when the counter read 'base' */
	__u64 base;		/* raw counter value at that moment */
	__u64 mask;		/* 2^width - 1, ready for the read */
};

/*
 * The page.  Read it as perf_event_mmap_page: seq = page->seq, compiler
 * barrier, read the fields and RDPMC, compiler barrier, retry while
 * page->seq != seq.  The kernel changes seq around every update: the
 * thread's switch-in, switch-out (which includes migration), fold (READ,
 * the periodic fold), ENABLE and DISABLE.  Software events are as of the
 * last update; PMCDRV_IOC_READ_SELF gives them live.
 *
 * The times are as of the last update too, unless flags has
 * PMCDRV_SELF_TIME_TSC (kernels before it leave the fields 0 and never set
 * it): the kernel counts the thread's time in TSC cycles, the thread is on
 * a CPU, its time runs since time_cycles, and within the same seq loop
 *
 *	cyc   = rdtsc() - time_cycles;
 *	quot  = cyc >> time_shift;
 *	rem   = cyc & ((1ULL << time_shift) - 1);
 *	delta = quot * time_mult + ((rem * time_mult) >> time_shift);
 *	time_enabled += delta;  time_running += delta;
 *
 * (perf_event_mmap_page's cap_user_time conversion) gives them live, equal
 * to what the next update will store had it happened at that RDTSC.
 */
struct pmcdrv_self_page {
	__u32 version;			/* PMCDRV_SELF_PAGE_VERSION */
	__u32 size;			/* sizeof(struct pmcdrv_self_page) of the kernel */
	__u32 seq;			/* update count (perf's 'lock') */
	__u32 flags;			/* PMCDRV_SELF_* */
	__u32 nr_events;		/* as configured */
	/*
	 * A hybrid CPU: the core type (CPUID.1AH:EAX[31:24], 0x40 a P-core,
	 * 0x20 an E-core) of the CPU the thread counts on, written as it
	 * starts counting there; 0 elsewhere, and from a module before it
	 * (it was reserved0).  Read it between the two reads of seq.
	 */
	__u32 core_type;
	__u64 time_enabled;		/* ns the thread counted, at the last update */
	__u64 time_running;		/* = time_enabled: no multiplexing */
	/* Read only with PMCDRV_SELF_TIME_TSC (kernels before it: 0) */
	__u64 time_cycles;		/* TSC when time_enabled was taken */
	__u32 time_mult;		/* ns = cycles * time_mult >> time_shift */
	__u32 time_shift;		/* at most 32 */
	__u64 reserved;
	struct pmcdrv_self_event events[PMCDRV_SELF_MAX_EVENTS];	/* config order */
};

#define PMCDRV_SELF_PAGE_SIZE_VER0	576

/* ---- Who counts: the module's sessions, and revoking them ------------------- */

/* struct pmcdrv_session_info.flags */
#define PMCDRV_SESSION_CONFIGURED	(1U << 0)	/* CONFIG done */
#define PMCDRV_SESSION_ATTACHED		(1U << 1)	/* ATTACH done */
#define PMCDRV_SESSION_ENABLED		(1U << 2)	/* enabled (the default) */
/* counting hardware events now: it holds pmcdrv's claim on the PMU */
#define PMCDRV_SESSION_COUNTING		(1U << 3)
#define PMCDRV_SESSION_CPU		(1U << 4)	/* a CPU session: cpu is valid */
#define PMCDRV_SESSION_REVOKED		(1U << 5)	/* revoked (PMCDRV_IOC_REVOKE) */
/* the caller may not see this session's events: nr_events only */
#define PMCDRV_SESSION_EVENTS_HIDDEN	(1U << 6)

/*
 * One session, as PMCDRV_IOC_SESSIONS describes it.  The opener is the
 * process that opened the file: its user and thread-group id as the
 * caller's namespaces see them (uid 65534 and pid 0 when they cannot), and
 * its comm at open.  events[] are the session's events as CONFIG gave them
 * (counter filled in), for a caller with CAP_PERFMON or the opener's uid;
 * otherwise zero, with PMCDRV_SESSION_EVENTS_HIDDEN.
 */
struct pmcdrv_session_info {
	__u64 id;			/* the session's id, for PMCDRV_IOC_REVOKE */
	__u32 flags;			/* PMCDRV_SESSION_* */
	__u32 uid;			/* the opener's effective uid */
	__s32 pid;			/* the opener's thread-group id */
	__u32 cpu;			/* with PMCDRV_SESSION_CPU */
	__u32 nr_tasks;			/* tasks tracked now */
	__u32 nr_events;		/* events configured */
	char comm[16];			/* the opener's comm, NUL-terminated */
	__u64 reserved[2];		/* zero */
	struct pmcdrv_event events[PMCDRV_MAX_EVENTS];
};

#define PMCDRV_SESSION_INFO_SIZE_VER0	1600

/*
 * PMCDRV_IOC_SESSIONS: every session of the module, oldest first.  The
 * caller passes an array of nr_entries entries of entry_size bytes each
 * (at least PMCDRV_SESSION_INFO_SIZE_VER0; larger entries get zeros past
 * the kernel's layout) at 'entries'; the kernel writes
 * min(nr_entries, nr_sessions) of them and sets nr_sessions to how many
 * sessions there are.  nr_entries 0 asks for the count alone.
 */
struct pmcdrv_sessions {
	__u32 size;			/* in: sizeof(struct pmcdrv_sessions) */
	__u32 nr_entries;		/* in: capacity of entries[] */
	__u32 entry_size;		/* in: sizeof(struct pmcdrv_session_info) */
	__u32 nr_sessions;		/* out: sessions now */
	__u64 entries;			/* in: user pointer to the array */
	__u64 reserved[2];		/* must be zero */
};

#define PMCDRV_SESSIONS_SIZE_VER0	40

/*
 * PMCDRV_IOC_REVOKE: end session 'id' (PMCDRV_IOC_SESSIONS gives it) for
 * its owner: it stops counting, its tasks are untracked, its CPU session
 * detached and its share of the PMU claim released.  Its file stays open;
 * every later call on it (ioctl, mmap) fails with EOWNERDEAD, and a
 * self-read page of it stops counting (flags without COUNTING).  Needs
 * CAP_PERFMON (or CAP_SYS_ADMIN): EPERM otherwise.  ESRCH: no such
 * session; EALREADY: already revoked.
 */
struct pmcdrv_revoke {
	__u32 size;			/* in: sizeof(struct pmcdrv_revoke) */
	__u32 flags;			/* must be zero */
	__u64 id;			/* in: the session */
	__u64 reserved[2];		/* must be zero */
};

#define PMCDRV_REVOKE_SIZE_VER0		32

/*
 * PMCDRV_IOC_API_VERSION: returns PMCDRV_API_VERSION as the ioctl's value.
 * PMCDRV_IOC_INFO: fills struct pmcdrv_info.
 * PMCDRV_IOC_CONFIG, _ATTACH, _READ: see their structs.
 * PMCDRV_IOC_ENABLE, _DISABLE, _RESET: no argument (arg must be 0).
 * PMCDRV_IOC_READ_SELF: struct pmcdrv_read with the calling thread's own
 *   counts (as its self-read page gives them, live): values, time_enabled
 *   and time_running of that thread since it first mapped its page or
 *   asked READ_SELF; nr_tasks 1, flags ENABLED and ATTACHED as READ's.
 *   ESRCH when the session does not track the calling thread, EOPNOTSUPP
 *   for a CPU session, EBADFD before ATTACH.  Kernels before it: ENOTTY.
 * PMCDRV_IOC_SESSIONS, _REVOKE: see their structs; kernels before them: ENOTTY.
 * PMCDRV_IOC_READ_CGROUP: struct pmcdrv_read with the counts of cgroup
 *   number 'cgroup' of a cgroup session: while its tasks ran on the
 *   session's CPU and it was enabled.  EINVAL: no such index;
 *   EOPNOTSUPP: not a cgroup session; EBADFD before ATTACH.  Kernels
 *   before it: ENOTTY.
 * After a REVOKE of the session, every call but API_VERSION, INFO and
 * SESSIONS fails with EOWNERDEAD.
 */
#define PMCDRV_IOC_API_VERSION	_IO(PMCDRV_IOC_MAGIC, 0x00)
#define PMCDRV_IOC_INFO		_IOWR(PMCDRV_IOC_MAGIC, 0x01, struct pmcdrv_info)
#define PMCDRV_IOC_CONFIG	_IOWR(PMCDRV_IOC_MAGIC, 0x02, struct pmcdrv_config)
#define PMCDRV_IOC_ATTACH	_IOW(PMCDRV_IOC_MAGIC, 0x03, struct pmcdrv_attach)
#define PMCDRV_IOC_ENABLE	_IO(PMCDRV_IOC_MAGIC, 0x04)
#define PMCDRV_IOC_DISABLE	_IO(PMCDRV_IOC_MAGIC, 0x05)
#define PMCDRV_IOC_RESET	_IO(PMCDRV_IOC_MAGIC, 0x06)
#define PMCDRV_IOC_READ		_IOWR(PMCDRV_IOC_MAGIC, 0x07, struct pmcdrv_read)
#define PMCDRV_IOC_READ_SELF	_IOWR(PMCDRV_IOC_MAGIC, 0x08, struct pmcdrv_read)
#define PMCDRV_IOC_SESSIONS	_IOWR(PMCDRV_IOC_MAGIC, 0x09, struct pmcdrv_sessions)
#define PMCDRV_IOC_REVOKE	_IOW(PMCDRV_IOC_MAGIC, 0x0a, struct pmcdrv_revoke)
#define PMCDRV_IOC_READ_CGROUP	_IOWR(PMCDRV_IOC_MAGIC, 0x0b, struct pmcdrv_read)

#endif /* _UAPI_LINUX_PMCDRV_H */
