/* trap.S: the one trap vector: saves the context, picks the stack, calls the C entry; also
 * arch_return_to_user and arch_idle_wait. Handlers run masked (hardware clears sstatus.SIE;
 * nothing here sets it). In the kernel tp = this hart's struct hart and sscratch = 0; in user
 * mode sscratch holds it, so one swap tells where the trap came from. From user mode the context
 * goes into the running thread's struct trap_frame (hart->user_ctx) and the cause's generic
 * entry (trap_syscall, trap_external, trap_interrupt, trap_exception: kernel/core/entry.c) never
 * returns: it leaves through arch_return_to_user(). From the kernel an interrupt (taken only
 * inside C: the idle wait, a handler's window) saves what C may clobber and s0, an exception
 * everything; an interrupt moves to the hart's interrupt stack unless already on it, and a frame
 * that would land in a stack's guard half goes to the overflow stack and trap_stack_overflow().
 * docs/foundation.md, "The trap path", gives the reasons. */
#include "asm_offsets.h"
#include "layout.h"

	.section .text.trap, "ax"
	.balign 4
	.globl trap_vector
trap_vector:
	csrrw	tp, sscratch, tp
	bnez	tp, .Lfrom_user
	csrrw	tp, sscratch, zero		/* from the kernel: tp back, sscratch stays 0 */
	sd	t0, HART_TRAP_SCRATCH0(tp)
	sd	t1, HART_TRAP_SCRATCH1(tp)
	rdcycle	t1				/* for the top half's time (irq.c) */
	sd	t1, HART_TRAP_CYCLE(tp)
	mv	t0, sp
	csrr	t1, scause
	bgez	t1, .Lcheck_guard		/* exception: stay on this stack */

	/* Interrupt: already on this hart's interrupt stack (same 32 KiB slot)? */
	addi	t1, sp, -1
	srli	t1, t1, STACK_SLOT_SHIFT
	ld	sp, HART_IRQ_STACK_TOP(tp)
	addi	sp, sp, -1
	srli	sp, sp, STACK_SLOT_SHIFT
	bne	t1, sp, .Lto_irq_stack
	mv	sp, t0				/* nested: keep pushing, but check the guard */

.Lcheck_guard:
	srai	t1, sp, STACKS_REGION_SHIFT
	addi	t1, t1, -(STACKS_REGION_TAG)
	bnez	t1, .Lsave			/* not a guarded stack (the boot stack) */
	addi	t1, sp, -TF_SIZE
	srli	t1, t1, STACK_SIZE_SHIFT
	andi	t1, t1, 1
	bnez	t1, .Lsave
	ld	sp, HART_OVERFLOW_STACK_TOP(tp)	/* the frame would hit the guard page */
	j	.Lsave

.Lto_irq_stack:
	ld	sp, HART_IRQ_STACK_TOP(tp)

.Lsave:	/* t0 = the interrupted sp; t0/t1's values wait in the hart's scratch words */
	addi	sp, sp, -TF_SIZE
	sd	t0, TF_REG(2)(sp)
	ld	t0, HART_TRAP_SCRATCH0(tp)
	ld	t1, HART_TRAP_SCRATCH1(tp)
	/* What C may clobber (ra, t0-t6, a0-a7), and s0 for backtraces: an interrupt needs no
	 * more, as the kernel takes one only where C code runs (the idle wait, a handler's
	 * window), and the C it calls keeps the other registers. */
	sd	x1, TF_REG(1)(sp)
	sd	x5, TF_REG(5)(sp)
	sd	x6, TF_REG(6)(sp)
	sd	x7, TF_REG(7)(sp)
	sd	x8, TF_REG(8)(sp)
	sd	x10, TF_REG(10)(sp)
	sd	x11, TF_REG(11)(sp)
	sd	x12, TF_REG(12)(sp)
	sd	x13, TF_REG(13)(sp)
	sd	x14, TF_REG(14)(sp)
	sd	x15, TF_REG(15)(sp)
	sd	x16, TF_REG(16)(sp)
	sd	x17, TF_REG(17)(sp)
	sd	x28, TF_REG(28)(sp)
	sd	x29, TF_REG(29)(sp)
	sd	x30, TF_REG(30)(sp)
	sd	x31, TF_REG(31)(sp)
	csrr	t0, sepc
	csrr	t1, sstatus
	csrr	t2, scause
	sd	t0, TF_SEPC(sp)
	sd	t1, TF_SSTATUS(sp)
	sd	t2, TF_SCAUSE(sp)
	/* A frame at the very top of the overflow stack means the guard check fired. */
	ld	t0, HART_OVERFLOW_STACK_TOP(tp)
	addi	t0, t0, -TF_SIZE
	beq	sp, t0, .Lsave_rest
	bgez	t2, .Lsave_rest			/* an exception: everything, for the report */

	/* An interrupt: the C handler, then back with what was saved. */
	mv	a0, sp
	li	s0, 0				/* the frame-pointer chain ends here (see below) */
	call	trap_kernel
	ld	t0, TF_SEPC(sp)
	ld	t1, TF_SSTATUS(sp)
	csrw	sepc, t0
	csrw	sstatus, t1
	ld	x1, TF_REG(1)(sp)
	ld	x5, TF_REG(5)(sp)
	ld	x6, TF_REG(6)(sp)
	ld	x7, TF_REG(7)(sp)
	ld	x8, TF_REG(8)(sp)
	ld	x10, TF_REG(10)(sp)
	ld	x11, TF_REG(11)(sp)
	ld	x12, TF_REG(12)(sp)
	ld	x13, TF_REG(13)(sp)
	ld	x14, TF_REG(14)(sp)
	ld	x15, TF_REG(15)(sp)
	ld	x16, TF_REG(16)(sp)
	ld	x17, TF_REG(17)(sp)
	ld	x28, TF_REG(28)(sp)
	ld	x29, TF_REG(29)(sp)
	ld	x30, TF_REG(30)(sp)
	ld	x31, TF_REG(31)(sp)
	ld	x2, TF_REG(2)(sp)
	sret

