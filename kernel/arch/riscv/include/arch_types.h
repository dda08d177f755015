/* arch_types.h: the RISC-V types generic code keeps by value (a thread's saved user context),
 * with the accessors it uses on them. Reached only through kernel/arch.h. */
#ifndef ARCH_RISCV_ARCH_TYPES_H
#define ARCH_RISCV_ARCH_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <tacet/log2hist.h>

/* Everything a trap saves. For a user thread it lives in the thread; for a kernel trap, on the
 * stack. Layout fixed by asm_offsets.h (checked in trap.c). */
struct trap_frame {
	unsigned long regs[32]; /* x0..x31 by number; regs[0] is unused */
	unsigned long sepc;
	unsigned long sstatus;
	unsigned long scause;
	unsigned long stval;
};

/* The floating-point registers of a user thread, saved only when it used them. */
struct fp_state {
	uint64_t f[32];
	uint64_t fcsr;
};

enum { ARCH_REG_RA = 1, ARCH_REG_SP = 2, ARCH_REG_A0 = 10, ARCH_REG_A7 = 17 };
#define ARCH_SYSCALL_ARGS 7 /* a0..a6 */

/* Sv39: the most page-table pages mapping one 4 KiB page can add below an existing root (a
 * second- and a third-level table); see arch_aspace_map. */
#define ARCH_MAP_TABLES_MAX 2

static inline unsigned long arch_ctx_syscall_nr(const struct trap_frame *tf)
{
	return tf->regs[ARCH_REG_A7];
}

static inline unsigned long arch_ctx_arg(const struct trap_frame *tf, int i)
{
	return tf->regs[ARCH_REG_A0 + i];
}

/* The argument registers in order (a0..a6), for copying several at once. */
static inline const unsigned long *arch_ctx_args(const struct trap_frame *tf)
{
	return &tf->regs[ARCH_REG_A0];
}

/* Result registers are the argument registers: a0 (status), a1..a6. */
static inline void arch_ctx_set_ret(struct trap_frame *tf, int i, unsigned long v)
{
	tf->regs[ARCH_REG_A0 + i] = v;
}

/* A system call is done: its thread resumes after the ecall. */
static inline void arch_ctx_skip_syscall(struct trap_frame *tf)
{
	tf->sepc += 4;
}

/* Undo arch_ctx_skip_syscall: the thread makes the call again when it next runs. */
static inline void arch_ctx_restart_syscall(struct trap_frame *tf)
{
	tf->sepc -= 4;
}

static inline void arch_ctx_set_syscall_nr(struct trap_frame *tf, unsigned long nr)
{
	tf->regs[ARCH_REG_A7] = nr;
}

/* Why the context last trapped (scause: the top bit set for an interrupt). */
static inline unsigned long arch_ctx_cause(const struct trap_frame *tf)
{
	return tf->scause;
}

/* Did the context last trap by an interrupt, at whatever instruction it was running, rather
 * than by a system call or an exception? */
static inline bool arch_ctx_interrupted(const struct trap_frame *tf)
{
	return (long)tf->scause < 0; /* scause's top bit: an interrupt */
}

static inline unsigned long arch_ctx_pc(const struct trap_frame *tf)
{
	return tf->sepc;
}

struct hart;

/* The port's part of each hart's state (struct hart's `arch`, hart.h), for the operations of
 * every interrupt: reached through the hart's own pointer, no index into a table. */
struct arch_hart {
	/* Its PLIC context's claim/complete register. A hart without one has a word that reads
	 * 0 (a claim finds nothing); on the AIA, a reserved word of its own IMSIC file, which
	 * reads 0 and ignores writes, so a claim goes on to stopei (arch_irq_claim) and a
	 * completion changes nothing: one load and one store, the PLIC's, for both. */
	volatile uint32_t *irq_claim;
};

#ifdef TACET_HOST_TEST
/* Host unit tests (tests/host) run generic code on the build machine, which has neither tp nor
 * sstatus: the test says which hart runs, and interrupts are masked as in the kernel. */
