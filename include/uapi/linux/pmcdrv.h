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

/* ioctl type byte; 0xB7 is unassigned in ioctl-number.rst. */
#define PMCDRV_IOC_MAGIC	0xB7

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
	__u64 in_use_hw;		/* out: enabled in hardware by someone (any CPU) */
	__u64 in_use_reserved;		/* out: held by another kernel user (perf, NMI watchdog) */
	__u64 reserved[4];		/* must be zero */
};

#define PMCDRV_INFO_SIZE_VER0	144

/*
 * PMCDRV_IOC_API_VERSION: returns PMCDRV_API_VERSION as the ioctl's value.
 * PMCDRV_IOC_INFO: fills struct pmcdrv_info.
 */
#define PMCDRV_IOC_API_VERSION	_IO(PMCDRV_IOC_MAGIC, 0x00)
#define PMCDRV_IOC_INFO		_IOWR(PMCDRV_IOC_MAGIC, 0x01, struct pmcdrv_info)

#endif /* _UAPI_LINUX_PMCDRV_H */
