/* trap.h: the saved state of a trap (struct trap_frame) and the C handlers trap.S calls. */
#ifndef ARCH_RISCV_TRAP_H
#define ARCH_RISCV_TRAP_H

#include <stdint.h>
#include "arch_types.h"

enum { REG_RA = 1, REG_SP = 2, REG_GP = 3, REG_TP = 4, REG_S0 = 8, REG_A0 = 10 };

void trap_kernel(struct trap_frame *tf);
_Noreturn void trap_stack_overflow(struct trap_frame *tf);

/* What is pending after the idle wait woke (sip & sie), handled without a trap (trap.S's
 * arch_idle_wait, on the hart's interrupt stack). */
void trap_idle_interrupts(void);


#endif
