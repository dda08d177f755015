/* trap.h: the saved state of a trap (struct trap_frame) and the C handlers trap.S calls. */
#ifndef ARCH_RISCV_TRAP_H
#define ARCH_RISCV_TRAP_H

#include <stdint.h>
#include "arch_types.h"

enum { REG_RA = 1, REG_SP = 2, REG_GP = 3, REG_TP = 4, REG_S0 = 8, REG_A0 = 10 };

void trap_kernel(struct trap_frame *tf);
_Noreturn void trap_user(struct trap_frame *tf);
_Noreturn void trap_user_interrupt(struct trap_frame *tf);
_Noreturn void trap_stack_overflow(struct trap_frame *tf);

/* What was pending when the idle wait woke (sip & sie), handled without a trap (cpu.c). */
void trap_idle_interrupts(unsigned long pending);
/* fn(arg) with sp at top (trap.S): the idle wait's handlers on the hart's interrupt stack. */
void arch_call_on_stack(void (*fn)(unsigned long), unsigned long arg, uintptr_t top);


#endif