extern __thread struct hart *host_current_hart; /* thread-local: test_bkl runs harts as threads */

static inline struct hart *arch_this_hart(void)
{
	return host_current_hart;
}

static inline int arch_irqs_masked(void)
{
	return 1;
}

uint64_t arch_cycles(void); /* the test's own clock */
static inline unsigned long arch_clz(uint64_t v)
{
	return 64 - tacet_bitlen(v);
}
uint64_t arch_time_now(void);
void arch_timer_set(uint64_t deadline);
void arch_aspace_activate(uint64_t root);
bool arch_irq_external_pending(void); /* the fake controller's view */
/* the fake controller's (tests/host/fake_irqchip.c) */
unsigned int arch_irq_claim(const struct arch_hart *a);
void arch_irq_complete(const struct arch_hart *a, unsigned int irq);
void arch_irq_mask(unsigned int irq);
void arch_irq_unmask(unsigned int irq);
void arch_irq_hold(unsigned int irq);
void arch_cpu_relax(void); /* the test's: lets the other threads run */
static inline bool arch_irq_claim_was_ipi(struct arch_hart *a)
{
	(void)a;
	return false; /* the fake controller carries no IPIs */
}
bool arch_interrupts_pending(void);
/* A test may widen the window between a release's look at the BKL's heir and its swap: a hook
 * run first (weak: NULL unless a test defines it). */
extern void (*host_release_hook)(uint32_t *p) __attribute__((weak));
static inline void arch_atomic_swap_zero_fence(uint32_t *p)
{
	if (&host_release_hook && host_release_hook)
		host_release_hook(p);
	__atomic_exchange_n(p, 0, __ATOMIC_SEQ_CST);
}

static inline long arch_cas_from_zero_acquire(uint32_t *p, uint32_t v)
{
	uint32_t old = 0;

	__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	return old;
}
#else
/* *p = 0, releasing what this hart wrote before and ordered before what it reads after (a
 * store-to-load barrier: a swap with aq and rl, one instruction). */
static inline __attribute__((always_inline)) void arch_atomic_swap_zero_fence(uint32_t *p)
{
	__asm__ volatile("amoswap.w.aqrl zero, zero, %0" : "+A"(*p) : : "memory");
}

/* If *p is 0, make it v (acquire: what this hart reads after comes after); returns what *p
 * held (sign-extended, as lr.w loads it), 0 when it took it. lr.aq/sc: gcc 12's
 * compare-and-swap puts the acquire on the sc and tests the old value twice. */
static inline __attribute__((always_inline)) long arch_cas_from_zero_acquire(uint32_t *p,
									      uint32_t v)
{
	long old, fail;

	__asm__ volatile("1:	lr.w.aq	%0, %2\n"
			 "	bnez	%0, 2f\n"
			 "	sc.w	%1, %3, %2\n"
			 "	bnez	%1, 1b\n"
			 "2:"
			 : "=&r"(old), "=&r"(fail), "+A"(*p)
			 : "r"(v)
			 : "memory");
	return old;
}

/* A spin-wait's pause (Zihintpause's PAUSE, encoded as FENCE W,0 so that any assembler takes
 * it; a core without the extension runs it as a fence that orders nothing). */
static inline __attribute__((always_inline)) void arch_cpu_relax(void)
{
	__asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010" : : : "memory");
}

/* A marker in the instruction stream for a tool that watches it (the test kernel's BKL hold
 * markers, test/ktest.h; tools/qemu-plugins/bkl_holds.c): `slti x0, x0, n`, a HINT (rd = x0:
 * SLTI's are among those the unprivileged spec leaves for custom use), which writes nothing and
 * costs one instruction; n (0..2047) tells the markers apart. Only the test kernel has any. */
#define arch_mark(n) __asm__ volatile("slti x0, x0, %0" : : "i"(n))

/* Whether an interrupt enabled in sie is pending on this hart (sstatus.SIE aside). */
static inline __attribute__((always_inline)) bool arch_interrupts_pending(void)
{
	unsigned long pending, enabled;

	__asm__ volatile("csrr %0, sip" : "=r"(pending));
	__asm__ volatile("csrr %0, sie" : "=r"(enabled));
	return (pending & enabled) != 0;
}

