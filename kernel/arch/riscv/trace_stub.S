/* trace_stub.S: the call a trace site makes when tracing is on (arch_trace.h): trace_record
 * (kernel/core/trace.c) with a0-a3 as they are, every other register the C code may clobber
 * (ra, t0-t6, a4-a7) kept, so that the site's C caller need not keep anything for it. */
	.section .text
	.balign 4
	.globl trace_stub
trace_stub:
	addi	sp, sp, -96
	sd	ra, 0(sp)
	sd	t0, 8(sp)
	sd	t1, 16(sp)
	sd	t2, 24(sp)
	sd	t3, 32(sp)
	sd	t4, 40(sp)
	sd	t5, 48(sp)
	sd	t6, 56(sp)
	sd	a4, 64(sp)
	sd	a5, 72(sp)
	sd	a6, 80(sp)
	sd	a7, 88(sp)
	call	trace_record
	ld	ra, 0(sp)
	ld	t0, 8(sp)
	ld	t1, 16(sp)
	ld	t2, 24(sp)
	ld	t3, 32(sp)
	ld	t4, 40(sp)
	ld	t5, 48(sp)
	ld	t6, 56(sp)
	ld	a4, 64(sp)
	ld	a5, 72(sp)
	ld	a6, 80(sp)
	ld	a7, 88(sp)
	addi	sp, sp, 96
	ret
