/* trap.S: the one trap vector. Saves the full context, picks the stack, calls trap_kernel().
 *
 * Every trap today comes from S-mode (user entry arrives with the user-space issue): the kernel
 * keeps tp = this hart's struct hart and sscratch = 0. Hardware clears sstatus.SIE on entry and
 * nothing here sets it, so the handler runs with interrupts masked.
 *
 * Stack choice: an interrupt moves to the hart's interrupt stack unless it is already on it (a
 * nested interrupt, allowed only through irq_enable_in_hardirq()); an exception stays on the
 * current stack. Before pushing the frame on a guarded stack the entry checks whether the frame
 * would land in the guard half of the 32 KiB slot (bit STACK_SIZE_SHIFT of the address clear):
 * then the stack has overflowed and pushing would fault again forever, so it switches to the
 * hart's overflow stack and reports through trap_stack_overflow().
 */
#include "asm_offsets.h"
#include "layout.h"

	.section .text.trap, "ax"
	.balign 4
	.globl trap_vector
trap_vector:
	sd	t0, HART_TRAP_SCRATCH0(tp)
	sd	t1, HART_TRAP_SCRATCH1(tp)
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
	sd	x1, TF_REG(1)(sp)
	sd	x3, TF_REG(3)(sp)
	sd	x4, TF_REG(4)(sp)
	sd	x5, TF_REG(5)(sp)
	sd	x6, TF_REG(6)(sp)
	sd	x7, TF_REG(7)(sp)
	sd	x8, TF_REG(8)(sp)
	sd	x9, TF_REG(9)(sp)
	sd	x10, TF_REG(10)(sp)
	sd	x11, TF_REG(11)(sp)
	sd	x12, TF_REG(12)(sp)
	sd	x13, TF_REG(13)(sp)
	sd	x14, TF_REG(14)(sp)
	sd	x15, TF_REG(15)(sp)
	sd	x16, TF_REG(16)(sp)
	sd	x17, TF_REG(17)(sp)
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
	sd	x28, TF_REG(28)(sp)
	sd	x29, TF_REG(29)(sp)
	sd	x30, TF_REG(30)(sp)
	sd	x31, TF_REG(31)(sp)
	csrr	t0, sepc
	csrr	t1, sstatus
	csrr	t2, scause
	csrr	t3, stval
	sd	t0, TF_SEPC(sp)
	sd	t1, TF_SSTATUS(sp)
	sd	t2, TF_SCAUSE(sp)
	sd	t3, TF_STVAL(sp)

	/* A frame at the very top of the overflow stack means the guard check fired. */
	ld	t0, HART_OVERFLOW_STACK_TOP(tp)
	addi	t0, t0, -TF_SIZE
	mv	a0, sp
	beq	sp, t0, .Loverflow
	/* End the frame-pointer chain here: a backtrace of the interrupted code starts from the
	 * frame's own s0 and sepc instead. */
	li	s0, 0
	call	trap_kernel

	ld	t0, TF_SEPC(sp)
	ld	t1, TF_SSTATUS(sp)
	csrw	sepc, t0
	csrw	sstatus, t1
	ld	x1, TF_REG(1)(sp)
	ld	x3, TF_REG(3)(sp)
	ld	x4, TF_REG(4)(sp)
	ld	x5, TF_REG(5)(sp)
	ld	x6, TF_REG(6)(sp)
	ld	x7, TF_REG(7)(sp)
	ld	x8, TF_REG(8)(sp)
	ld	x9, TF_REG(9)(sp)
	ld	x10, TF_REG(10)(sp)
	ld	x11, TF_REG(11)(sp)
	ld	x12, TF_REG(12)(sp)
	ld	x13, TF_REG(13)(sp)
	ld	x14, TF_REG(14)(sp)
	ld	x15, TF_REG(15)(sp)
	ld	x16, TF_REG(16)(sp)
	ld	x17, TF_REG(17)(sp)
	ld	x18, TF_REG(18)(sp)
	ld	x19, TF_REG(19)(sp)
	ld	x20, TF_REG(20)(sp)
	ld	x21, TF_REG(21)(sp)
	ld	x22, TF_REG(22)(sp)
	ld	x23, TF_REG(23)(sp)
	ld	x24, TF_REG(24)(sp)
	ld	x25, TF_REG(25)(sp)
	ld	x26, TF_REG(26)(sp)
	ld	x27, TF_REG(27)(sp)
	ld	x28, TF_REG(28)(sp)
	ld	x29, TF_REG(29)(sp)
	ld	x30, TF_REG(30)(sp)
	ld	x31, TF_REG(31)(sp)
	ld	x2, TF_REG(2)(sp)
	sret

.Loverflow:
	call	trap_stack_overflow	/* does not return */
1:	wfi
	j	1b
