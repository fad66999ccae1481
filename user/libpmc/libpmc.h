/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpmc: the C library under pmcctl.
 *
 * Rules: no global state (every call works on an opaque handle or on the
 * caller's structs; the one exception is the region API, see "regions"),
 * every function returns 0 or a negative errno and never prints or exits.
 * Thread-compatible: one handle per thread, or lock it (regions are thread-safe).
 */
#ifndef PMCDRV_LIBPMC_H
#define PMCDRV_LIBPMC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/pmcdrv.h>
#include <pmcdrv/pmu.h>

#define PMC_DEFAULT_DEVICE	"/dev/" PMCDRV_DEVICE_NAME

/* ---- sessions: one open of /dev/pmcdrv ----------------------------------- */
struct pmc_session;

/* Open @path (NULL: /dev/pmcdrv), close-on-exec.  -ENOENT: module not loaded. */
int pmc_session_open(const char *path, struct pmc_session **out);
/* Untracks every task and frees the handle (counts are gone). */
void pmc_session_close(struct pmc_session *s);
/* The module's PMCDRV_API_VERSION (> 0), or -errno. */
int pmc_session_api_version(struct pmc_session *s);
/* PMCDRV_IOC_INFO; fills @info completely. */
int pmc_session_info(struct pmc_session *s, struct pmcdrv_info *info);

/* The session's file descriptor (close-on-exec): to hand it to a child, or to mmap its self-read page. */
int pmc_session_fd(const struct pmc_session *s);
/*
 * A handle on session @fd that another process configured and attached
 * (the fd 'pmcctl run --regions' passes its command); the handle owns @fd
 * and closes it.  -EBADF: @fd is not open; -ENOTTY: not a pmcdrv device;
 * -EBADFD: not configured.  pmc_session_counter() is ~0 for its events.
 */
int pmc_session_adopt(int fd, struct pmc_session **out);

/* Add an event (before attach); returns its index, or -E2BIG when full. */
int pmc_session_add(struct pmc_session *s, const struct pmcdrv_event *ev);
/* Do not follow forks and threads (default: follow). */
void pmc_session_set_inherit(struct pmc_session *s, bool inherit);
/*
 * With more hardware events than counters the session multiplexes: its
 * events take turns on the counters every @ns of counting (0: the
 * module's default, perf's 1000/HZ ms; else PMCDRV_MUX_INTERVAL_MIN_NS..
 * PMCDRV_MUX_INTERVAL_MAX_NS, -EINVAL from config otherwise).  Before
 * config; -EALREADY after.
 */
int pmc_session_set_mux_interval(struct pmc_session *s, uint64_t ns);
/* Send the events (PMCDRV_IOC_CONFIG); attach does it when not done yet. */
int pmc_session_config(struct pmc_session *s);
/* GLOBAL_CTRL bit of the counter event @i got (after config), ~0 for software. */
uint32_t pmc_session_counter(const struct pmc_session *s, unsigned int i);
/* Count @pid (0: the calling thread); flags: PMCDRV_ATTACH_*. */
int pmc_session_attach(struct pmc_session *s, pid_t pid, uint32_t flags);
/*
 * Count everything that runs on @cpu instead (a CPU session; root or
 * CAP_PERFMON unless kernel.perf_event_paranoid <= 0).  -ENXIO: no such CPU
 * or offline; -EBUSY: the CPU has a CPU session (task sessions count beside it),
 * -EOPNOTSUPP: context-switches or cpu-migrations configured.
 */
int pmc_session_attach_cpu(struct pmc_session *s, unsigned int cpu);
/*
 * Count on @cpu only while a task of one of @nr cgroups runs there (a
 * cgroup session): @fds are cgroup v2 directories opened O_RDONLY, each
 * with its subtree, 1..PMCDRV_MAX_CGROUPS of them (-EINVAL otherwise).
 * The rules of a CPU session apply; -EBADF: an fd is not a cgroup v2
 * directory.  The fds may be closed afterwards.
 */
int pmc_session_attach_cgroups(struct pmc_session *s, unsigned int cpu, const int *fds,
			       unsigned int nr);
int pmc_session_enable(struct pmc_session *s);
int pmc_session_disable(struct pmc_session *s);
int pmc_session_reset(struct pmc_session *s);
/*
 * All values, times and flags in one call.  r->times[i] holds event i's own
 * time_enabled and time_running (they differ when the session multiplexes:
 * flag PMCDRV_READ_MULTIPLEXED); pmc_scale_count() estimates its count.
 */
int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r);
/*
 * pmc_session_read() with, on a hybrid CPU, the split by core type taken in
 * the same fold: rt->nr_types entries of rt->types[], whose raw values add
 * up to rt->read.values exactly, and each type's running time of each
 * event (rt->time_running: less than the type's time where the events take
 * turns).  nr_types is 0 where the CPU is not hybrid, and from a module
 * older than the split.  Costs more than pmc_session_read() (2,952 bytes
 * copied out).
 */
int pmc_session_read_types(struct pmc_session *s, struct pmcdrv_read_types *rt);
/*
 * perf stat's estimate of a multiplexed count (libperf's
 * perf_counts_values__scale()): @val * @enabled / @running in double
 * precision, truncated; @val when running >= enabled.  Returns 1 when it
 * scaled, 0 when it did not need to, -1 when running is 0 (*@out 0: perf's
 * "<not counted>").
 */
