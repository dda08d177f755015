/* asm_offsets.h: byte offsets into struct trap_frame and struct hart used by the assembly;
 * trap.c checks each one against the C structures with _Static_assert. */
#ifndef ARCH_RISCV_ASM_OFFSETS_H
#define ARCH_RISCV_ASM_OFFSETS_H

/* struct trap_frame: x0..x31 (x0's slot is unused), then the trap CSRs */
#define TF_REG(n)   ((n) * 8)
#define TF_SEPC     (32 * 8)
#define TF_SSTATUS  (33 * 8)
#define TF_SCAUSE   (34 * 8)
#define TF_STVAL    (35 * 8)
#define TF_SIZE     (36 * 8) /* a multiple of 16, as the psABI wants sp */

/* struct hart: the fields the trap entry touches before it has a stack */
#define HART_TRAP_SCRATCH0     0
#define HART_TRAP_SCRATCH1     8
#define HART_IRQ_STACK_TOP     16
#define HART_OVERFLOW_STACK_TOP 24
#define HART_KSTACK_TOP        32
#define HART_HWID              40
#define HART_USER_CTX          48
#define HART_SYSCALLS          88
#define HART_TRAP_CYCLE        96
#define HART_SIZE              256

#define SIP_SEIP_BIT           (1 << 9) /* = SIP_SEIP, for the assembly */
#define SIP_SSIP_BIT           (1 << 1) /* = SIP_SSIP */
#define SCAUSE_ECALL_U_CODE    8 /* = SCAUSE_ECALL_U, for the assembly */
#define SCAUSE_EXT_CODE        9 /* = SCAUSE_IRQ_S_EXT: an interrupt's scause, its top bit off */

#endif
