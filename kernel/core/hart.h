/* hart.h: per-hart kernel state (struct hart), one per hardware thread, reached via this_hart().
 * Each field is written only by its own hart unless its comment says otherwise. */
#ifndef KERNEL_HART_H
#define KERNEL_HART_H

#include <stdbool.h>
#include <stdint.h>
#include "arch.h"

#define MAX_HARTS 8

enum ipi_reason {
	IPI_PING = 1u << 0, /* test: answer with IPI_PONG */
	IPI_PONG = 1u << 1, /* test: answer to IPI_PING */
	IPI_WAKE = 1u << 2, /* just leave wfi and look again */
	IPI_HALT = 1u << 3, /* stop: another hart panicked */
	IPI_RESCHED = 1u << 4, /* a thread became ready on this hart's run queue */
	IPI_TLB = 1u << 5,     /* flush the TLB: a mapping of the process it runs went away */
	IPI_IRQ = 1u << 6,     /* the controller's per-hart state changed: arch_irq_sync_hart */
};

struct thread;

struct runqueue;

struct hart {
	/* Read by the trap entry before it has a stack; offsets in arch asm_offsets.h. */
	unsigned long trap_scratch[2];
	uintptr_t irq_stack_top;
	uintptr_t overflow_stack_top;
	uintptr_t kstack_top;
	unsigned long hwid; /* the hart id of the ISA, SBI and device tree */
	struct trap_frame *user_ctx; /* where a trap from user mode saves: current->ctx */

	unsigned int id;    /* logical number: 0 is the boot hart, the rest in device-tree order */
	bool online;        /* set by the hart itself once running; read by the boot hart */
	bool bkl_queued;    /* in the BKL's queue with ticket bkl_ticket (bkl.c; atomic, read by all) */
	bool bkl_asleep;    /* asleep in wfi there (bkl.c; atomic, read by all) */
	struct thread *current; /* the user thread this hart runs, NULL when idle (BKL) */
	struct runqueue *rq;    /* &runqueues[id], kept so the fast paths need no multiply */
	bool need_resched;      /* pick again before returning to user mode */
	uint8_t slice;          /* the running thread's time slice: enum sched_slice (sched.c) */
	bool bkl_urgent;        /* the BKL's heir for an interrupt (bkl.c; atomic, read by all) */
	uint8_t slice_seq;      /* slices started here, modulo 256 (a thread's slice_seq) */
	uint32_t bkl_token;     /* id + 1: what this hart's swap puts in the BKL's word (bkl.h) */
	uint64_t syscalls;
	uint64_t trap_cycle;    /* cycle counter at the last trap entry (trap.S) */

	/* Interrupt nesting (irq.c): how deep this hart is in interrupt handlers, how many of
	 * those levels opened the window with irq_enable_in_hardirq(), and what the guard saw. */
	unsigned int irq_depth;
	unsigned int hardirq_windows;
	unsigned int irq_depth_max;
	uintptr_t irq_sp_min;   /* lowest interrupt-stack pointer seen by the guard */
	uint64_t nest_refused;  /* irq_enable_in_hardirq() calls the guard refused */

	/* Timers (timer.h), UINT64_MAX when none: the kernel's one deadline on this hart and what
	 * it calls (this hart only, interrupts masked), and the soonest notification timer here
	 * (notification.c, any hart under the BKL; read by this hart without it, atomically). */
	uint64_t timer_deadline;
	void (*timer_call)(void);
	uint64_t ntfn_timer_next;
	/* Work this hart left for after its release of the BKL, done by bkl_unlock() (which tests
	 * all at once: unlock_work): a deadline changed while holding it (timer_dirty: programmed
	 * then), console output queued while holding it (console_dirty: written out then, the
	 * lock released: console.c), and a waiter that went to sleep while it held the lock
	 * (bkl_wake: the one whose turn comes is woken then, bkl.c; the only byte other harts
	 * set, with an atomic OR on the word: BKL_WAKE_BIT). */
	union {
		uint32_t unlock_work;
		struct {
			bool timer_dirty;
			bool console_dirty;
			bool console_sync; /* and wait until the log is written out (console.c) */
			bool bkl_wake;
		};
	};
	uint32_t bkl_ticket; /* low half of its ticket in the BKL's queue (bkl.c) */

