/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn MODE K N: create K workers that each run the dec/jnz loop of
 * tests/progs/loop.S N times, then exit 0.  Static, no libc, so every
 * user-mode instruction is known:
 *   MODE p: K processes (fork), running concurrently; the parent reaps
 *           them with K blocking wait4 calls.
 *   MODE t: K threads (clone CLONE_VM|CLONE_THREAD|CLONE_VFORK), one after
 *           the other: the parent sleeps in clone until each has exited.
 * The parent's own count depends only on K (and the digit counts of K and
 * N), never on timing, so count(K, N) - count(K, 0) = K * 2N exactly.
 * Exit 2 on bad arguments.
 */
#define SYS_wait4	61
#define SYS_clone	56
#define SYS_fork	57
#define SYS_exit	60
/* CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_VFORK */
#define THREAD_FLAGS	(0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x4000)

	.text
	.globl	_start
_start:
	cmpq	$4, (%rsp)		/* argc */
	jne	bad
	mov	16(%rsp), %rsi		/* MODE */
	movzbl	(%rsi), %r12d
	mov	24(%rsp), %rsi		/* K */
	call	parse
	mov	%rax, %r13
	mov	32(%rsp), %rsi		/* N */
	call	parse
	mov	%rax, %r14
	mov	%r13, %r15		/* workers left to create */
	cmp	$'p', %r12d
	je	procs
	cmp	$'t', %r12d
	je	threads
	jmp	bad

procs:
	test	%r15, %r15
	jz	reap
	mov	$SYS_fork, %eax
	syscall
	test	%rax, %rax
	jz	worker
	js	fail
	dec	%r15
	jmp	procs
reap:
	test	%r13, %r13
	jz	done
	mov	$SYS_wait4, %eax
	mov	$-1, %rdi
	xor	%esi, %esi
	xor	%edx, %edx
	xor	%r10d, %r10d
	syscall
	test	%rax, %rax
	js	fail
	dec	%r13
	jmp	reap

threads:
	test	%r15, %r15
	jz	done
	mov	$SYS_clone, %eax
	mov	$THREAD_FLAGS, %edi
	lea	stack_top(%rip), %rsi
	xor	%edx, %edx
	xor	%r10d, %r10d
	xor	%r8d, %r8d
	syscall
	test	%rax, %rax
	jz	worker
	js	fail
	dec	%r15
	jmp	threads

worker:				/* runs the loop N times, exits (thread or process) */
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

	.bss
	.balign	16
	.skip	16384
stack_top:
	.section .note.GNU-stack,"",@progbits
