/* trap.c: the port's side of traps: the one dispatch of interrupts by cause (take_interrupt: in
 * the kernel, in the idle wait, and the timer and IPIs from user mode, which the generic entry
 * hands back through arch_trap_interrupt), and the reports for the traps that must not happen
 * (kernel exceptions, stack overflows). Traps from user mode go from trap.S to the generic
 * entries (kernel/core/entry.c). Runs on the trapping hart, interrupts masked. */
#include <stddef.h>
#include "asm_offsets.h"
#include "layout.h"
#include "riscv.h"
#include "trap.h"
#include "core/console.h"
#include "core/hart.h"
#include "lib/ksyms.h"
#include "core/panic.h"
#include "core/timer.h"
#include "core/entry.h"
#include "irq/irq.h"
#include <tacet/abi.h>

_Static_assert(offsetof(struct trap_frame, regs[1]) == TF_REG(1), "trap frame layout");
_Static_assert(offsetof(struct trap_frame, sepc) == TF_SEPC, "trap frame sepc");
_Static_assert(offsetof(struct trap_frame, sstatus) == TF_SSTATUS, "trap frame sstatus");
_Static_assert(offsetof(struct trap_frame, scause) == TF_SCAUSE, "trap frame scause");
_Static_assert(offsetof(struct trap_frame, stval) == TF_STVAL, "trap frame stval");
_Static_assert(sizeof(struct trap_frame) == TF_SIZE, "trap frame size");
_Static_assert(TF_SIZE % 16 == 0, "trap frame keeps sp 16-byte aligned");
_Static_assert(offsetof(struct hart, trap_scratch[0]) == HART_TRAP_SCRATCH0, "hart scratch0");
_Static_assert(offsetof(struct hart, trap_scratch[1]) == HART_TRAP_SCRATCH1, "hart scratch1");
_Static_assert(offsetof(struct hart, irq_stack_top) == HART_IRQ_STACK_TOP, "hart irq stack");
_Static_assert(offsetof(struct hart, overflow_stack_top) == HART_OVERFLOW_STACK_TOP,
	       "hart overflow stack");
_Static_assert(offsetof(struct hart, kstack_top) == HART_KSTACK_TOP, "hart kernel stack");
_Static_assert(offsetof(struct hart, hwid) == HART_HWID, "hart id");
_Static_assert(offsetof(struct hart, user_ctx) == HART_USER_CTX, "hart user context");
_Static_assert(offsetof(struct hart, syscalls) == HART_SYSCALLS, "hart syscall count");
_Static_assert(offsetof(struct hart, trap_cycle) == HART_TRAP_CYCLE, "hart trap cycle");
_Static_assert(SCAUSE_ECALL_U_CODE == SCAUSE_ECALL_U, "ecall cause in trap.S");
_Static_assert(SIP_SEIP_BIT == SIP_SEIP, "external interrupt bit in trap.S");
_Static_assert(SIP_SSIP_BIT == SIP_SSIP, "IPI bit in trap.S");
_Static_assert(SIP_SSIP == 1UL << SCAUSE_IRQ_S_SOFT && SIP_STIP == 1UL << SCAUSE_IRQ_S_TIMER &&
		       SIP_SEIP == 1UL << SCAUSE_IRQ_S_EXT,
	       "a cause's sip bit is 1 << its code (trap_idle_interrupts)");
_Static_assert(TACET_SYS_NULL == 0, "trap.S answers call 0 itself");
_Static_assert(SCAUSE_EXT_CODE == SCAUSE_IRQ_S_EXT, "trap.S's external interrupt cause");
_Static_assert(sizeof(struct hart) == HART_SIZE, "struct hart size (entry.S walks harts[])");

static const char *const exception_names[] = {
	[SCAUSE_MISALIGNED_FETCH] = "instruction address misaligned",
	[SCAUSE_FETCH_ACCESS] = "instruction access fault",
	[SCAUSE_ILLEGAL_INSN] = "illegal instruction",
	[SCAUSE_BREAKPOINT] = "breakpoint",
	[SCAUSE_MISALIGNED_LOAD] = "load address misaligned",
	[SCAUSE_LOAD_ACCESS] = "load access fault",
	[SCAUSE_MISALIGNED_STORE] = "store address misaligned",
	[SCAUSE_STORE_ACCESS] = "store access fault",
	[SCAUSE_ECALL_U] = "environment call from U-mode",
	[SCAUSE_ECALL_S] = "environment call from S-mode",
	[SCAUSE_FETCH_PAGE_FAULT] = "instruction page fault",
	[SCAUSE_LOAD_PAGE_FAULT] = "load page fault",
	[SCAUSE_STORE_PAGE_FAULT] = "store page fault",
};

static const char *scause_name(unsigned long scause)
{
	unsigned long code = scause & ~SCAUSE_INTERRUPT;

	if (scause & SCAUSE_INTERRUPT)
		return code == SCAUSE_IRQ_S_TIMER  ? "supervisor timer interrupt"
		       : code == SCAUSE_IRQ_S_SOFT ? "supervisor software interrupt"
		       : code == SCAUSE_IRQ_S_EXT  ? "supervisor external interrupt"
						   : "unknown interrupt";
	if (code < sizeof(exception_names) / sizeof(exception_names[0]) && exception_names[code])
		return exception_names[code];
	return "unknown exception";
}

