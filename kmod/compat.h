/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences between the kernels pmcdrv supports, in one place.
 * Each is detected from the tree being built against, not from its version
 * number: kmod/Kbuild greps that tree's headers and defines PMCD_HAVE_*.
 * Each entry names the upstream change it follows.  A kernel with none of
 * the APIs an entry knows fails here, at build time, naming what is missing.
 */
#ifndef PMCDRV_COMPAT_H
#define PMCDRV_COMPAT_H

#include <linux/mm_types.h>
#include <linux/syscore_ops.h>
#include <asm/msr.h>

/* "x86/msr: Rename 'rdmsrl()' to 'rdmsrq()'" (and wrmsrl), Linux 6.16. */
#ifdef PMCD_HAVE_RDMSRQ
#define pmcd_rdmsr_safe(msr, p)		rdmsrq_safe(msr, p)
#define pmcd_wrmsr_safe(msr, v)		wrmsrq_safe(msr, v)
#else
#define pmcd_rdmsr_safe(msr, p)		rdmsrl_safe(msr, p)
#define pmcd_wrmsr_safe(msr, v)		wrmsrl_safe(msr, v)
#endif

/* "x86/msr: Rename 'rdpmcl()' to 'rdpmc()'", Linux 6.16. */
#ifdef PMCD_HAVE_RDPMCL
#define pmcd_rdpmc(ctr, v)		rdpmcl(ctr, v)
#else
#define pmcd_rdpmc(ctr, v)		rdpmc(ctr, v)
#endif

/* "mm: introduce vma->vm_flags wrapper functions", Linux 6.3: vm_flags read-only. */
#ifdef PMCD_HAVE_VM_FLAGS_MOD
#define pmcd_vm_flags_mod(vma, set, clear)	vm_flags_mod(vma, set, clear)
#else
static inline void pmcd_vm_flags_mod(struct vm_area_struct *vma, unsigned long set,
				     unsigned long clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}
#endif

/*
 * "syscore: Pass context data to callbacks" (Linux 6.19, in Debian's 6.12
 * from 6.12.115 on): struct syscore holds the ops and a data pointer, the
 * callbacks take it, register_syscore() replaces register_syscore_ops().
 * pmcdrv's callbacks are declared with PMCD_SYSCORE_ARG as their parameter
 * list and registered through a struct pmcd_syscore.
 */
#if defined(PMCD_HAVE_SYSCORE)
#define PMCD_SYSCORE_ARG	void *data
struct pmcd_syscore {
	struct syscore_ops ops;
	struct syscore sc;
};

static inline void pmcd_register_syscore(struct pmcd_syscore *s)
{
	s->sc.ops = &s->ops;
	register_syscore(&s->sc);
}

static inline void pmcd_unregister_syscore(struct pmcd_syscore *s)
{
	unregister_syscore(&s->sc);
}
#elif defined(PMCD_HAVE_SYSCORE_OPS)
#define PMCD_SYSCORE_ARG	void
struct pmcd_syscore {
	struct syscore_ops ops;
};

static inline void pmcd_register_syscore(struct pmcd_syscore *s)
{
	register_syscore_ops(&s->ops);
}

static inline void pmcd_unregister_syscore(struct pmcd_syscore *s)
{
	unregister_syscore_ops(&s->ops);
}
#else
#error "pmcdrv: no known syscore API: neither register_syscore() nor register_syscore_ops()"
#endif

#endif /* PMCDRV_COMPAT_H */
