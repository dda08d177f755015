/* entry.S: where OpenSBI enters the kernel (boot hart) and where SBI HSM starts the others.
 *
 * Both arrive in S-mode with the MMU off at a physical address: a0 = hart id, a1 = the DTB's
 * physical address (boot hart) or the struct hart's virtual address (secondaries). The kernel is
 * linked at KERNEL_LINK in the top 2 GiB; boot_pt maps the 1 GiB page holding the image twice,
 * identity (so the instruction after `csrw satp` still fetches) and at KERNEL_VBASE, and this
 * code jumps to the high alias. C then adds the direct map and builds the real page table.
 */
#include "asm_offsets.h"
#include "layout.h"
#include "riscv.h"

#define GIGA_SHIFT 30
#define PT_INDEX_MASK 0x1ff
#define BOOT_PTE_FLAGS (PTE_V | PTE_R | PTE_W | PTE_X | PTE_A | PTE_D)

	.section .text.entry, "ax"
	.globl _start
_start:
	/* Boot-hart election: fw_dynamic starts one hart, but never let two run boot code. */
	lla	t0, boot_lottery
	li	t1, 1
	amoswap.w t1, t1, (t0)
	bnez	t1, secondary_entry	/* see secondary_entry */

	/* boot_pt[pa >> 30] = boot_pt[KERNEL_VBASE index] = the gigapage holding the image */
	lla	t0, boot_pt
	lla	t1, _start
	srli	t2, t1, GIGA_SHIFT
	slli	t3, t2, GIGA_SHIFT - 12 + PTE_PPN_SHIFT
	ori	t3, t3, BOOT_PTE_FLAGS
	andi	t2, t2, PT_INDEX_MASK
	slli	t2, t2, 3
	add	t2, t0, t2
	sd	t3, 0(t2)
	li	t2, ((KERNEL_VBASE >> GIGA_SHIFT) & PT_INDEX_MASK) * 8
	add	t2, t0, t2
	sd	t3, 0(t2)

	call	.Lmmu_on_boot_pt
	ld	t0, .Lboot_high
	jr	t0

.Lboot_high_target:
	/* Now at the high alias: lla yields link-time addresses. */
	lla	sp, boot_stack_top
	lla	t0, __bss_start
	lla	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:	lla	tp, harts		/* the boot hart is logical hart 0 */
	lla	t0, trap_vector
	csrw	stvec, t0
	csrw	sscratch, zero
	li	s0, 0
	call	kmain			/* kmain(hart id, DTB physical address) */
	j	.Lpark

/*
 * A hart started by SBI HSM. Its own struct hart is found by hart id, not taken from a1:
 * OpenSBI 1.1's hart_start marks the hart START_PENDING before it stores the entry address and
 * argument, so a hart already waiting can leave with the stale ones (this hart's boot address,
 * _start, and the DTB). Such a hart loses the lottery above and comes here too. One that
 * arrives before the boot hart released the secondaries was not asked for and parks.
 */
	.globl secondary_entry
secondary_entry:
	lla	t0, secondaries_released
	lw	t0, 0(t0)
	beqz	t0, .Lpark
	fence	r, rw			/* acquire: harts[] and kernel_satp are ready */
	call	.Lmmu_on_boot_pt
	ld	t0, .Lsecondary_high
	jr	t0
.Lsecondary_high_target:
	lla	tp, harts
	lla	t1, nharts
	lwu	t1, 0(t1)
1:	beqz	t1, .Lpark		/* not a hart of ours */
	ld	t2, HART_HWID(tp)
	beq	t2, a0, 2f
	addi	tp, tp, HART_SIZE
	addi	t1, t1, -1
	j	1b
2:	mv	a1, tp
	lla	t0, kernel_satp
	ld	t0, 0(t0)
	sfence.vma zero, zero
	csrw	satp, t0
	sfence.vma zero, zero
	ld	sp, HART_KSTACK_TOP(tp)
	lla	t0, trap_vector
	csrw	stvec, t0
	csrw	sscratch, zero
	li	s0, 0
	call	hart_main		/* hart_main(hart id, struct hart *) */

.Lpark:
	wfi
	j	.Lpark

/* Turn on translation with boot_pt; clobbers t0, t1. Runs from the identity map. */
.Lmmu_on_boot_pt:
	lla	t0, boot_pt
	srli	t0, t0, 12
	li	t1, SATP_MODE_SV39
	or	t0, t0, t1
	sfence.vma zero, zero
	csrw	satp, t0
	sfence.vma zero, zero
	ret

	.section .rodata.entry, "a"
	.balign 8
.Lboot_high:		.dword .Lboot_high_target
.Lsecondary_high:	.dword .Lsecondary_high_target

	.section .data.boot, "aw"
	.balign 4
boot_lottery:	.word 0
	/* Set by the boot hart before it starts the others (in .data: read before .bss is clear). */
	.globl secondaries_released
secondaries_released:	.word 0

	/* Not in .bss: it is written before .bss is cleared. */
	.balign 4096
	.globl boot_pt
boot_pt:	.zero 4096

	.section .bss.boot_stack, "aw", @nobits
	.balign 16
boot_stack:	.zero 16384
	.globl boot_stack_top
boot_stack_top:
