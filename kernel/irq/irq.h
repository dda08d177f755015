/* irq.h: the generic interrupt layer: one struct irq_desc per line, the masked top half, the
 * IRQ handler capability's system calls, statistics. See irq.c for the line protocol. */
#ifndef KERNEL_IRQ_IRQ_H
#define KERNEL_IRQ_IRQ_H

#include <stdbool.h>
#include <stdint.h>
#include "core/hart.h"
#include "object/kobj.h"
#include <tacet/log2hist.h>

#define IRQ_MAX 1024

typedef void (*irq_handler_fn)(unsigned int irq);

struct notification;
struct process;
struct thread;

enum irq_state {
	IRQ_UNBOUND,  /* nobody handles it: masked */
	IRQ_IDLE,     /* bound and unmasked: may fire */
	IRQ_PENDING,  /* fired: masked, every binder signalled, waiting for all their irq_acks */
	IRQ_DISABLED, /* nobody handled it IRQ_UNHANDLED_LIMIT times (threaded), or a storm (fast
		       * handler): masked until irq_enable (the binders stay; rebinding finds it
		       * DISABLED again) */
};

#define IRQ_MAX_BINDERS 4        /* servers sharing one line (PCI INTx) */
#define IRQ_UNHANDLED_LIMIT 1000 /* consecutive interrupts no binder handled: disable */
/* Fast handlers only: interrupts within IRQ_STORM_WINDOW_US that disable the line. A threaded
 * line is oneshot, so however busy its device it can starve nobody but its own server. */
#define IRQ_STORM_LIMIT 5000
#define IRQ_STORM_WINDOW_US 100000

/* Why detection disabled a line (spurious.c), until irq_report() has said so. */
enum irq_disable_why {
	IRQ_WHY_NONE,
	IRQ_WHY_UNHANDLED, /* a threaded line: nobody handled IRQ_UNHANDLED_LIMIT in a row */
	IRQ_WHY_STORM,     /* a fast handler's line: a storm (IRQ_STORM_LIMIT) */
};

/* One server bound to the line. */
struct irq_binder {
	struct notification *ntfn; /* a reference */
	uint64_t badge;
	struct process *owner;     /* its end unbinds it */
	bool waiting;              /* signalled, has not acknowledged yet */
};

/* A line. It is also the object an IRQ handler capability names. The BKL guards all of it,
 * statistics included (the top half always holds it). */
struct irq_desc {
	struct kobj obj;
	unsigned int irq;
	enum irq_state state;
	unsigned int hart;          /* affinity: the one hart it is routed to */
	bool hart_chosen;           /* irq_set_affinity chose it: the next binder does not move it
				     * (forgotten when the line is free again, but a message-
				     * signalled line's: its device's address names the hart) */
	bool msi;                   /* message-signalled (irq_msi.c): one of the controller's
				     * pool, after its wired lines */
	bool lent;                  /* msi: lent to a device by IRQ_MSI_NEW (until IRQ_MSI_FREE,
				     * or its lender's end); only a lent line may be bound or
				     * moved */
	struct process *lender;     /* msi, lent: the bus server that lent it (counted in its
				     * irq_refs): its end ends the lending (irq_release_owner) */
	uint64_t lending;           /* msi: the number of its latest lending (never 0), which every
				     * capability that lending made carries as its badge
				     * (irq_cap_live) */
	struct irq_binder binders[IRQ_MAX_BINDERS];
	unsigned int nbinders;
	bool shared;                /* bound with TACET_IRQ_SHARED: more binders may join */
	unsigned int acks_due;      /* PENDING: binders still to acknowledge */
	bool handled;               /* PENDING: some binder said the interrupt was its device's */
	irq_handler_fn handler;     /* in-kernel handler instead (the fast path) */

	/* Spurious and storm detection (at acknowledgement, never in the top half). Its history
	 * is the line's, not a binding's: unbinding and binding again keep it, so a driver cannot
	 * shed a streak by rebinding. It starts afresh when the process it is charged to ends
	 * with nobody else bound (irq_release_owner), so a device's next driver starts clean. */
	struct process *history_of; /* the binder it is charged to; NULL: fresh */
	uint32_t unhandled_streak;
	uint64_t window_start;      /* timebase ticks */
	uint32_t window_count;
	bool disabled;              /* detection disabled it, no irq_enable since: a binder
				     * finds it DISABLED (the state when bound) */
	enum irq_disable_why unreported; /* detection disabled it: irq_report() says why */

	uint64_t unhandled;         /* interrupts no binder handled (for ever: a statistic) */
	uint64_t disabled_count;    /* times detection disabled it */
	uint64_t per_hart[MAX_HARTS]; /* interrupts taken, by hart (their sum: irq_count()) */
	uint64_t top_half_max;      /* cycles from trap entry to the end of the top half */
	uint64_t top_half_total;
	uint64_t last_trap, last_done; /* the latest interrupt's trap entry and top half done */
	uint64_t wake_max, wake_total;     /* top half done -> its server running */
	uint64_t server_max, server_total; /* server running -> its irq_ack */
	struct irq_hist *hist;      /* the three in log2 histograms (their counts too), made with
				     * the line */
};

