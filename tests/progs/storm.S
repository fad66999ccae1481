/* SPDX-License-Identifier: GPL-2.0 */
/*
 * storm W K N: W waves; each wave forks K processes that each run the
 * dec/jnz loop of tests/progs/loop.S N times and exit 0, then reaps them
 * with K blocking wait4 calls, and sleeps 1 ms before the next wave (the
 * CPU is idle then, so the work that refills pmcdrv's fork pool gets to
 * run: the storm is exact, not a test of the pool running dry).  W*K
 * processes in all.
 * Static, no libc: the parent's count depends only on W and K (and the
 * digit counts of W, K and N), never on timing, so with every child counted
 * count(W, K, N) - count(W, K, 0) = W * K * 2N exactly.  Exit 1 when a fork
 * or wait fails, 2 on bad arguments.
 */
#define SYS_wait4	61
#define SYS_fork	57
#define SYS_exit	60
#define SYS_nanosleep	35

	.text
	.globl	_start
_start:
	cmpq	$4, (%rsp)		/* argc */
	jne	bad
	mov	16(%rsp), %rsi		/* W */
	call	parse
	mov	%rax, %r12
	mov	24(%rsp), %rsi		/* K */
	call	parse
	mov	%rax, %r13
	mov	32(%rsp), %rsi		/* N */
	call	parse
	mov	%rax, %r14

wave:
	test	%r12, %r12
	jz	done
	mov	%r13, %r15		/* children left to fork in this wave */
forks:
	test	%r15, %r15
	jz	reap_wave
	mov	$SYS_fork, %eax
	syscall
	test	%rax, %rax
	jz	worker
	js	fail
	dec	%r15
	jmp	forks
reap_wave:
	mov	%r13, %rbx		/* children left to reap */
reap:
	test	%rbx, %rbx
	jz	next_wave
	mov	$SYS_wait4, %eax
	mov	$-1, %rdi
	xor	%esi, %esi
	xor	%edx, %edx
	xor	%r10d, %r10d
	syscall
	test	%rax, %rax
	js	fail
	dec	%rbx
	jmp	reap
next_wave:
	mov	$SYS_nanosleep, %eax
	lea	pause(%rip), %rdi
	xor	%esi, %esi
	syscall
	dec	%r12
	jmp	wave

worker:				/* runs the loop N times, exits */
	mov	%r14, %rax
	test	%rax, %rax
	jz	worker_exit
1:	dec	%rax
	jnz	1b
worker_exit:
	mov	$SYS_exit, %eax
	xor	%edi, %edi
	syscall

done:
	mov	$SYS_exit, %eax
	xor	%edi, %edi
	syscall
fail:
	mov	$SYS_exit, %eax
	mov	$1, %edi
	syscall
bad:
	mov	$SYS_exit, %eax
	mov	$2, %edi
	syscall

/* parse: decimal string at %rsi -> %rax; non-digit -> exit 2. */
parse:
	xor	%eax, %eax
2:	movzbl	(%rsi), %edx
	test	%edx, %edx
	jz	3f
	sub	$'0', %edx
	cmp	$9, %edx
	ja	bad
	imul	$10, %rax, %rax
	add	%rdx, %rax
	inc	%rsi
	jmp	2b
3:	ret

	.section .rodata
	.balign	8
pause:	.quad	0, 1000000		/* struct timespec: 1 ms */
	.section .note.GNU-stack,"",@progbits