/* This hart's struct hart: the kernel keeps it in tp. */
static inline struct hart *arch_this_hart(void)
{
	struct hart *h;

	__asm__("mv %0, tp" : "=r"(h));
	return h;
}

/* sstatus.SIE clear: the kernel's normal state. */
static inline int arch_irqs_masked(void)
{
	unsigned long s;

	__asm__ volatile("csrr %0, sstatus" : "=r"(s));
	return !(s & (1UL << 1));
}

/* The cycle counter (= instret under QEMU -icount): inline, as the top half reads it on every
 * interrupt. */
static inline uint64_t arch_cycles(void)
{
	uint64_t c;

	__asm__ volatile("rdcycle %0" : "=r"(c));
	return c;
}

/* Every hart has Zbb (probe.c): clz is one instruction. */
extern bool riscv_has_zbb;

/* The leading zeros of v (64 for 0), the index of the interrupt statistics' histograms (three
 * values an interrupt): clz with Zbb (written as .insn: the kernel is built for rv64gc), else
 * 64 less the portable bit length (<tacet/log2hist.h>). */
static inline __attribute__((always_inline)) unsigned long arch_clz(uint64_t v)
{
	unsigned long zeros;

	if (!riscv_has_zbb)
		return 64 - tacet_bitlen(v);
	__asm__(".insn i 0x13, 1, %0, %1, 0x600" : "=r"(zeros) : "r"(v)); /* clz */
	return zeros;
}

/* sip.SEIP: the interrupt controller holds an external interrupt for this hart. */
static inline __attribute__((always_inline)) bool arch_irq_external_pending(void)
{
	unsigned long sip;

	__asm__ volatile("csrr %0, sip" : "=r"(sip));
	return sip & (1UL << 9);
}

/* The interrupt controller's operations on every interrupt, inline (each is one MMIO access;
 * through a table of functions the calls cost more than the accesses): the PLIC's (plic.c) or
 * the AIA's (aia.c), whichever the device tree has, with the registers found at probe time.
 * Both run the PLIC's straight line; the AIA's own steps (stopei, aia_unmask) are behind the
 * two branches a PLIC machine never takes (a claim that found nothing, a line priority of 0).
 * Lines 1..n.
 * PLIC: masking a line sets its priority to 0, unmasking restores it (never 0).
 * AIA: line n is APLIC source n, forwarded as an MSI of identity n + 1. The claim swaps stopei
 * with zero (QEMU clears the identity's pending bit on the write, not the read), which also
 * ends it in the file: the completion's store goes to a word that ignores it. Masking makes
 * the source inactive (its sourcecfg, where the PLIC's priority word would be, 0: input
 * ignored, pending and enable bits cleared); unmasking (line priority 0: the AIA's branch)
 * makes it active again, pends it if a level source asserts now or, for an edge source,
 * always (an edge while it was masked is not lost; one that did not come is an unhandled
 * interrupt), and enables it: pending, it is forwarded at once. A message-signalled line
 * (after the wired ones, its device writing the identity straight into a file) is an edge,
 * masked lazily (arch.h): the mask's store goes to a source the APLIC does not have, which
 * ignores it, so the line stays enabled in its file; a message that comes while it is not IDLE
 * is held (arch_irq_hold: masked in the file, pending again there, aia.c), and the unmask
 * (aia_unmask) enables it again only then. */
extern volatile uint32_t *plic_priority_reg; /* the priority word of line 0; AIA: sourcecfg */
extern uint32_t plic_line_priority[];        /* what unmask restores; 0: the AIA's unmask */
extern bool riscv_aia;                       /* the controller is the AIA (aia.c) */
/* Line N's identity in the IMSIC files is N + ARCH_AIA_LINE_ID: identity 1 is the IPI's by the
 * device tree binding's convention (riscv,ipi-id), so the lines start above it. The kernel's
 * IPIs through the IMSIC (aia.c) take identity ARCH_AIA_IPI_ID, whose "line" is 0, which no
 * controller has: the claim tells an IPI from a line without a compare. */
