/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Type shim for the pure logic shared by pmcdrv.ko and user space.
 *
 * The same .c files under kmod/ that hold pure logic (no MSR access, no
 * allocation, no locking) are compiled into the module and into libpmc and
 * its unit tests, as the kernel does with lib/raid6 and its test harness.
 * This header is the only place that differs between the two worlds.
 */
#ifndef PMCDRV_SHIM_H
#define PMCDRV_SHIM_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/bits.h>
#include <linux/string.h>
#include <linux/math64.h>
#include <linux/bitops.h>
#define pmc_noinline		noinline
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
typedef int8_t s8;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#ifndef BIT_ULL
#define BIT_ULL(nr)		(1ULL << (nr))
#endif
#ifndef BIT
#define BIT(nr)			(1UL << (nr))
#endif
#ifndef GENMASK_ULL
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif
/* the kernel's noinline (a name of its own: user code spells the attribute itself) */
#define pmc_noinline		__attribute__((__noinline__))
#ifndef hweight64
#define hweight64(x)		((unsigned int)__builtin_popcountll(x))
#endif
/* (a * mul) / divisor without overflow, as <linux/math64.h> has it */
static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 divisor)
{
	return (u64)(((__uint128_t)a * mul) / divisor);
}
#endif /* __KERNEL__ */

#endif /* PMCDRV_SHIM_H */