	/* The BKL as this hart sees it (bkl.h), written by this hart only: when it last took it,
	 * and its longest hold and wait in cycles (instructions under -icount). With the longest
	 * hold, the trap cause and call number (a7) of the thread the hart returned to after it
	 * (for a system call that did not block, the call itself; 0 and 0: the hart went idle).
	 * The longest hold counts from the hart's start of scheduling (sched_start_hart). */
	uint64_t bkl_since;
	uint64_t bkl_hold_max;
	uint64_t bkl_hold_cause;
	uint64_t bkl_hold_call;
	uint64_t bkl_wait_max;

	/* Counters, written by this hart only, read by others for tests. */
	uint64_t timer_irqs;
	uint64_t ipis;
	uint64_t empty_claims; /* external interrupts whose claim found no line (irq.c) */

	/* Requests from other harts: bits of enum ipi_reason set with an atomic OR, taken by this
	 * hart with an atomic swap. ping_from/pong_from: bit n set by logical hart n. */
	uint32_t ipi_pending;
	uint32_t ping_from;
	uint32_t pong_from;
	/* Set by the hart that unmapped (holding the BKL), cleared by this hart once its TLB holds
	 * nothing stale: in its IPI handler, or while it waits for the BKL. */
	uint32_t tlb_flush_pending; /* 1 + the asking hart's id, which this hart's flush wakes */

	struct arch_hart arch; /* the port's (arch_types.h): its interrupt controller context */
};

/* harts[h] is a shift, not a multiply, on every cross-hart wake-up (measured: 264 bytes cost
 * the cross-hart IPC 16 instructions): a new field must fit or the size double. */
_Static_assert((sizeof(struct hart) & (sizeof(struct hart) - 1)) == 0,
	       "struct hart's size is a power of two");

extern struct hart harts[MAX_HARTS];
extern unsigned int nharts; /* harts described by the device tree (<= MAX_HARTS) */

static inline struct hart *this_hart(void)
{
	return arch_this_hart();
}

/* Post reasons to h and interrupt it. Any context. Inline: a wake-up across harts is one. */
static inline void hart_signal(struct hart *h, uint32_t reasons)
{
	__atomic_fetch_or(&h->ipi_pending, reasons, __ATOMIC_RELEASE);
	arch_ipi_send(h);
}
/* Handle this hart's IPI: called by the arch trap code with interrupts masked. */
void hart_handle_ipi(void);
/* A requested TLB flush, if any (hart_tlb_shootdown's other side). */
void hart_tlb_flush_if_asked(void);

/* A wait that another hart ends with an IPI (the BKL's, bkl.c; a TLB shootdown's, tlb.c):
 * HART_WAIT_LOOKS looks first (a wait that ends that soon costs less than a sleep and an IPI;
 * under -icount, where the hart waited for cannot run meanwhile, the looks are the whole cost:
 * a few instructions each), then hart_sleep_until_ipi(): asleep (interrupts masked, only an
 * IPI wakes it: arch_ipi_wait) until an IPI, which it takes. It returns whether the IPI
 * brought requests (hart_signal): the caller then makes it pending again once the wait is
 * over (arch_ipi_raise_self), so that they are answered as an IPI. */
#define HART_WAIT_LOOKS 64
static inline bool hart_sleep_until_ipi(struct hart *me)
{
	arch_ipi_wait();
	return __atomic_load_n(&me->ipi_pending, __ATOMIC_ACQUIRE) != 0;
}

#endif