#define ARCH_AIA_LINE_ID 1
#define ARCH_AIA_IPI_ID  1
_Static_assert(ARCH_AIA_IPI_ID == ARCH_AIA_LINE_ID, "the IPI's identity is line 0's");

void aia_unmask(unsigned int irq);  /* aia.c: the AIA's unmask */
void aia_hold(unsigned int irq);    /* aia.c: arch_irq_hold */
/* aia.c: a claim that found a message-signalled line or nothing (aia_claim_more), or this
 * hart's IPI (aia_take_ipi); the claim goes on */
unsigned int aia_claim_more(unsigned int irq);
unsigned int aia_take_ipi(void);
bool aia_claim_took_ipi(void);      /* aia.c: arch_irq_claim_was_ipi's answer, consumed */
extern unsigned int aia_wired_lines; /* aia.c: the APLIC's lines 1..aia_wired_lines */
/* aia.c: the message-signalled lines after them, and by line - aia_wired_lines - 1 the claim
 * word (struct arch_hart's irq_claim) of the hart whose file the line's device writes */
extern unsigned int aia_msi_lines;
extern volatile uint32_t *aia_msi_claim[];

/* Whether the claim's identity is a message-signalled line's, taken on the line's own hart (the
 * common case: then it is the line). Anything else above the wired lines (this hart's IPI, a
 * message sent before a move, none) is aia.c's. */
static inline __attribute__((always_inline)) bool aia_msi_here(const struct arch_hart *a,
								unsigned int irq)
{
	unsigned int i = irq - aia_wired_lines - 1;

	return i < aia_msi_lines && aia_msi_claim[i] == a->irq_claim;
}

static inline __attribute__((always_inline)) unsigned int
arch_irq_claim(const struct arch_hart *a)
{
	unsigned int irq = *a->irq_claim;

	/* the IMSIC's claim, inline: stopei swapped with zero, the identity (bits 26:16) kept, its
	 * line the identity less ARCH_AIA_LINE_ID (none pending: 0 - 1, no line); a message-
	 * signalled line on its own hart is the line too (aia_msi_here); anything else (this
	 * hart's IPI, "line" 0; a message sent before a move; none) is aia.c's, with one compare
	 * on a wired line's way (the fast handlers' budget has room for no more) */
	if (__builtin_expect(!irq, 0) && riscv_aia) {
		__asm__ volatile("csrrw %0, 0x15c, zero\n\tsrliw %0, %0, 16\n\taddiw %0, %0, %1"
				 : "+r"(irq)
				 : "i"(-ARCH_AIA_LINE_ID)
				 : "memory");
		if (__builtin_expect(irq - 1 >= aia_wired_lines, 0)) {
			if (!irq)
				irq = aia_take_ipi();
			else if (!aia_msi_here(a, irq))
				irq = aia_claim_more(irq);
		}
	}
	return irq;
}

/* Whether the claim that found no line had taken this hart's IPI alone (the AIA's IPIs come
 * through the external interrupt): then no interrupt was spurious. Consumes the answer. */
static inline bool arch_irq_claim_was_ipi(struct arch_hart *a)
{
	(void)a;
	return riscv_aia && aia_claim_took_ipi();
}

static inline __attribute__((always_inline)) void arch_irq_complete(const struct arch_hart *a,
								     unsigned int irq)
{
	*a->irq_claim = irq;
}

static inline __attribute__((always_inline)) void arch_irq_mask(unsigned int irq)
{
	plic_priority_reg[irq] = 0;
}

