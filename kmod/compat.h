/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API names that change between the kernels pmcdrv supports.
 * Everything version-dependent goes here and nowhere else.
 */
#ifndef PMCDRV_COMPAT_H
#define PMCDRV_COMPAT_H

#include <linux/version.h>
#include <linux/mm_types.h>
#include <asm/msr.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define pmcd_rdmsr_safe(msr, p)		rdmsrq_safe(msr, p)
#define pmcd_wrmsr_safe(msr, v)		wrmsrq_safe(msr, v)
#define pmcd_rdpmc(ctr, v)		rdpmc(ctr, v)	/* 6.16 renamed rdpmcl() */
#else
#define pmcd_rdmsr_safe(msr, p)		rdmsrl_safe(msr, p)
#define pmcd_wrmsr_safe(msr, v)		wrmsrl_safe(msr, v)
#define pmcd_rdpmc(ctr, v)		rdpmcl(ctr, v)
#endif

/* 6.3 made vm_flags read-only outside vm_flags_*() */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define pmcd_vm_flags_mod(vma, set, clear)	vm_flags_mod(vma, set, clear)
#else
static inline void pmcd_vm_flags_mod(struct vm_area_struct *vma, unsigned long set,
				     unsigned long clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

#endif /* PMCDRV_COMPAT_H */
