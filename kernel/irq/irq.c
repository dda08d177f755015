/* irq.c: the generic interrupt layer's descriptors and top half. Owns irq_descs[] (one struct
 * irq_desc per line, made at boot, never freed) and the controller's operations. The rest of the
 * layer, by concern: irq_bind.c (binding, acknowledgements, the system calls), spurious.c
 * (detection: unhandled streaks, storms, irq_line_disable, the reports), hardirq.c (fast handlers
 * and the nesting guard), irq_stats.c (counts and the statistics export), irq_inline.h (the IDLE ->
 * PENDING transition and the acknowledgement both paths share, and the inline fast paths). The BKL
 * guards each line's state and binding; the top half takes it when it must signal (from user mode
 * the trap path already holds it). Statistics are per line, updated under the BKL by whichever hart
 * takes the line; readers (irq_info) hold it too.
 *
 * A line's protocol (threaded delivery, oneshot; one or, with TACET_IRQ_SHARED, several binders):
 *
 *   UNBOUND --irq_bind--> IDLE (routed to the binder's hart, or to the one irq_set_affinity
 *           chose while the line was free; unmasked); DISABLED instead if detection had
 *           disabled it and its history carries on (below)
 *   IDLE --fires--> top half: claim; signal every binder; mask; complete --> PENDING
 *           (irq_line_pend, irq_inline.h, for both ways of delivery: the general top half's
 *           and the direct switch to a waiter or a service loop's bound thread)
 *   PENDING --the last binder's irq_ack--> IDLE: unmask (fires again at once if still asserted)
 *           (the ack says whether the interrupt was that binder's device: handled)
 *   PENDING --IRQ_UNHANDLED_LIMIT acks in a row say "not handled"--> DISABLED (masked,
 *           reported on the console; that ack, and any later ack or ack_wait, returns
 *           TACET_EDISABLED) --irq_enable--> IDLE
 *   A busy line is never disabled for its rate: it is oneshot, so it cannot fire again before
 *   its server has acknowledged, and it can starve nobody but that server (whose priority
 *   bounds it). The rate rule is for fast handlers (irq_request_fast), which run in the top
 *   half and could livelock a hart: more than IRQ_STORM_LIMIT within IRQ_STORM_WINDOW_US
 *   --> DISABLED, reported by irq_report() outside the top half.
 *   any --a binder leaves (irq_unbind, or its process ends)--> the same state without it; an
 *           ack it owed (PENDING) counts as given, not handled, so the others' acks (or its
 *           own leaving) end the interrupt and detection counts it
 *   any --the last binder leaves--> UNBOUND (masked)
 *
 * A message-signalled line (irq_msi.c) is an edge: the controller does not mask it when it
 * fires (the mask is lazy, arch.h); a message that comes while it is PENDING (or UNBOUND, or
 * DISABLED) is held by the controller, masked, and given again at the unmask that ends that
 * state, once (Linux's handle_edge_irq keeps such an edge as IRQS_PENDING and replays it the
 * same way). So the common interrupt pays neither the mask nor the unmask.
 *
 * Release: a binder that leaves never leaves the line stuck. If it owed an ack, that ack is
 * settled as "not handled" (with the last binder gone, detection still counts the interrupt,
 * but the line is masked instead of unmasked). An interrupt that comes while the line is
 * UNBOUND (or PENDING, or DISABLED) stays pending in the controller, masked, and reaches the
 * next binder when a bind or ack unmasks the line; one the top half finds while the line is not
 * IDLE is counted spurious (a message-signalled line's is held, and counted when given again).
 * Nothing is dropped without being delivered or counted.
 *
 * Detection history (unhandled_streak, the rate window, and whether detection disabled the
 * line) belongs to the line: unbinding and binding again keep it, so a driver cannot dodge
 * detection by rebinding; a DISABLED line rebound is DISABLED until irq_enable. It is charged
 * to a process (history_of: the first binder after a fresh start). When that process ends the
 * history passes to a binder still there, or, nobody bound, starts afresh: the device's next
 * driver (pci resets the function between drivers) is not blamed for the last one's record.
 *
 * What the PLIC sees: a line is masked through its priority (0), never by clearing its enable
 * bit, because the PLIC ignores a completion for a source not enabled for that context and the
 * claim would stay open. The claim is completed in the top half, never held until the ack
 * (that would block the hart's other lines). Affinity = the one context whose enable bit is set.
 */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "irq/irq_inline.h"
#include "arch.h"
#include "mm/kalloc.h"
#include "object/notification.h"
#include "core/panic.h"
#include "core/sched.h"
#include "core/trace.h"
#include <tacet/abi.h>