static inline __attribute__((always_inline)) void arch_irq_unmask(unsigned int irq)
{
	uint32_t prio = plic_line_priority[irq];

	if (__builtin_expect(!prio, 0)) {
#ifdef TACET_CALL_USED_S
		/* In the trap entries (core/entry.c, built to keep no s register: the Makefile's
		 * ENTRY_CALL_USED), aia_unmask(irq) said as the call it is: it keeps s0-s11, as the
		 * ABI wants, which a C call cannot tell them, and every value live across one went
		 * to the stack. Elsewhere a C call: an asm that clobbers ra costs its save in the
		 * prologue of the fast path too. Its clobbers: every register the ABI lets a callee
		 * change. */
		register unsigned long a0 __asm__("a0") = irq;

		__asm__ volatile("call aia_unmask"
				 : "+r"(a0)
				 :
				 : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3",
				   "a4", "a5", "a6", "a7", "ft0", "ft1", "ft2", "ft3", "ft4", "ft5",
				   "ft6", "ft7", "ft8", "ft9", "ft10", "ft11", "fa0", "fa1", "fa2",
				   "fa3", "fa4", "fa5", "fa6", "fa7", "memory");
#else
		aia_unmask(irq);
#endif
		return;
	}
	plic_priority_reg[irq] = prio;
}

/* Only message-signalled lines are held (irq.c), and only the AIA has them. */
static inline void arch_irq_hold(unsigned int irq)
{
	aia_hold(irq);
}

/* The timebase (rdtime): inline, as the scheduler's slice and the timers read it on every
 * wake-up. */
static inline uint64_t arch_time_now(void)
{
	uint64_t t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

/* Every hart has Sstc (probe.c): the timer is the stimecmp CSR, else SBI set_timer. */
extern bool riscv_has_sstc;
void arch_timer_set_sbi(uint64_t deadline); /* timer.c */

/* One-shot deadline for this hart (timebase ticks; UINT64_MAX disarms): inline, as the
 * scheduler arms a slice at every wake-up and disarms it at every idle entry. Writing a
 * deadline in the future also clears a pending timer interrupt. */
static inline __attribute__((always_inline)) void arch_timer_set(uint64_t deadline)
{
	if (riscv_has_sstc)
		__asm__ volatile("csrw 0x14d, %0" : : "r"(deadline)); /* stimecmp */
	else
		arch_timer_set_sbi(deadline);
}

/* satp for the Sv39 tables at physical address root (mode 8, root's page number). */
#define ARCH_SATP_SV39(root) ((8UL << 60) | ((root) >> 12))

void arch_aspace_kernel(void); /* vm.c: onto the kernel's own tables (idle) */

/* Run on root (0: the kernel's own tables). Already there (a switch within one process, the
 * common case): one CSR read; another process's: the write and the flush, inline too (a call
 * here would make the fast paths keep their values across it). */
static inline __attribute__((always_inline)) void arch_aspace_activate(uint64_t root)
{
	unsigned long satp, want = ARCH_SATP_SV39(root);

	if (!root) {
		arch_aspace_kernel();
		return;
	}
	__asm__ volatile("csrr %0, satp" : "=r"(satp));
	if (satp != want)
		__asm__ volatile("csrw satp, %0\n\tsfence.vma" : : "r"(want) : "memory");
}
#endif

/* sstatus.FS: the thread's FPU state (see context.c). */
#define ARCH_SSTATUS_FS_MASK  (3UL << 13)
#define ARCH_SSTATUS_FS_DIRTY (3UL << 13)

void arch_fp_save_regs(struct trap_frame *tf, struct fp_state *fp);
void arch_fp_restore_regs(struct trap_frame *tf, const struct fp_state *fp);

/* At a thread switch: keep the leaving thread's FPU registers if it changed them. */
static inline __attribute__((always_inline)) void arch_fp_save(struct trap_frame *tf,
								struct fp_state *fp)
{
	if ((tf->sstatus & ARCH_SSTATUS_FS_MASK) == ARCH_SSTATUS_FS_DIRTY)
		arch_fp_save_regs(tf, fp);
}

/* ... and load the arriving thread's, if its FPU is on. */
static inline __attribute__((always_inline)) void arch_fp_restore(struct trap_frame *tf,
								   const struct fp_state *fp)
{
	if (tf->sstatus & ARCH_SSTATUS_FS_MASK)
		arch_fp_restore_regs(tf, fp);
}

#endif