int pmc_scale_count(uint64_t val, uint64_t enabled, uint64_t running, uint64_t *out);
/*
 * The calling thread's own counts (PMCDRV_IOC_READ_SELF): since it first
 * mapped its self-read page or asked this.  -ESRCH: the session does not
 * track the thread; -EOPNOTSUPP: a CPU session; -ENOTTY: a module before it.
 */
int pmc_session_read_self(struct pmc_session *s, struct pmcdrv_read *r);
/*
 * A cgroup session's counts of cgroup number @i (its index in
 * pmc_session_attach_cgroups()' @fds), as pmc_session_read() gives the
 * session's; flag PMCDRV_READ_CGROUP_REMOVED when it was removed.
 * -EINVAL: no such index; -EOPNOTSUPP: not a cgroup session.
 */
int pmc_session_read_cgroup(struct pmc_session *s, unsigned int i, struct pmcdrv_read *r);

/*
 * What -errno @err of session call @cmd (PMCDRV_IOC_*, 0 when none in
 * particular) means with pmcdrv, for a message: -EOWNERDEAD is a session
 * revoked by an administrator, -EBUSY at PMCDRV_IOC_ENABLE the PMU held by
 * perf_events that pmcdrv could not take back (at ATTACH also another
 * session that excludes this one); strerror() otherwise.  Static text.
 */
const char *pmc_session_strerror(int err, unsigned long cmd);

/* ---- who counts: every session of the module, and revoking one ----------- */
/*
 * Every session of the module, oldest first (PMCDRV_IOC_SESSIONS), asked
 * through @s (any open of the device; pmc_session_open() makes one, and
 * that open is a session too, listed with the caller's pid).  *@entries
 * and *@nr: in, NULL and 0, or the array and count of an earlier call;
 * out, the array (realloc'ed as the number of sessions changes, free() it
 * when done, also after an error) and how many entries it holds.
 * Entries the caller may not see in full carry PMCDRV_SESSION_EVENTS_HIDDEN.
 * -ENOTTY: a module before SESSIONS; -ENOMEM; -EAGAIN: sessions kept
 * appearing faster than the array grew.
 */
int pmc_session_list(struct pmc_session *s, struct pmcdrv_session_info **entries, unsigned int *nr);
/*
 * End session @id (pmc_session_list()'s id) for its owner
 * (PMCDRV_IOC_REVOKE): it stops counting and every later call on it fails
 * with -EOWNERDEAD.  -EPERM: the caller lacks CAP_PERFMON; -ESRCH: no
 * such session; -EALREADY: revoked already; -ENOTTY: a module before it.
 */
int pmc_session_revoke(struct pmc_session *s, uint64_t id);

/* ---- self-read: a tracked thread reads its own counts -------------------- */
struct pmc_self;

/*
 * A self-reader of session @s for the calling thread, which @s must track
 * (attached, or created after the attach with inherit on).  It reads the
 * thread's own counts (since its first self-read), not the session's: it
 * maps the thread's self-read page and reads with RDPMC when it can;
 * otherwise (no PMU, a software event, RDPMC disabled by the
 * administrator) through PMCDRV_IOC_READ_SELF, with the same results.  A
 * CPU session, or a module without READ_SELF, reads the whole session
 * through PMCDRV_IOC_READ.  -ESRCH: @s does not track the calling thread;
 * -EOPNOTSUPP: @s multiplexes (its events take turns on the counters).
 * One reader per thread; a reader inherited by fork fails with -ECHILD
 * (the child opens its own).
 */
int pmc_self_open(struct pmc_session *s, struct pmc_self **out);
void pmc_self_close(struct pmc_self *r);
/* true when reads go through RDPMC and the page, false for the ioctl fallback */
bool pmc_self_fast(const struct pmc_self *r);
/*
 * On a hybrid CPU, the core type (PMC_CORE_TYPE_CORE, PMC_CORE_TYPE_ATOM)
 * of the CPU the calling thread counts on now: the page's word, written
 * as the thread starts counting on a CPU; through the ioctl fallback, or
 * from a module before the word, CPUID's answer where the thread runs
 * (pmc_cpuid_core_type()).  0 where the CPU is not hybrid.
 */
unsigned int pmc_self_core_type(const struct pmc_self *r);
/*
 * The first @n values in the order of the session's events, and the
 * times (either pointer may be NULL).  Values never decrease between
 * reads of one reader.  Both are live, except the times through the page
 * (pmc_self_fast()) of a module without PMCDRV_SELF_TIME_TSC (before it,
 * or without a constant TSC) or of a thread that disabled RDTSC
 * (PR_SET_TSC): those are the kernel's last update of the page.
 */
int pmc_self_read(struct pmc_self *r, uint64_t *vals, unsigned int n, uint64_t *time_enabled,
		  uint64_t *time_running);
/*
 * The value of one event of a self-read page given its counter's raw
 * value @pmc (RDPMC of index - 1): offset + ((pmc - base) mod 2^width);
 * offset alone when index is 0.  Pure, for tests and other readers.
 */
uint64_t pmc_self_event_value(const struct pmcdrv_self_event *e, uint64_t pmc);

