// SPDX-License-Identifier: GPL-2.0
/*
 * emupmu_vmflag: reproduce the intermittent guest panic (tests/qemu/README.md) on purpose.
 * NOT part of the guest suite: on an unfixed QEMU it panics the guest.
 *
 *   tests/vm/run --no-module -- build/tests/emupmu_vmflag
 *
 * A 32-bit ADCX whose 64-bit operands sum to 0xffc20000'00000000 leaves
 * QEMU 7.2's lazy carry at 0xffc20000 (bits 17 and 22-31).  PAUSE makes
 * cpu_exec() return right there (helper_pause -> cpu_loop_exit), and
 * x86_cpu_exec_exit() ORs the lazy flags into EFLAGS: VM and bits 22-31 are
 * now set in 64-bit user mode.  SYSCALL keeps VM (Linux's SFMASK does not
 * clear it), so the kernel runs with EFLAGS.VM=1 and its first PUSHF raises
 * #GP: "general protection fault" at a pushf, RFLAGS with the high bits in
 * the oops, then "Kernel panic - not syncing: Fatal exception" (oops=panic).
 * On the fixed QEMU the lazy flags are masked and this prints "ok".
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>

int main(void)
{
	uint64_t a = 0x7fe1000000000000ULL, b = 0x7fe1000000000000ULL, f;
	long pid;

	asm volatile("clc\n\t"
		     "adcx %k[b], %k[a]\n\t"
		     "pause\n\t"			/* cpu_exec() returns here */
		     "mov %[nr], %%eax\n\t"
		     "syscall\n\t"			/* getpid() with EFLAGS.VM=1 */
		     "mov %%rax, %[pid]\n\t"
		     "pushfq\n\t"
		     "popq %[f]\n\t"
		     : [a] "+r"(a), [pid] "=r"(pid), [f] "=r"(f)
		     : [b] "r"(b), [nr] "i"(SYS_getpid)
		     : "rax", "rcx", "r11", "cc", "memory");
	printf("emupmu_vmflag: ok: pid %ld, RFLAGS 0x%llx afterwards\n", pid,
	       (unsigned long long)f);
	return (f & 0xffc20000ULL) ? 1 : 0;
}
