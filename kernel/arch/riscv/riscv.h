/* riscv.h: RISC-V supervisor CSRs, their bits and accessors; arch code only. */
#ifndef ARCH_RISCV_RISCV_H
#define ARCH_RISCV_RISCV_H

#define SSTATUS_SIE  (1UL << 1)
#define SSTATUS_SPIE (1UL << 5)
#define SSTATUS_SPP  (1UL << 8)
#define SSTATUS_SUM  (1UL << 18)

#define SIE_SSIE (1UL << 1) /* supervisor software interrupt (IPI) */
#define SIE_STIE (1UL << 5) /* supervisor timer interrupt */
#define SIE_SEIE (1UL << 9) /* supervisor external interrupt (PLIC) */
#define SIP_SSIP SIE_SSIE
#define SIP_STIP SIE_STIE
#define SIP_SEIP SIE_SEIE

#define SCOUNTEREN_CY (1UL << 0)
#define SCOUNTEREN_TM (1UL << 1)
#define SCOUNTEREN_IR (1UL << 2)

#define SATP_MODE_SV39 (8UL << 60)

/* Sv39 page table entry bits. */
#define PTE_V (1UL << 0)
#define PTE_R (1UL << 1)
#define PTE_W (1UL << 2)
#define PTE_X (1UL << 3)
#define PTE_U (1UL << 4)
#define PTE_G (1UL << 5)
#define PTE_A (1UL << 6)
#define PTE_D (1UL << 7)
#define PTE_PPN_SHIFT 10

#ifndef __ASSEMBLER__
#include <stdint.h>

#define SCAUSE_INTERRUPT (1UL << 63)
enum scause_code {
	/* with SCAUSE_INTERRUPT set */
	SCAUSE_IRQ_S_SOFT = 1,
	SCAUSE_IRQ_S_TIMER = 5,
	SCAUSE_IRQ_S_EXT = 9,
	/* exceptions */
	SCAUSE_MISALIGNED_FETCH = 0,
	SCAUSE_FETCH_ACCESS = 1,
	SCAUSE_ILLEGAL_INSN = 2,
	SCAUSE_BREAKPOINT = 3,
	SCAUSE_MISALIGNED_LOAD = 4,
	SCAUSE_LOAD_ACCESS = 5,
	SCAUSE_MISALIGNED_STORE = 6,
	SCAUSE_STORE_ACCESS = 7,
	SCAUSE_ECALL_U = 8,
	SCAUSE_ECALL_S = 9,
	SCAUSE_FETCH_PAGE_FAULT = 12,
	SCAUSE_LOAD_PAGE_FAULT = 13,
	SCAUSE_STORE_PAGE_FAULT = 15,
};


#define csr_read(csr)                                                                          \
	({                                                                                     \
		unsigned long __v;                                                             \
		__asm__ volatile("csrr %0, " #csr : "=r"(__v) : : "memory");                  \
		__v;                                                                           \
	})
#define csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" : : "rK"(val) : "memory")
#define csr_set(csr, val)   __asm__ volatile("csrs " #csr ", %0" : : "rK"(val) : "memory")
#define csr_clear(csr, val) __asm__ volatile("csrc " #csr ", %0" : : "rK"(val) : "memory")
/* Sstc's supervisor timer compare register, by number: binutils may not know its name. */
#define CSR_STIMECMP 0x14d

static inline void sfence_vma_all(void)
{
	__asm__ volatile("sfence.vma zero, zero" : : : "memory");
}

static inline uint64_t rdtime(void)
{
	uint64_t t;
	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

static inline uint64_t rdcycle(void)
{
	uint64_t c;
	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}
#endif /* __ASSEMBLER__ */
#endif
