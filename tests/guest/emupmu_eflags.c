// SPDX-License-Identifier: GPL-2.0
/*
 * emupmu_eflags: the lazily computed arithmetic flags of the patched QEMU
 * never leak into other EFLAGS bits, and 32-bit ADCX/ADOX in 64-bit mode
 * compute the right carry.
 *
 * QEMU 7.2 (before upstream commit 6fbef942 "target/i386: Fix 32-bit
 * AD[CO]X insns in 64-bit mode") adds the full 64-bit registers for a
 * 32-bit ADCX/ADOX, so the "carry" it keeps is (a + b) >> 32, garbage when
 * the upper halves are not zero.  Its flags computation multiplies that by
 * CF (or OF) and ORs it into EFLAGS unmasked: PUSHF right after shows
 * VM, IOPL, TF or bits 22-31 set, and once cpu_exec() returns in that state
 * the garbage stays in EFLAGS (a kernel with EFLAGS.VM faults on its next
 * PUSHF).  On hardware, and on the fixed QEMU (tests/qemu/README.md), only
 * OF/SF/ZF/AF/PF/CF can differ between two PUSHFs around an ADCX.
 *
 * CMPXCHG8B/16B: QEMU 7.2 calls a helper that computes the old flags from
 * env->cc_op without the translator storing its current cc_op first, so
 * after "cmp" in the same translation block it combined the CMP's operand
 * with a stale CC_OP_EFLAGS: the operand itself became the flags.  In the
 * kernel the operand is a SLUB pointer (cmpxchg16b in this_cpu_cmpxchg_
 * double); when cpu_exec() returned before the next flag-setting
 * instruction, its bits 17 and 22-31 became EFLAGS.VM and friends, and the
 * next PUSHF in the kernel died in a double fault.  Here the operand is
 * 0x00c00000 (bits 22-23 only), so a broken emulator shows the bug without
 * setting anything that matters.
 *
 * Each asm block ends with an instruction that rewrites the flags, so a
 * broken emulator keeps the bad state for two instructions only.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

#define ARITH_FLAGS 0x8d5ULL	/* OF SF ZF AF PF CF */

/* 32-bit ADCX with CF=cin; returns RFLAGS before and after, result, CF out. */
static void adcx32(uint64_t a, uint64_t b, int cin, uint64_t *before,
		   uint64_t *after, uint64_t *res, uint8_t *cout)
{
	uint64_t f0, f1, r = a;
	uint8_t c;

	asm volatile("bt $0, %q[cin]\n\t"	/* CF = cin */
		     "pushfq\n\t"
		     "popq %[f0]\n\t"
		     "adcx %k[b], %k[r]\n\t"
		     "pushfq\n\t"
		     "popq %[f1]\n\t"
		     "setc %[c]\n\t"
		     "test %[c], %[c]\n\t"	/* flags consistent again */
		     : [f0] "=&r"(f0), [f1] "=&r"(f1), [r] "+r"(r), [c] "=&q"(c)
		     : [b] "r"(b), [cin] "r"((uint64_t)cin)
		     : "cc");
	*before = f0;
	*after = f1;
	*res = r;
	*cout = c;
}

/* 32-bit ADOX with OF=oin (set by adding 0x7fffffff + 1 for oin=1). */
static void adox32(uint64_t a, uint64_t b, int oin, uint64_t *before,
		   uint64_t *after, uint64_t *res, uint8_t *oout)
{
	uint64_t f0, f1, r = a;
	uint32_t t = oin ? 0x7fffffff : 0;
	uint8_t o;

	asm volatile("addl $1, %[t]\n\t"	/* OF = oin */
		     "pushfq\n\t"
		     "popq %[f0]\n\t"
		     "adox %k[b], %k[r]\n\t"
		     "pushfq\n\t"
		     "popq %[f1]\n\t"
		     "seto %[o]\n\t"
		     "test %[o], %[o]\n\t"
		     : [f0] "=&r"(f0), [f1] "=&r"(f1), [r] "+r"(r), [o] "=&q"(o),
		       [t] "+r"(t)
		     : [b] "r"(b)
		     : "cc");
	*before = f0;
	*after = f1;
	*res = r;
	*oout = o;
}

typedef void adx_fn(uint64_t a, uint64_t b, int cin, uint64_t *before,
		    uint64_t *after, uint64_t *res, uint8_t *cout);