/* ---- regions: named, nested, per-thread counts inside a program ---------- */
/*
 * The one exception to "no global state": the region API keeps one
 * process-wide table (region names, the session, the per-thread records, the
 * report wanted at exit), set up on first use or by pmc_region_init() and
 * guarded by a mutex, and per-thread storage (each thread's open regions,
 * its self-reader and the message of its last failed call).  The counts of
 * a region in a thread are written only by that thread; begin/end take no
 * lock once a thread has used a name.  Functions return 0 or -errno and
 * never print (pmc_region_print() prints because it is asked to);
 * pmc_region_error() has the calling thread's message for the last failure.
 *
 * Each pmc_region_begin()/pmc_region_end() pair reads the counters of the
 * calling thread through pmc_self_read() at both ends and adds the
 * difference to the region's totals in that thread: calls, each event's
 * count, and the time: the time_enabled difference of the self-read, i.e.
 * the nanoseconds the thread was counted (on a CPU) inside the region, as
 * task-clock; not wall-clock time (a region that sleeps shows little).
 *
 * The session: started by 'pmcctl run --regions', the program uses
 * pmcctl's session (PMCDRV_REGIONS_SESSION, below); otherwise the first
 * call (or pmc_region_init()) opens one on the device, attached to the
 * calling thread with inherit, so threads created after it are counted
 * too (a thread created before it is not tracked).  Set it up in main()
 * before creating threads.  -EEXIST: the thread is counted by another
 * session already; -EACCES: kernel.perf_event_paranoid forbids counting.
 *
 * Environment (read once, at set-up, with secure_getenv(): a setuid program
 * ignores it; a constructor sets up at program start when PMCDRV_REGIONS
 * is set):
 *   PMCDRV_REGIONS          a decimal file descriptor: at exit each process
 *                           appends its table in the machine form below to
 *                           it (pmcctl's protocol); anything else is a path
 *                           ("-" for standard error) where pmc_region_print()'s
 *                           table is appended at exit
 *   PMCDRV_REGIONS_SESSION  a file descriptor of an open, attached pmcdrv
 *                           session that counts this process (pmcctl's)
 *   PMCDRV_REGIONS_EVENTS   events in pmcctl's -e syntax: the names of the
 *                           session's events with _SESSION, else the events
 *                           of the session opened (default: pmcctl run's set)
 *   PMCDRV_REGIONS_DEVICE   the device to open (default /dev/pmcdrv)
 *   PMCDRV_REGIONS_METRICS  metrics or groups (pmcctl's -M syntax) computed
 *                           per region: pmc_region_metric(), and columns of
 *                           pmc_region_print()'s table
 *
 * Machine form, one record a line, fields separated by one blank, the
 * name last (it may contain blanks): a header "pmcdrv-regions 1 PID NEVENTS",
 * then per region and thread "r PID TID CALLS TIME_NS V0 .. V(NEVENTS-1) NAME",
 * or "e PID MESSAGE" when the set-up failed.
 *
 * A child of fork() starts with an empty table and no open region; its
 * table is reported at its own exit.  Each thread that used regions keeps
 * its records (about 2 KiB plus 144 bytes a region) until the process ends.
 *
 * Cost: one begin/end pair of an empty region costs a fixed number of
 * user-mode instructions in the calling thread for a given name and build
 * (measured: 390 through RDPMC, 728 through the READ_SELF fallback, with
 * the test's loop): tests/guest/region-cost.conf holds it, docs/design.md
 * explains it.
 */
#define PMC_REGION_MAX		256	/* regions (distinct names) a process may have */
#define PMC_REGION_NAME_MAX	64	/* with the NUL: names are 1 to 63 printable ASCII characters */
#define PMC_REGION_DEPTH_MAX	32	/* regions open at once in one thread */

struct pmc_region_config {
	const char *events;	/* -e syntax; NULL: $PMCDRV_REGIONS_EVENTS or pmcctl run's default */
	const char *device;	/* NULL: $PMCDRV_REGIONS_DEVICE or /dev/pmcdrv */
	const char *report;	/* at exit as $PMCDRV_REGIONS; NULL: $PMCDRV_REGIONS or no report */
	/*
	 * Metrics or metric groups of this CPU's model (pmcctl's -M syntax,
	 * pmc_metrics_open()); NULL: $PMCDRV_REGIONS_METRICS or none.  A
	 * session of our own counts their events after @events' (only theirs
	 * when @events and $PMCDRV_REGIONS_EVENTS are NULL); pmcctl's session
	 * must count them already (pmcctl run --regions -M does).
	 */
	const char *metrics;
};

/*
 * Set the region API up now (NULL @cfg: from the environment only).
 * -EALREADY when it is set up already (by the environment or a first
 * begin); -EINVAL: a bad event list or variable, an unknown metric, or a
 * metric's event pmcctl's session does not count (pmc_region_error() names
 * it); -E2BIG: the metrics need more than PMCDRV_MAX_EVENTS events;
 * -ENODEV: metrics asked for and no metric data for this CPU's model; the
 * errors of pmc_session_open/config/attach otherwise.
 */
int pmc_region_init(const struct pmc_region_config *cfg);
/*
 * Open region @name in the calling thread (setting the API up when needed).
 * -EINVAL: NULL, empty or non-printable name; -ENAMETOOLONG: 64 characters
 * or more; -ENOSPC: a new name and PMC_REGION_MAX names taken; -EALREADY:
 * @name is open in this thread already; -EOVERFLOW: PMC_REGION_DEPTH_MAX
 * regions open in this thread.
 */