/* A line's histograms, in cycles: one value per interrupt in top[], per wake-up in wake[], per
 * acknowledged wake-up in server[], each counted at the index of its leading zeros (64 for 0:
 * one instruction where a log2 bucket would take five), folded into <tacet/log2hist.h>'s
 * buckets when read (irq_hist_fold). Per line, not per line and hart: a line interrupts the one
 * hart it is routed to, so per hart they would be mostly empty, and per_hart[] says where the
 * interrupts were taken. 1,560 bytes a line, every line the controller has, made at boot. */
#define IRQ_HIST_SLOTS 65
struct irq_hist {
	uint64_t top[IRQ_HIST_SLOTS];
	uint64_t wake[IRQ_HIST_SLOTS];
	uint64_t server[IRQ_HIST_SLOTS];
};

/* A descriptor for every line of the registered controller. Boot hart, after mm_init. */
void irq_init(void);
/* The external interrupt of this hart, from the port's dispatch (a trap in the kernel, or the
 * idle wait, which never holds the BKL there): claim, handle, complete. */
void irq_external(void);
/* The same from the idle wait's own quick dispatch (trap.S: an external interrupt alone
 * pending), which never holds the BKL there. */
void irq_external_idle(void);
/* The same, taken from user mode: irq_external_user() in irq_inline.h, which falls back to
 * this for everything but the direct delivery: the top half of claimed line d (NULL: the claim
 * found none). BKL held. */
void irq_top_half(struct hart *me, struct irq_desc *d);
/* Whether an IRQ handler capability whose badge is badge still reaches line d. A message-
 * signalled line's capabilities carry the number of the lending that made them as their badge
 * (IRQ_MSI_NEW; a copy or a transfer keeps a capability's badge, and a set badge cannot be
 * changed), so those of a lending IRQ_MSI_FREE has ended reach nothing, even once the line is
 * lent again: they are revoked without a walk of every capability table. A wired line's
 * always reach it. The system calls' decode checks it; IRQ_ACK's and IRQ_ACK_WAIT's fast
 * paths need not: they act only for the line's binder, which bound it through a live
 * capability, so a stale one in its table gives it nothing it lacks. */
static inline bool irq_cap_live(const struct irq_desc *d, uint64_t badge)
{
	return !d->msi || (d->lent && badge == d->lending);
}
/* The descriptor of line irq (NULL if the controller has no such line). */
extern struct irq_desc *irq_descs[IRQ_MAX];
static inline struct irq_desc *irq_desc_get(unsigned int irq)
{
	return irq < IRQ_MAX ? irq_descs[irq] : NULL;
}
/* Flags of irq_request_fast(). */
enum irq_flags {
	/* Accepted and ignored: every handler runs with interrupts disabled already (the name and
	 * meaning come from Linux, where it became a no-op in 2.6.35). */
	IRQF_DISABLED = 1u << 0,
};

/* The fast path: run fn in the top half, with interrupts masked, for line irq routed to hart;
 * the line is unmasked. fn must be short; it may call irq_enable_in_hardirq(). Boot hart,
 * before the line is bound. Returns 0, or -1 if the line does not exist or is bound. */
int irq_request_fast(unsigned int irq, irq_handler_fn fn, unsigned int flags, unsigned int hart);

/* The explicit escape: let other interrupts nest into the running in-kernel handler (fast
 * handler or timer callback) until it returns. Refused, and counted, when this hart is already
 * IRQ_NEST_MAX deep or has used more than IRQ_STACK_GUARD bytes of its interrupt stack, so
 * nesting can never reach the guard page. Returns whether interrupts are now enabled. Call only
 * from a top-half handler. */
#define IRQ_NEST_MAX 8
#define IRQ_STACK_GUARD (8 * 1024)
bool irq_enable_in_hardirq(void);
/* Around every top-half handler: the window a handler opened closes when it returns. Inline:
 * they stand between an interrupt and its fast handler. */
static inline __attribute__((always_inline)) unsigned int irq_hardirq_enter(void)
{
	struct hart *me = this_hart();

	if (++me->irq_depth > me->irq_depth_max)
		me->irq_depth_max = me->irq_depth;
	return me->hardirq_windows;
}

static inline __attribute__((always_inline)) void irq_hardirq_exit(unsigned int saved)
{
	struct hart *me = this_hart();

	if (me->hardirq_windows != saved) {
		arch_local_irq_disable(); /* the handler's window closes with it */
		me->hardirq_windows = saved;
	}
	me->irq_depth--;
}
/* Claims that found no line (another hart got it first, or nothing was pending). */
uint64_t irq_spurious(void);
/* Interrupts d has taken, on every hart; wake-ups it timed, and their acks (its histograms'). */
uint64_t irq_count(const struct irq_desc *d);
uint64_t irq_wakes(const struct irq_desc *d);
uint64_t irq_served(const struct irq_desc *d);
/* External interrupts hart h has taken: its claims of every line, and those that found none. */
uint64_t irq_hart_count(unsigned int h);
/* Detection (spurious.c). Say on the console which lines it disabled since the last call, and
 * why (it never prints where it disables: the top half, an acknowledgement). BKL held, outside
 * the top half: the scheduler and the trap path call it (irq_report). */
