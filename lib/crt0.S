/* crt0.S: _start, where every server's first thread begins: sets up gp and the thread's TLS
 * block, runs picolibc's constructors, calls main() and passes its result to exit().
 *
 * On entry sp is set by whoever created the thread and a0 is its start argument; memory is
 * as the ELF loader left it (.bss zeroed), so nothing needs clearing here.
 */

/* The psABI's stack alignment at a call. */
#define STACK_ALIGN 16
/* sizeof(unsigned long) */
#define SZREG 8

	.section .text.start, "ax", @progbits
	.globl	_start
	.type	_start, @function
_start:
	/* gp must be loaded without relaxation: relaxed, `lla gp` would become relative to the
	 * gp it is setting. */
	.option	push
	.option	norelax
	lla	gp, __global_pointer$
	.option	pop

	andi	sp, sp, -STACK_ALIGN
	li	s0, 0			/* fp = 0 ends the frame chain for backtraces */
	sd	a0, tacet_start_arg, t0

	/* picolibc keeps errno (and anything else _Thread_local) at fixed offsets from tp:
	 * copy the TLS template into this thread's block, then point tp at it. */
	lla	a0, tacet_main_tls
	call	_init_tls
	lla	a0, tacet_main_tls
	call	_set_tls

	call	__libc_init_array
	call	main
	call	exit			/* atexit handlers, destructors, then _exit() */
	.size	_start, . - _start

	.section .sbss.tacet_start_arg, "aw", @nobits
	.balign	SZREG
	.globl	tacet_start_arg
	.type	tacet_start_arg, @object
	.size	tacet_start_arg, SZREG
tacet_start_arg:
	.zero	SZREG