const struct irqchip *irq_chip;
struct irq_desc *irq_descs[IRQ_MAX];
unsigned int irq_lines; /* irq_descs[1..irq_lines] exist */

void irqchip_register(const struct irqchip *c)
{
	irq_chip = c;
}

/* After the page allocator is up: a descriptor for every line, all UNBOUND, with its
 * histograms (irq_stats.c). */
void irq_init(void)
{
	unsigned int n = irq_chip ? irq_chip->nr_irqs + irq_chip->nr_msi : 0;

	for (unsigned int irq = 1; irq <= n && irq < IRQ_MAX; irq++) {
		struct irq_desc *d = kalloc(sizeof(*d));

		if (!d || !(d->hist = kalloc(sizeof(*d->hist))))
			panic("irq_init: no memory for line %u", irq);
		d->obj.type = TACET_CAP_IRQ;
		d->obj.refs = 1; /* irq_descs[]'s own: lines live for ever */
		d->irq = irq;
		d->msi = irq > irq_chip->nr_irqs; /* the controller's pool: IRQ_MSI_NEW lends it */
		d->hart_chosen = d->msi;
		arch_irq_mask(irq); /* routed nowhere until bound (each hart starts with none enabled) */
		irq_descs[irq] = d;
		irq_lines = irq;
	}
}

/* A threaded line fired: IDLE -> PENDING, every binder signalled with the trap's stamp. Out of
 * line: inline, the top half's three callers (the fast handlers' way in among them) would keep
 * one more register each. */
static __attribute__((noinline)) void deliver(struct hart *me, struct irq_desc *d)
{
	irq_line_pend(me, d, NULL);
}

/* A threaded line fired while not IDLE: a wired line was masked and should not have fired
 * (masked again, counted spurious); a message-signalled line is an edge masked lazily, and its
 * message is held by the controller, masked, until the unmask that ends the state (the last
 * ack, a bind, irq_enable) gives it again: then it is delivered and counted, once however many
 * came meanwhile. Returns whether it held it (then its claim is complete, and it is not
 * counted now). */
static __attribute__((noinline)) bool fired_not_idle(struct hart *me, struct irq_desc *d)
{
	if (d->msi) {
		arch_irq_hold(d->irq);
		arch_irq_complete(&me->arch, d->irq);
		return true;
	}
	arch_irq_mask(d->irq);
	__atomic_fetch_add(&irq_spurious_total, 1, __ATOMIC_RELAXED);
	return false;
}

/* The top half of a claimed line (NULL: the claim found none). BKL held. Inline: it is the
 * fast handlers' way in. A fast handler's line then meets the storm rule (spurious.c). */
static inline __attribute__((always_inline)) void top_half(struct hart *me, struct irq_desc *d)
{
	if (!d) {
		if (arch_irq_claim_was_ipi(&me->arch))
			return; /* the claim took this hart's IPI (the AIA's), nothing else came */
		__atomic_fetch_add(&irq_spurious_total, 1, __ATOMIC_RELAXED);
		me->empty_claims++;
		return; /* nothing pending any more: another hart claimed it */
	}
	if (d->handler) {
		unsigned int saved = irq_hardirq_enter();

		d->handler(d->irq);
		irq_hardirq_exit(saved);
		irq_fast_storm_check(d);
	} else if (d->state == IRQ_IDLE) {
		deliver(me, d);
	} else if (fired_not_idle(me, d)) {
		return; /* held: counted when it is given again */
	}
	arch_irq_complete(&me->arch, d->irq);
	irq_account(d, me);
	trace_event(TACET_TRACE_IRQ, d, NULL, 0);
}

void irq_top_half(struct hart *me, struct irq_desc *d)
{
	top_half(me, d);
}

void irq_external(void)
{
	struct hart *me = this_hart();
	int locked = bkl_held();

	/* Not holding it (a handler's window opened outside a system call), take the BKL before
	 * the claim: no system call may move the line between its claim and its completion,
	 * which the PLIC would ignore from a context the line is no longer enabled for (the
	 * claim would stay open, the line dead). irq_external_idle() does the same. */
	if (!locked)
		bkl_lock();
	top_half(me, irq_desc_get(arch_irq_claim(&me->arch)));
	if (!locked)
		bkl_unlock();
}

void irq_external_idle(void)
{
	struct hart *me = this_hart();

	bkl_lock_urgent(); /* masked: the idle wait never unmasks interrupts */
	top_half(me, irq_desc_get(arch_irq_claim(&me->arch)));
	bkl_unlock();
}
