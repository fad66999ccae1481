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
#include <linux/pmcdrv.h>
#include <pmcdrv/pmu.h>

#define PMC_DEFAULT_DEVICE	"/dev/" PMCDRV_DEVICE_NAME

/* ---- the pmcdrv char device -------------------------------------------- */
struct pmc_dev;

/* Open @path (NULL: /dev/pmcdrv).  -ENOENT: module not loaded. */
int pmc_dev_open(const char *path, struct pmc_dev **out);
void pmc_dev_close(struct pmc_dev *dev);
/* The module's PMCDRV_API_VERSION (> 0), or -errno. */
int pmc_dev_api_version(struct pmc_dev *dev);
/* PMCDRV_IOC_INFO; fills @info completely. */
int pmc_dev_info(struct pmc_dev *dev, struct pmcdrv_info *info);

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

#endif /* PMCDRV_LIBPMC_H */