int pmc_region_begin(const char *name);
/*
 * Close region @name, the innermost open one in this thread, and add its
 * counts.  -ENOENT: @name is not open in this thread; -EPROTO: it is open
 * but a region opened inside it is still open (end that one first).
 */
int pmc_region_end(const char *name);
/*
 * 1 when the calling thread's regions read the counters through RDPMC and
 * the self-read page, 0 through the PMCDRV_IOC_READ_SELF ioctl (or READ, on
 * a module without it); -ENODEV before its first begin.
 */
int pmc_region_fast(void);
/* The calling thread's message for its last failed region call ("" when none). */
const char *pmc_region_error(void);

struct pmc_region_stats {
	uint64_t calls;			/* completed begin/end pairs */
	uint64_t time_ns;		/* time counted inside (time_enabled) */
	unsigned int threads;		/* threads that completed a pair */
	unsigned int nr_events;
	uint64_t values[PMCDRV_MAX_EVENTS];	/* in the order of the session's events */
};

/* The totals of @name over all threads.  -ENOENT: no such region; -ENODEV: not set up. */
int pmc_region_get(const char *name, struct pmc_region_stats *st);
/* Number of the session's events, and the name of event @i (NULL when out of range). */
unsigned int pmc_region_nr_events(void);
const char *pmc_region_event_name(unsigned int i);
/*
 * Metrics of a region: those the config's metrics (or $PMCDRV_REGIONS_METRICS)
 * name, computed from the region's totals over the threads as
 * pmc_metrics_eval() computes them from a whole run's counts.  An event
 * is matched whatever its :u/:k, and duration_time is the region's
 * time_ns (counted time, not wall-clock).  Metrics need all their events
 * counted at once: more than the PMU's counters make the session
 * multiplex, and a multiplexing session has no self-read (begin fails
 * with -EOPNOTSUPP).
 *
 * pmc_region_nr_metrics(): how many (0 when none or not set up);
 * pmc_region_metric_info(): metric @i's name, unit, scale and, when it
 * cannot be computed, why (refused); -ERANGE, -ENODEV.
 */
struct pmc_metric_info;	/* "metrics", below */
unsigned int pmc_region_nr_metrics(void);
int pmc_region_metric_info(unsigned int i, struct pmc_metric_info *info);
/*
 * Metric @i of region @name into *@value, ScaleUnit applied (a value in
 * info.unit: 12.5 for 12.5 %); NAN when it has none (a division by zero,
 * a region never completed).  -ENOENT: no such region; -ENODEV: not set
 * up; -ERANGE: no metric @i; -EOPNOTSUPP: a refused metric (the message
 * says why); -EDOM: a '%' by zero.
 */
int pmc_region_metric(const char *name, unsigned int i, double *value);
/* Zero every region's counts in every thread (names stay).  -ENODEV: not set up. */
int pmc_region_reset(void);
/*
 * The table of all regions, totals over threads, in the order they were
 * first begun: region, threads, calls, time (msec), each event, then each
 * metric that can be computed (ScaleUnit applied, 2 decimals, "n/a" when
 * it has no value).
 * -ENODEV: not set up; -EIO: a write failed.
 */
int pmc_region_print(FILE *f);

/* ---- event lists: the -e syntax of pmcctl ---------------------------------- */
#define PMC_EVENT_NAME_MAX	80

struct pmc_evsel {
	char name[PMC_EVENT_NAME_MAX];	/* as the user wrote it */
	struct pmcdrv_event ev;		/* ev.group: {a,b}: 1.. for the members of one group */
};

struct pmc_evlist {
	unsigned int n;
	unsigned int nr_groups;		/* groups so far: the last one's ev.group */
	struct pmc_evsel ev[PMCDRV_MAX_EVENTS];
};

/*
 * Append the events of one -e argument: a comma-separated list of
 *   names       instructions, cycles, ref-cycles, branches, branch-misses,
 *               llc-references, llc-misses, task-clock, context-switches,
 *               cpu-migrations (and perf's aliases)
 *   0xUUEE      umask << 8 | event select; event 0 = fixed counter umask-1
 *               only (ref-cycles is 0x0300, fixed counter 2; 0x013c is
 *               REF_XCLK on a GP counter)
 *   rHEX        perf's raw form: event, umask, edge (18), inv (23), cmask (31:24)
 *   cpu/event=0xc0,umask=0x1,cmask=1,inv,edge/
 *   cpu/EVENT.UMASK,cmask=1/  perf's form: an event of the kernel's data
 *               for this model, then fields that change it
 * each optionally followed by :u, :k or :uk (default: both modes), and
 *   libpfm4 names of this CPU's core PMU: [pmu::]EVENT[:UMASK...][:MOD...]
 *               (MEM_LOAD_RETIRED:L3_MISS, skl::INST_RETIRED:ANY_P:u; case
 *               as libpfm4 allows), see pmc_pfm_encode()
 *   perf's spelling event.umask[:mods] (mem_load_retired.l3_miss): every '.'
 *               before the first ':' becomes ':' and the result is looked up
 *               in libpfm4
 *   {a,b,...}[:u|:k]  a group: its members get the same non-zero
 *               ev.group; a modifier after '}' applies to every member
 *               (added to a member's own).  No nesting, no empty group.
 * -EINVAL (bad syntax or field, or an unknown name: then @err names the
 * nearest ones, or the CPU models that have it), -EOPNOTSUPP (an event
 * pmcdrv cannot program: @err names the field) or -ENODEV (libpfm4 did not
 * initialize), with a message naming the bad term and the fix in @err.
 */
