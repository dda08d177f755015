/* fake_irqchip.h: a fake interrupt controller (struct irqchip) for host tests of kernel/irq/,
 * and the rest of the machine irq.c reaches: the harts and which one runs, the BKL, the cycle
 * counter and timebase, the interrupt window and stack pointer of a top-half handler, the
 * console; and the scheduler's side of a wake-up (sched_ready, sched_block,
 * sched_switch_direct). The notifications are the kernel's own (kernel/object/notification.c,
 * linked with these tests); what they reach in other subsystems only when a notification is
 * made or ends, or arms a timer (kobj_new, kobj_free, endpoint_unwatch, thread_wake_some,
 * process_watch_unlink_step, reaper_free, timer_reprogram) fails the test: these tests make
 * their objects themselves and end none.
 * Built as tests/host/fake_irqchip.c, linked with -Wl,--wrap=notification_signal_stamped (the
 * signal log below). Single-threaded: "another hart" is the test switching host_current_hart
 * (arch_types.h) before it calls in.
 *
 * The controller follows the PLIC where irq.c depends on it: a line is claimable by a hart when
 * the device asserted it, it is unmasked with a priority above 0, it is routed to that hart and
 * no claim of it is open; a claim takes the pending request; a completion from a hart the line
 * is not routed to is ignored (the claim stays open and the line is dead), which the fake counts
 * as an error, like a completion without an open claim.
 *
 * Every operation irq.c performs on the fakes is appended, in order, to one log. A signal is
 * logged (FAKE_SIGNAL) by the linker's wrapper of notification_signal_stamped, before the real
 * one runs: every call from outside notification.c (the top half's, one per binder), not the
 * calls inside it (notification_signal's, a timer's). */
#ifndef TESTS_HOST_FAKE_IRQCHIP_H
#define TESTS_HOST_FAKE_IRQCHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FAKE_NR_IRQS 32 /* lines 1..FAKE_NR_IRQS */
#define FAKE_NHARTS  4  /* harts 0..FAKE_NHARTS-1, all online after fake_irqchip_reset() */
/* fake_irqchip_msi(): the last FAKE_NR_MSI lines are message-signalled, lent by msi_alloc; the
 * address a line's device writes for hart h is FAKE_MSI_ADDR + h pages, its data line + 1. As
 * on the AIA, such a line is an edge masked lazily: arch_irq_mask leaves it unmasked, and only
 * arch_irq_hold masks it (with its message pending again) until the next arch_irq_unmask. */
#define FAKE_NR_MSI   4
#define FAKE_MSI_ADDR 0x28000000UL
#define FAKE_LOG_MAX 1024
#define FAKE_TICKS_PER_US 10 /* timer_us_to_ticks(): a 10 MHz timebase, as on QEMU virt */

struct irqchip;
struct notification;
struct thread;

enum fake_op {
	FAKE_MASK,
	FAKE_UNMASK,
	FAKE_SET_AFFINITY,
	FAKE_SET_PRIORITY,
	FAKE_CLAIM,       /* irq: the line it returned, 0 for none */
	FAKE_COMPLETE,
	FAKE_SIGNAL,      /* notification_signal_stamped(ntfn, bits, stamp), the real one's entry */
	FAKE_IRQ_ENABLE,  /* arch_local_irq_enable(): a handler opened its window */
	FAKE_IRQ_DISABLE, /* arch_local_irq_disable() */
	FAKE_HOLD,        /* arch_irq_hold(): a message-signalled line's message kept, masked */
};

struct fake_event {
	enum fake_op op;
	unsigned int irq;
	unsigned int hart;   /* SET_AFFINITY: the target; any other: the hart that ran it */
	unsigned int prio;   /* SET_PRIORITY */
	struct notification *ntfn; /* SIGNAL */
	uint64_t bits;             /* SIGNAL */
	uint64_t stamp;            /* SIGNAL: the trap time given (0 for a plain signal) */
	bool bkl_held;       /* by the hart that ran it */
};

/* What the controller holds for a line. */
struct fake_line {
	bool masked;
	unsigned int prio;
	uint32_t routed;     /* bit h: routed to hart h */
	bool pending;        /* asserted by the device and not claimed since */
	int claimed_by;      /* the hart holding its open claim, -1 if none */
	unsigned int masks, unmasks, claims, completes;
	unsigned int ignored_completes; /* from a hart it is not routed to: the claim stays open */
	unsigned int stray_completes;   /* with no claim open */
};

/* Every line unmasked with priority 0 and routed nowhere (irq_init must mask it), the log
 * empty, no claim hook; FAKE_NHARTS harts online with hart 0 running, their run queues empty,
 * the BKL free, the cycle counter and timebase 0, each hart's top-half handler on its
 * interrupt stack with 256 bytes used, nothing readied, the console empty. The chip is
 * registered with irqchip_register(). */
void fake_irqchip_reset(void);

/* The fake's operations, to register again after a test registered another (or none). */
const struct irqchip *fake_irqchip(void);
/* Before irq_init(): the controller with FAKE_NR_MSI message-signalled lines after its wired
 * ones (msi_alloc, msi_address, msi_free), none lent. */
void fake_irqchip_msi(void);
/* Lines the kernel gave back with msi_free since fake_irqchip_msi(). */
unsigned int fake_irqchip_msi_frees(void);

/* The device behind irq asserts it: the line is pending until a hart claims it. */
void fake_irqchip_raise(unsigned int irq);
const struct fake_line *fake_irqchip_line(unsigned int irq);
/* What arch_irq_external_pending() says: with visible (off after reset, so that a test
 * delivers each interrupt with its own irq_external() call), whether a line is pending,
 * unmasked, unclaimed and routed to the running hart, as sip.SEIP would. */
void fake_irqchip_seip_visible(bool visible);
/* hook(hart, irq) runs inside every claim that returns a line, after the claim is taken: the
 * moment another hart could act before the top half goes on. NULL: none. */
void fake_irqchip_on_claim(void (*hook)(unsigned int hart, unsigned int irq));

size_t fake_log_len(void);
const struct fake_event *fake_log(size_t i);
size_t fake_log_count(enum fake_op op);
void fake_log_clear(void);
const char *fake_op_name(enum fake_op op);

/* Run as hart h from now on (sets host_current_hart). */
void fake_set_hart(unsigned int h);
unsigned int fake_hart(void);
/* What arch_cycles() returns. */
void fake_set_cycles(uint64_t cycles);
/* From now on each read of the counter moves it on by step (0: it stands still). */
void fake_set_cycles_step(uint64_t step);
/* The deadline the code under test last programmed (arch_timer_set). */
extern uint64_t fake_timer_deadline;
/* What timer_now() returns (timebase ticks). */
void fake_set_time(uint64_t ticks);
/* What arch_stack_pointer() returns, as bytes used below the running hart's irq_stack_top. */
void fake_set_irq_stack_used(uintptr_t used);

/* sched_ready(t) (BKL held, or the test fails): t is READY at the tail of its priority on its
 * hart's run queue (runqueues[t->hart], the real structure: the fast paths read it), and
 * counted; the last one readied is kept. Nobody is told to reschedule. sched_block(t, state)
 * sets t's state: the caller queued it already. */
unsigned int fake_readied_count(void);
extern struct thread *fake_last_readied;

/* kprintf(): lines printed, and the last one. */
unsigned int fake_console_lines(void);
const char *fake_console_last(void);

/* The last sched_switch_direct(): from, to (NULL before any). */
extern struct thread *fake_switched_from, *fake_switched_to;

#endif
