/* arch_trace.h: the RISC-V side of the kernel's trace hooks (core/trace.h): a trace site is one
 * 4-byte nop, listed in section .trace_sites with the address of its out-of-line recording
 * code; trace=on (trace.c, at boot, on the boot hart, before the kernel's own page tables make
 * text read-only) writes a jump to that code over each nop. So a kernel booted without trace=on
 * pays one retired instruction a site. The recording call goes through trace_stub
 * (trace_stub.S), which keeps every register but a0-a3 and ra: the compiler sees a call that
 * clobbers nothing else, so a site does not change how the hot path around it keeps its values. */
#ifndef KERNEL_ARCH_RISCV_ARCH_TRACE_H
#define KERNEL_ARCH_RISCV_ARCH_TRACE_H

#include <stdint.h>

/* One entry of .trace_sites (kernel.ld gathers them between __trace_sites_start and _end). */
struct arch_trace_site {
	uintptr_t nop;  /* the nop's address (2-byte aligned: the kernel has compressed code) */
	uintptr_t code; /* where a jump from it goes */
};

#define ARCH_TRACE_SITE(label)                                                                 \
	asm goto(".option push\n.option norvc\n1: nop\n.option pop\n"                          \
		 ".pushsection .trace_sites, \"a\"\n.balign 8\n.dword 1b, %l[" #label "]\n"   \
		 ".popsection" :::: label)

/* The recording call: trace_record(kind, a, b, since) through trace_stub. */
static inline __attribute__((always_inline)) void arch_trace_call(unsigned long kind,
								  unsigned long a, unsigned long b,
								  unsigned long since)
{
	register unsigned long a0 asm("a0") = kind;
	register unsigned long a1 asm("a1") = a;
	register unsigned long a2 asm("a2") = b;
	register unsigned long a3 asm("a3") = since;

	asm volatile("call trace_stub" : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3) : : "ra", "memory");
}

/* The jump (jal x0) from a site's nop to its code (within a function: well inside jal's
 * +-1 MiB). Written once, at boot, before any other hart runs (trace.c). */
static inline uint32_t arch_trace_jump(uintptr_t from, uintptr_t to)
{
	uint32_t off = (uint32_t)(to - from);

	return (off & 0x100000) << 11 | (off & 0x7fe) << 20 | (off & 0x800) << 9 |
	       (off & 0xff000) | 0x6f; /* jal x0, off: imm[20|10:1|11|19:12] rd opcode */
}

/* A site's nop becomes the jump: two halfword stores (the nop may sit on a 2-byte boundary),
 * then fence.i once all are written (arch_trace_sites_done). */
static inline void arch_trace_patch(const struct arch_trace_site *s)
{
	uint32_t insn = arch_trace_jump(s->nop, s->code);
	volatile uint16_t *p = (volatile uint16_t *)s->nop;

	p[0] = (uint16_t)insn;
	p[1] = (uint16_t)(insn >> 16);
}

static inline void arch_trace_sites_done(void)
{
	asm volatile("fence.i" ::: "memory");
}

#endif