int pmc_evlist_parse(struct pmc_evlist *l, const char *arg, char *err, size_t errlen);

/* perf stat's default set, minus what the PMU does not offer. */
void pmc_evlist_default(struct pmc_evlist *l, const struct pmcdrv_info *info);

/*
 * A PERF_METRICS event (topdown-retiring, ...) counts only in a group with
 * topdown-slots of the same modes, and perf puts it there: those of @l on
 * their own go into one group per modes with a topdown-slots of @l on its
 * own there, else a new one appended; a group of @l without slots gets one.
 * 0; -ENOSPC: a slots event is needed and @l is full.
 */
int pmc_evlist_topdown_groups(struct pmc_evlist *l);

/* Is event @i a hardware event? */
static inline bool pmc_evsel_is_hw(const struct pmc_evsel *e)
{
	return e->ev.type == PMCDRV_EVENT_HW;
}

/*
 * Name of a known event that matches @ev exactly ("instructions"), or NULL
 * (raw 0x013c is not "ref-cycles": that is 0x0300).
 */
const char *pmc_event_known_name(const struct pmcdrv_event *ev);
/*
 * @ev in the -e syntax, as pmc_evlist_parse() reads it back: its known
 * name ("instructions:u"), else perf's raw form
 * "cpu/event=0xd1,umask=0x20,cmask=1,inv,edge/:u" (",offcore_rsp=0x.."
 * for an extra register value, which the syntax does not take back),
 * "swN" for an unknown software event; :u or :k when it counts in one
 * mode only.  Returns the length, or -ENOSPC when @len is too small
 * (@buf then holds the start, NUL-terminated, unless @len is 0).
 */
int pmc_event_format(const struct pmcdrv_event *ev, char *buf, size_t len);

/* ---- libpfm4: the CPU model's own events ---------------------------------- */
/*
 * libpfm4 (pfm_initialize()) keeps process-global tables; libpmc initializes
 * it once per process under pthread_once, so these functions are idempotent
 * and thread-safe.  Set LIBPFM_FORCE_PMU (e.g. "skl") in the environment
 * before the first call to use another model's tables.
 */

/*
 * Encode a libpfm4 name ([pmu::]EVENT[:UMASK...][:u][:k][:e][:i][:c=N]) of
 * an Intel core PMU this CPU has into @ev (type HW, event, umask, cmask,
 * flags USER/KERNEL from :u/:k, both without either, EDGE, INV; extra:
 * OFFCORE_RESPONSE_0/1's MSR_OFFCORE_RSP_0/1 value, 0 for other events).
 * -ENOENT: unknown (@err: nearest names, or the models that have it);
 * -EINVAL: bad unit mask or modifier; -EOPNOTSUPP: needs what pmcdrv cannot
 * program (AnyThread t=1, intx/intxcp, pin control, an extra register other
 * than the offcore response, such as PEBS ldlat, an uncore/OS/non-Intel PMU), named
 * in @err; -ENODEV: libpfm4 did not initialize.  Never prints.
 */
int pmc_pfm_encode(const char *name, struct pmcdrv_event *ev, char *err, size_t errlen);

/* Name and description of the core PMU libpfm4 detected; -ENODEV: none. */
int pmc_pfm_pmu(const char **name, const char **desc);

struct pmc_pfm_umask {
	const char *name;
	const char *desc;
	uint32_t code;
	bool dfl;		/* used when the name gives no unit mask */
};

struct pmc_pfm_event {
	const char *pmu;	/* libpfm4's PMU name, e.g. "skl" */
	const char *name;
	const char *desc;
	uint32_t code;		/* event select */
	unsigned int nr_umasks;
	const struct pmc_pfm_umask *umasks;
};

/* Return non-zero to stop pmc_pfm_events(); the pointers live during the call only. */
typedef int (*pmc_pfm_event_fn)(const struct pmc_pfm_event *ev, void *arg);

/*
 * Call @fn for every event of the detected core PMU, in libpfm4's order.
 * Returns @fn's first non-zero value, 0, -ENODEV (no core PMU or libpfm4
 * did not initialize) or -ENOMEM.
 */
int pmc_pfm_events(pmc_pfm_event_fn fn, void *arg);

/* ---- the kernel's own event data for this CPU's model -------------------- */
/*
 * Linux perf's event files (tools/perf/pmu-events/arch/x86), generated into
 * libpmc at build time from a Debian linux-source package.  The model is
 * chosen as perf chooses it (mapfile.csv by the CPUID string); the
 * environment's PMCDRV_FORCE_CPUID ("GenuineIntel-6-5E-3") names another.
 * pmc_evlist_parse() resolves perf's spelling (event.umask) here first.
 */
struct pmc_kernel_event {
	const char *name;	/* perf's spelling, "UOPS_ISSUED.ANY" */
	const char *desc;	/* its brief description */
	const char *pmu;	/* "cpu", or "cpu_core" / "cpu_atom" on hybrid parts */
	struct pmcdrv_event ev;	/* its encoding (type HW, no mode flags), when err is 0 */
	int err;		/* 0, or -EOPNOTSUPP: pmcdrv cannot program it */
	bool deprecated;
};