void irq_report_disabled(void);
/* The one way a line is turned off: masked, DISABLED until irq_enable (rebinding finds it so),
 * counted, and reported later. BKL held; from the top half too. */
void irq_line_disable(struct irq_desc *d, enum irq_disable_why why);
/* Detection forgets the line's history (a fresh driver, or irq_enable). */
void irq_detect_reset(struct irq_desc *d);
/* A fast handler's line after it ran, in the top half: the storm rule. */
void irq_fast_storm_check(struct irq_desc *d);
/* For the layer's own files: lines 1..irq_lines exist (irq.c); claims that found nothing to
 * deliver (irq_stats.c, added atomically). */
extern unsigned int irq_lines;
extern uint64_t irq_spurious_total;
extern bool irq_disabled_unreported;
static inline __attribute__((always_inline)) void irq_report(void)
{
	if (__atomic_load_n(&irq_disabled_unreported, __ATOMIC_RELAXED)) /* rare */
		irq_report_disabled();
}
/* Turn a line detection disabled back on (what TACET_SYS_IRQ_ENABLE does). BKL held. Returns
 * 0, or -1 if it is not DISABLED. */
int irq_enable_line(unsigned int irq);
/* A process ends: unbind the lines it had bound, settling any acknowledgement it owed (as
 * not handled); a line left without binders is masked; a history charged to it passes to a
 * binder that stays, or starts afresh; a message-signalled line it lent is taken back
 * (irq_msi_end) (BKL held). */
void irq_release_owner(struct process *p);
/* Message-signalled line d's lending ends (IRQ_MSI_FREE, or its lender's end): every binder
 * leaves, the controller has the line back, and every capability the lending made reaches
 * nothing from now on (irq_cap_live). BKL held. */
void irq_msi_end(struct irq_desc *d);
/* The interrupts p holds (TACET_INFO_PROCESS's irq_held and irq_held_own), in one walk of the
 * lines, only while some name p. BKL held. *shared: the trap-entry stamp of the oldest
 * interrupt of a line bound shared that p was signalled and has not acknowledged, which holds
 * the line masked for every binder, those bound now and those that bind it later (a restarted
 * neighbour). *own: the oldest of a line p has alone (bound without TACET_IRQ_SHARED, or
 * message-signalled) whose signal p has neither taken (the badge's bits are still in the
 * notification) nor acknowledged: p has not looked at its device's interrupt since; one taken
 * and not yet acknowledged (lib's device loop puts the ack off to its next wait) is not
 * reported. 0: none. */
void irq_held_by(const struct process *p, uint64_t *shared, uint64_t *own);

/* The scheduler is about to run t: if an interrupt woke it and it has not run since, count the
 * wake-up latency (sched_make_current looks first, so that a switch to any other thread makes
 * no call). Out of line, a leaf built without frame-pointer set-up (the Makefile's
 * HOT_LEAVES). */
void irq_note_running(struct thread *t);
/* t ends: a wake-up it still owes its line's statistics is counted (irq_inline.h). */
void irq_thread_gone(struct thread *t);
/* Detection's rare branch: a threaded line's interrupt that nobody handled counts; whether
 * that disabled the line (irq_line_disable). BKL held. */
bool irq_note_unhandled(struct irq_desc *d);

void sys_irq_bind(struct thread *t);
void sys_irq_ack(struct thread *t);
void sys_irq_ack_wait(struct thread *t);
/* IRQ_ACK_WAIT's fast path: irq_ack_wait_fast() in irq_inline.h. Its rare case: the line it
 * just unmasked (or another) fired again at once; take it now, in this call (BKL held), and
 * give t the bits; returns what irq_ack_wait_fast does (FAST_*, sched.h). */
int irq_ack_wait_refired(struct hart *me, struct thread *t, struct notification *n);
void sys_irq_unbind(struct thread *t);
void sys_irq_set_affinity(struct thread *t);
void sys_irq_enable(struct thread *t);
void sys_irq_msi_new(struct thread *t);
void sys_irq_msi_free(struct thread *t);
/* Binder b of line d leaves (irq_bind.c): the ack it owed settled as not handled. BKL held. */
void irq_unbind(struct irq_desc *d, struct irq_binder *b);
/* TACET_INFO_IRQ: line index's statistics into out (struct tacet_irq_info), as viewer may see
 * them: its timing only if viewer is bound to the line or NULL (the trace authority). */
long irq_info(unsigned long index, void *out, const struct process *viewer);
/* TACET_INFO_IRQ_HIST: line index's histograms into out (struct tacet_irq_hist), the same. */
long irq_hist_info(unsigned long index, void *out, const struct process *viewer);

#endif
