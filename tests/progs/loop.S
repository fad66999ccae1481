/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loop N: run a two-instruction dec/jnz loop N times and exit 0.
 * Static, no libc: the user-mode instruction count is exactly 2N + c, where
 * c depends only on the number of digits of N (tests pass zero-padded N of
 * a fixed width, so c is one constant).  Exit 2 on a missing or bad N.
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