/* Return non-zero to stop pmc_kernel_events(); the pointers stay valid (static data). */
typedef int (*pmc_kernel_event_fn)(const struct pmc_kernel_event *ev, void *arg);

/*
 * Where the data comes from (*@source: "linux-source-6.12 6.12.117-1~deb12u1")
 * and perf's name of this CPU's model in it (*@model: "skylake"; NULL when
 * the data has none, then -ENODEV).  Either pointer may be NULL.
 */
int pmc_kernel_model(const char **source, const char **model);
/* Call @fn for each event of this CPU's model, by name; @fn's first non-zero value, 0 or -ENODEV. */
int pmc_kernel_events(pmc_kernel_event_fn fn, void *arg);

/* ---- metrics: perf's MetricExpr over the kernel's data ------------------ */
/*
 * The metrics of the same files (MetricName, MetricExpr, MetricGroup,
 * ScaleUnit), in perf's expression language, compiled and evaluated as
 * perf's tools/perf/util/expr.y does (docs/design.md, "Metrics").
 */

/* perf's #literals; pmc_metric_env_init() fills them from sysfs. */
struct pmc_metric_env {
	double smt_on, core_wide, num_cpus, num_cpus_online, num_cores, num_dies, num_packages;
	double slots, system_tsc_freq, has_pmem;
	const char *cpuid;	/* for strcmp_cpuid_str(); NULL: this CPU's */
};

/* @env for this machine; @system_wide: every CPU counted (perf's #core_wide). */
void pmc_metric_env_init(struct pmc_metric_env *env, bool system_wide);

struct pmc_metrics;

/*
 * Compile the metrics @list names (metric names or MetricGroup names,
 * comma-separated, any case, "all" for every one; perf's -M) for the model
 * of @cpuid (perf's CPUID string; NULL: this CPU's, or PMCDRV_FORCE_CPUID's).
 * -ENODEV: no model; -EINVAL: a name matches no metric or group, or an
 * expression does not parse; -ELOOP: metrics reference each other in a
 * circle; -ENOMEM.  @err says which.  A metric that needs an event pmcdrv
 * cannot count (uncore, msr, TSX, AnyThread...) is kept, refused: its
 * info.refused names the event, and its events are not in the list.
 */
int pmc_metrics_open(const char *cpuid, const char *list, const struct pmc_metric_env *env,
		     struct pmc_metrics **out, char *err, size_t errlen);
void pmc_metrics_close(struct pmc_metrics *ms);

/* The distinct events the set's metrics need, in perf's spelling (pmc_evlist_parse() reads them). */
unsigned int pmc_metrics_nr_events(const struct pmc_metrics *ms);
const char *pmc_metrics_event(const struct pmc_metrics *ms, unsigned int i);

struct pmc_metric_info {
	const char *name, *groups, *desc, *expr;
	const char *pmu;	/* "cpu", "cpu_core", "cpu_atom" */
	double scale;		/* ScaleUnit's number (1 when none): value x scale ... */
	const char *unit;	/* ... is in this unit ("%", "GB/sec", "" when none) */
	const char *refused;	/* NULL, or why pmcdrv cannot compute it */
	bool duration_time;	/* it needs the wall-clock time (duration_time) */
};

/* The set's metrics, in the order asked. */
unsigned int pmc_metrics_nr(const struct pmc_metrics *ms);
/* -ERANGE: no metric @i. */
int pmc_metrics_info(const struct pmc_metrics *ms, unsigned int i, struct pmc_metric_info *info);
/*
 * Does metric @i need the set's event @ev (itself or through a metric it
 * references)?  1 or 0 (0 for a refused metric); -ERANGE: no such metric
 * or event; -ENOMEM.  Callers place a metric beside its first event, as
 * perf beside its group's leader, and say when one of its inputs was scaled.
 */
int pmc_metrics_uses(const struct pmc_metrics *ms, unsigned int i, unsigned int ev);
/*
 * How perf counts metric @i's events (its MetricConstraint in the data, the
 * metric's own, not those of metrics it references): as one weak group
 * (metricgroup.c's metric__group_events()), never as a group, or as one
 * only while the NMI watchdog, or SMT, is off.
 */
enum pmc_metric_grouping {
	PMC_METRIC_GROUP_EVENTS,	/* no MetricConstraint */
	PMC_METRIC_NO_GROUP_EVENTS,	/* NO_GROUP_EVENTS */
	PMC_METRIC_NO_GROUP_EVENTS_NMI,	/* NO_GROUP_EVENTS_NMI */
	PMC_METRIC_NO_GROUP_EVENTS_SMT,	/* NO_GROUP_EVENTS_SMT */
};
/* Metric @i's enum pmc_metric_grouping; -ERANGE: no metric @i. */
int pmc_metrics_grouping(const struct pmc_metrics *ms, unsigned int i);
/*
 * Metric @i's value (before ScaleUnit) from @counts (one per
 * pmc_metrics_event(), NAN for one not counted) and @duration_s (seconds
 * of wall clock, for duration_time).  As perf: a division by zero is NAN,
 * d_ratio() by zero is 0.  -EOPNOTSUPP: the metric is refused;
 * -EDOM: a '%' by zero (perf gives no value); -ERANGE: no metric @i.
 */
