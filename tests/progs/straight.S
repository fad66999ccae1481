/* SPDX-License-Identifier: GPL-2.0 */
/*
 * straight N: run a loop of 30 straight-line adds and dec/jnz N times and
 * exit 0: 32 instructions, one of them a conditional branch, per iteration
 * (loop.S has 2 and 1).  Static, no libc: the user-mode instruction count
 * is exactly 32N + c and the conditional branches N + d, c and d depending
 * only on the number of digits of N (tests pass zero-padded N of a fixed
 * width).  Exit 2 on a missing or bad N.  The top-down test (66-topdown.sh)
 * runs both: the emulated Sapphire Rapids splits slots by branches.
 */
	.text
	.globl	_start
_start:
	mov	(%rsp), %rcx		/* argc */
	cmp	$2, %rcx
	jb	bad
	mov	16(%rsp), %rsi		/* argv[1] */
	xor	%eax, %eax
parse:
	movzbl	(%rsi), %edx
	test	%edx, %edx
	jz	parsed
	sub	$'0', %edx
	cmp	$9, %edx
	ja	bad
	imul	$10, %rax, %rax
	add	%rdx, %rax
	inc	%rsi
	jmp	parse
parsed:
	test	%rax, %rax
	jz	done
loop:
	add	$1, %r8
	add	$1, %r9
	add	$1, %r10
	add	$1, %r11
	add	$1, %r12
	add	$1, %r13
	add	$1, %r14
	add	$1, %r15
	add	$1, %r8
	add	$1, %r9
	add	$1, %r10
	add	$1, %r11
	add	$1, %r12
	add	$1, %r13
	add	$1, %r14
	add	$1, %r15
	add	$1, %r8
	add	$1, %r9
	add	$1, %r10
	add	$1, %r11
	add	$1, %r12
	add	$1, %r13
	add	$1, %r14
	add	$1, %r15
	add	$1, %r8
	add	$1, %r9
	add	$1, %r10
	add	$1, %r11
	add	$1, %r12
	add	$1, %r13
	dec	%rax
	jnz	loop
done:
	mov	$60, %eax		/* exit(0) */
	xor	%edi, %edi
	syscall
bad:
	mov	$60, %eax		/* exit(2) */
	mov	$2, %edi
	syscall
	.section .note.GNU-stack,"",@progbits