.Lsave_rest:	/* an exception (or an overflow): the whole context */
	sd	x3, TF_REG(3)(sp)
	sd	x4, TF_REG(4)(sp)
	sd	x9, TF_REG(9)(sp)
	sd	x18, TF_REG(18)(sp)
	sd	x19, TF_REG(19)(sp)
	sd	x20, TF_REG(20)(sp)
	sd	x21, TF_REG(21)(sp)
	sd	x22, TF_REG(22)(sp)
	sd	x23, TF_REG(23)(sp)
	sd	x24, TF_REG(24)(sp)
	sd	x25, TF_REG(25)(sp)
	sd	x26, TF_REG(26)(sp)
	sd	x27, TF_REG(27)(sp)
	csrr	t3, stval
	sd	t3, TF_STVAL(sp)
	ld	t0, HART_OVERFLOW_STACK_TOP(tp)
	addi	t0, t0, -TF_SIZE
	mv	a0, sp
	beq	sp, t0, .Loverflow
	/* End the frame-pointer chain here: a backtrace of the interrupted code starts from the
	 * frame's own s0 and sepc instead. */
	li	s0, 0
	call	trap_kernel	/* a kernel exception: it reports and does not return */
1:	wfi
	j	1b

.Loverflow:
	call	trap_stack_overflow	/* does not return */
2:	wfi
	j	2b

.Lfrom_user:	/* tp = struct hart, sscratch = the user's tp */
	sd	t0, HART_TRAP_SCRATCH0(tp)
	rdcycle	t0
	sd	t0, HART_TRAP_CYCLE(tp)
	ld	t0, HART_USER_CTX(tp)
	sd	x1, TF_REG(1)(t0)
	sd	x2, TF_REG(2)(t0)
	sd	x3, TF_REG(3)(t0)
	sd	x6, TF_REG(6)(t0)
	sd	x7, TF_REG(7)(t0)
	sd	x8, TF_REG(8)(t0)
	sd	x9, TF_REG(9)(t0)
	sd	x10, TF_REG(10)(t0)
	sd	x11, TF_REG(11)(t0)
	sd	x12, TF_REG(12)(t0)
	sd	x13, TF_REG(13)(t0)
	sd	x14, TF_REG(14)(t0)
	sd	x15, TF_REG(15)(t0)
	sd	x16, TF_REG(16)(t0)
	sd	x17, TF_REG(17)(t0)
	sd	x18, TF_REG(18)(t0)
	sd	x19, TF_REG(19)(t0)
	sd	x20, TF_REG(20)(t0)
	sd	x21, TF_REG(21)(t0)
	sd	x22, TF_REG(22)(t0)
	sd	x23, TF_REG(23)(t0)
	sd	x24, TF_REG(24)(t0)
	sd	x25, TF_REG(25)(t0)
	sd	x26, TF_REG(26)(t0)
	sd	x27, TF_REG(27)(t0)
	sd	x28, TF_REG(28)(t0)
	sd	x29, TF_REG(29)(t0)
	sd	x30, TF_REG(30)(t0)
	sd	x31, TF_REG(31)(t0)
	ld	t1, HART_TRAP_SCRATCH0(tp)
	sd	t1, TF_REG(5)(t0)
	csrrw	t1, sscratch, zero		/* the user's tp; back in the kernel: sscratch = 0 */
	sd	t1, TF_REG(4)(t0)
	csrr	t1, sepc
	sd	t1, TF_SEPC(t0)
	csrr	t1, sstatus
	sd	t1, TF_SSTATUS(t0)
	csrr	t1, scause
	sd	t1, TF_SCAUSE(t0)
	/* The null system call needs nothing but the way back: answer it right here. */
	li	t2, SCAUSE_ECALL_U_CODE
	bne	t1, t2, 2f
	bnez	a7, 4f				/* a7 is still the user's: the call number */
	ld	t1, TF_SEPC(t0)
	addi	t1, t1, 4
	sd	t1, TF_SEPC(t0)
	sd	zero, TF_REG(10)(t0)
	ld	t1, HART_SYSCALLS(tp)
	addi	t1, t1, 1
	sd	t1, HART_SYSCALLS(tp)
	mv	a0, t0
	j	arch_return_to_user
	/* The rest: the generic entry for the cause (kernel/core/entry.c), on an empty kernel
	 * stack, with the frame; none returns. */
	.macro	enter_generic fn
	ld	sp, HART_KSTACK_TOP(tp)
	li	s0, 0
	mv	a0, t0
	call	\fn
	j	1b
	.endm