static inline __attribute__((always_inline)) void
check_interrupt_window(const struct trap_frame *tf)
{
	/* Interrupts trap into the kernel only where a handler opened the window itself
	 * (irq_enable_in_hardirq()); the idle wait sleeps masked and handles them without a
	 * trap (trap_idle_interrupts). */
	if (KDEBUG && !this_hart()->hardirq_windows)
		panic_frame(tf, "interrupt taken outside a handler's window: SIE was set by accident");
}

/* The one dispatch of an interrupt cause (scause's code, the interrupt bit off): for a trap
 * taken in the kernel (a handler's window), one from user mode that is not external (the
 * generic entry delivers that one itself, directly if it can: entry.c), and each cause the
 * idle wait finds pending (but for its two quick cases, one external interrupt or one IPI
 * alone, which trap.S's arch_idle_wait calls straight). Inline: the fast handlers' way in.
 * Returns false for a cause the port never enables. */
static inline __attribute__((always_inline)) bool take_interrupt(unsigned long code)
{
	switch (code) {
	case SCAUSE_IRQ_S_TIMER:
		timer_handle();
		return true;
	case SCAUSE_IRQ_S_SOFT:
		csr_clear(sip, SIP_SSIP);
		hart_handle_ipi();
		return true;
	case SCAUSE_IRQ_S_EXT:
		irq_external(); /* takes the BKL if this path does not hold it (the idle wait) */
		return true;
	default:
		return false;
	}
}

static inline __attribute__((always_inline)) void dispatch_interrupt(struct trap_frame *tf)
{
	if (!take_interrupt(tf->scause & ~SCAUSE_INTERRUPT))
		panic_frame(tf, "unexpected interrupt");
}

static inline __attribute__((always_inline)) void handle_interrupt(struct trap_frame *tf)
{
	check_interrupt_window(tf);
	dispatch_interrupt(tf);
}

void trap_idle_interrupts(void)
{
	/* in the order of their priority as traps; a cause's sip bit is 1 << its code */
	static const unsigned long by_priority[] = {
		SCAUSE_IRQ_S_EXT, SCAUSE_IRQ_S_SOFT, SCAUSE_IRQ_S_TIMER,
	};
	unsigned long pending = csr_read(sip) & csr_read(sie);

	for (unsigned int i = 0; i < sizeof(by_priority) / sizeof(by_priority[0]); i++)
		if (pending & (1UL << by_priority[i]))
			take_interrupt(by_priority[i]);
}

void arch_take_pending_interrupts(void)
{
	this_hart()->trap_cycle = arch_cycles(); /* the top half counts from here */
	trap_idle_interrupts();
}

void trap_kernel(struct trap_frame *tf)
{
	if (!(tf->sstatus & SSTATUS_SPP))
		panic_frame(tf, "a trap from user mode took the kernel's path");
	if (tf->scause & SCAUSE_INTERRUPT)
		handle_interrupt(tf);
	else
		panic_frame(tf, "unexpected kernel exception");
	if (KDEBUG && (csr_read(sstatus) & SSTATUS_SIE))
		panic_frame(tf, "a trap handler left interrupts enabled");
}

void arch_trap_interrupt(struct trap_frame *tf)
{
	dispatch_interrupt(tf);
}

void trap_stack_overflow(struct trap_frame *tf)
{
	uintptr_t sp = tf->regs[REG_SP];
	uintptr_t slot = (sp - STACKS_BASE) >> STACK_SLOT_SHIFT;

	kprintf("\nkernel stack overflow on hart %lu: the %s guard page was hit (sp %#lx, "
		"fault address %#lx)\n",
		(unsigned long)(slot / STACK_SLOTS_PER_HART),
		slot % STACK_SLOTS_PER_HART ? "interrupt stack" : "kernel stack", (unsigned long)sp,
		tf->stval);
	panic_frame(tf, "kernel stack overflow on hart %lu (%s)",
		    (unsigned long)(slot / STACK_SLOTS_PER_HART),
		    slot % STACK_SLOTS_PER_HART ? "interrupt stack" : "kernel stack");
}

void arch_dump_frame(const struct trap_frame *tf)
{
	static const char *const names[32] = {
		"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
		"a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
		"s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
	};
	uintptr_t off;
	const char *sym = ksyms_lookup(tf->sepc, &off);

	kprintf("scause %#lx (%s)\nsepc   %#lx %s+%#lx\nstval  %#lx\nsstatus %#lx\n", tf->scause,
		scause_name(tf->scause), tf->sepc, sym ? sym : "?", sym ? (unsigned long)off : 0UL,
		tf->stval, tf->sstatus);
	for (int i = 1; i < 32; i++)
		kprintf("%4s %016lx%s", names[i], tf->regs[i], i % 4 == 3 ? "\n" : "  ");
	if ((tf->sstatus & SSTATUS_SPP) && (tf->scause & SCAUSE_INTERRUPT))
		kprintf("(an interrupt in the kernel: gp, tp, s1-s11 and stval were not saved)\n");
	kprintf("\nbacktrace:\n");
	arch_backtrace(tf->sepc, tf->regs[REG_S0], tf->regs[REG_RA], 32);
}
