/* context.c: user thread contexts: their initial state and the lazy-by-FS floating-point
 * save/restore done at thread switches. Called with the BKL held, on the hart doing the switch. */
#include "arch.h"
#include "lib/kstring.h"
#include "layout.h"
#include "riscv.h"

#define SSTATUS_FS_MASK    (3UL << 13)
#define SSTATUS_FS_OFF     (0UL << 13)
#define SSTATUS_FS_INITIAL (1UL << 13)
#define SSTATUS_FS_CLEAN   (2UL << 13)
#define SSTATUS_FS_DIRTY   (3UL << 13)

void arch_ctx_init_user(struct trap_frame *tf, uintptr_t pc, uintptr_t sp, unsigned long arg)
{
	memset(tf, 0, sizeof(*tf));
	tf->sepc = pc;
	tf->regs[ARCH_REG_SP] = sp;
	tf->regs[ARCH_REG_A0] = arg;
	/* sret to U-mode (SPP = 0); the FPU off until the thread first uses it (arch_fp_trap) */
	tf->sstatus = SSTATUS_SPIE | SSTATUS_FS_OFF;
}

#define FP_REGS(op)                                                                            \
	op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9) op(10) op(11) op(12) op(13)  \
	op(14) op(15) op(16) op(17) op(18) op(19) op(20) op(21) op(22) op(23) op(24) op(25)     \
	op(26) op(27) op(28) op(29) op(30) op(31)
#define FSD(n) "fsd f" #n ", " #n "*8(%0)\n"
#define FLD(n) "fld f" #n ", " #n "*8(%0)\n"

/* The kernel itself runs with FS off; open it just for the copy. */
void arch_fp_save_regs(struct trap_frame *tf, struct fp_state *fp)
{
	csr_set(sstatus, SSTATUS_FS_CLEAN);
	__asm__ volatile(FP_REGS(FSD) "frcsr t0\n sd t0, 32*8(%0)\n" : : "r"(fp) : "t0", "memory");
	csr_clear(sstatus, SSTATUS_FS_MASK);
	tf->sstatus = (tf->sstatus & ~SSTATUS_FS_MASK) | SSTATUS_FS_CLEAN;
}

void arch_fp_restore_regs(struct trap_frame *tf, const struct fp_state *fp)
{
	csr_set(sstatus, SSTATUS_FS_CLEAN);
	__asm__ volatile(FP_REGS(FLD) "ld t0, 32*8(%0)\n fscsr t0\n" : : "r"(fp) : "t0", "memory");
	csr_clear(sstatus, SSTATUS_FS_MASK);
	if ((tf->sstatus & SSTATUS_FS_MASK) == SSTATUS_FS_DIRTY)
		tf->sstatus = (tf->sstatus & ~SSTATUS_FS_MASK) | SSTATUS_FS_CLEAN;
}

bool arch_fp_trap(struct trap_frame *tf, const struct fp_state *fp)
{
	if ((tf->scause & ~SCAUSE_INTERRUPT) != SCAUSE_ILLEGAL_INSN || (tf->scause & SCAUSE_INTERRUPT) ||
	    (tf->sstatus & SSTATUS_FS_MASK) != SSTATUS_FS_OFF)
		return false;
	/* Maybe an FPU instruction: switch the FPU on with the thread's (zero) state and retry.
	 * If it was not one, it traps again with the FPU on and is a real fault. */
	tf->sstatus |= SSTATUS_FS_INITIAL;
	arch_fp_restore(tf, fp);
	return true;
}

uintptr_t arch_user_top(void)
{
	return USER_VA_TOP;
}

void arch_user_text_changed(void)
{
	asm volatile("fence.i" ::: "memory");
}
