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
 *   0xUUEE      umask << 8 | event select
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

/* Name of a known event that matches @ev exactly ("instructions"), or NULL. */
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
