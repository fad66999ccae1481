/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpmc: the C library under pmcctl.
 *
 * Rules: no global state (every call works on an opaque handle or on the
 * caller's structs), every function returns 0 or a negative errno and never
 * prints or exits.  Thread-compatible: one handle per thread, or lock it.
 */
#ifndef PMCDRV_LIBPMC_H
#define PMCDRV_LIBPMC_H

#include <stdbool.h>
#include <stdint.h>
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

/* Add an event (before attach); returns its index, or -E2BIG when full. */
int pmc_session_add(struct pmc_session *s, const struct pmcdrv_event *ev);
/* Do not follow forks and threads (default: follow). */
void pmc_session_set_inherit(struct pmc_session *s, bool inherit);
/* Send the events (PMCDRV_IOC_CONFIG); attach does it when not done yet. */
int pmc_session_config(struct pmc_session *s);
/* GLOBAL_CTRL bit of the counter event @i got (after config), ~0 for software. */
uint32_t pmc_session_counter(const struct pmc_session *s, unsigned int i);
/* Count @pid (0: the calling thread); flags: PMCDRV_ATTACH_*. */
int pmc_session_attach(struct pmc_session *s, pid_t pid, uint32_t flags);
/*
 * Count everything that runs on @cpu instead (a CPU session; root or
 * CAP_PERFMON unless kernel.perf_event_paranoid <= 0).  -ENXIO: no such CPU
 * or offline; -EBUSY: the CPU has a CPU session, or task sessions count;
 * -EOPNOTSUPP: context-switches or cpu-migrations configured.
 */
int pmc_session_attach_cpu(struct pmc_session *s, unsigned int cpu);
int pmc_session_enable(struct pmc_session *s);
int pmc_session_disable(struct pmc_session *s);
int pmc_session_reset(struct pmc_session *s);
/* All values, times and flags in one call. */
int pmc_session_read(struct pmc_session *s, struct pmcdrv_read *r);
/*
 * The calling thread's own counts (PMCDRV_IOC_READ_SELF): since it first
 * mapped its self-read page or asked this.  -ESRCH: the session does not
 * track the thread; -EOPNOTSUPP: a CPU session; -ENOTTY: a module before it.
 */
int pmc_session_read_self(struct pmc_session *s, struct pmcdrv_read *r);
/* The device file descriptor (for mmap of the self-read page, poll). */
int pmc_session_fd(const struct pmc_session *s);

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
 * through PMCDRV_IOC_READ.  -ESRCH: @s does not track the calling thread.
 * One reader per thread; a reader inherited by fork fails with -ECHILD
 * (the child opens its own).
 */
int pmc_self_open(struct pmc_session *s, struct pmc_self **out);
void pmc_self_close(struct pmc_self *r);
/* true when reads go through RDPMC and the page, false for the ioctl fallback */
bool pmc_self_fast(const struct pmc_self *r);
/*
 * The first @n values in the order of the session's events, and the
 * times (either pointer may be NULL).  Values never decrease between
 * reads of one reader.  Through the page (pmc_self_fast()) the times are
 * those of the kernel's last update of it (the thread's switch-in or a
 * fold), the values live; through the ioctl both are live.
 */
int pmc_self_read(struct pmc_self *r, uint64_t *vals, unsigned int n, uint64_t *time_enabled,
		  uint64_t *time_running);
/*
 * The value of one event of a self-read page given its counter's raw
 * value @pmc (RDPMC of index - 1): offset + ((pmc - base) mod 2^width);
 * offset alone when index is 0.  Pure, for tests and other readers.
 */
uint64_t pmc_self_event_value(const struct pmcdrv_self_event *e, uint64_t pmc);

/* ---- event lists: the -e syntax of pmcctl ---------------------------------- */
#define PMC_EVENT_NAME_MAX	80

struct pmc_evsel {
	char name[PMC_EVENT_NAME_MAX];	/* as the user wrote it */
	struct pmcdrv_event ev;
};

struct pmc_evlist {
	unsigned int n;
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
 * each optionally followed by :u, :k or :uk (default: both modes).
 * -EINVAL with a message naming the bad term and the fix in @err.
 */
int pmc_evlist_parse(struct pmc_evlist *l, const char *arg, char *err, size_t errlen);

/* perf stat's default set, minus what the PMU does not offer. */
void pmc_evlist_default(struct pmc_evlist *l, const struct pmcdrv_info *info);

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

/* ---- without the module: CPUID from user space ------------------------- */
/*
 * Fill @info from CPUID as the module would, minus what needs MSRs
 * (perf_capabilities, in_use_*: zero).  *decode_err says why there is no
 * architectural perfmon, when there is none.
 */
int pmc_cpuid_info(struct pmcdrv_info *info, enum pmc_decode_err *decode_err);

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

#endif /* PMCDRV_LIBPMC_H */