int pmc_metrics_eval(struct pmc_metrics *ms, unsigned int i, const double *counts,
		     double duration_s, double *value);
/*
 * Metric @i's MetricThreshold (the expression perf colours its value by),
 * or NULL when the model's data gives none or it does not compile here.
 */
const char *pmc_metrics_threshold_expr(const struct pmc_metrics *ms, unsigned int i);
/*
 * Is metric @i beyond its MetricThreshold, from the same @counts and
 * @duration_s as pmc_metrics_eval()?  1 beyond (perf colours it red), 0
 * within (green).  A threshold adds no event to the set: a metric or event
 * it names that the set does not count is not a number, so it decides only
 * when the rest does ("a > 0.7 | b > 0.1" with a over 0.7).  -ENODATA: no
 * threshold (pmc_metrics_threshold_expr() NULL); -EDOM: not decided by
 * these counts; -ERANGE: no metric @i.
 */
int pmc_metrics_threshold(struct pmc_metrics *ms, unsigned int i, const double *counts,
			  double duration_s);

/* Return non-zero to stop pmc_metric_list(); the pointers stay valid (static data). */
typedef int (*pmc_metric_fn)(const struct pmc_metric_info *mi, void *arg);
/* Each metric of @cpuid's model (NULL: this CPU's) by name; refused is NULL here. -ENODEV: no model. */
int pmc_metric_list(const char *cpuid, pmc_metric_fn fn, void *arg);

/* ---- without the module: CPUID from user space ------------------------- */
/*
 * Fill @info from CPUID as the module would, minus what needs MSRs
 * (perf_capabilities, in_use_*: zero).  *decode_err says why there is no
 * architectural perfmon, when there is none.
 */
int pmc_cpuid_info(struct pmcdrv_info *info, enum pmc_decode_err *decode_err);
/*
 * On a hybrid part, the core type of the CPU the caller runs on now
 * (PMC_CORE_TYPE_CORE, PMC_CORE_TYPE_ATOM or another value of CPUID.1AH);
 * 0 elsewhere (pmc_core_type_name() names it).
 */
unsigned int pmc_cpuid_core_type(void);

/* ---- /dev/cpu/N/msr and msr_safe --------------------------------------- */
struct pmc_msr;

enum pmc_msr_kind {
	PMC_MSR_DEV_MSR,	/* /dev/cpu/N/msr (msr module) */
	PMC_MSR_DEV_MSR_SAFE,	/* /dev/cpu/N/msr_safe (LLNL msr-safe, allowlisted) */
	PMC_MSR_DEV_PATH,	/* a path the caller gave */
};

/*
 * Open the MSR device of @cpu.  @path NULL tries /dev/cpu/N/msr, then
 * /dev/cpu/N/msr_safe; otherwise @path is used as is.  @writable asks for
 * O_RDWR.  Errors: -ENOENT (no device: msr module not loaded), -EACCES or
 * -EPERM (not root / no CAP_SYS_RAWIO, or kernel lockdown), -ENXIO (CPU
 * offline or no such CPU).
 */
int pmc_msr_open(int cpu, const char *path, bool writable, struct pmc_msr **out);
void pmc_msr_close(struct pmc_msr *m);
enum pmc_msr_kind pmc_msr_kind(const struct pmc_msr *m);
const char *pmc_msr_path(const struct pmc_msr *m);
/* -EIO: the MSR does not exist or the access faulted (#GP); -EPERM: filtered. */
int pmc_msr_read(struct pmc_msr *m, uint32_t reg, uint64_t *val);
int pmc_msr_write(struct pmc_msr *m, uint32_t reg, uint64_t val);

/* ---- the PMU registers of one CPU through its MSR device (msr_pmu.c) ------ */
/* Registers a run writes: a counter and an EVTSEL per event, FIXED_CTR_CTRL, GLOBAL_CTRL, OVF_CTRL. */
#define PMC_MSR_PMU_MAX_WRITTEN	(2 * PMCDRV_MAX_EVENTS + 3)

struct pmc_msr_write {
	uint32_t msr;
	uint64_t val;
};

/* How struct pmc_msr_pmu reaches the registers: an MSR device, or a test's fake. */
struct pmc_msr_ops {
	int (*read)(void *dev, uint32_t msr, uint64_t *val);	/* 0 or -errno */
	int (*write)(void *dev, uint32_t msr, uint64_t val);
};

/*
 * Save, program, read and restore the PMU of one CPU.  The caller reads
 * the results below; the rest is the layer's own.
 */
struct pmc_msr_pmu {
	const struct pmc_msr_ops *ops;
	void *dev;
	struct pmc_arch_perfmon pm;
	bool fw_write;			/* IA32_A_PMCx: full-width counter writes */
	/* As found by pmc_msr_pmu_save(), before any write. */
	uint64_t evtsel[PMC_MAX_GP], gp[PMC_MAX_GP], fixed[PMC_MAX_FIXED];
	uint64_t fixed_ctrl, global_ctrl, global_status;
	uint64_t foreign;		/* result: counters someone else has enabled */
	struct pmc_prog prog;		/* ours */
	uint64_t wrapped;		/* result: GLOBAL_STATUS bits our counters set */
	bool dirty;			/* written since the save: the saved values are owed */
	int err;			/* result: first failed access since the step began */
	uint32_t err_msr;		/* result: its register */
	unsigned int nr_unrestored;	/* result: writes of pmc_msr_pmu_restore() that failed */
	struct pmc_msr_write unrestored[PMC_MSR_PMU_MAX_WRITTEN];
};

