/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suspend: loop 1,000,000 times, write "mem" to /sys/power/state, loop
 * 1,000,000 times again, exit 0 (1 if the open or the write failed).
 * Static, no libc, no signal handlers: its user-mode instruction count is a
 * constant whatever the kernel did during the write (85-suspend.sh compares
 * it across pm_test levels).
 */
	.text
	.globl	_start
_start:
	mov	$1000000, %rcx
1:	dec	%rcx
	jnz	1b
	mov	$2, %eax		/* open(path, O_WRONLY) */
	lea	path(%rip), %rdi
	mov	$1, %esi
	xor	%edx, %edx
	syscall
	test	%rax, %rax
	js	fail
	mov	%rax, %rdi		/* write(fd, "mem", 3) */
	mov	$1, %eax
	lea	mem(%rip), %rsi
	mov	$3, %edx
	syscall
	cmp	$3, %rax
	jne	fail
	mov	$1000000, %rcx
2:	dec	%rcx
	jnz	2b
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
fail:
	mov	$60, %eax		/* exit(1) */
	mov	$1, %edi
	syscall
	.section .rodata
path:	.asciz	"/sys/power/state"
mem:	.ascii	"mem"
	.section .note.GNU-stack,"",@progbits
