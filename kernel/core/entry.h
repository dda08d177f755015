/* entry.h: the generic kernel's ways in from user mode, one per cause. The port's trap vector
 * (kernel/arch/riscv/trap.S) saves the running thread's registers into tf (its struct
 * trap_frame), switches to the hart's kernel stack and calls the one that fits; none returns
 * (each leaves through arch_return_to_user into whichever thread runs next). Interrupts masked;
 * each takes the BKL. entry.c is built with its callee-saved registers as scratch (the
 * Makefile's ENTRY_CALL_USED: no prologue saves them), so no C code may call these. */
#ifndef KERNEL_CORE_ENTRY_H
#define KERNEL_CORE_ENTRY_H

#include "arch.h"

/* A system call (not the null call, which the port answers itself). */
_Noreturn void trap_syscall(struct trap_frame *tf);
/* The interrupt controller's interrupt, taken in user mode. */
_Noreturn void trap_external(struct trap_frame *tf);
/* Any other interrupt taken in user mode (the timer, an IPI): the port's to handle. */
_Noreturn void trap_interrupt(struct trap_frame *tf);
/* Any other exception (a fault, or the port's business, such as a thread's first FPU use). */
_Noreturn void trap_exception(struct trap_frame *tf);

#endif