/* Work on @dev (opened writable) for a PMU described by @pm; @fw_write: IA32_A_PMCx exist. */
void pmc_msr_pmu_init(struct pmc_msr_pmu *p, struct pmc_msr *dev, const struct pmc_arch_perfmon *pm,
		      bool fw_write);
/* The same through @ops on @dev. */
void pmc_msr_pmu_init_ops(struct pmc_msr_pmu *p, const struct pmc_msr_ops *ops, void *dev,
			  const struct pmc_arch_perfmon *pm, bool fw_write);
/* Read every perfmon register a run may touch, and who has counters enabled.  Writes nothing. */
int pmc_msr_pmu_save(struct pmc_msr_pmu *p);
/*
 * Pick counters for @specs: free ones first; with @force also those others
 * enabled.  -EBUSY: others have counters enabled and no @force; -ERANGE:
 * only counters whose value cannot be written back would do; -ENOSPC.
 * Writes nothing.
 */
int pmc_msr_pmu_assign(struct pmc_msr_pmu *p, const struct pmc_event_spec *specs, unsigned int n,
		       bool force);
/* Zero and enable our counters; GLOBAL_CTRL last, so they start together.  Stops at the first failure. */
int pmc_msr_pmu_start(struct pmc_msr_pmu *p);
/* Stop our counters (at once where GLOBAL_CTRL exists) and read what they counted from zero into @vals. */
int pmc_msr_pmu_stop(struct pmc_msr_pmu *p, uint64_t *vals);
/*
 * Write the saved value of every register written since the save: our
 * counters stopped first, then the counter values, the EVTSELs and
 * FIXED_CTR_CTRL, GLOBAL_CTRL last, so no counter counts with a mix of
 * ours and its owner's settings.  Tries every write; the failed ones are
 * in p->unrestored.  Nothing written: 0 at once.
 */
int pmc_msr_pmu_restore(struct pmc_msr_pmu *p);

/* Human-readable name of an architectural event bit, or NULL. */
const char *pmc_arch_event_name(unsigned int bit);

/* ---- CPU lists: pmcctl stat -C, /sys/devices/system/cpu/online ---------- */
#include <sched.h>

/*
 * Parse a CPU list "0-3,5,7-8" (the kernel's cpulist format: terms N or
 * N-M with N <= M, decimal, separated by single commas; no blanks, no empty
 * terms; duplicates and overlaps are fine) into @set, which is cleared first
 * and stays empty on error.  -EINVAL with a message naming the bad term in
 * @err (e.g. "bad CPU list '0-x': 'x' is not a CPU number; write CPUs as
 * 0-3,5"); -ERANGE when a CPU is >= CPU_SETSIZE (the message names it and
 * the limit).  @err may be NULL when @errlen is 0.
 */
int pmc_cpulist_parse(const char *list, cpu_set_t *set, char *err, size_t errlen);
/*
 * Format @set as the shortest cpulist ("0-3,5"; a run of two is "0-1", as
 * the kernel writes it), "" for an empty set.  Returns the length, or
 * -ENOSPC when @len is too small: @buf then holds the whole terms that fit
 * (possibly ""), NUL-terminated, unless @len is 0.
 */
int pmc_cpulist_format(const cpu_set_t *set, char *buf, size_t len);
/*
 * The online CPUs, from @path (NULL: /sys/devices/system/cpu/online): one
 * cpulist, optionally followed by one newline.  @set is cleared first and
 * stays empty on error.  -errno of the open or read (-ENOENT: no such file);
 * -EINVAL: the content is not a cpulist (or is over 8 KiB long); -ERANGE:
 * it names a CPU >= CPU_SETSIZE.
 */
int pmc_online_cpus(const char *path, cpu_set_t *set);

/* One core type of a hybrid part, as pmc_cpuid_core_types() finds it. */
struct pmc_core_type_desc {
	uint32_t cpuid_1a;		/* CPUID.1AH:EAX: core type in 31:24, native model ID in 23:0 */
	uint64_t gp_mask;		/* its GP counters (bit n: IA32_PMCn) */
	uint64_t fixed_mask;		/* its fixed counters */
	enum pmc_type_counters_from from;	/* where those came from */
	cpu_set_t cpus;			/* its online CPUs */
};

/*
 * The core types of a hybrid part: each online CPU's CPUID read on that CPU
 * (the calling thread moves to each CPU it may run on in turn, and back to
 * its own affinity), grouped by CPUID.1AH:EAX, up to @max of them into @out
 * in the order of their first CPU.  Returns how many (0: not hybrid), or
 * -ENOSPC (more types than @max) or -errno of sched_getaffinity(2).
 */
int pmc_cpuid_core_types(struct pmc_core_type_desc *out, unsigned int max);
/*
 * The core type of the CPU this thread runs on now, into @t (its CPUs
 * left empty): its CPUID.1AH:EAX, or 0 (@t zero) where the part is not
 * hybrid.  Pin the thread first for an answer about one CPU.
 */
uint32_t pmc_cpuid_this_core_type(struct pmc_core_type_desc *t);

#endif /* PMCDRV_LIBPMC_H */