/* One 32-bit ADCX or ADOX: RFLAGS outside OSZAPC unchanged, result and carry right. */
static void check_adx(struct check_state *st, adx_fn *fn, const char *insn,
		      const char *flag, uint64_t a, uint64_t b, int cin)
{
	uint64_t sum = (uint64_t)(uint32_t)a + (uint32_t)b + (unsigned int)cin;
	uint64_t f0, f1, r;
	char name[160];
	uint8_t c;

	fn(a, b, cin, &f0, &f1, &r, &c);
	snprintf(name, sizeof(name), "%s r32 (0x%llx + 0x%llx + %d): only OSZAPC change in RFLAGS",
		 insn, (unsigned long long)a, (unsigned long long)b, cin);
	CHECK(st, ((f0 ^ f1) & ~ARITH_FLAGS) == 0, name,
	      "RFLAGS 0x%llx before, 0x%llx after (0x%llx outside OSZAPC)",
	      (unsigned long long)f0, (unsigned long long)f1,
	      (unsigned long long)((f0 ^ f1) & ~ARITH_FLAGS));
	snprintf(name, sizeof(name), "%s r32 (0x%llx + 0x%llx + %d): result and %s",
		 insn, (unsigned long long)a, (unsigned long long)b, cin, flag);
	CHECK(st, r == (uint32_t)sum && c == (sum >> 32), name,
	      "got 0x%llx %s=%u, want 0x%llx %s=%u", (unsigned long long)r, flag, c,
	      (unsigned long long)(uint32_t)sum, flag, (unsigned int)(sum >> 32));
}

/* RFLAGS after "cmp x, y" alone. */
static uint64_t cmp_flags(uint64_t x, uint64_t y)
{
	uint64_t f;

	asm volatile("cmp %[x], %[y]\n\t"
		     "pushfq\n\t"
		     "popq %[f]\n\t"
		     : [f] "=r"(f) : [x] "r"(x), [y] "r"(y) : "cc");
	return f;
}

static unsigned __int128 slot16 __attribute__((aligned(16)));
static uint64_t slot8;

/*
 * POPF (which ends QEMU's translation block with CC_OP_EFLAGS stored),
 * then in one block: cmp x, y; cmpxchg16b/8b; pushf.  Returns RFLAGS.
 */
static uint64_t cmp_then_cmpxchg(uint64_t x, uint64_t y, int wide, uint64_t expect_lo)
{
	uint64_t f, rax = expect_lo, rdx = 0, rbx = 0x1111, rcx = 0;

/* popf; cmp x, y; INSN slot; pushf; pop f; test (flags consistent again) */
#define CMP_THEN(insn, slot)							\
	asm volatile("pushq $0x202\n\t"					\
		     "popfq\n\t"						\
		     "cmp %[x], %[y]\n\t"					\
		     insn " %[m]\n\t"						\
		     "pushfq\n\t"						\
		     "popq %[f]\n\t"						\
		     "test %[f], %[f]\n\t"					\
		     : [f] "=&r"(f), [m] "+m"(slot), "+a"(rax), "+d"(rdx)	\
		     : [x] "r"(x), [y] "r"(y), "b"(rbx), "c"(rcx)		\
		     : "cc", "memory")
	if (wide)
		CMP_THEN("cmpxchg16b", slot16);
	else
		CMP_THEN("cmpxchg8b", slot8);
#undef CMP_THEN
	return f;
}

static void check_cmpxchg(struct check_state *st, int wide, int succeed)
{
	const uint64_t x = 0x00c00000, y = 0x00400001;	/* cmp: CF=1 SF=1 */
	uint64_t want, got;
	char name[128];

	slot16 = 0;
	slot8 = 0;
	want = cmp_flags(x, y);
	want = succeed ? (want | 0x40) : (want & ~0x40ULL);	/* only ZF changes */
	got = cmp_then_cmpxchg(x, y, wide, succeed ? 0 : 1);
	snprintf(name, sizeof(name), "cmp; %s (%s): RFLAGS are the cmp's with ZF=%d",
		 wide ? "cmpxchg16b" : "cmpxchg8b", succeed ? "equal" : "different", succeed);
	CHECK(st, (got & 0xffffffffULL) == (want & 0xffffffffULL), name,
	      "got 0x%llx, want 0x%llx (0x%llx outside OSZAPC)", (unsigned long long)got,
	      (unsigned long long)want,
	      (unsigned long long)((got ^ want) & ~ARITH_FLAGS & 0xffffffffULL));
}

int main(void)
{
	static const struct { uint64_t a, b; } cases[] = {
		{ 0x0000000000000001ULL, 0x0000000000000002ULL },
		{ 0x00000000ffffffffULL, 0x0000000000000001ULL },
		{ 0xdeadbeef00000001ULL, 0xfeedface00000002ULL },
		{ 0xdeadbeefffffffffULL, 0xfeedface00000001ULL },
		{ 0xffffffff80000000ULL, 0xffffffff80000000ULL },
	};
	struct check_state st = { 0, 0 };
	unsigned int eax, ebx, ecx, edx;
	size_t i;
	int cin;

	for (i = 0; i < 4; i++)
		check_cmpxchg(&st, i & 1, i >> 1);
	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || !(ebx & (1u << 19))) {
		printf("SKIP: emupmu_eflags: the CPU has no ADX\n");
		return check_summary(&st, "emupmu_eflags");
	}
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (cin = 0; cin <= 1; cin++) {
			check_adx(&st, adcx32, "adcx", "CF", cases[i].a, cases[i].b, cin);
			check_adx(&st, adox32, "adox", "OF", cases[i].a, cases[i].b, cin);
		}
	}
	return check_summary(&st, "emupmu_eflags");
}