4:	enter_generic trap_syscall
2:	bltz	t1, 3f
	csrr	t1, stval			/* an exception: its address too */
	sd	t1, TF_STVAL(t0)
	enter_generic trap_exception
3:	slli	t2, t1, 1			/* an interrupt: its code, the top bit shifted out */
	addi	t2, t2, -(SCAUSE_EXT_CODE << 1)
	beqz	t2, 5f
	enter_generic trap_interrupt
5:	enter_generic trap_external

/* arch_return_to_user(struct trap_frame *tf): into user mode with tf's registers. */
	.globl arch_return_to_user
arch_return_to_user:
	csrw	sscratch, tp			/* the next trap comes from user mode */
	ld	t0, TF_SEPC(a0)
	csrw	sepc, t0
	ld	t0, TF_SSTATUS(a0)
	csrw	sstatus, t0
	ld	x1, TF_REG(1)(a0)
	ld	x2, TF_REG(2)(a0)
	ld	x3, TF_REG(3)(a0)
	ld	x4, TF_REG(4)(a0)
	ld	x5, TF_REG(5)(a0)
	ld	x6, TF_REG(6)(a0)
	ld	x7, TF_REG(7)(a0)
	ld	x8, TF_REG(8)(a0)
	ld	x9, TF_REG(9)(a0)
	ld	x11, TF_REG(11)(a0)
	ld	x12, TF_REG(12)(a0)
	ld	x13, TF_REG(13)(a0)
	ld	x14, TF_REG(14)(a0)
	ld	x15, TF_REG(15)(a0)
	ld	x16, TF_REG(16)(a0)
	ld	x17, TF_REG(17)(a0)
	ld	x18, TF_REG(18)(a0)
	ld	x19, TF_REG(19)(a0)
	ld	x20, TF_REG(20)(a0)
	ld	x21, TF_REG(21)(a0)
	ld	x22, TF_REG(22)(a0)
	ld	x23, TF_REG(23)(a0)
	ld	x24, TF_REG(24)(a0)
	ld	x25, TF_REG(25)(a0)
	ld	x26, TF_REG(26)(a0)
	ld	x27, TF_REG(27)(a0)
	ld	x28, TF_REG(28)(a0)
	ld	x29, TF_REG(29)(a0)
	ld	x30, TF_REG(30)(a0)
	ld	x31, TF_REG(31)(a0)
	ld	x10, TF_REG(10)(a0)
	sret

/* arch_idle_wait(): wfi wakes on any pending interrupt enabled in sie, whatever sstatus.SIE
 * says, so the idle wait never enables interrupts at all: it sleeps masked, then handles
 * what is pending itself, on the hart's interrupt stack as a trap would have, but without a
 * trap's entry and exit: irq_external_idle() for an external interrupt alone (the common
 * case), hart_handle_ipi() for an IPI alone (another hart readied a thread here),
 * trap_idle_interrupts() for anything else. An interrupt that arrives just before the
 * wfi is not lost: wfi then returns at once. In assembly, as its every instruction is on the
 * way from an interrupt to a fast handler. */
	.globl arch_idle_wait
arch_idle_wait:
	wfi
	csrr	t0, sip
	csrr	t1, sie
	and	t0, t0, t1
	beqz	t0, 3f
	rdcycle	t1				/* the top half counts from here (irq.c) */
	sd	t1, HART_TRAP_CYCLE(tp)
	ld	t1, HART_IRQ_STACK_TOP(tp)
	addi	t1, t1, -16
	sd	sp, 0(t1)
	sd	ra, 8(t1)
	mv	sp, t1
	li	t1, SIP_SEIP_BIT
	bne	t0, t1, 1f
	/* aia.c patches this call into one of aia_idle_external when IPIs come through the IMSIC
	 * (then an IPI is an external interrupt): auipc and jalr, whatever the assembler's relaxing */
	.globl	arch_idle_external_call
arch_idle_external_call:
	.option push
	.option norelax
	call	irq_external_idle
	.option pop
	j	2f
1:	li	t1, SIP_SSIP_BIT
	bne	t0, t1, 4f
	csrc	sip, t1				/* taken: a later IPI raises it again */
	call	hart_handle_ipi
	j	2f
4:	call	trap_idle_interrupts
2:	ld	ra, 8(sp)
	ld	sp, 0(sp)
3:	ret
