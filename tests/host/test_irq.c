/* test_irq.c: host unit tests of the generic interrupt layer (kernel/irq/irq.c) through its entry
 * points (irq_init, irq_external, the IRQ system calls, irq_info, irq_release_owner,
 * irq_note_running, irq_request_fast; and the signal fast path of fastpath.h) against the fake
 * controller and machine of fake_irqchip.c, the real capability tables and the real
 * notifications (a woken thread waits in a run queue: fake_irqchip.h's sched_ready); then random
 * bind/fire/ack/unbind/move sequences by two processes against a model of the line protocol
 * written at the top of irq.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "object/cap.h"
#include "fake_irqchip.h"
#include "core/runqueue.h"
#include "irq/irq_inline.h"
#include "core/fastpath.h"
#include "core/sched.h"
#include "fake_kernel.h"
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "mm/kalloc.h"
#include "object/frame.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/sched.h"
#include "object/thread.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define LINE  5 /* the lines the test process holds capabilities to */
#define LINE2 7
#define LINE3 9
#define BADGE 0x40ULL
#define BIT63 (1ULL << 63)

/* The test process's capabilities (the other process holds LINE3 and ntfn2 in its first two). */
enum slot {
	SLOT_IRQ = 1, /* LINE, WRITE */
	SLOT_NTFN,    /* ntfn, WRITE */
	SLOT_IRQ_RO,  /* LINE, READ only */
	SLOT_NTFN_RO, /* ntfn, READ only */
	SLOT_EP,      /* an endpoint, every right */
	SLOT_IRQ2,    /* LINE2, WRITE */
	SLOT_IRQ3,    /* LINE3, WRITE */
	SLOT_NTFN2,   /* ntfn2, WRITE */
	SLOT_FREE,    /* empty, for a test's own capability */
	SLOT_EMPTY = 20,
};

/* One test's kernel objects: two processes with a thread each, two notifications. */
struct world {
	struct process proc, other;
	struct thread thr, other_thr;
	struct notification ntfn, ntfn2;
	struct kobj ep;
	uint64_t spurious0; /* irq_spurious() when the test began: it counts for ever */
};

static struct world w;

/* --- fixtures --- */

/* The fake machine alone: irq_init() not yet run. */
static int setup_machine(void **state)
{
	(void)state;
	fake_kernel_reset();
	fake_irqchip_reset();
	assert_int_equal(fake_pages_in_use(), 0);
	return 0;
}

static void install(struct cspace *cs, unsigned long slot, struct kobj *obj, uint32_t rights)
{
	long err = 0;
	struct cap *c = cap_empty_slot(cs, slot, &err);

	if (!c)
		fail_msg("slot %lu: error %ld", slot, err);
	cap_install(c, obj, rights, 0);
}

static struct irq_desc *desc(unsigned int irq)
{
	struct irq_desc *d = irq_desc_get(irq);

	if (!d)
		fail_msg("line %u has no descriptor", irq);
	return d;
}

static void new_process(struct process *p, struct thread *t)
{
	p->obj = (struct kobj){ .type = TACET_CAP_PROCESS, .refs = 1 };
	p->cspace = cspace_new();
	assert_non_null(p->cspace);
	t->obj = (struct kobj){ .type = TACET_CAP_THREAD, .refs = 1 };
	t->proc = p;
}

static int setup_world(void);

/* The machine, every line UNBOUND, and the two processes with their capabilities. */
static int setup(void **state)
{
	setup_machine(state);
	irq_init();
	return setup_world();
}

/* The same with a controller that lends message-signalled lines (the AIA's kind). */
static int setup_msi(void **state)
{
	setup_machine(state);
	fake_irqchip_msi();
	irq_init();
	return setup_world();
}

static int setup_world(void)
{
	memset(&w, 0, sizeof(w));
	new_process(&w.proc, &w.thr);
	new_process(&w.other, &w.other_thr);
	w.ntfn.obj = (struct kobj){ .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	w.ntfn2.obj = (struct kobj){ .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	w.ep = (struct kobj){ .type = TACET_CAP_ENDPOINT, .refs = 1 };
	install(w.proc.cspace, SLOT_IRQ, &desc(LINE)->obj, TACET_RIGHT_WRITE);
	install(w.proc.cspace, SLOT_NTFN, &w.ntfn.obj, TACET_RIGHT_WRITE);
	install(w.proc.cspace, SLOT_IRQ_RO, &desc(LINE)->obj, TACET_RIGHT_READ);
	install(w.proc.cspace, SLOT_NTFN_RO, &w.ntfn.obj, TACET_RIGHT_READ);
	install(w.proc.cspace, SLOT_EP, &w.ep, TACET_RIGHTS_ALL);
	install(w.proc.cspace, SLOT_IRQ2, &desc(LINE2)->obj, TACET_RIGHT_WRITE);
	install(w.proc.cspace, SLOT_IRQ3, &desc(LINE3)->obj, TACET_RIGHT_WRITE);
	install(w.proc.cspace, SLOT_NTFN2, &w.ntfn2.obj, TACET_RIGHT_WRITE);
	install(w.other.cspace, SLOT_IRQ, &desc(LINE3)->obj, TACET_RIGHT_WRITE);
	install(w.other.cspace, SLOT_NTFN, &w.ntfn2.obj, TACET_RIGHT_WRITE);
	fake_log_clear();
	w.spurious0 = irq_spurious();
	return 0;
}

/* The lines naming p, as a binder, as the owner of the detection history or as a message-
 * signalled line's lender: what p's irq_refs must count. */
static unsigned int lines_naming(const struct process *p)
{
	unsigned int k = 0;

	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++) {
		const struct irq_desc *d = irq_desc_get(irq);

		for (unsigned int i = 0; d && i < d->nbinders; i++)
			k += d->binders[i].owner == p;
		k += d && d->history_of == p;
		k += d && d->msi && d->lender == p;
	}
	return k;
}

/* What must hold after every test: the BKL free, every claim completed on a hart the line was
 * routed to, no handler level left open, what the controller sees matches each line's state
 * (only an IDLE line is unmasked), a line owes exactly one ack per waiting binder (none
 * left over from a binder that is gone), and each process counts the lines naming it. */
static int check_machine(void **state)
{
	(void)state;
	assert_int_equal(bkl_is_locked(), 0);
	assert_int_equal(w.proc.irq_refs, lines_naming(&w.proc));
	assert_int_equal(w.other.irq_refs, lines_naming(&w.other));
	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++) {
		const struct fake_line *l = fake_irqchip_line(irq);
		const struct irq_desc *d = irq_desc_get(irq);

		if (l->claimed_by >= 0)
			fail_msg("line %u: claim by hart %d never completed", irq, l->claimed_by);
		if (l->ignored_completes)
			fail_msg("line %u: %u completions from a hart it is not routed to "
				 "(the PLIC ignores them)", irq, l->ignored_completes);
		if (l->stray_completes)
			fail_msg("line %u: %u completions without a claim", irq,
				 l->stray_completes);
		/* a message-signalled line is masked lazily: not IDLE, it may be unmasked */
		if (d && (d->msi ? l->masked && d->state == IRQ_IDLE
				 : l->masked != (d->state != IRQ_IDLE)))
			fail_msg("line %u: state %d but the controller has it %s", irq, d->state,
				 l->masked ? "masked" : "unmasked");
		if (d) {
			unsigned int waiting = 0;

			for (unsigned int i = 0; i < d->nbinders; i++)
				waiting += d->binders[i].waiting;
			if (d->acks_due != waiting)
				fail_msg("line %u: %u acks due, %u binders waiting", irq,
					 d->acks_due, waiting);
		}
	}
	for (unsigned int h = 0; h < FAKE_NHARTS; h++)
		assert_int_equal(harts[h].irq_depth, 0);
	return 0;
}

static unsigned int bindings_to(const struct notification *n)
{
	unsigned int k = 0;

	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++)
		for (unsigned int i = 0; i < desc(irq)->nbinders; i++)
			k += desc(irq)->binders[i].ntfn == n;
	return k;
}

/* Also: the capabilities gone, each notification holds its own reference plus one per line
 * still bound to it, and each line only descs[]'s own. (The cspaces go first, so that a
 * failure here does not leave pages to the next test.) */
static int teardown(void **state)
{
	cspace_free(w.proc.cspace);
	cspace_free(w.other.cspace);
	assert_int_equal(fake_pages_in_use(), 0);
	check_machine(state);
	assert_int_equal(w.ntfn.obj.refs, 1 + bindings_to(&w.ntfn));
	assert_int_equal(w.ntfn2.obj.refs, 1 + bindings_to(&w.ntfn2));
	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++)
		assert_int_equal(desc(irq)->obj.refs, 1);
	assert_int_equal(fake_destroyed_count(), 0);
	return 0;
}

/* --- driving the kernel --- */

/* A system call by t on the running hart, under the BKL like every kernel entry from user mode.
 * The result registers are the argument registers (arch_types.h). */
static long call(void (*fn)(struct thread *), struct thread *t, unsigned long a0,
		 unsigned long a1, unsigned long a2, unsigned long a3)
{
	arch_ctx_set_ret(&t->ctx, 0, a0);
	arch_ctx_set_ret(&t->ctx, 1, a1);
	arch_ctx_set_ret(&t->ctx, 2, a2);
	arch_ctx_set_ret(&t->ctx, 3, a3);
	bkl_lock();
	fn(t);
	bkl_unlock();
	return (long)arch_ctx_arg(&t->ctx, 0);
}

static long bind_as(struct thread *t, unsigned long irq_slot, unsigned long ntfn_slot,
		    uint64_t badge, unsigned long flags)
{
	return call(sys_irq_bind, t, irq_slot, ntfn_slot, badge, flags);
}

static long bind(unsigned long irq_slot, unsigned long ntfn_slot, uint64_t badge)
{
	return bind_as(&w.thr, irq_slot, ntfn_slot, badge, 0);
}

/* handled: the interrupt was the acknowledging server's device's. */
static long ack_as(struct thread *t, unsigned long irq_slot, bool handled)
{
	return call(sys_irq_ack, t, irq_slot, handled, 0, 0);
}

static long ack(unsigned long irq_slot)
{
	return ack_as(&w.thr, irq_slot, true);
}

static long unbind_as(struct thread *t, unsigned long irq_slot)
{
	return call(sys_irq_unbind, t, irq_slot, 0, 0, 0);
}

static long unbind(unsigned long irq_slot)
{
	return unbind_as(&w.thr, irq_slot);
}

static long set_affinity(unsigned long irq_slot, unsigned long hart)
{
	return call(sys_irq_set_affinity, &w.thr, irq_slot, hart, 0, 0);
}

static long enable(unsigned long irq_slot)
{
	return call(sys_irq_enable, &w.thr, irq_slot, 0, 0, 0);
}

/* Hart h takes its external interrupt from the idle wait (BKL free). */
static void interrupt(unsigned int h)
{
	unsigned int was = fake_hart();

	fake_set_hart(h);
	irq_external();
	fake_set_hart(was);
}

/* ... or in the trap path from user mode, which holds the BKL (and keeps it). */
static void interrupt_from_user(unsigned int h)
{
	unsigned int was = fake_hart();

	fake_set_hart(h);
	bkl_lock();
	irq_external();
	assert_true(bkl_held());
	bkl_unlock();
	fake_set_hart(was);
}

/* t, running, waits on n, which has no bits: the real wait (notification.c), t queued as n's
 * newest waiter, BLOCKED_NTFN. */
static void wait_on(struct thread *t, struct notification *n)
{
	assert_int_equal(n->bits, 0);
	bkl_lock();
	notification_wait(t, n);
	bkl_unlock();
	assert_int_equal(t->state, TACET_THREAD_BLOCKED_NTFN);
	assert_ptr_equal(n->waiters.tail, t);
}

/* The scheduler runs t: off its hart's run queue if a wake-up readied it (fake sched_ready),
 * RUNNING. */
static void scheduled(struct thread *t)
{
	if (t->state == TACET_THREAD_READY)
		rq_remove(harts[t->hart].rq, t);
	t->state = TACET_THREAD_RUNNING;
}

static uint64_t spurious_since_setup(void)
{
	return irq_spurious() - w.spurious0;
}

/* --- the log --- */

#define EV(o, i, h)    { .op = (o), .irq = (i), .hart = (h) }
#define PRIO(i, p)     { .op = FAKE_SET_PRIORITY, .irq = (i), .prio = (p) }
#define SIGNAL(n, b)   { .op = FAKE_SIGNAL, .ntfn = (n), .bits = (b) }
#define EXPECT_LOG(...)                                                                        \
	do {                                                                                   \
		const struct fake_event want_[] = { __VA_ARGS__ };                             \
		expect_log(want_, ARRAY_LEN(want_));                                           \
	} while (0)
#define EXPECT_NO_LOG() expect_log(NULL, 0)

static void print_log(void)
{
	for (size_t i = 0; i < fake_log_len(); i++) {
		const struct fake_event *e = fake_log(i);

		print_message("  %zu: %s irq %u hart %u prio %u ntfn %p bits %#llx%s\n", i,
			      fake_op_name(e->op), e->irq, e->hart, e->prio, (void *)e->ntfn,
			      (unsigned long long)e->bits, e->bkl_held ? " (BKL)" : "");
	}
}

static bool same_event(const struct fake_event *got, const struct fake_event *want)
{
	if (got->op != want->op)
		return false;
	switch (want->op) {
	case FAKE_CLAIM:
	case FAKE_COMPLETE:
	case FAKE_SET_AFFINITY:
		return got->irq == want->irq && got->hart == want->hart;
	case FAKE_SET_PRIORITY:
		return got->irq == want->irq && got->prio == want->prio;
	case FAKE_SIGNAL:
		return got->ntfn == want->ntfn && got->bits == want->bits;
	case FAKE_MASK:
	case FAKE_UNMASK:
	case FAKE_HOLD:
		return got->irq == want->irq;
	default:
		return true;
	}
}

/* Since the last fake_log_clear(), exactly want[0..n) happened, in that order. */
static void expect_log(const struct fake_event *want, size_t n)
{
	bool ok = fake_log_len() == n;

	for (size_t i = 0; ok && i < n; i++)
		ok = same_event(fake_log(i), &want[i]);
	if (ok)
		return;
	print_message("operations logged:\n");
	print_log();
	print_message("expected:\n");
	for (size_t i = 0; i < n; i++)
		print_message("  %zu: %s irq %u hart %u\n", i, fake_op_name(want[i].op),
			      want[i].irq, want[i].hart);
	fail_msg("the controller and notifications saw another sequence");
}

static size_t log_index(enum fake_op op, unsigned int irq)
{
	for (size_t i = 0; i < fake_log_len(); i++)
		if (fake_log(i)->op == op && fake_log(i)->irq == irq)
			return i;
	return SIZE_MAX;
}

/* --- irq_init --- */

static void test_init_masks_every_line(void **state)
{
	size_t live = kalloc_live();

	(void)state;
	irq_init();
	assert_int_equal(kalloc_live(), live + 2 * FAKE_NR_IRQS); /* each line and its histograms */
	assert_int_equal(fake_log_len(), FAKE_NR_IRQS);
	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++) {
		const struct irq_desc *d = irq_desc_get(irq);
		const struct fake_line *l = fake_irqchip_line(irq);

		assert_non_null(d);
		assert_int_equal(d->irq, irq);
		assert_int_equal(d->obj.type, TACET_CAP_IRQ);
		assert_int_equal(d->obj.refs, 1);
		assert_int_equal(d->state, IRQ_UNBOUND);
		assert_int_equal(d->nbinders, 0);
		assert_null(d->handler);
		assert_int_equal(irq_count(d), 0);
		assert_true(l->masked);
		assert_int_equal(l->masks, 1);
		assert_int_equal(l->unmasks, 0);
		assert_int_equal(l->routed, 0);
		assert_int_equal(fake_log(irq - 1)->op, FAKE_MASK);
		assert_int_equal(fake_log(irq - 1)->irq, irq);
		for (unsigned int other = 1; other < irq; other++)
			assert_ptr_not_equal(irq_desc_get(other), d);
	}
	assert_null(irq_desc_get(0));
	assert_null(irq_desc_get(FAKE_NR_IRQS + 1));
	assert_null(irq_desc_get(IRQ_MAX));
	assert_null(irq_desc_get(UINT_MAX));
}

/* --- bind --- */

static void test_bind_routes_and_unmasks(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(d->nbinders, 1);
	assert_false(d->shared);
	assert_ptr_equal(d->binders[0].ntfn, &w.ntfn);
	assert_int_equal(d->binders[0].badge, BADGE);
	assert_ptr_equal(d->binders[0].owner, &w.proc);
	assert_false(d->binders[0].waiting);
	assert_int_equal(d->hart, 0);
	assert_int_equal(w.ntfn.obj.refs, 1 + 2 + 1); /* own, two capabilities, the binding */
	assert_int_equal(l->routed, 1u << 0);
	assert_int_equal(l->prio, 1);
	assert_false(l->masked);
	/* Routed and given a priority before it may interrupt. */
	EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE, 0), PRIO(LINE, 1), EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(fake_kobj_put_calls(), 0);
}

static void test_bind_twice_is_busy(void **state)
{
	struct irq_desc *d = desc(LINE3);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN2, 0x2), -TACET_EBUSY);
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, BADGE), -TACET_EBUSY);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x2, 0), -TACET_EBUSY);
	/* Pending (fired, not acked) is bound too. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	fake_log_clear();
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x2, 0), -TACET_EBUSY);
	EXPECT_NO_LOG();
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(d->nbinders, 1);
	assert_ptr_equal(d->binders[0].ntfn, &w.ntfn);
	assert_int_equal(d->binders[0].badge, BADGE);
	assert_int_equal(w.ntfn.obj.refs, 1 + 2 + 1);
	assert_int_equal(w.ntfn2.obj.refs, 1 + 2);
}

static void test_bind_bad_badge_or_flags(void **state)
{
	static const uint64_t bad_badges[] = { 0, BIT63, BIT63 | 1, UINT64_MAX };
	static const unsigned long bad_flags[] = { 2, TACET_IRQ_SHARED | 2, 1UL << 32, ULONG_MAX };
	struct irq_desc *d = desc(LINE);

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(bad_badges); i++)
		assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, bad_badges[i]), -TACET_EINVAL);
	for (size_t i = 0; i < ARRAY_LEN(bad_flags); i++)
		assert_int_equal(bind_as(&w.thr, SLOT_IRQ, SLOT_NTFN, BADGE, bad_flags[i]),
				 -TACET_EINVAL);
	EXPECT_NO_LOG();
	assert_int_equal(d->state, IRQ_UNBOUND);
	assert_int_equal(d->nbinders, 0);
	assert_int_equal(w.ntfn.obj.refs, 1 + 2);
	/* Every other bit may be signalled. */
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BIT63 - 1), 0);
	assert_int_equal(d->binders[0].badge, BIT63 - 1);
}

struct slot_case {
	unsigned long irq_slot, ntfn_slot;
	long err;
};

static void test_bind_capability_errors(void **state)
{
	static const struct slot_case cases[] = {
		{ 0, SLOT_NTFN, TACET_EBADSLOT },
		{ CSPACE_SLOTS, SLOT_NTFN, TACET_EBADSLOT },
		{ ULONG_MAX, SLOT_NTFN, TACET_EBADSLOT },
		{ SLOT_EMPTY, SLOT_NTFN, TACET_EEMPTY },
		{ SLOT_NTFN, SLOT_NTFN, TACET_ETYPE },
		{ SLOT_EP, SLOT_NTFN, TACET_ETYPE },
		{ SLOT_IRQ_RO, SLOT_NTFN, TACET_EPERM },
		{ SLOT_IRQ, 0, TACET_EBADSLOT },
		{ SLOT_IRQ, CSPACE_SLOTS, TACET_EBADSLOT },
		{ SLOT_IRQ, SLOT_EMPTY, TACET_EEMPTY },
		{ SLOT_IRQ, SLOT_IRQ2, TACET_ETYPE },
		{ SLOT_IRQ, SLOT_EP, TACET_ETYPE },
		{ SLOT_IRQ, SLOT_NTFN_RO, TACET_EPERM },
		{ SLOT_IRQ_RO, SLOT_EMPTY, TACET_EPERM }, /* the line is decoded first */
	};
	struct irq_desc *d = desc(LINE);

	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		long got = bind(cases[i].irq_slot, cases[i].ntfn_slot, BADGE);

		if (got != -cases[i].err)
			fail_msg("bind(%lu, %lu): %ld, expected %ld", cases[i].irq_slot,
				 cases[i].ntfn_slot, got, -cases[i].err);
		assert_int_equal(d->state, IRQ_UNBOUND);
		assert_int_equal(d->nbinders, 0);
	}
	EXPECT_NO_LOG();
	assert_int_equal(w.ntfn.obj.refs, 1 + 2);
	assert_int_equal(w.ep.refs, 1 + 1);
}

/* ack, unbind, set_affinity and enable decode the line the same way. */
static void test_line_capability_errors(void **state)
{
	static const struct slot_case cases[] = {
		{ 0, 0, TACET_EBADSLOT },        { CSPACE_SLOTS, 0, TACET_EBADSLOT },
		{ SLOT_EMPTY, 0, TACET_EEMPTY }, { SLOT_NTFN, 0, TACET_ETYPE },
		{ SLOT_EP, 0, TACET_ETYPE },     { SLOT_IRQ_RO, 0, TACET_EPERM },
	};

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	fake_log_clear();
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		assert_int_equal(ack(cases[i].irq_slot), -cases[i].err);
		assert_int_equal(unbind(cases[i].irq_slot), -cases[i].err);
		assert_int_equal(set_affinity(cases[i].irq_slot, 1), -cases[i].err);
		assert_int_equal(enable(cases[i].irq_slot), -cases[i].err);
	}
	EXPECT_NO_LOG();
	assert_int_equal(desc(LINE)->state, IRQ_PENDING);
	assert_int_equal(desc(LINE)->hart, 0);
	assert_int_equal(desc(LINE)->nbinders, 1);
}

/* --- the top half --- */

static void test_fire_signals_once(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	harts[0].trap_cycle = 1000;
	fake_set_cycles(1250);
	fake_irqchip_raise(LINE);
	interrupt(0);
	/* The protocol: claim; signal; mask; complete. The claim completes in the top half with
	 * the line already masked, so it cannot come straight back. */
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE), EV(FAKE_MASK, LINE, 0),
		   EV(FAKE_COMPLETE, LINE, 0));
	assert_true(fake_log(1)->bkl_held);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(d->acks_due, 1);
	assert_true(d->binders[0].waiting);
	assert_true(l->masked);
	assert_int_equal(l->claims, 1);
	assert_int_equal(l->completes, 1);
	assert_int_equal(w.ntfn.bits, BADGE);
	assert_int_equal(irq_hart_count(0), 1);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->per_hart[0], 1);
	for (unsigned int h = 1; h < MAX_HARTS; h++)
		assert_int_equal(d->per_hart[h], 0);
	assert_int_equal(d->top_half_max, 250);
	assert_int_equal(d->top_half_total, 250);
	assert_int_equal(spurious_since_setup(), 0);

	/* Faster, then slower: the maximum keeps the slowest, the total adds them. */
	assert_int_equal(ack(SLOT_IRQ), 0);
	harts[0].trap_cycle = 5000;
	fake_set_cycles(5100);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(d->top_half_max, 250);
	assert_int_equal(d->top_half_total, 350);
	assert_int_equal(ack(SLOT_IRQ), 0);
	harts[0].trap_cycle = 9000;
	fake_set_cycles(9400);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(d->top_half_max, 400);
	assert_int_equal(d->top_half_total, 750);
	assert_int_equal(irq_count(d), 3);
	assert_int_equal(d->per_hart[0], 3);
	assert_int_equal(irq_hart_count(0), 3);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 3);
}

/* From user mode the trap path holds the BKL already: the top half uses it, keeps it. */
static void test_fire_from_user_mode(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	fake_irqchip_raise(LINE);
	interrupt_from_user(0);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE), EV(FAKE_MASK, LINE, 0),
		   EV(FAKE_COMPLETE, LINE, 0));
	assert_true(fake_log(1)->bkl_held);
	assert_int_equal(desc(LINE)->state, IRQ_PENDING);
}

static void test_pending_is_oneshot(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(d->state, IRQ_PENDING);
	/* The device asserts again before the server acks: the controller holds it back. */
	fake_irqchip_raise(LINE);
	fake_log_clear();
	for (unsigned int h = 0; h < FAKE_NHARTS; h++)
		interrupt(h);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0), EV(FAKE_CLAIM, 0, 1), EV(FAKE_CLAIM, 0, 2),
		   EV(FAKE_CLAIM, 0, 3));
	assert_true(l->masked);
	assert_true(l->pending);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(spurious_since_setup(), FAKE_NHARTS);

	/* The ack unmasks it: the held-back interrupt comes through, once. */
	fake_log_clear();
	assert_int_equal(ack(SLOT_IRQ), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_false(l->masked);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE), EV(FAKE_MASK, LINE, 0),
		   EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(irq_count(d), 2);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
}

static void test_ack(void **state)
{
	struct irq_desc *d = desc(LINE3);

	(void)state;
	assert_int_equal(ack(SLOT_IRQ3), -TACET_EINVAL); /* unbound */
	assert_int_equal(d->state, IRQ_UNBOUND);
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	assert_int_equal(ack(SLOT_IRQ3), 0); /* idle: nothing to do */
	EXPECT_NO_LOG();
	assert_int_equal(d->state, IRQ_IDLE);
	fake_irqchip_raise(LINE3);
	interrupt(0);
	fake_log_clear();
	/* Only a binder acknowledges: the other process holds the line but did not bind it. */
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, true), -TACET_EINVAL);
	assert_int_equal(d->state, IRQ_PENDING);
	EXPECT_NO_LOG();
	assert_int_equal(ack(SLOT_IRQ3), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE3, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	fake_log_clear();
	assert_int_equal(ack(SLOT_IRQ3), 0); /* twice: the second changes nothing */
	EXPECT_NO_LOG();
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->unhandled, 0);
}

/* A claim that finds nothing (another hart took it, or nothing was pending) completes nothing. */
static void test_spurious_claim(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
	assert_int_equal(spurious_since_setup(), 1);
	assert_int_equal(irq_hart_count(0), 1);
	assert_int_equal(irq_count(desc(LINE)), 0);

	/* Pending, but routed to hart 0: hart 1's claim finds nothing. */
	fake_irqchip_raise(LINE);
	fake_log_clear();
	interrupt(1);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 1));
	assert_int_equal(spurious_since_setup(), 2);
	assert_true(fake_irqchip_line(LINE)->pending);

	/* Pending on a line nobody bound: masked, never claimed. */
	fake_irqchip_raise(LINE2);
	interrupt(0);
	assert_int_equal(irq_count(desc(LINE)), 1);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
	assert_int_equal(spurious_since_setup(), 3);
	assert_int_equal(irq_count(desc(LINE2)), 0);
}

/* Before a controller registers (or on a board without one), an external interrupt is only
 * counted. */
static void test_no_controller(void **state)
{
	(void)state;
	irqchip_register(NULL);
	interrupt(0);
	irqchip_register(fake_irqchip());
	EXPECT_NO_LOG();
	assert_int_equal(irq_hart_count(0), 1);
	assert_int_equal(spurious_since_setup(), 1);
}

/* --- affinity --- */

static void test_affinity_routes_to_one_hart(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	assert_int_equal(set_affinity(SLOT_IRQ, 2), 0);
	EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE, 2)); /* and no mask or unmask on the way */
	assert_int_equal(l->routed, 1u << 2);
	assert_int_equal(d->hart, 2);
	assert_int_equal(d->state, IRQ_IDLE);
	fake_irqchip_raise(LINE);
	interrupt(0);
	interrupt(1);
	interrupt(3);
	assert_int_equal(irq_count(d), 0);
	assert_int_equal(spurious_since_setup(), 3);
	interrupt(2);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	assert_int_equal(d->per_hart[2], 1);
	assert_int_equal(d->per_hart[0], 0);
	/* Back to hart 0: exactly {0} again. */
	assert_int_equal(set_affinity(SLOT_IRQ, 0), 0);
	assert_int_equal(l->routed, 1u << 0);
	assert_int_equal(d->state, IRQ_PENDING); /* moving does not ack */
}

static void test_affinity_invalid_hart(void **state)
{
	static const unsigned long bad[] = { 3 /* offline */, FAKE_NHARTS, MAX_HARTS,
					     (1UL << 32) | 1, ULONG_MAX };
	struct irq_desc *d = desc(LINE);

	(void)state;
	harts[3].online = false;
	harts[FAKE_NHARTS].online = true; /* past nharts: refused whatever the array holds */
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		if (set_affinity(SLOT_IRQ, bad[i]) != -TACET_EINVAL)
			fail_msg("set_affinity to hart %#lx was not refused", bad[i]);
		assert_int_equal(d->hart, 0);
		assert_int_equal(fake_irqchip_line(LINE)->routed, 1u << 0);
	}
	EXPECT_NO_LOG();
	assert_int_equal(set_affinity(SLOT_IRQ, FAKE_NHARTS - 2), 0);
}

/* An interrupt pending in the controller when the line moves is taken by the new hart only. */
static void test_affinity_moves_pending_interrupt(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE); /* hart 0 has not taken it yet */
	assert_int_equal(set_affinity(SLOT_IRQ, 2), 0);
	interrupt(0);
	interrupt(1);
	assert_true(fake_irqchip_line(LINE)->pending);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);
	interrupt(2);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	assert_int_equal(d->per_hart[2], 1);

	/* Moved while PENDING (signalled, not acked): the next one goes to the new hart. */
	assert_int_equal(set_affinity(SLOT_IRQ, 1), 0);
	assert_int_equal(ack(SLOT_IRQ), 0);
	fake_irqchip_raise(LINE);
	interrupt(2);
	interrupt(0);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	interrupt(1);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 2);
	assert_int_equal(d->per_hart[1], 1);
	assert_int_equal(irq_count(d), 2);
}

/* An unbound line may be moved; it stays masked, and binding routes it there. */
/* A free line goes to the hart of the thread that binds it; moved while bound, it goes back to
 * following its next binder once nobody is bound. */
static void test_bind_follows_binder(void **state)
{
	const struct fake_line *l = fake_irqchip_line(LINE2);

	(void)state;
	w.thr.hart = 3;
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, BADGE), 0);
	assert_int_equal(desc(LINE2)->hart, 3);
	assert_int_equal(l->routed, 1u << 3);
	fake_irqchip_raise(LINE2);
	interrupt(3);
	assert_int_equal(desc(LINE2)->per_hart[3], 1);
	assert_int_equal(ack(SLOT_IRQ2), 0);
	assert_int_equal(set_affinity(SLOT_IRQ2, 1), 0); /* the binder's choice, while bound */
	assert_int_equal(l->routed, 1u << 1);
	assert_int_equal(unbind(SLOT_IRQ2), 0);
	w.thr.hart = 2;
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, BADGE), 0);
	assert_int_equal(l->routed, 1u << 2); /* the choice ended with the binding */
	/* a second binder of a shared line does not move it */
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, BADGE, TACET_IRQ_SHARED), 0);
	w.other_thr.hart = 0;
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, BADGE, TACET_IRQ_SHARED), 0);
	assert_int_equal(fake_irqchip_line(LINE3)->routed, 1u << 2);
}

/* irq_set_affinity on a free line chooses its hart: whoever binds it next does not move it. */
static void test_affinity_before_bind(void **state)
{
	const struct fake_line *l = fake_irqchip_line(LINE2);

	(void)state;
	w.thr.hart = 1;
	assert_int_equal(set_affinity(SLOT_IRQ2, 2), 0);
	assert_true(l->masked);
	assert_int_equal(l->unmasks, 0);
	assert_int_equal(desc(LINE2)->state, IRQ_UNBOUND);
	assert_int_equal(l->routed, 1u << 2);
	fake_log_clear();
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, BADGE), 0);
	EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE2, 2), PRIO(LINE2, 1), EV(FAKE_UNMASK, LINE2, 0));
	fake_irqchip_raise(LINE2);
	interrupt(2);
	assert_int_equal(desc(LINE2)->per_hart[2], 1);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
}

/* --- unbind and the binder's end --- */

static void test_unbind(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	for (int fired = 0; fired < 2; fired++) {
		size_t puts;

		assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
		if (fired) {
			fake_irqchip_raise(LINE);
			interrupt(0);
			assert_int_equal(d->state, IRQ_PENDING);
		}
		puts = fake_kobj_put_calls();
		fake_log_clear();
		assert_int_equal(unbind(SLOT_IRQ), 0);
		assert_int_equal(fake_log(fake_log_len() - 1)->op, FAKE_MASK); /* ends masked */
		assert_int_equal(d->state, IRQ_UNBOUND);
		assert_int_equal(d->nbinders, 0);
		assert_null(d->binders[0].ntfn);
		assert_true(l->masked);
		assert_int_equal(fake_kobj_put_calls(), puts + 1);
		assert_int_equal(w.ntfn.obj.refs, 1 + 2);
		/* Unbound: it does not fire, and has nothing left to unbind or ack. */
		fake_irqchip_raise(LINE);
		interrupt(0);
		assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);
		assert_int_equal(unbind(SLOT_IRQ), -TACET_EINVAL);
		assert_int_equal(ack(SLOT_IRQ), -TACET_EINVAL);
		assert_int_equal(fake_kobj_put_calls(), puts + 1);
	}
	/* Bound again, elsewhere: the interrupt the device kept asserting arrives there. */
	w.ntfn.bits = 0;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN2, 0x2), 0);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn2, 0x2), EV(FAKE_MASK, LINE, 0),
		   EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(fake_destroyed_count(), 0);
}

/* A binding is a reference: it keeps a notification whose capabilities are gone alive, and
 * unbinding drops it exactly once. */
static void test_unbind_drops_last_reference(void **state)
{
	struct notification n = { .obj = { .type = TACET_CAP_NOTIFICATION, .refs = 1 } };

	(void)state;
	install(w.proc.cspace, SLOT_FREE, &n.obj, TACET_RIGHT_WRITE);
	assert_int_equal(bind(SLOT_IRQ, SLOT_FREE, BADGE), 0);
	cap_clear(&w.proc.cspace->slots[SLOT_FREE]);
	kobj_put(&n.obj);
	assert_int_equal(n.obj.refs, 1);
	assert_int_equal(fake_destroyed_count(), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(n.bits, BADGE);
	assert_int_equal(unbind(SLOT_IRQ), 0);
	assert_int_equal(n.obj.refs, 0);
	assert_int_equal(fake_destroyed_times(&n.obj), 1);
	fake_kernel_reset(); /* forget n before it goes out of scope */
}

static void test_release_owner(void **state)
{
	size_t puts;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, 0x1), 0);
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, 0x2), 0);
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x8, TACET_IRQ_SHARED), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	fake_irqchip_raise(LINE);
	interrupt(0); /* LINE PENDING, LINE2 and LINE3 IDLE */
	puts = fake_kobj_put_calls();
	fake_log_clear();
	bkl_lock();
	irq_release_owner(&w.proc);
	bkl_unlock();
	assert_int_equal(desc(LINE)->state, IRQ_UNBOUND);
	assert_int_equal(desc(LINE2)->state, IRQ_UNBOUND);
	assert_true(fake_irqchip_line(LINE)->masked);
	assert_true(fake_irqchip_line(LINE2)->masked);
	/* The shared line keeps its other binder, unmasked. */
	assert_int_equal(desc(LINE3)->state, IRQ_IDLE);
	assert_int_equal(desc(LINE3)->nbinders, 1);
	assert_ptr_equal(desc(LINE3)->binders[0].owner, &w.other);
	assert_ptr_equal(desc(LINE3)->binders[0].ntfn, &w.ntfn2);
	assert_false(fake_irqchip_line(LINE3)->masked);
	assert_int_equal(fake_kobj_put_calls(), puts + 3);
	assert_int_equal(w.ntfn.obj.refs, 1 + 2);
	/* What names each process is counted: nothing names w.proc any more; w.other is LINE3's
	 * binder and, passed on from w.proc, the owner of its history. */
	assert_int_equal(w.proc.irq_refs, 0);
	assert_int_equal(w.other.irq_refs, 2);

	/* Again: nothing left to do. */
	fake_log_clear();
	bkl_lock();
	irq_release_owner(&w.proc);
	bkl_unlock();
	EXPECT_NO_LOG();
	assert_int_equal(fake_kobj_put_calls(), puts + 3);

	bkl_lock();
	irq_release_owner(&w.other);
	bkl_unlock();
	assert_int_equal(desc(LINE3)->state, IRQ_UNBOUND);
	assert_true(fake_irqchip_line(LINE3)->masked);
	assert_int_equal(fake_kobj_put_calls(), puts + 4);
	assert_int_equal(w.ntfn2.obj.refs, 1 + 2);
	assert_int_equal(w.other.irq_refs, 0);
}

/* --- shared lines --- */

static void test_shared_line(void **state)
{
	struct irq_desc *d = desc(LINE3);
	const struct fake_line *l = fake_irqchip_line(LINE3);

	(void)state;
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x1, TACET_IRQ_SHARED), 0);
	fake_log_clear();
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	EXPECT_NO_LOG(); /* already routed and unmasked */
	assert_int_equal(d->nbinders, 2);
	assert_true(d->shared);

	/* One interrupt: one claim, one mask, every binder signalled, one completion. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(fake_log_len(), 5);
	assert_int_equal(fake_log(0)->op, FAKE_CLAIM);
	assert_int_equal(fake_log(3)->op, FAKE_MASK);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 2);
	assert_int_equal(fake_log(4)->op, FAKE_COMPLETE);
	assert_int_equal(w.ntfn.bits, 0x1);
	assert_int_equal(w.ntfn2.bits, 0x4);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(d->acks_due, 2);

	/* It stays masked until the last binder acknowledges; acking twice counts once. */
	fake_log_clear();
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, false), 0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, false), 0);
	EXPECT_NO_LOG();
	assert_int_equal(d->state, IRQ_PENDING);
	assert_true(l->masked);
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, true), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE3, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(d->unhandled, 0); /* one binder handled it */

	/* Nobody handled the next one. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, false), 0);
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, false), 0);
	assert_int_equal(d->unhandled, 1);

	/* A binder that leaves while PENDING owes no ack any more. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, true), 0);
	assert_int_equal(unbind_as(&w.other_thr, SLOT_IRQ), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_false(l->masked);
	assert_int_equal(d->nbinders, 1);
	assert_ptr_equal(d->binders[0].owner, &w.proc);

	/* A binder that joins while PENDING is not owed the interrupt before it. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, true), 0);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, true), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(irq_count(d), 4);
}

/* irq_held_by's *shared (TACET_INFO_PROCESS's irq_held): the stamp of the shared line's
 * interrupt a process owes, while it owes it, also while it is alone on the line for a time
 * (its neighbour restarted); nothing for a line it bound unshared, nor once it acknowledged;
 * the next interrupt another stamp. */
static uint64_t held_as(const struct process *p, bool own)
{
	uint64_t shared, mine;

	bkl_lock();
	irq_held_by(p, &shared, &mine);
	bkl_unlock();
	return own ? mine : shared;
}

static uint64_t held(const struct process *p)
{
	return held_as(p, false);
}

static void test_shared_line_held(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, 0x1), 0); /* LINE: alone */
	fake_irqchip_raise(LINE);
	harts[0].trap_cycle = 1000;
	interrupt(0);
	assert_int_equal(desc(LINE)->state, IRQ_PENDING);
	assert_int_equal(held(&w.proc), 0); /* it keeps nobody else's interrupt */

	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x2, TACET_IRQ_SHARED), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	fake_irqchip_raise(LINE3);
	harts[0].trap_cycle = 2000;
	interrupt(0);
	assert_int_equal(held(&w.proc), 2000);
	assert_int_equal(held(&w.other), 2000);
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, true), 0);
	assert_int_equal(held(&w.other), 0);
	assert_int_equal(held(&w.proc), 2000); /* LINE3 waits for it alone now */
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, false), 0);
	assert_int_equal(held(&w.proc), 0);

	fake_irqchip_raise(LINE3);
	harts[0].trap_cycle = 3000;
	interrupt(0);
	assert_int_equal(held(&w.proc), 3000); /* the next one: a new token */
	assert_int_equal(unbind_as(&w.other_thr, SLOT_IRQ), 0);
	/* alone on it for now: it still holds it, for whoever binds it next (a neighbour that
	 * was ended and restarted must not make the interrupt look acknowledged) */
	assert_int_equal(held(&w.proc), 3000);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	assert_int_equal(held(&w.proc), 3000);
	assert_int_equal(held(&w.other), 0); /* joined while PENDING: owes nothing */
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, true), 0);
	assert_int_equal(held(&w.proc), 0);
	assert_int_equal(ack(SLOT_IRQ), 0);
}

/* irq_held_by's *own (TACET_INFO_PROCESS's irq_held_own): the stamp of the interrupt of a line
 * a process has alone that it was signalled and has neither taken from its notification nor
 * acknowledged (a driver deaf to its line); nothing once it took the bits (an ack put off to
 * the next wait, lib's device loop), nor once it acknowledged; a shared line's is irq_held's
 * alone; the oldest of two. */
static void test_own_line_held(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, 0x1), 0); /* LINE: alone */
	fake_irqchip_raise(LINE);
	harts[0].trap_cycle = 1000;
	interrupt(0);
	assert_int_equal(desc(LINE)->state, IRQ_PENDING);
	assert_int_equal(held_as(&w.proc, true), 1000);
	assert_int_equal(held(&w.proc), 0);
	assert_int_equal(notification_take(&w.ntfn), 0x1); /* it looked: the ack may wait */
	assert_int_equal(held_as(&w.proc, true), 0);
	assert_int_equal(ack(SLOT_IRQ), 0);
	assert_int_equal(held_as(&w.proc, true), 0);

	fake_irqchip_raise(LINE);
	harts[0].trap_cycle = 2000;
	interrupt(0);
	assert_int_equal(held_as(&w.proc, true), 2000); /* the next one: a new token */
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN2, 0x2, TACET_IRQ_SHARED), 0);
	fake_irqchip_raise(LINE3);
	harts[0].trap_cycle = 3000;
	interrupt(0);
	assert_int_equal(held_as(&w.proc, true), 2000); /* the older; LINE3 is shared */
	assert_int_equal(held(&w.proc), 3000);
	assert_int_equal(ack(SLOT_IRQ), 0); /* acknowledged without taking the bits */
	assert_int_equal(held_as(&w.proc, true), 0);
	assert_int_equal(held(&w.proc), 3000);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, true), 0);
	assert_int_equal(held(&w.proc), 0);
}

/* A second process with capabilities to LINE3 and ntfn2, for the binders limit. */
struct extra {
	struct process p;
	struct thread t;
};

static void test_shared_bind_rules(void **state)
{
	struct extra extra[IRQ_MAX_BINDERS];
	struct irq_desc *d = desc(LINE3);

	(void)state;
	/* Not shared, then shared: busy; and the other way round. */
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, 0x1), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED),
			 -TACET_EBUSY);
	assert_int_equal(unbind(SLOT_IRQ3), 0);
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x1, TACET_IRQ_SHARED), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, 0), -TACET_EBUSY);
	/* One binding per process. */
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN2, 0x2, TACET_IRQ_SHARED),
			 -TACET_EBUSY);
	assert_int_equal(d->nbinders, 1);

	/* Up to IRQ_MAX_BINDERS. */
	memset(extra, 0, sizeof(extra));
	for (unsigned int i = 0; i < IRQ_MAX_BINDERS; i++) {
		new_process(&extra[i].p, &extra[i].t);
		install(extra[i].p.cspace, SLOT_IRQ, &d->obj, TACET_RIGHT_WRITE);
		install(extra[i].p.cspace, SLOT_NTFN, &w.ntfn2.obj, TACET_RIGHT_WRITE);
	}
	for (unsigned int i = 0; i < IRQ_MAX_BINDERS - 1; i++)
		assert_int_equal(bind_as(&extra[i].t, SLOT_IRQ, SLOT_NTFN, 1ULL << (i + 1),
					 TACET_IRQ_SHARED), 0);
	assert_int_equal(d->nbinders, IRQ_MAX_BINDERS);
	assert_int_equal(bind_as(&extra[IRQ_MAX_BINDERS - 1].t, SLOT_IRQ, SLOT_NTFN, 0x100,
				 TACET_IRQ_SHARED), -TACET_ENOMEM);
	assert_int_equal(d->nbinders, IRQ_MAX_BINDERS);
	assert_int_equal(w.ntfn2.obj.refs, 1 + 2 + IRQ_MAX_BINDERS + IRQ_MAX_BINDERS - 1);

	/* Each process's end removes its binder only. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), IRQ_MAX_BINDERS);
	for (unsigned int i = 0; i < IRQ_MAX_BINDERS; i++) {
		bkl_lock();
		irq_release_owner(&extra[i].p);
		bkl_unlock();
		cspace_free(extra[i].p.cspace);
	}
	assert_int_equal(d->nbinders, 1);
	assert_ptr_equal(d->binders[0].owner, &w.proc);
	assert_int_equal(d->state, IRQ_PENDING); /* w.proc still owes its ack */
	assert_int_equal(ack(SLOT_IRQ3), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(w.ntfn2.obj.refs, 1 + 2);
}

/* --- spurious and storm detection --- */

/* One interrupt of the line, acknowledged by w.thr as handled or not. */
/* The ack returns 0, or TACET_EDISABLED once detection has disabled the line (the driver
 * learns it from the ack). */
static void fire_and_ack(unsigned long slot, unsigned int irq, bool handled)
{
	long got;

	fake_log_clear();
	fake_irqchip_raise(irq);
	interrupt(desc(irq)->hart);
	got = ack_as(&w.thr, slot, handled);
	assert_int_equal(got, desc(irq)->state == IRQ_DISABLED ? -TACET_EDISABLED : 0);
}

static void test_unhandled_disables(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);
	struct tacet_irq_info ii;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	/* A handled interrupt breaks the streak. */
	for (unsigned int i = 0; i < IRQ_UNHANDLED_LIMIT - 1; i++)
		fire_and_ack(SLOT_IRQ, LINE, false);
	fire_and_ack(SLOT_IRQ, LINE, true);
	for (unsigned int i = 0; i < IRQ_UNHANDLED_LIMIT - 1; i++)
		fire_and_ack(SLOT_IRQ, LINE, false);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(fake_console_lines(), 0);
	/* The LIMIT-th in a row disables it: masked, reported, the binder stays. */
	fire_and_ack(SLOT_IRQ, LINE, false);
	assert_int_equal(d->state, IRQ_DISABLED);
	assert_true(l->masked);
	assert_int_equal(d->nbinders, 1);
	assert_int_equal(fake_log_count(FAKE_UNMASK), 0);
	assert_int_equal(fake_console_lines(), 0); /* reported later, as a storm is */
	irq_report();
	irq_report(); /* once */
	assert_int_equal(fake_console_lines(), 1);
	assert_non_null(strstr(fake_console_last(), "disabled: nobody handled it"));
	assert_int_equal(irq_info(LINE, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.state, 3);
	assert_int_equal(ii.disabled_count, 1);
	assert_int_equal(ii.unhandled, 2 * (IRQ_UNHANDLED_LIMIT - 1) + 1);

	/* Disabled: it does not fire; acks and binds change nothing. */
	fake_irqchip_raise(LINE);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
	assert_int_equal(ack(SLOT_IRQ), -TACET_EDISABLED); /* the driver is told, every time */
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN2, 0x2), -TACET_EBUSY);
	assert_int_equal(d->state, IRQ_DISABLED);

	/* irq_enable: IDLE and unmasked; the interrupt held back comes through. */
	fake_log_clear();
	assert_int_equal(enable(SLOT_IRQ), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(enable(SLOT_IRQ), -TACET_EINVAL); /* only a DISABLED line */
	fake_log_clear();
	interrupt(0);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	/* The streak starts again from zero. */
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ, false), 0);
	assert_int_equal(d->state, IRQ_IDLE);
}

/* A busy threaded line is never disabled for its rate: oneshot, it can starve nobody but its
 * own server. Three windows' worth of handled interrupts within one window: still IDLE. */
static void test_busy_line_stays_on(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	fake_set_time(1000000);
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	for (unsigned int i = 0; i < 3 * IRQ_STORM_LIMIT; i++)
		fire_and_ack(SLOT_IRQ, LINE, true);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(irq_count(d), 3 * IRQ_STORM_LIMIT);
	assert_int_equal(d->disabled_count, 0);
	assert_int_equal(fake_console_lines(), 0);
}

static unsigned int fast_runs;

static void fast_count(unsigned int irq)
{
	(void)irq;
	fast_runs++;
}

/* A fast handler's line: IRQ_STORM_LIMIT within a window are fine, a new window starts afresh,
 * one more within the window disables it in the top half, which does not print; irq_report()
 * says so once; irq_enable_line() brings it back. */
static void test_fast_storm_disables(void **state)
{
	struct irq_desc *d = desc(LINE2);
	uint64_t window = (uint64_t)IRQ_STORM_WINDOW_US * FAKE_TICKS_PER_US;
	uint64_t t0 = 1000000;

	(void)state;
	fast_runs = 0;
	assert_int_equal(irq_request_fast(LINE2, fast_count, IRQF_DISABLED, 1), 0);
	fake_set_time(t0);
	for (unsigned int i = 0; i < IRQ_STORM_LIMIT; i++) {
		fake_log_clear();
		fake_irqchip_raise(LINE2);
		interrupt(1);
	}
	fake_set_time(t0 + window + 1);
	for (unsigned int i = 0; i < IRQ_STORM_LIMIT; i++) {
		fake_log_clear();
		fake_irqchip_raise(LINE2);
		interrupt(1);
	}
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(fast_runs, 2 * IRQ_STORM_LIMIT);
	fake_irqchip_raise(LINE2);
	interrupt(1);
	assert_int_equal(fast_runs, 2 * IRQ_STORM_LIMIT + 1);
	assert_int_equal(d->state, IRQ_DISABLED);
	assert_true(fake_irqchip_line(LINE2)->masked);
	assert_int_equal(d->disabled_count, 1);
	assert_int_equal(fake_console_lines(), 0); /* nothing printed in the top half */
	bkl_lock();
	irq_report();
	irq_report(); /* once */
	bkl_unlock();
	assert_int_equal(fake_console_lines(), 1);
	assert_non_null(strstr(fake_console_last(), "storm"));
	/* masked: what the device raises now waits in the controller */
	fake_irqchip_raise(LINE2);
	interrupt(1);
	assert_int_equal(fast_runs, 2 * IRQ_STORM_LIMIT + 1);
	bkl_lock();
	assert_int_equal(irq_enable_line(LINE2), 0);
	assert_int_equal(irq_enable_line(LINE2), -1); /* not DISABLED any more */
	bkl_unlock();
	interrupt(1);
	assert_int_equal(fast_runs, 2 * IRQ_STORM_LIMIT + 2);
	assert_int_equal(d->state, IRQ_IDLE);
}

/* --- the direct delivery from user mode (irq_external_user) --- */

static struct thread running, waiting, urgent;

/* `running` was interrupted on hart 0 (priority 50); `waiting` (priority wprio, on hart whart)
 * waits on the line's notification (the real wait queue). Returns what irq_external_user gave. */
static struct thread *user_interrupt(unsigned int line, unsigned int wprio, unsigned int whart)
{
	struct thread *got;

	running = (struct thread){ .prio = 50, .hart = 0, .state = TACET_THREAD_RUNNING };
	waiting = (struct thread){ .prio = (uint8_t)wprio, .hart = (uint8_t)whart,
				   .state = TACET_THREAD_BLOCKED_NTFN, .blocked_on = &w.ntfn };
	waiting.irq_stamp_wanted = true;
	tqueue_push(&w.ntfn.waiters, &waiting, 0);
	harts[0].trap_cycle = 777;
	fake_irqchip_raise(line);
	fake_log_clear();
	bkl_lock();
	got = irq_external_user(&harts[0], &running);
	bkl_unlock();
	return got;
}

/* The common case: one binder, its waiter on this hart and more urgent than the interrupted
 * thread: the waiter gets the badge and the trap stamp now and is returned to run next; the
 * line is PENDING, masked and completed; nothing went through the scheduler. */
static void test_user_irq_direct(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	assert_ptr_equal(user_interrupt(LINE, 100, 0), &waiting);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), EV(FAKE_MASK, LINE, 0), EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->per_hart[0], 1);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 0), BADGE);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 1), 777);
	assert_false(waiting.irq_stamp_wanted);
	assert_null(w.ntfn.waiters.head);
	assert_null(waiting.blocked_on);
	assert_ptr_equal(waiting.irq_woken_by, d);
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(runqueues[0].nready, 0);
	assert_int_equal(ack(SLOT_IRQ), 0); /* and the protocol goes on as usual */
	assert_int_equal(d->state, IRQ_IDLE);
}

static void expect_fallback(struct thread *got, unsigned int line, unsigned int signals);
static void expect_user_fallback(void);

/* A service loop's driver: its thread is the line's notification's bound thread, receiving on
 * its service's endpoint, and nobody waits on the notification. The interrupt ends the receive
 * with a NOTIFY message (the badge in the first word, no badge of a sender) and the driver runs
 * next, as directly as a waiter would; not receiving (it runs, or waits for a reply), the
 * general top half leaves the bits in the notification. */
static void test_user_irq_direct_service_loop(void **state)
{
	struct irq_desc *d = desc(LINE);
	struct endpoint ep = { 0 };
	struct thread *got;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	running = (struct thread){ .prio = 50, .hart = 0, .state = TACET_THREAD_RUNNING };
	waiting = (struct thread){ .prio = 100, .hart = 0, .state = TACET_THREAD_BLOCKED_RECV,
				   .blocked_on = &ep };
	arch_ctx_set_ret(&waiting.ctx, 6, 0x5eed); /* a stale badge: the message clears it */
	tqueue_push(&ep.receivers, &waiting, 0);
	w.ntfn.bound = &waiting;
	fake_irqchip_raise(LINE);
	fake_log_clear();
	bkl_lock();
	got = irq_external_user(&harts[0], &running);
	bkl_unlock();
	assert_ptr_equal(got, &waiting);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), EV(FAKE_MASK, LINE, 0), EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 0), 0);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 1), TACET_TAG(TACET_LABEL_NOTIFY, 1));
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 2), BADGE);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 6), 0);
	assert_null(ep.receivers.head);
	assert_null(ep.receivers.tail);
	assert_null(waiting.blocked_on);
	assert_ptr_equal(waiting.irq_woken_by, d);
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(runqueues[0].nready, 0);
	assert_int_equal(ack(SLOT_IRQ), 0);
	assert_int_equal(d->state, IRQ_IDLE);

	/* the driver is running (not receiving): nothing direct, the bits wait */
	memset(d->per_hart, 0, sizeof(d->per_hart));
	waiting.state = TACET_THREAD_RUNNING;
	fake_irqchip_raise(LINE);
	fake_log_clear();
	bkl_lock();
	expect_fallback(irq_external_user(&harts[0], &running), LINE, 1);
	bkl_unlock();
	w.ntfn.bound = NULL;
}

/* --- a service loop's driver woken through the real notification --- */

/* `waiting` is a service loop's thread on hart 1, the notification's bound thread, blocked
 * receiving on its service's endpoint ep (behind `ahead`, another receiver, unless NULL), a
 * stale sender's badge in a6; nobody waits on the notification. */
static void service_loop_receiving(struct endpoint *ep, struct thread *ahead)
{
	*ep = (struct endpoint){ .obj = { .type = TACET_CAP_ENDPOINT, .refs = 1 } };
	waiting = (struct thread){ .prio = 100, .hart = 1, .state = TACET_THREAD_BLOCKED_RECV,
				   .blocked_on = ep };
	arch_ctx_set_ret(&waiting.ctx, 6, 0x5eed);
	if (ahead) {
		*ahead = (struct thread){ .prio = 100, .hart = 1,
					  .state = TACET_THREAD_BLOCKED_RECV, .blocked_on = ep };
		tqueue_push(&ep->receivers, ahead, 0);
	}
	tqueue_push(&ep->receivers, &waiting, 0);
	w.ntfn.bound = &waiting;
}

/* Its receive ended with the NOTIFY message of the bits (a0 0, a1 the kernel's NOTIFY tag, a2
 * the bits, a6 0: no sender), it left ep's receivers (only `ahead` is left there) and is READY
 * on its own hart; the notification kept nothing. */
static void expect_notified(struct endpoint *ep, struct thread *ahead, uint64_t bits)
{
	assert_int_equal(waiting.state, TACET_THREAD_READY);
	assert_ptr_equal(fake_last_readied, &waiting);
	assert_int_equal(runqueues[1].nready, 1);
	assert_int_equal(rq_top(&runqueues[1]), waiting.prio);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 0), 0);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 1), TACET_TAG(TACET_LABEL_NOTIFY, 1));
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 2), bits);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 6), 0);
	assert_null(waiting.blocked_on);
	assert_ptr_equal(ep->receivers.head, ahead);
	assert_ptr_equal(ep->receivers.tail, ahead);
	if (ahead)
		assert_null(ahead->next);
	assert_int_equal(w.ntfn.bits, 0);
	assert_ptr_equal(w.ntfn.bound, &waiting);
}

/* The drivers' own path: an interrupt of a line whose notification's bound thread is a service
 * loop receiving on another hart goes the general way (irq_external; from user mode the direct
 * delivery declines a thread of another hart) and ends that receive through the real
 * notification: the NOTIFY message with the badge, the thread READY on its hart and marked
 * woken by the line, whose wake-up latency counts when it runs. */
static void test_service_loop_woken_by_top_half(void **state)
{
	struct irq_desc *d = desc(LINE);
	struct endpoint ep;
	struct thread ahead;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	/* from the idle wait on hart 0 */
	service_loop_receiving(&ep, NULL);
	fake_set_cycles(500);
	fake_irqchip_raise(LINE);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE), EV(FAKE_MASK, LINE, 0),
		   EV(FAKE_COMPLETE, LINE, 0));
	expect_notified(&ep, NULL, BADGE);
	assert_int_equal(fake_readied_count(), 1);
	assert_ptr_equal(waiting.irq_woken_by, d);
	assert_int_equal(d->state, IRQ_PENDING);
	fake_set_cycles(800);
	irq_note_running(&waiting);
	assert_int_equal(waiting.irq_wake, 300); /* taken as it runs, */
	assert_int_equal(irq_wakes(d), 0);       /* counted later, off the way to it */
	scheduled(&waiting);
	assert_int_equal(ack(SLOT_IRQ), 0); /* (another thread's: waiting's wake-up stays owed) */
	assert_int_equal(d->state, IRQ_IDLE);
	irq_thread_gone(&waiting); /* it ends: the wake-up it owed counts */
	assert_int_equal(irq_wakes(d), 1);
	assert_int_equal(d->wake_total, 300);
	assert_null(waiting.irq_woken_by);
	irq_thread_gone(&waiting); /* once */
	assert_int_equal(irq_wakes(d), 1);

	/* from user mode on hart 0, another receiver ahead of the loop's thread on the endpoint */
	memset(d->per_hart, 0, sizeof(d->per_hart));
	service_loop_receiving(&ep, &ahead);
	expect_user_fallback();
	expect_notified(&ep, &ahead, BADGE);
	assert_int_equal(ahead.state, TACET_THREAD_BLOCKED_RECV);
	assert_int_equal(runqueues[0].nready, 0);
	scheduled(&waiting);
	assert_int_equal(ack(SLOT_IRQ), 0);
	w.ntfn.bound = NULL;
}

/* The same thread woken by a plain signal (notification_signal: SIGNAL's slow path, a timer's
 * expiry, a watch): the NOTIFY message carries the bits signalled. A waiter on the notification
 * comes first (it takes the bits; the loop's thread stays receiving), and a bound thread that is
 * not receiving leaves the bits in the notification for its next receive. */
static void test_service_loop_woken_by_signal(void **state)
{
	struct endpoint ep;
	struct thread *woken;

	(void)state;
	service_loop_receiving(&ep, NULL);
	bkl_lock();
	woken = notification_signal(&w.ntfn, 0x3);
	bkl_unlock();
	assert_ptr_equal(woken, &waiting);
	expect_notified(&ep, NULL, 0x3);
	assert_int_equal(fake_readied_count(), 1);
	scheduled(&waiting);

	/* a waiter first */
	service_loop_receiving(&ep, NULL);
	w.other_thr.hart = 2;
	wait_on(&w.other_thr, &w.ntfn);
	bkl_lock();
	woken = notification_signal(&w.ntfn, 0x4);
	bkl_unlock();
	assert_ptr_equal(woken, &w.other_thr);
	assert_int_equal(arch_ctx_arg(&w.other_thr.ctx, 0), 0x4);
	assert_int_equal(w.other_thr.state, TACET_THREAD_READY);
	assert_int_equal(waiting.state, TACET_THREAD_BLOCKED_RECV);
	assert_ptr_equal(ep.receivers.head, &waiting);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 6), 0x5eed); /* untouched */
	assert_int_equal(w.ntfn.bits, 0);
	scheduled(&w.other_thr);

	/* not receiving: the bits wait */
	tqueue_remove(&ep.receivers, &waiting);
	waiting.blocked_on = NULL;
	waiting.state = TACET_THREAD_RUNNING;
	bkl_lock();
	assert_null(notification_signal(&w.ntfn, 0x8));
	bkl_unlock();
	assert_int_equal(w.ntfn.bits, 0x8);
	assert_int_equal(waiting.state, TACET_THREAD_RUNNING);
	assert_int_equal(fake_readied_count(), 2);
	w.ntfn.bound = NULL;
}

/* SIGNAL itself (sys_signal) with a badged capability: the loop's thread receives the badge. */
static void test_service_loop_woken_by_signal_call(void **state)
{
	struct endpoint ep;
	long err = 0;

	(void)state;
	cap_install(cap_empty_slot(w.other.cspace, SLOT_FREE, &err), &w.ntfn.obj,
		    TACET_RIGHT_WRITE, 0x20);
	service_loop_receiving(&ep, NULL);
	assert_int_equal(call(sys_signal, &w.other_thr, SLOT_FREE, 0x1, 0, 0), 0);
	expect_notified(&ep, NULL, 0x20);
	w.ntfn.bound = NULL;
}

/* One stamp for both ways of delivery: a woken thread's wake-up latency runs from the end of
 * the top half that woke it (last_done), whether the top half switched to it directly or
 * readied it. The counter moves on at every read here, so a stamp taken anywhere else in the
 * top half would differ. */
static void test_one_stamp_both_ways(void **state)
{
	struct irq_desc *d = desc(LINE);
	uint64_t before;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_set_cycles(1000);
	fake_set_cycles_step(10);
	/* directly: the waiter on this hart runs next */
	assert_ptr_equal(user_interrupt(LINE, 100, 0), &waiting);
	assert_true(waiting.irq_running_at > d->last_done);
	assert_int_equal(waiting.irq_wake, waiting.irq_running_at - d->last_done);
	assert_int_equal(ack(SLOT_IRQ), 0);
	irq_thread_gone(&waiting);
	assert_int_equal(irq_wakes(d), 1);
	assert_int_equal(d->wake_total, waiting.irq_wake);
	/* through the scheduler: the general top half readies the waiter, which runs later */
	wait_on(&w.thr, &w.ntfn);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_ptr_equal(w.thr.irq_woken_by, d);
	assert_int_equal(w.thr.state, TACET_THREAD_READY);
	assert_ptr_equal(fake_last_readied, &w.thr);
	before = d->wake_total;
	irq_note_running(&w.thr);
	assert_int_equal(w.thr.irq_wake, w.thr.irq_running_at - d->last_done);
	assert_int_equal(ack(SLOT_IRQ), 0); /* w.thr's own: its wake-up counts */
	assert_int_equal(irq_wakes(d), 2);
	assert_int_equal(d->wake_total - before, w.thr.irq_wake);
	fake_set_cycles_step(0);
}

/* Every case the direct delivery does not cover falls back to the general top half: it
 * returns NULL (the scheduler picks), the line is delivered as always (signalled, PENDING),
 * and whoever the signal woke waits in a run queue (expect_readied). */
static void expect_fallback(struct thread *got, unsigned int line, unsigned int signals)
{
	assert_null(got);
	assert_int_equal(desc(line)->state, IRQ_PENDING);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), signals);
	assert_int_equal(fake_log_count(FAKE_COMPLETE), 1);
	assert_int_equal(irq_count(desc(line)), 1);
}

/* `running` interrupted on hart 0 by LINE, which the direct delivery leaves to the general top
 * half (expect_fallback: one binder signalled). */
static void expect_user_fallback(void)
{
	running = (struct thread){ .prio = 50, .hart = 0, .state = TACET_THREAD_RUNNING };
	fake_irqchip_raise(LINE);
	fake_log_clear();
	bkl_lock();
	expect_fallback(irq_external_user(&harts[0], &running), LINE, 1);
	bkl_unlock();
}

/* user_interrupt's waiter, woken by the general top half's signal instead: it has the bits
 * and the trap's stamp (it waited in IRQ_ACK_WAIT), left the notification's queue and is READY
 * on its own hart, marked woken by the line. Taken off the run queue again for the next case. */
static void expect_readied(unsigned int line, uint64_t bits)
{
	assert_int_equal(waiting.state, TACET_THREAD_READY);
	assert_ptr_equal(fake_last_readied, &waiting);
	assert_int_equal(rq_top(harts[waiting.hart].rq), waiting.prio);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 0), bits);
	assert_int_equal(arch_ctx_arg(&waiting.ctx, 1), 777);
	assert_false(waiting.irq_stamp_wanted);
	assert_null(waiting.blocked_on);
	assert_null(w.ntfn.waiters.head);
	assert_int_equal(w.ntfn.bits, 0);
	assert_ptr_equal(waiting.irq_woken_by, desc(line));
	rq_remove(harts[waiting.hart].rq, &waiting);
}

static void test_user_irq_fallbacks(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	/* a waiter less urgent than the interrupted thread */
	expect_fallback(user_interrupt(LINE, 50, 0), LINE, 1);
	expect_readied(LINE, BADGE);
	assert_int_equal(ack(SLOT_IRQ), 0);
	memset(desc(LINE)->per_hart, 0, sizeof(desc(LINE)->per_hart));
	/* a waiter on another hart */
	expect_fallback(user_interrupt(LINE, 100, 1), LINE, 1);
	expect_readied(LINE, BADGE);
	assert_int_equal(ack(SLOT_IRQ), 0);
	memset(desc(LINE)->per_hart, 0, sizeof(desc(LINE)->per_hart));
	/* something READY on this hart more urgent than the waiter */
	urgent = (struct thread){ .prio = 200, .hart = 0 };
	rq_push(&runqueues[0], &urgent, false);
	expect_fallback(user_interrupt(LINE, 100, 0), LINE, 1);
	rq_remove(&runqueues[0], &urgent);
	expect_readied(LINE, BADGE);
	assert_int_equal(ack(SLOT_IRQ), 0);
	memset(desc(LINE)->per_hart, 0, sizeof(desc(LINE)->per_hart));
	/* nobody waiting: the bits wait in the notification */
	expect_user_fallback();
	assert_int_equal(w.ntfn.bits, BADGE);
}

/* A shared line (two binders: both signalled), a line that is not IDLE (counted spurious),
 * and a claim that finds nothing: the general top half, never the direct one. */
static void test_user_irq_shared_and_spurious(void **state)
{
	uint64_t spurious = irq_spurious();

	(void)state;
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x1, TACET_IRQ_SHARED), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	expect_fallback(user_interrupt(LINE3, 100, 0), LINE3, 2);
	expect_readied(LINE3, 0x1);
	/* nothing pending: the claim finds no line */
	fake_log_clear();
	bkl_lock();
	assert_null(irq_external_user(&harts[0], &running));
	bkl_unlock();
	assert_int_equal(irq_spurious(), spurious + 1);
}

/* --- acknowledge and wait in one call --- */

static long ack_wait_as(struct thread *t, unsigned long irq_slot, bool handled,
			unsigned long ntfn_slot)
{
	return call(sys_irq_ack_wait, t, irq_slot, handled, ntfn_slot, 0);
}

/* The driver's loop: the ack unmasks the line and the caller blocks on the notification; the
 * next interrupt's delivery wakes it with the bits in a0 and the trap entry's time in a1. */
static void test_ack_wait_blocks_and_stamps(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(d->state, IRQ_PENDING);
	w.ntfn.bits = 0; /* the driver took them with its first wait */
	w.thr.state = TACET_THREAD_RUNNING;
	ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN_RO);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_false(fake_irqchip_line(LINE)->masked);
	assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
	assert_true(w.thr.irq_stamp_wanted);
	harts[0].trap_cycle = 4242;
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 0), BADGE);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), 4242);
	assert_false(w.thr.irq_stamp_wanted);
	assert_int_equal(w.thr.state, TACET_THREAD_READY);
	assert_null(w.ntfn.waiters.head);
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_served(d), 0); /* no wake-up was noted running: nothing to time */
}

/* Bits already there: returned at once, stamp 0 (the line cannot have fired again before this
 * ack); nothing blocks. */
static void test_ack_wait_bits_at_once(void **state)
{
	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	w.ntfn.bits = 0x30; /* a timer's bits, say */
	w.thr.state = TACET_THREAD_RUNNING;
	assert_int_equal(ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN_RO), 0x30);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), 0);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	assert_false(w.thr.irq_stamp_wanted);
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(desc(LINE)->state, IRQ_IDLE);
}

/* Refusals: not bound (EINVAL), a notification it may not wait on (nothing acknowledged: the
 * line stays PENDING), a line detection disabled (EDISABLED, and no waiting for ever). */
static void test_ack_wait_refusals(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	assert_int_equal(ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN_RO), -TACET_EINVAL);
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN), -TACET_EPERM);
	assert_int_equal(ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_EP), -TACET_ETYPE);
	assert_int_equal(d->state, IRQ_PENDING);
	for (unsigned int i = 0; i < IRQ_UNHANDLED_LIMIT; i++) {
		long got;

		fake_log_clear();
		w.ntfn.bits = 0;
		scheduled(&w.thr); /* woken by the interrupt before */
		got = ack_wait_as(&w.thr, SLOT_IRQ, false, SLOT_NTFN_RO);
		if (d->state == IRQ_DISABLED) {
			assert_int_equal(got, -TACET_EDISABLED);
			break;
		}
		assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
		fake_irqchip_raise(LINE); /* wakes it */
		interrupt(0);
	}
	assert_int_equal(d->state, IRQ_DISABLED);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	assert_int_equal(d->unhandled, IRQ_UNHANDLED_LIMIT);
}

/* A fast path run by t on hart 0, the BKL held as the trap entry holds it. */
static long run_fast(int (*path)(struct hart *, struct thread *), struct thread *t)
{
	long done;

	bkl_lock();
	done = path(&harts[0], t);
	bkl_unlock();
	return done;
}

/* The signal fast path (fastpath.h), on the notification an interrupt would signal: w.thr
 * signals SLOT_NTFN while w.other_thr waits on it. Only a waiter on this hart, more urgent than
 * the signaller and than everything READY there, is switched to directly; every other case
 * returns 0 and changes nothing (the slow path runs). */
static long signal_fast(unsigned long slot, unsigned long bits)
{
	arch_ctx_set_ret(&w.thr.ctx, 0, slot);
	arch_ctx_set_ret(&w.thr.ctx, 1, bits);
	fake_switched_from = fake_switched_to = NULL;
	return run_fast(fastpath_signal, &w.thr);
}

static void test_signal_fast(void **state)
{
	struct thread ready = { .prio = 30, .hart = 0, .state = TACET_THREAD_READY };

	(void)state;
	w.thr.prio = 10;
	w.thr.hart = 0;
	w.thr.state = TACET_THREAD_RUNNING;
	w.other_thr.prio = 20;
	w.other_thr.hart = 0;
	w.ntfn.bits = 0x4;
	/* fall-backs: nobody waiting; a waiter elsewhere, or not more urgent; no bits, or bit 63;
	 * a capability without WRITE; something READY more urgent than the waiter */
	assert_int_equal(signal_fast(SLOT_NTFN, 1), 0);
	w.other_thr.state = TACET_THREAD_BLOCKED_NTFN;
	w.other_thr.blocked_on = &w.ntfn;
	tqueue_push(&w.ntfn.waiters, &w.other_thr, 0);
	w.other_thr.hart = 1;
	assert_int_equal(signal_fast(SLOT_NTFN, 1), 0);
	w.other_thr.hart = 0;
	w.other_thr.prio = 10;
	assert_int_equal(signal_fast(SLOT_NTFN, 1), 0);
	w.other_thr.prio = 20;
	assert_int_equal(signal_fast(SLOT_NTFN, 0), 0);
	assert_int_equal(signal_fast(SLOT_NTFN, BIT63), 0);
	assert_int_equal(signal_fast(SLOT_NTFN_RO, 1), 0);
	rq_push(&runqueues[0], &ready, false);
	assert_int_equal(signal_fast(SLOT_NTFN, 1), 0);
	rq_remove(&runqueues[0], &ready);
	assert_null(fake_switched_to);
	assert_ptr_equal(w.ntfn.waiters.head, &w.other_thr);
	assert_int_equal(w.ntfn.bits, 0x4);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	/* the fast case: the waiter gets every bit and runs; the signaller is READY, first */
	assert_int_equal(signal_fast(SLOT_NTFN, 0x11), 1);
	assert_ptr_equal(fake_switched_from, &w.thr);
	assert_ptr_equal(fake_switched_to, &w.other_thr);
	assert_int_equal(arch_ctx_arg(&w.other_thr.ctx, 0), 0x15);
	assert_int_equal(w.ntfn.bits, 0);
	assert_null(w.ntfn.waiters.head);
	assert_null(w.other_thr.blocked_on);
	assert_int_equal(w.thr.state, TACET_THREAD_READY);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 0), 0); /* the signal's own result */
	assert_int_equal(rq_top(&runqueues[0]), 10);
	assert_ptr_equal(rq_pop(&runqueues[0]), &w.thr); /* the next to run at its priority */
}

/* The driver (w.thr) has bound LINE and taken its first interrupt: the line is PENDING on
 * its ack, the notification empty, the driver running. */
static void first_interrupt_taken(void)
{
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt(0);
	w.ntfn.bits = 0;
	w.thr.state = TACET_THREAD_RUNNING;
}

/* IRQ_ACK_WAIT's fast path: the driver (w.thr, its line PENDING on its ack, handled) blocks on
 * its notification and the hart switches to its most urgent READY thread; the line is IDLE and
 * unmasked. Each case it does not cover returns 0, changing nothing (the slow path runs). */
static long ack_wait_fast(unsigned long irq_slot, bool handled, unsigned long ntfn_slot)
{
	arch_ctx_set_ret(&w.thr.ctx, 0, irq_slot);
	arch_ctx_set_ret(&w.thr.ctx, 1, handled);
	arch_ctx_set_ret(&w.thr.ctx, 2, ntfn_slot);
	return run_fast(irq_ack_wait_fast, &w.thr);
}

static void test_ack_wait_fast(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	first_interrupt_taken();
	urgent = (struct thread){ .prio = 10, .hart = 0, .state = TACET_THREAD_READY };
	/* fall-backs: not handled; a bad slot; bits there */
	rq_push(&runqueues[0], &urgent, false);
	assert_int_equal(ack_wait_fast(SLOT_IRQ, false, SLOT_NTFN_RO), 0);
	assert_int_equal(ack_wait_fast(SLOT_IRQ, true, SLOT_NTFN), 0); /* no READ right */
	assert_int_equal(ack_wait_fast(SLOT_IRQ_RO, true, SLOT_NTFN_RO), 0);
	w.ntfn.bits = 0x8;
	assert_int_equal(ack_wait_fast(SLOT_IRQ, true, SLOT_NTFN_RO), 0);
	w.ntfn.bits = 0;
	assert_int_equal(d->state, IRQ_PENDING);
	assert_null(w.ntfn.waiters.head);
	/* the fast case */
	fake_log_clear();
	assert_int_equal(ack_wait_fast(SLOT_IRQ, true, SLOT_NTFN_RO), 1);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
	assert_ptr_equal(w.ntfn.waiters.head, &w.thr);
	assert_true(w.thr.irq_stamp_wanted);
	assert_ptr_equal(fake_switched_from, &w.thr);
	assert_ptr_equal(fake_switched_to, &urgent);
	assert_int_equal(runqueues[0].nready, 0);
	assert_int_equal(d->unhandled, 0);
	/* the next interrupt wakes it through the waiter queue, stamped */
	harts[0].trap_cycle = 99;
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 0), BADGE);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), 99);
	assert_int_equal(w.thr.state, TACET_THREAD_READY);
	assert_null(w.ntfn.waiters.head);
	assert_int_equal(d->state, IRQ_PENDING);
	/* nothing READY: the same ack and wait, and the scheduler idles the hart */
	w.ntfn.bits = 0;
	scheduled(&w.thr);
	fake_switched_from = fake_switched_to = NULL;
	fake_log_clear();
	assert_int_equal(ack_wait_fast(SLOT_IRQ, true, SLOT_NTFN_RO), FAST_SCHEDULE);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
	assert_ptr_equal(w.ntfn.waiters.head, &w.thr);
	assert_null(fake_switched_to);
	tqueue_remove(&w.ntfn.waiters, &w.thr);
}

/* IRQ_ACK's fast path (a service loop's acknowledgement): the line's one binder, owing the
 * ack, says handled: the line is IDLE and unmasked, the call answers 0, t runs on. Anything
 * else is the general path's (FAST_NO, nothing changed); a line that fires again the moment
 * it is unmasked is taken in the call, as the general ack does, and the scheduler picks. */
static long ack_fast(struct thread *t, unsigned long irq_slot, bool handled)
{
	arch_ctx_set_ret(&t->ctx, 0, irq_slot);
	arch_ctx_set_ret(&t->ctx, 1, handled);
	return run_fast(irq_ack_fast, t);
}

static void test_ack_fast(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	first_interrupt_taken();
	assert_int_equal(ack_fast(&w.thr, SLOT_IRQ, false), FAST_NO); /* not handled: detection */
	assert_int_equal(ack_fast(&w.thr, SLOT_IRQ_RO, true), FAST_NO); /* no WRITE right */
	assert_int_equal(ack_fast(&w.other_thr, SLOT_IRQ, true), FAST_NO); /* not its binder */
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(d->acks_due, 1);
	fake_log_clear();
	arch_ctx_set_ret(&w.thr.ctx, 0, 0x5eed);
	assert_int_equal(ack_fast(&w.thr, SLOT_IRQ, true), FAST_DONE);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 0), 0);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	assert_int_equal(d->unhandled, 0);
	assert_int_equal(ack_fast(&w.thr, SLOT_IRQ, true), FAST_NO); /* none owed now */
	/* the device still asserts it: unmasked, it fires at once and is taken in the call */
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(d->state, IRQ_PENDING);
	fake_irqchip_raise(LINE);
	fake_irqchip_seip_visible(true);
	assert_int_equal(ack_fast(&w.thr, SLOT_IRQ, true), FAST_SCHEDULE);
	fake_irqchip_seip_visible(false);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), 3);
	assert_int_equal(w.ntfn.bits, BADGE);
	w.ntfn.bits = 0;
	assert_int_equal(ack(SLOT_IRQ), 0);
}

/* A stranger: another process holding the driver's line with the write right and a
 * notification it may wait on, but no binder of the line. Neither IRQ_ACK_WAIT path lets it
 * acknowledge the driver's interrupt: the fast path declines (FAST_NO), the slow one says
 * EINVAL; the line stays masked and PENDING on the driver's ack, the stranger does not block,
 * and the driver's own ack_wait still works afterwards. */
static void test_ack_wait_stranger(void **state)
{
	struct irq_desc *d = desc(LINE3);
	enum { STRANGER_IRQ = SLOT_FREE, STRANGER_NTFN };

	(void)state;
	install(w.other.cspace, STRANGER_IRQ, &d->obj, TACET_RIGHT_WRITE);
	install(w.other.cspace, STRANGER_NTFN, &w.ntfn2.obj, TACET_RIGHT_READ);
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(d->state, IRQ_PENDING);
	w.ntfn.bits = 0;
	w.thr.state = w.other_thr.state = TACET_THREAD_RUNNING;
	fake_log_clear();
	arch_ctx_set_ret(&w.other_thr.ctx, 0, STRANGER_IRQ);
	arch_ctx_set_ret(&w.other_thr.ctx, 1, 1);
	arch_ctx_set_ret(&w.other_thr.ctx, 2, STRANGER_NTFN);
	bkl_lock();
	assert_int_equal(irq_ack_wait_fast(&harts[0], &w.other_thr), FAST_NO);
	bkl_unlock();
	assert_int_equal(ack_wait_as(&w.other_thr, STRANGER_IRQ, true, STRANGER_NTFN),
			 -TACET_EINVAL);
	EXPECT_NO_LOG();
	assert_int_equal(d->state, IRQ_PENDING);
	assert_true(fake_irqchip_line(LINE3)->masked);
	assert_int_equal(w.other_thr.state, TACET_THREAD_RUNNING);
	assert_null(w.ntfn2.waiters.head);
	/* the driver's own acknowledgement still unmasks it */
	ack_wait_as(&w.thr, SLOT_IRQ3, true, SLOT_NTFN_RO);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_false(fake_irqchip_line(LINE3)->masked);
	assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
	tqueue_remove(&w.ntfn.waiters, &w.thr);
}

/* The device asserts its line again before the driver's IRQ_ACK_WAIT (or still does): the moment
 * the ack unmasks it the controller holds it for this hart (sip.SEIP), so the call takes it
 * itself, exactly once, and returns with its bits instead of blocking only to be woken by the
 * next trap: in the fast path with the driver going on (no switch), and in the slow path. */
static void test_ack_wait_refired(void **state)
{
	struct irq_desc *d = desc(LINE);
	uint64_t count;

	(void)state;
	first_interrupt_taken();
	fake_irqchip_seip_visible(true);
	/* fast path: something READY to switch to, the device raised again meanwhile */
	urgent = (struct thread){ .prio = 10, .hart = 0, .state = TACET_THREAD_READY };
	rq_push(&runqueues[0], &urgent, false);
	fake_irqchip_raise(LINE);
	count = irq_count(d);
	fake_log_clear();
	fake_switched_from = fake_switched_to = NULL;
	fake_set_cycles(1234);
	assert_int_equal(ack_wait_fast(SLOT_IRQ, true, SLOT_NTFN_RO), FAST_DONE);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0), EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE),
		   EV(FAKE_MASK, LINE, 0), EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 0), BADGE);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), 1234); /* stamped when the call took it */
	assert_int_equal(w.ntfn.bits, 0);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	assert_null(fake_switched_to);
	assert_null(w.ntfn.waiters.head);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), count + 1);
	assert_int_equal(d->unhandled, 0);
	rq_remove(&runqueues[0], &urgent);
	/* slow path (nothing READY): the same, through sys_irq_ack_wait */
	fake_irqchip_raise(LINE);
	fake_log_clear();
	fake_set_cycles(2345);
	assert_int_equal(ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN_RO), BADGE);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), 2345);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0), EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE),
		   EV(FAKE_MASK, LINE, 0), EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), count + 2);
	/* nothing raised: it blocks as before, the line unmasked */
	fake_log_clear();
	ack_wait_as(&w.thr, SLOT_IRQ, true, SLOT_NTFN_RO);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(w.thr.state, TACET_THREAD_BLOCKED_NTFN);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(irq_spurious(), w.spurious0);
}

/* The same for a plain IRQ_ACK (a driver that acks late): an interrupt the controller holds
 * the moment the ack unmasks the line is taken in the call, exactly once, and its bits wait in
 * the notification for the driver's next wait; with nothing held, the ack only unmasks. */
static void test_ack_takes_pending(void **state)
{
	struct irq_desc *d = desc(LINE);
	uint64_t count;

	(void)state;
	first_interrupt_taken();
	fake_irqchip_seip_visible(true);
	fake_irqchip_raise(LINE);
	count = irq_count(d);
	fake_log_clear();
	fake_set_cycles(3456);
	assert_int_equal(ack(SLOT_IRQ), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0), EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn, BADGE),
		   EV(FAKE_MASK, LINE, 0), EV(FAKE_COMPLETE, LINE, 0));
	assert_int_equal(irq_count(d), count + 1);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(d->last_trap, 3456); /* counted from when the call took it */
	assert_int_equal(w.ntfn.bits, BADGE);
	assert_int_equal(w.thr.state, TACET_THREAD_RUNNING);
	w.ntfn.bits = 0; /* the driver's wait takes them */
	fake_log_clear();
	assert_int_equal(ack(SLOT_IRQ), 0);
	EXPECT_LOG(EV(FAKE_UNMASK, LINE, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(irq_count(d), count + 1);
	assert_int_equal(irq_spurious(), w.spurious0);
}

/* --- release: a binder that leaves mid-interrupt, and the history that survives it --- */

/* The binder of LINE (w.proc) leaves while it owes the ack: by irq_unbind, or by its process's
 * end. Its ack counts as given, not handled (detection sees the interrupt); the line is left
 * masked, not stuck PENDING; what the device asserts meanwhile waits in the controller and
 * reaches the next binder as soon as its bind unmasks the line. */
static void test_release_pending_delivers_next(void **state)
{
	struct irq_desc *d = desc(LINE);
	const struct fake_line *l = fake_irqchip_line(LINE);

	(void)state;
	for (int by_end = 0; by_end < 2; by_end++) {
		assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
		fake_irqchip_raise(LINE);
		interrupt(0);
		assert_int_equal(d->state, IRQ_PENDING);
		assert_true(d->binders[0].waiting);
		fake_log_clear();
		if (by_end) {
			bkl_lock();
			irq_release_owner(&w.proc);
			bkl_unlock();
		} else {
			assert_int_equal(unbind(SLOT_IRQ), 0);
		}
		EXPECT_LOG(EV(FAKE_MASK, LINE, 0)); /* masked, never unmasked on the way */
		assert_int_equal(d->state, IRQ_UNBOUND);
		assert_int_equal(d->nbinders, 0);
		assert_int_equal(d->acks_due, 0);
		if (d->unhandled != (uint64_t)by_end + 1)
			fail_msg("the interrupt the leaving binder owed an ack for was not counted "
				 "(unhandled %llu, expected %d)", (unsigned long long)d->unhandled,
				 by_end + 1);
		assert_int_equal(fake_console_lines(), 0);

		/* The device asserts again while nobody is bound: held back, not taken. */
		fake_irqchip_raise(LINE);
		interrupt(0);
		assert_true(l->pending);
		assert_true(l->masked);
		assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);

		/* The next binder: unmasked at once, and the held-back interrupt is its. */
		w.ntfn.bits = 0;
		fake_log_clear();
		assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN2, 0x2), 0);
		EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE, 0), PRIO(LINE, 1), EV(FAKE_UNMASK, LINE, 0));
		assert_int_equal(d->state, IRQ_IDLE);
		fake_log_clear();
		interrupt(0);
		EXPECT_LOG(EV(FAKE_CLAIM, LINE, 0), SIGNAL(&w.ntfn2, 0x2), EV(FAKE_MASK, LINE, 0),
			   EV(FAKE_COMPLETE, LINE, 0));
		assert_int_equal(w.ntfn.bits, 0);
		assert_int_equal(d->acks_due, 1);
		assert_int_equal(ack(SLOT_IRQ), 0);
		assert_int_equal(d->state, IRQ_IDLE);
		assert_false(l->masked);
		assert_int_equal(d->unhandled, (uint64_t)by_end + 1);
		assert_int_equal(unbind(SLOT_IRQ), 0);
	}
	assert_int_equal(irq_count(d), 4);
}

/* Binders leaving a shared line: the line stays unmasked while one is left, however the
 * others left; the last one's leaving masks it, settling what it owed, and nothing fires. */
static void test_release_last_binder_masks(void **state)
{
	struct irq_desc *d = desc(LINE3);
	const struct fake_line *l = fake_irqchip_line(LINE3);

	(void)state;
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x1, TACET_IRQ_SHARED), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ3, false), 0);
	/* The other process ends owing its ack: the interrupt is over, nobody handled it, and
	 * the line goes on for the binder that stays. */
	fake_log_clear();
	bkl_lock();
	irq_release_owner(&w.other);
	bkl_unlock();
	EXPECT_LOG(EV(FAKE_UNMASK, LINE3, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(d->nbinders, 1);
	assert_int_equal(d->unhandled, 1);

	/* The last binder ends owing its ack: masked, counted, and the line stays quiet. */
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(d->state, IRQ_PENDING);
	fake_log_clear();
	bkl_lock();
	irq_release_owner(&w.proc);
	bkl_unlock();
	EXPECT_LOG(EV(FAKE_MASK, LINE3, 0));
	assert_int_equal(d->state, IRQ_UNBOUND);
	assert_int_equal(d->nbinders, 0);
	assert_false(d->shared);
	assert_true(l->masked);
	if (d->unhandled != 2)
		fail_msg("the last binder's owed ack was not settled: unhandled %llu, not 2",
			 (unsigned long long)d->unhandled);
	fake_irqchip_raise(LINE3);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));

	/* An IDLE line loses its only binder: masked too. */
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	assert_int_equal(unbind(SLOT_IRQ2), 0);
	EXPECT_LOG(EV(FAKE_MASK, LINE2, 0));
	assert_int_equal(desc(LINE2)->state, IRQ_UNBOUND);
}

/* A driver that unbinds and binds again, once with nothing pending and once owing the ack,
 * cannot shed its unhandled streak: the line is disabled at the same cumulative count as if it
 * had never let go; and bound again, a DISABLED line stays DISABLED until irq_enable. */
static void test_rebind_keeps_unhandled_streak(void **state)
{
	struct irq_desc *d = desc(LINE);
	unsigned int n = 0;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	for (; n < 300; n++)
		fire_and_ack(SLOT_IRQ, LINE, false);
	assert_int_equal(unbind(SLOT_IRQ), 0);
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	for (; n < 600; n++)
		fire_and_ack(SLOT_IRQ, LINE, false);
	fake_irqchip_raise(LINE);
	interrupt(0);
	n++;
	assert_int_equal(unbind(SLOT_IRQ), 0); /* owing the ack: counted as not handled */
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN2, 0x2), 0);
	for (; n < IRQ_UNHANDLED_LIMIT - 1; n++)
		fire_and_ack(SLOT_IRQ, LINE, false);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(fake_console_lines(), 0);
	fire_and_ack(SLOT_IRQ, LINE, false);
	if (d->state != IRQ_DISABLED)
		fail_msg("line %d not disabled after %d unhandled interrupts in a row: unbind and "
			 "bind reset the streak", LINE, IRQ_UNHANDLED_LIMIT);
	assert_int_equal(irq_count(d), IRQ_UNHANDLED_LIMIT);
	assert_int_equal(d->unhandled, IRQ_UNHANDLED_LIMIT);
	assert_int_equal(d->disabled_count, 1);
	irq_report();
	assert_int_equal(fake_console_lines(), 1);

	/* Unbound and bound again, it is still DISABLED: routed, but masked. */
	assert_int_equal(unbind(SLOT_IRQ), 0);
	assert_int_equal(d->state, IRQ_UNBOUND);
	fake_log_clear();
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE, 0), PRIO(LINE, 1));
	assert_int_equal(d->state, IRQ_DISABLED);
	assert_true(fake_irqchip_line(LINE)->masked);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);
	/* irq_enable is the way back, and the streak starts again from zero. */
	assert_int_equal(enable(SLOT_IRQ), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	interrupt(0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ, false), 0);
	assert_int_equal(d->state, IRQ_IDLE);
}

/* The rate window is history too: a storm is a storm across an unbind and a bind. */
/* Whose history it is: another process that binds while the one it is charged to lives
 * carries it on (no escape through a helper); it passes to a binder that stays when that one
 * ends; and it starts afresh for a process that binds once the last one has ended. */
static void test_history_follows_processes(void **state)
{
	struct irq_desc *d = desc(LINE3);

	(void)state;
	/* w.proc makes a streak, lets go; w.other binds and inherits it. */
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, 0x1), 0);
	assert_ptr_equal(d->history_of, &w.proc);
	for (unsigned int i = 0; i < IRQ_UNHANDLED_LIMIT - 1; i++)
		fire_and_ack(SLOT_IRQ3, LINE3, false);
	assert_int_equal(unbind(SLOT_IRQ3), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_IRQ, SLOT_NTFN, 0x4, TACET_IRQ_SHARED), 0);
	assert_ptr_equal(d->history_of, &w.proc);
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_int_equal(ack_as(&w.other_thr, SLOT_IRQ, false), -TACET_EDISABLED);
	assert_int_equal(d->state, IRQ_DISABLED);

	/* w.proc joins again and ends: the history passes to w.other, who is still bound. */
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ3, SLOT_NTFN, 0x1, TACET_IRQ_SHARED), 0);
	bkl_lock();
	irq_release_owner(&w.proc);
	bkl_unlock();
	assert_ptr_equal(d->history_of, &w.other);
	assert_int_equal(d->state, IRQ_DISABLED);

	/* w.other ends too: the line is free and its history gone; the next process (here
	 * w.proc, bound anew) starts clean: IDLE, and one unhandled interrupt is only one. */
	bkl_lock();
	irq_release_owner(&w.other);
	bkl_unlock();
	assert_null(d->history_of);
	assert_int_equal(d->state, IRQ_UNBOUND);
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN, 0x1), 0);
	assert_ptr_equal(d->history_of, &w.proc);
	assert_int_equal(d->state, IRQ_IDLE);
	fire_and_ack(SLOT_IRQ3, LINE3, false);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(d->unhandled, IRQ_UNHANDLED_LIMIT + 1); /* the statistic keeps counting */
	assert_int_equal(d->disabled_count, 1);
}

/* --- statistics --- */

static void test_irq_info(void **state)
{
	struct tacet_irq_info ii, untouched;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	harts[0].trap_cycle = 100;
	fake_set_cycles(130);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_int_equal(ack_as(&w.thr, SLOT_IRQ, false), 0);
	assert_int_equal(set_affinity(SLOT_IRQ, 2), 0);
	harts[2].trap_cycle = 1000;
	fake_set_cycles(1100);
	fake_irqchip_raise(LINE);
	interrupt(2);
	interrupt(1); /* spurious */

	memset(&ii, 0xa5, sizeof(ii));
	assert_int_equal(irq_info(LINE, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.irq, LINE);
	assert_int_equal(ii.state, IRQ_PENDING);
	assert_int_equal(ii.state, 2); /* the ABI's number */
	assert_int_equal(ii.hart, 2);
	assert_int_equal(ii.bound, 1);
	assert_int_equal(ii.count, 2);
	for (unsigned int h = 0; h < TACET_INFO_MAX_HARTS; h++)
		assert_int_equal(ii.per_hart[h], h == 0 || h == 2);
	assert_int_equal(ii.top_half_max, 100);
	assert_int_equal(ii.top_half_total, 130);
	assert_int_equal(ii.spurious_all, irq_spurious());
	assert_true(ii.spurious_all >= 1);
	assert_int_equal(ii.unhandled, 1);
	assert_int_equal(ii.disabled_count, 0);
	assert_int_equal(ii.wake_max, 0); /* nobody was waiting */
	assert_int_equal(ii.wake_avg, 0);
	assert_int_equal(ii.server_max, 0);
	assert_int_equal(ii.server_avg, 0);

	memset(&ii, 0xa5, sizeof(ii));
	assert_int_equal(irq_info(LINE2, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.irq, LINE2);
	assert_int_equal(ii.state, 0);
	assert_int_equal(ii.bound, 0);
	assert_int_equal(ii.count, 0);
	assert_int_equal(ii.top_half_max, 0);
	assert_int_equal(irq_info(1, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.irq, 1);
	assert_int_equal(irq_info(FAKE_NR_IRQS, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.irq, FAKE_NR_IRQS);

	/* Past the last line (and line 0, which does not exist): nothing written. */
	static const unsigned long none[] = { 0, FAKE_NR_IRQS + 1, IRQ_MAX, ULONG_MAX };

	for (size_t i = 0; i < ARRAY_LEN(none); i++) {
		memset(&ii, 0xa5, sizeof(ii));
		memset(&untouched, 0xa5, sizeof(untouched));
		assert_int_equal(irq_info(none[i], &ii, NULL), -TACET_ENOENT);
		assert_memory_equal(&ii, &untouched, sizeof(ii));
	}
}

/* Wake-up latency (top half done -> the woken server runs) and server time (running -> ack). */
/* The same line's records as its binder (w's process) sees them, all there, and as another
 * process does: counts and state, no timing (the caller zeroes the records, as sys_info). */
static void viewers_of_timing(const struct tacet_irq_info *all, const struct tacet_irq_hist *h)
{
	struct process other = { 0 };
	struct tacet_irq_info ii = { 0 }, zero_ii = { 0 };
	struct tacet_irq_hist ih = { 0 }, zero_ih = { 0 };

	assert_int_equal(irq_info(LINE, &ii, w.thr.proc), sizeof(ii));
	assert_memory_equal(&ii, all, sizeof(ii));
	assert_int_equal(irq_hist_info(LINE, &ih, w.thr.proc), sizeof(ih));
	assert_memory_equal(&ih, h, sizeof(ih));
	memset(&ii, 0, sizeof(ii));
	memset(&ih, 0, sizeof(ih));
	assert_int_equal(irq_info(LINE, &ii, &other), sizeof(ii));
	assert_int_equal(ii.count, 3);
	assert_int_equal(ii.bound, 1);
	assert_int_equal(ii.state, all->state);
	ii.irq = ii.state = ii.hart = ii.bound = 0; /* what anyone may read, set aside */
	ii.count = ii.unhandled = ii.disabled_count = ii.spurious_all = 0;
	memset(ii.per_hart, 0, sizeof(ii.per_hart));
	assert_memory_equal(&ii, &zero_ii, sizeof(ii)); /* stamps, times: none */
	assert_int_equal(irq_hist_info(LINE, &ih, &other), sizeof(ih));
	assert_int_equal(ih.count, 3);
	ih.irq = ih.state = ih.bound = 0;
	ih.count = 0;
	assert_memory_equal(&ih, &zero_ih, sizeof(ih)); /* maxima, histograms: none */
}

/* A wake-up is counted off the way to the driver, once: when its thread acknowledges, or, if
 * it never does, when an interrupt wakes it again (another line here) or it ends. Without the
 * count at the second wake-up, line LINE's would be lost; with a count at both, twice. */
static void test_wake_owed_counted_once(void **state)
{
	struct irq_desc *d = desc(LINE), *d3 = desc(LINE3);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	assert_int_equal(bind(SLOT_IRQ3, SLOT_NTFN2, 0x2), 0);
	wait_on(&w.thr, &w.ntfn);
	fake_set_cycles(100);
	fake_irqchip_raise(LINE);
	interrupt(0);
	fake_set_cycles(350);
	irq_note_running(&w.thr);
	scheduled(&w.thr);
	assert_int_equal(irq_wakes(d), 0); /* owed: 250 */
	/* it waits for its other line without acknowledging the first; that one wakes it */
	wait_on(&w.thr, &w.ntfn2);
	fake_set_cycles(1000);
	fake_irqchip_raise(LINE3);
	interrupt(0);
	assert_ptr_equal(w.thr.irq_woken_by, d3);
	assert_int_equal(irq_wakes(d), 1);
	assert_int_equal(d->wake_total, 250);
	fake_set_cycles(1040);
	irq_note_running(&w.thr);
	scheduled(&w.thr);
	assert_int_equal(ack(SLOT_IRQ3), 0);
	assert_int_equal(irq_wakes(d3), 1);
	assert_int_equal(d3->wake_total, 40);
	assert_int_equal(ack(SLOT_IRQ), 0); /* nothing owed any more: no wake-up counted */
	assert_int_equal(irq_wakes(d), 1);
	assert_int_equal(irq_served(d), 0);
	irq_thread_gone(&w.thr);
	assert_int_equal(irq_wakes(d) + irq_wakes(d3), 2);
}

/* The kernel keeps its histograms by leading zeros and folds them into the ABI's log2 buckets
 * when read: 0 in bucket 0, 1 in bucket 1, 2^30 - 1 in 30, and 2^30, 2^31 and 2^63 in the
 * last (31), which takes every longer value. */
static void test_histogram_fold(void **state)
{
	static const uint64_t tops[] = { 0, 1, (1ull << 30) - 1, 1ull << 30, 1ull << 31,
					 1ull << 63 };
	struct tacet_irq_hist ih = { 0 };

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	for (unsigned int i = 0; i < sizeof(tops) / sizeof(tops[0]); i++) {
		harts[0].trap_cycle = 1000; /* the trap's stamp, kept as set */
		fake_set_cycles(1000 + tops[i]);
		fake_irqchip_raise(LINE);
		interrupt(0);
		assert_int_equal(ack(SLOT_IRQ), 0);
	}
	assert_int_equal(irq_hist_info(LINE, &ih, NULL), sizeof(ih));
	assert_int_equal(ih.top[0], 1);
	assert_int_equal(ih.top[1], 1);
	assert_int_equal(ih.top[30], 1);
	assert_int_equal(ih.top[31], 3);
	assert_int_equal(tacet_log2hist_total(ih.top), 6);
	assert_int_equal(ih.top_max, 1ull << 63);
}

static void test_latency_statistics(void **state)
{
	struct irq_desc *d = desc(LINE);
	struct tacet_irq_info ii = { 0 }; /* zeroed by the caller, as sys_info does */

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	wait_on(&w.thr, &w.ntfn);
	fake_set_cycles(100);
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_ptr_equal(w.thr.irq_woken_by, d);
	assert_int_equal(d->last_done, 100);
	assert_int_equal(w.thr.irq_running_at, 0);
	fake_set_cycles(350);
	irq_note_running(&w.thr);
	fake_set_cycles(500);
	irq_note_running(&w.thr); /* scheduled again: still the first time counts */
	irq_note_running(&w.other_thr); /* not woken by an interrupt */
	assert_int_equal(w.thr.irq_wake, 250);
	assert_int_equal(irq_wakes(d), 0); /* owed until its acknowledgement */
	fake_set_cycles(1350);
	assert_int_equal(ack(SLOT_IRQ), 0);
	assert_null(w.thr.irq_woken_by);
	assert_int_equal(irq_wakes(d), 1);
	assert_int_equal(irq_served(d), 1);

	scheduled(&w.thr);
	wait_on(&w.thr, &w.ntfn);
	fake_set_cycles(2000);
	fake_irqchip_raise(LINE);
	interrupt(0);
	fake_set_cycles(2050);
	irq_note_running(&w.thr);
	fake_set_cycles(2250);
	assert_int_equal(ack(SLOT_IRQ), 0);

	/* Nobody waiting: no wake-up to measure. */
	fake_irqchip_raise(LINE);
	interrupt(0);
	assert_null(w.thr.irq_woken_by);
	assert_int_equal(ack(SLOT_IRQ), 0);

	assert_int_equal(irq_info(LINE, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.wake_max, 250);
	assert_int_equal(ii.wake_avg, (250 + 50) / 2);
	assert_int_equal(ii.server_max, 1000);
	assert_int_equal(ii.server_avg, (1000 + 200) / 2);
	assert_int_equal(ii.count, 3);

	/* The same in histograms: one top half per interrupt, each wake-up and ack in the bucket
	 * of its bit length (250: [128, 255]; 50: [32, 63]; 1000: [512, 1023]; 200: [128, 255]). */
	struct tacet_irq_hist ih = { 0 }; /* its pad too: compared whole below */

	assert_int_equal(irq_hist_info(LINE, &ih, NULL), sizeof(ih));
	assert_int_equal(ih.irq, LINE);
	assert_int_equal(ih.count, 3);
	assert_int_equal(tacet_log2hist_total(ih.top), 3);
	assert_int_equal(ih.top_max, ii.top_half_max);
	assert_int_equal(ih.top[tacet_log2hist_bucket(ih.top_max)] > 0, 1);
	assert_int_equal(tacet_log2hist_total(ih.wake), 2);
	assert_int_equal(ih.wake[8], 1);
	assert_int_equal(ih.wake[6], 1);
	assert_int_equal(ih.wake_max, 250);
	assert_int_equal(tacet_log2hist_total(ih.server), 2);
	assert_int_equal(ih.server[10], 1);
	assert_int_equal(ih.server[8], 1);
	assert_int_equal(ih.server_max, 1000);
	assert_int_equal(ih.top_sum, ii.top_half_total); /* the sums, exact */
	assert_int_equal(ih.wake_sum, 250 + 50);
	assert_int_equal(ih.server_sum, 1000 + 200);
	assert_int_equal(irq_hist_info(FAKE_NR_IRQS + 1, &ih, NULL), -TACET_ENOENT);
	assert_int_equal(irq_hist_info(0, &ih, NULL), -TACET_ENOENT);
	viewers_of_timing(&ii, &ih);
}

/* --- in-kernel handlers --- */

static struct {
	unsigned int n;
	unsigned int irq;
	bool claim_open;    /* the handler ran before the completion */
	bool want_window;   /* it calls irq_enable_in_hardirq() */
	bool window;        /* what that returned */
} handled;

static void handler(unsigned int irq)
{
	const struct fake_line *l = fake_irqchip_line(irq);

	handled.n++;
	handled.irq = irq;
	handled.claim_open = l->claimed_by == (int)fake_hart();
	if (handled.want_window)
		handled.window = irq_enable_in_hardirq();
}

static void test_fast_handler(void **state)
{
	struct irq_desc *d = desc(LINE2);
	const struct fake_line *l = fake_irqchip_line(LINE2);
	struct tacet_irq_info ii;

	(void)state;
	memset(&handled, 0, sizeof(handled));
	assert_int_equal(irq_request_fast(LINE2, handler, 0, 1), 0);
	EXPECT_LOG(EV(FAKE_SET_AFFINITY, LINE2, 1), PRIO(LINE2, 1), EV(FAKE_UNMASK, LINE2, 0));
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(d->hart, 1);
	fake_log_clear();
	fake_irqchip_raise(LINE2);
	interrupt(1);
	/* The handler instead of the notification: no mask, no signal, completed after it. */
	EXPECT_LOG(EV(FAKE_CLAIM, LINE2, 1), EV(FAKE_COMPLETE, LINE2, 1));
	assert_int_equal(handled.n, 1);
	assert_int_equal(handled.irq, LINE2);
	assert_true(handled.claim_open);
	assert_false(l->masked);
	assert_int_equal(d->state, IRQ_IDLE);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->per_hart[1], 1);
	assert_int_equal(harts[1].irq_depth_max, 1);
	fake_irqchip_raise(LINE2);
	interrupt(1);
	assert_int_equal(handled.n, 2);

	/* The line is taken: by a server, or by a second handler. */
	assert_int_equal(bind(SLOT_IRQ2, SLOT_NTFN, BADGE), -TACET_EBUSY);
	assert_int_equal(bind_as(&w.thr, SLOT_IRQ2, SLOT_NTFN, BADGE, TACET_IRQ_SHARED),
			 -TACET_EBUSY);
	assert_int_equal(irq_request_fast(LINE2, handler, 0, 0), -1);
	assert_int_equal(d->hart, 1);
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	assert_int_equal(irq_request_fast(LINE, handler, 0, 0), -1);
	assert_ptr_equal(desc(LINE)->binders[0].ntfn, &w.ntfn);
	assert_null(desc(LINE)->handler);
	assert_int_equal(irq_request_fast(0, handler, 0, 0), -1);
	assert_int_equal(irq_request_fast(FAKE_NR_IRQS + 1, handler, 0, 0), -1);
	assert_int_equal(irq_request_fast(LINE3, handler, IRQF_DISABLED, 0), 0);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);
	assert_int_equal(irq_info(LINE2, &ii, NULL), sizeof(ii));
	assert_int_equal(ii.bound, 1);
	assert_int_equal(ii.state, IRQ_IDLE);
}

/* A handler may open its interrupt window; it closes when the handler returns. The guard
 * refuses near the nesting limit or the interrupt stack's guard. */
static void test_fast_handler_window(void **state)
{
	struct hart *h0 = &harts[0];

	(void)state;
	memset(&handled, 0, sizeof(handled));
	handled.want_window = true;
	assert_int_equal(irq_request_fast(LINE2, handler, 0, 0), 0);
	fake_log_clear();
	fake_irqchip_raise(LINE2);
	interrupt(0);
	assert_true(handled.window);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE2, 0), EV(FAKE_IRQ_ENABLE, 0, 0), EV(FAKE_IRQ_DISABLE, 0, 0),
		   EV(FAKE_COMPLETE, LINE2, 0));
	assert_int_equal(h0->hardirq_windows, 0);
	assert_int_equal(h0->nest_refused, 0);

	/* One level below the limit is allowed; at the limit it is refused. */
	h0->irq_depth = IRQ_NEST_MAX - 2;
	fake_irqchip_raise(LINE2);
	interrupt(0);
	assert_true(handled.window);
	h0->irq_depth = IRQ_NEST_MAX - 1;
	fake_log_clear();
	fake_irqchip_raise(LINE2);
	interrupt(0);
	assert_false(handled.window);
	assert_int_equal(h0->nest_refused, 1);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE2, 0), EV(FAKE_COMPLETE, LINE2, 0));
	assert_int_equal(h0->irq_depth, IRQ_NEST_MAX - 1);
	h0->irq_depth = 0;

	/* Too much of the interrupt stack used: refused. */
	fake_set_irq_stack_used(IRQ_STACK_GUARD + 1);
	fake_log_clear();
	fake_irqchip_raise(LINE2);
	interrupt(0);
	assert_false(handled.window);
	assert_int_equal(h0->nest_refused, 2);
	EXPECT_LOG(EV(FAKE_CLAIM, LINE2, 0), EV(FAKE_COMPLETE, LINE2, 0));
	assert_int_equal(h0->irq_sp_min, h0->irq_stack_top - IRQ_STACK_GUARD - 1);
	assert_int_equal(h0->hardirq_windows, 0);
	assert_int_equal(handled.n, 4);
}

/* --- races with another hart: a system call between a claim and its completion --- */

/* What hart 1 does when hart 0 claims: run its system call now if the BKL lets it, else as
 * soon as hart 0 lets the BKL go (after the top half). */
static struct {
	long (*syscall)(void);
	bool deferred;
	long ret;
} other_hart;

static void other_hart_calls(unsigned int hart, unsigned int irq)
{
	(void)irq;
	if (hart != 0 || !other_hart.syscall)
		return;
	if (bkl_is_locked()) {
		other_hart.deferred = true;
		return;
	}
	fake_set_hart(1);
	other_hart.ret = other_hart.syscall();
	fake_set_hart(0);
	other_hart.syscall = NULL;
}

static void interrupt_racing(unsigned int h, long (*syscall)(void))
{
	memset(&other_hart, 0, sizeof(other_hart));
	other_hart.syscall = syscall;
	fake_irqchip_on_claim(other_hart_calls);
	interrupt(h);
	fake_irqchip_on_claim(NULL);
	if (other_hart.deferred) {
		fake_set_hart(1);
		other_hart.ret = other_hart.syscall();
		fake_set_hart(0);
	}
	assert_int_equal(other_hart.ret, 0);
}

static long unbind_line(void)
{
	return unbind(SLOT_IRQ);
}

static long move_line_to_hart2(void)
{
	return set_affinity(SLOT_IRQ, 2);
}

/* The server unbinds while hart 0 is taking the line: the claim still completes, and the
 * notification is signalled at most once, never after the unbind. */
static void test_claim_races_unbind(void **state)
{
	size_t signal_at, last_mask = SIZE_MAX;

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	fake_irqchip_raise(LINE);
	interrupt_racing(0, unbind_line);
	assert_int_equal(desc(LINE)->state, IRQ_UNBOUND);
	assert_true(fake_irqchip_line(LINE)->masked);
	assert_int_equal(fake_irqchip_line(LINE)->completes, 1);
	assert_int_equal(fake_log_count(FAKE_SIGNAL) + spurious_since_setup(), 1);
	/* Either the unbind came first (the top half finds the line UNBOUND: spurious, no
	 * signal) or the signal did, and the unbind's mask is the last operation. */
	signal_at = log_index(FAKE_SIGNAL, 0);
	for (size_t i = 0; i < fake_log_len(); i++)
		if (fake_log(i)->op == FAKE_MASK)
			last_mask = i;
	assert_true(last_mask != SIZE_MAX);
	if (signal_at != SIZE_MAX)
		assert_true(signal_at < last_mask);
}

/* The server moves the line while hart 0 is taking it. The completion must still reach the
 * controller: the PLIC ignores one from a hart the line is no longer routed to, and the line
 * would never interrupt again. */
static void test_claim_races_affinity(void **state)
{
	struct irq_desc *d = desc(LINE);

	(void)state;
	assert_int_equal(bind(SLOT_IRQ, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(LINE);
	interrupt_racing(0, move_line_to_hart2);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	assert_int_equal(d->hart, 2);
	if (fake_irqchip_line(LINE)->claimed_by >= 0)
		fail_msg("the completion of line %d was lost: it moved from hart 0 to hart 2 "
			 "between claim and complete, and the claim is still open", LINE);
	assert_int_equal(ack(SLOT_IRQ), 0);
	fake_irqchip_raise(LINE);
	interrupt(2);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 2);
}

/* --- random sequences against a model --- */

#define MODEL_LINES 3
#define MODEL_PROCS 2 /* w.proc and w.other: only LINE3 can be bound by both */
#define MODEL_STEPS 4000

struct model_binder {
	bool bound;
	bool waiting; /* signalled, has not acknowledged */
	uint64_t badge;
};

struct model_line {
	unsigned int irq;
	unsigned long slot[MODEL_PROCS]; /* each process's capability to it, 0 for none */
	enum irq_state state;
	unsigned int hart;  /* the descriptor's affinity */
	bool chosen;        /* by set_affinity, since the line was last free */
	int routed;         /* the hart the controller routes it to, -1 for none yet */
	bool pending;       /* asserted, not yet claimed */
	bool shared;
	unsigned int acks_due;
	struct model_binder b[MODEL_PROCS];
	uint64_t count, per_hart[MAX_HARTS];
};

struct model {
	struct model_line lines[MODEL_LINES];
	uint64_t signals, spurious, puts, shared_fires;
	uint64_t rng;
};

static struct thread *model_thread(int p)
{
	return p ? &w.other_thr : &w.thr;
}

static struct notification *model_ntfn(int p)
{
	return p ? &w.ntfn2 : &w.ntfn;
}

static unsigned int model_binders(const struct model_line *ml)
{
	return ml->b[0].bound + ml->b[1].bound;
}

static uint64_t next_random(struct model *m)
{
	/* xorshift64 */
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

/* Binder p acknowledged, or left: the line goes on once nobody owes an ack. (Detection never
 * disables a line here: a run is far shorter than its limits.) */
static void model_binder_done(struct model_line *ml, int p)
{
	if (!ml->b[p].waiting)
		return;
	ml->b[p].waiting = false;
	if (--ml->acks_due == 0 && ml->state == IRQ_PENDING)
		ml->state = IRQ_IDLE;
}

static void model_unbind(struct model *m, struct model_line *ml, int p)
{
	model_binder_done(ml, p);
	ml->b[p] = (struct model_binder){ 0 };
	m->puts++;
	if (!model_binders(ml)) {
		ml->state = IRQ_UNBOUND;
		ml->shared = false;
		ml->chosen = false;
	}
}

static void check_model(const struct model *m, unsigned int step)
{
	unsigned int to_ntfn[MODEL_PROCS] = { 0 };

	for (int i = 0; i < MODEL_LINES; i++) {
		const struct model_line *ml = &m->lines[i];
		const struct irq_desc *d = desc(ml->irq);
		const struct fake_line *l = fake_irqchip_line(ml->irq);

		if (d->state != ml->state || d->hart != ml->hart || irq_count(d) != ml->count ||
		    d->nbinders != model_binders(ml) || l->pending != ml->pending ||
		    l->masked != (ml->state != IRQ_IDLE) ||
		    l->routed != (ml->routed < 0 ? 0u : 1u << ml->routed))
			fail_msg("step %u, line %u: state %d hart %u count %llu binders %u "
				 "pending %d masked %d routed %#x; model: state %d hart %u "
				 "count %llu binders %u pending %d routed %d", step, ml->irq,
				 d->state, d->hart,
				 (unsigned long long)irq_count(d), d->nbinders, l->pending, l->masked,
				 l->routed, ml->state, ml->hart, (unsigned long long)ml->count,
				 model_binders(ml), ml->pending, ml->routed);
		for (unsigned int k = 0; k < d->nbinders; k++) {
			const struct irq_binder *b = &d->binders[k];
			int p = b->owner == &w.other;

			assert_true(b->owner == &w.proc || b->owner == &w.other);
			assert_true(ml->b[p].bound);
			assert_ptr_equal(b->ntfn, model_ntfn(p));
			assert_int_equal(b->badge, ml->b[p].badge);
			assert_int_equal(b->waiting, ml->b[p].waiting);
			to_ntfn[p]++;
		}
		if (d->nbinders)
			assert_int_equal(d->shared, ml->shared);
		if (ml->state == IRQ_PENDING)
			assert_int_equal(d->acks_due, ml->acks_due);
		for (unsigned int h = 0; h < MAX_HARTS; h++)
			assert_int_equal(d->per_hart[h], ml->per_hart[h]);
	}
	assert_int_equal(spurious_since_setup(), m->spurious);
	assert_int_equal(fake_kobj_put_calls(), m->puts);
	assert_int_equal(w.ntfn.obj.refs, 1 + 2 + to_ntfn[0]);
	assert_int_equal(w.ntfn2.obj.refs, 1 + 2 + to_ntfn[1]);
	check_machine(NULL);
}

/* The top half of a line with the model's binders: claim, one signal per binder (in any
 * order), mask, complete. */
static void expect_fire(const struct model_line *ml, unsigned int h, unsigned int step)
{
	unsigned int n = model_binders(ml);
	bool used[MODEL_PROCS] = { false };

	if (fake_log_len() != 3 + n || !same_event(fake_log(0), &(struct fake_event)EV(
						  FAKE_CLAIM, ml->irq, h)) ||
	    !same_event(fake_log(1 + n), &(struct fake_event)EV(FAKE_MASK, ml->irq, h)) ||
	    !same_event(fake_log(2 + n), &(struct fake_event)EV(FAKE_COMPLETE, ml->irq, h))) {
		print_log();
		fail_msg("step %u: line %u taken by hart %u with %u binders", step, ml->irq, h, n);
	}
	for (unsigned int k = 0; k < n; k++) {
		const struct fake_event *e = fake_log(1 + k);
		int p = e->ntfn == &w.ntfn2;

		if (e->op != FAKE_SIGNAL || used[p] || !ml->b[p].bound ||
		    e->ntfn != model_ntfn(p) || e->bits != ml->b[p].badge) {
			print_log();
			fail_msg("step %u: line %u signalled someone it should not have", step,
				 ml->irq);
		}
		used[p] = true;
	}
}

/* Hart h takes an interrupt: the model says which line the controller hands it, if any. */
static void model_fire(struct model *m, unsigned int h, bool from_user, unsigned int step)
{
	struct model_line *taken = NULL;

	for (int i = 0; i < MODEL_LINES && !taken; i++) {
		struct model_line *ml = &m->lines[i];

		if (ml->pending && ml->state == IRQ_IDLE && ml->routed == (int)h)
			taken = ml; /* the lowest number: the lines are in order */
	}
	if (from_user)
		interrupt_from_user(h);
	else
		interrupt(h);
	if (!taken) {
		m->spurious++;
		EXPECT_LOG(EV(FAKE_CLAIM, 0, h));
		return;
	}
	expect_fire(taken, h, step);
	taken->pending = false;
	taken->state = IRQ_PENDING;
	taken->acks_due = model_binders(taken);
	taken->count++;
	taken->per_hart[h]++;
	for (int p = 0; p < MODEL_PROCS; p++)
		taken->b[p].waiting = taken->b[p].bound;
	m->signals += taken->acks_due;
	m->shared_fires += taken->acks_due > 1;
}

static void model_step(struct model *m, unsigned int step)
{
	uint64_t r = next_random(m);
	struct model_line *ml = &m->lines[(r >> 8) % MODEL_LINES];
	int p = ml->slot[1] && ((r >> 12) & 1);
	struct thread *t = model_thread(p);
	unsigned long slot = ml->slot[p];
	unsigned int op = r % 100;
	long got, want, also = 1; /* also: another acceptable result */

	fake_log_clear();
	if (op < 22) {
		fake_irqchip_raise(ml->irq);
		ml->pending = true;
		return;
	}
	if (op < 47) {
		model_fire(m, (unsigned int)((r >> 16) % 3), (r >> 24) & 1, step);
		return;
	}
	if (op < 60) {
		want = ml->b[p].bound ? 0 : -TACET_EINVAL;
		got = ack_as(t, slot, (r >> 20) & 1);
		if (!want)
			model_binder_done(ml, p);
	} else if (op < 72) {
		bool shared = (r >> 21) & 1;
		uint64_t badge = (r >> 22) & 7 ? (next_random(m) & (BIT63 - 1)) | 1 :
						 ((r >> 25) & 1) << 63;
		bool busy = model_binders(ml) && (!shared || !ml->shared || ml->b[p].bound);

		want = !badge || badge >> 63 ? -TACET_EINVAL : busy ? -TACET_EBUSY : 0;
		if (want == -TACET_EINVAL && busy)
			also = -TACET_EBUSY; /* both are wrong: either error will do */
		got = bind_as(t, slot, SLOT_NTFN, badge, shared ? TACET_IRQ_SHARED : 0);
		if (!want) {
			ml->b[p] = (struct model_binder){ true, false, badge };
			ml->shared = shared;
			if (ml->state == IRQ_UNBOUND) {
				ml->state = IRQ_IDLE;
				if (!ml->chosen)
					ml->hart = t->hart; /* the line follows its binder */
				ml->routed = (int)ml->hart;
			}
		}
	} else if (op < 81) {
		want = ml->b[p].bound ? 0 : -TACET_EINVAL;
		got = unbind_as(t, slot);
		if (!want)
			model_unbind(m, ml, p);
	} else if (op < 93) {
		unsigned long h = (r >> 16) % (FAKE_NHARTS + 1);

		want = h < nharts && harts[h].online ? 0 : -TACET_EINVAL;
		got = call(sys_irq_set_affinity, t, slot, h, 0, 0);
		if (!want) {
			ml->hart = (unsigned int)h;
			ml->chosen = true;
			ml->routed = (int)h;
		}
	} else if (op < 96) {
		want = -TACET_EINVAL; /* never DISABLED here */
		got = call(sys_irq_enable, t, slot, 0, 0, 0);
	} else {
		bkl_lock();
		irq_release_owner(p ? &w.other : &w.proc);
		bkl_unlock();
		for (int i = 0; i < MODEL_LINES; i++)
			if (m->lines[i].b[p].bound)
				model_unbind(m, &m->lines[i], p);
		return;
	}
	if (got != want && got != also)
		fail_msg("step %u, line %u, process %d (op %u): returned %ld, model says %ld", step,
			 ml->irq, p, op, got, want);
}

static void test_random_against_model(void **state)
{
	static const uint64_t seeds[] = { 0x7ace7, 0x1234567887654321ULL, 42 };

	(void)state;
	for (size_t s = 0; s < ARRAY_LEN(seeds); s++) {
		struct model m = {
			.lines = { { LINE, { SLOT_IRQ, 0 }, .routed = -1 },
				   { LINE2, { SLOT_IRQ2, 0 }, .routed = -1 },
				   { LINE3, { SLOT_IRQ3, SLOT_IRQ }, .routed = -1 } },
			.rng = seeds[s],
		};

		if (s) { /* each seed starts from fresh lines */
			teardown(state);
			setup(state);
		}
		harts[3].online = false; /* a hart the lines may not be moved to */
		w.thr.hart = 1;           /* the binders' harts, where free lines follow them */
		w.other_thr.hart = 2;
		fake_kernel_reset();
		for (unsigned int step = 0; step < MODEL_STEPS; step++) {
			model_step(&m, step);
			check_model(&m, step);
		}
		/* The sequence did exercise the protocol. */
		for (int i = 0; i < MODEL_LINES; i++)
			assert_true(m.lines[i].count > 0);
		assert_true(m.signals > 100);
		assert_true(m.spurious > 100);
		assert_true(m.shared_fires > 0);
	}
}

/* --- message-signalled lines (irq_msi.c) --- */

#define MSI_FIRST (FAKE_NR_IRQS - FAKE_NR_MSI + 1) /* the first line the fake lends */

enum msi_slot {
	SLOT_BUS = SLOT_FREE + 1, /* a device frame with RELEASE: the bus server's authority */
	SLOT_BUS_RW,              /* the same frame without RELEASE */
	SLOT_RAM,                 /* RAM with RELEASE */
	SLOT_MSI,                 /* where the lent lines land */
};

static struct frame bus_frame, ram_frame;

static void install_buses(void)
{
	bus_frame = (struct frame){ .obj = { .type = TACET_CAP_FRAME, .refs = 1 }, .device = 1 };
	ram_frame = (struct frame){ .obj = { .type = TACET_CAP_FRAME, .refs = 1 } };
	install(w.proc.cspace, SLOT_BUS, &bus_frame.obj, TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE);
	install(w.proc.cspace, SLOT_BUS_RW, &bus_frame.obj, TACET_RIGHT_WRITE);
	install(w.proc.cspace, SLOT_RAM, &ram_frame.obj, TACET_RIGHT_WRITE | TACET_RIGHT_RELEASE);
}

/* IRQ_MSI_NEW by the test process: the result, and the three answers. */
static long msi_new(unsigned long bus, unsigned long hart, unsigned long dst, uint64_t *addr,
		    uint64_t *data, uint64_t *line)
{
	long err = call(sys_irq_msi_new, &w.thr, bus, hart, dst, 0);

	*addr = arch_ctx_arg(&w.thr.ctx, 1);
	*data = arch_ctx_arg(&w.thr.ctx, 2);
	*line = arch_ctx_arg(&w.thr.ctx, 3);
	return err;
}

static long msi_free(unsigned long bus, unsigned long irq_slot)
{
	return call(sys_irq_msi_free, &w.thr, bus, irq_slot, 0, 0);
}

/* A controller without message-signalled lines (the PLIC's): ENODEV, even for a good bus. */
static void test_msi_without_controller(void **state)
{
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI, &addr, &data, &line), -TACET_ENODEV);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_IRQ), -TACET_ENODEV);
}

/* Every refusal changes nothing: no line lent, no slot filled. */
static void test_msi_new_refusals(void **state)
{
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_EMPTY, 0, SLOT_MSI, &addr, &data, &line), -TACET_EEMPTY);
	assert_int_equal(msi_new(SLOT_NTFN, 0, SLOT_MSI, &addr, &data, &line), -TACET_ETYPE);
	assert_int_equal(msi_new(SLOT_BUS_RW, 0, SLOT_MSI, &addr, &data, &line), -TACET_EPERM);
	assert_int_equal(msi_new(SLOT_RAM, 0, SLOT_MSI, &addr, &data, &line), -TACET_EPERM);
	assert_int_equal(msi_new(SLOT_BUS, FAKE_NHARTS, SLOT_MSI, &addr, &data, &line),
			 -TACET_EINVAL);
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_NTFN, &addr, &data, &line), -TACET_EEXIST);
	assert_int_equal(msi_new(SLOT_BUS, 0, CSPACE_SLOTS, &addr, &data, &line), -TACET_EBADSLOT);
	for (unsigned int irq = MSI_FIRST; irq <= FAKE_NR_IRQS; irq++)
		assert_false(desc(irq)->lent);
	/* a wired line cannot be freed, nor bound as if it were lent */
	assert_int_equal(msi_free(SLOT_BUS, SLOT_IRQ), -TACET_EINVAL);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_NTFN), -TACET_ETYPE);
}

/* A lent line's life: routed where its device writes (a bind does not move it), never shared,
 * delivered and acknowledged as any line, moved with the new address answered, freed with its
 * binder gone (the ack it owed settled), then refused, and lent again. */
static void test_msi_line_lifecycle(void **state)
{
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 2, SLOT_MSI, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST);
	assert_int_equal(addr, FAKE_MSI_ADDR + 2 * 0x1000);
	assert_int_equal(data, MSI_FIRST + 1);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_UNBOUND);
	assert_int_equal(bind_as(&w.thr, SLOT_MSI, SLOT_NTFN, BADGE, TACET_IRQ_SHARED),
			 -TACET_EINVAL);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), 0); /* the binder runs on hart 0 */
	assert_int_equal(fake_irqchip_line(MSI_FIRST)->routed, 1u << 2);
	fake_irqchip_raise(MSI_FIRST);
	interrupt(2);
	assert_int_equal(w.ntfn.bits, BADGE);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_PENDING);
	assert_int_equal(set_affinity(SLOT_MSI, 1), 0);
	assert_int_equal(arch_ctx_arg(&w.thr.ctx, 1), FAKE_MSI_ADDR + 0x1000);
	assert_int_equal(ack(SLOT_MSI), 0);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_IDLE);
	fake_irqchip_raise(MSI_FIRST);
	interrupt(1);
	assert_int_equal(irq_count(desc(MSI_FIRST)), 2);
	assert_int_equal(desc(MSI_FIRST)->per_hart[1], 1);
	/* freed while PENDING on this binder's ack: it leaves, the ack counted as not handled */
	assert_int_equal(msi_free(SLOT_BUS_RW, SLOT_MSI), -TACET_EPERM);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI), 0);
	assert_int_equal(fake_irqchip_msi_frees(), 1);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_UNBOUND);
	assert_int_equal(desc(MSI_FIRST)->nbinders, 0);
	assert_int_equal(desc(MSI_FIRST)->unhandled, 1);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI), -TACET_EINVAL);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), -TACET_EINVAL);
	assert_int_equal(set_affinity(SLOT_MSI, 0), -TACET_EINVAL);
	assert_int_equal(ack(SLOT_MSI), -TACET_EINVAL);
	/* lent again: the same line, for a device's next driver, detection's record fresh */
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI + 1, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST);
	assert_int_equal(desc(MSI_FIRST)->unhandled_streak, 0);
}

/* A message-signalled line is an edge, masked lazily: it fires without being masked, and the
 * messages that come while it is PENDING are held by the controller (the first claimed, masked
 * and pending again; the next joins it), neither delivered nor counted nor spurious; the ack's
 * unmask gives them again as one interrupt, delivered and counted once, then nothing more. */
static void test_msi_edge_held_until_ack(void **state)
{
	const struct fake_line *l = fake_irqchip_line(MSI_FIRST);
	struct irq_desc *d = desc(MSI_FIRST);
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), 0);
	fake_log_clear();
	fake_irqchip_raise(MSI_FIRST);
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, MSI_FIRST, 0), SIGNAL(&w.ntfn, BADGE),
		   EV(FAKE_MASK, MSI_FIRST, 0), EV(FAKE_COMPLETE, MSI_FIRST, 0));
	assert_false(l->masked); /* the mask is lazy: the line stays on */
	assert_int_equal(d->state, IRQ_PENDING);

	/* two messages during the driver's work: the first held, the second one with it */
	fake_irqchip_raise(MSI_FIRST);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, MSI_FIRST, 0), EV(FAKE_HOLD, MSI_FIRST, 0),
		   EV(FAKE_COMPLETE, MSI_FIRST, 0));
	fake_irqchip_raise(MSI_FIRST);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
	assert_true(l->masked);
	assert_true(l->pending);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->top_half_max, d->top_half_total); /* one top half timed */
	assert_int_equal(spurious_since_setup(), 1); /* the empty claim: the held are not */

	/* the ack unmasks it: the held interrupt comes once, and is counted once */
	fake_log_clear();
	assert_int_equal(ack(SLOT_MSI), 0);
	assert_int_equal(d->state, IRQ_IDLE);
	interrupt(0);
	EXPECT_LOG(EV(FAKE_UNMASK, MSI_FIRST, 0), EV(FAKE_CLAIM, MSI_FIRST, 0),
		   SIGNAL(&w.ntfn, BADGE), EV(FAKE_MASK, MSI_FIRST, 0),
		   EV(FAKE_COMPLETE, MSI_FIRST, 0));
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(irq_count(d), 2);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, 0, 0));
	assert_int_equal(ack(SLOT_MSI), 0);
	interrupt(0);
	assert_int_equal(irq_count(d), 2);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 0);
	assert_int_equal(spurious_since_setup(), 3); /* the three empty claims */
	assert_int_equal(d->unhandled, 0);
}

/* A message that comes while the line is UNBOUND is held the same way: the next bind's unmask
 * delivers it to the new binder. */
static void test_msi_edge_held_until_bind(void **state)
{
	struct irq_desc *d = desc(MSI_FIRST);
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI, &addr, &data, &line), 0);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), 0);
	assert_int_equal(unbind(SLOT_MSI), 0);
	assert_int_equal(d->state, IRQ_UNBOUND);
	fake_irqchip_raise(MSI_FIRST);
	fake_log_clear();
	interrupt(0);
	EXPECT_LOG(EV(FAKE_CLAIM, MSI_FIRST, 0), EV(FAKE_HOLD, MSI_FIRST, 0),
		   EV(FAKE_COMPLETE, MSI_FIRST, 0));
	assert_int_equal(irq_count(d), 0);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), 0);
	interrupt(0);
	assert_int_equal(irq_count(d), 1);
	assert_int_equal(d->state, IRQ_PENDING);
	assert_int_equal(fake_log_count(FAKE_SIGNAL), 1);
	assert_int_equal(spurious_since_setup(), 0);
}

/* A free revokes every capability of the lending, wherever copies went: another process's copy
 * reaches the line until it is freed, and nothing after, not even once the same line (the same
 * identity) is lent again, when only the new lending's capability binds it. */
static void test_msi_free_revokes_copies(void **state)
{
	const struct cap *mine = &w.proc.cspace->slots[SLOT_MSI];
	struct cap *copy = &w.other.cspace->slots[SLOT_FREE];
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI, &addr, &data, &line), 0);
	assert_int_not_equal(mine->badge, 0);
	cap_install(copy, mine->obj, mine->rights, mine->badge); /* as CAP_COPY or a transfer */
	assert_int_equal(bind_as(&w.other_thr, SLOT_FREE, SLOT_NTFN, BADGE, 0), 0);
	assert_int_equal(unbind_as(&w.other_thr, SLOT_FREE), 0);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI), 0);
	assert_int_equal(bind_as(&w.other_thr, SLOT_FREE, SLOT_NTFN, BADGE, 0), -TACET_EINVAL);

	/* the same line lent again, into another slot: the old copies stay dead */
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI + 1, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST);
	assert_int_equal(bind_as(&w.other_thr, SLOT_FREE, SLOT_NTFN, BADGE, 0), -TACET_EINVAL);
	assert_int_equal(bind(SLOT_MSI, SLOT_NTFN, BADGE), -TACET_EINVAL); /* the first cap */
	assert_int_equal(call(sys_irq_set_affinity, &w.other_thr, SLOT_FREE, 1, 0, 0),
			 -TACET_EINVAL);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI), -TACET_EINVAL);
	assert_int_equal(desc(MSI_FIRST)->nbinders, 0);
	assert_true(desc(MSI_FIRST)->lent);
	assert_int_equal(bind(SLOT_MSI + 1, SLOT_NTFN, BADGE), 0);
	fake_irqchip_raise(MSI_FIRST);
	interrupt(0);
	assert_int_equal(ack_as(&w.other_thr, SLOT_FREE, true), -TACET_EINVAL);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_PENDING);
	assert_int_equal(ack(SLOT_MSI + 1), 0);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI + 1), 0);
	cap_clear(copy);
}

/* The lender's end ends its lendings, as IRQ_MSI_FREE would: a driver of another process
 * bound to one, its interrupt pending, leaves (the ack it owed settled), every line goes back
 * to the pool (the next lending takes the first again), and the driver's capability reaches
 * nothing. Before, the lines stayed lent for good: a restarted bus server drained the pool. */
static void test_msi_lender_end_ends_lendings(void **state)
{
	const struct cap *mine = &w.proc.cspace->slots[SLOT_MSI];
	struct cap *copy = &w.other.cspace->slots[SLOT_FREE];
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI, &addr, &data, &line), 0);
	assert_int_equal(msi_new(SLOT_BUS, 1, SLOT_MSI + 1, &addr, &data, &line), 0);
	assert_int_equal(w.proc.irq_refs, 2);
	cap_install(copy, mine->obj, mine->rights, mine->badge); /* handed to the driver */
	assert_int_equal(bind_as(&w.other_thr, SLOT_FREE, SLOT_NTFN, BADGE, 0), 0);
	fake_irqchip_raise(MSI_FIRST);
	interrupt(0);
	assert_int_equal(desc(MSI_FIRST)->state, IRQ_PENDING);
	bkl_lock();
	irq_release_owner(&w.proc);
	bkl_unlock();
	assert_int_equal(fake_irqchip_msi_frees(), 2);
	for (unsigned int irq = MSI_FIRST; irq < MSI_FIRST + 2; irq++) {
		assert_false(desc(irq)->lent);
		assert_null(desc(irq)->lender);
		assert_int_equal(desc(irq)->state, IRQ_UNBOUND);
		assert_int_equal(desc(irq)->nbinders, 0);
	}
	assert_int_equal(desc(MSI_FIRST)->unhandled, 1); /* the driver's owed ack, settled */
	assert_int_equal(w.proc.irq_refs, 0);
	assert_int_equal(ack_as(&w.other_thr, SLOT_FREE, true), -TACET_EINVAL);
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI + 2, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST);
	assert_int_equal(bind_as(&w.other_thr, SLOT_FREE, SLOT_NTFN, BADGE, 0), -TACET_EINVAL);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI + 2), 0);
	cap_clear(copy);
}

/* The pool runs out with ENOMEM and nothing changes; a freed line is the next lent. */
static void test_msi_pool_exhausted(void **state)
{
	uint64_t addr, data, line;

	(void)state;
	install_buses();
	for (unsigned int i = 0; i < FAKE_NR_MSI; i++) {
		assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI + i, &addr, &data, &line), 0);
		assert_int_equal(line, MSI_FIRST + i);
	}
	assert_int_equal(msi_new(SLOT_BUS, 0, SLOT_MSI + FAKE_NR_MSI, &addr, &data, &line),
			 -TACET_ENOMEM);
	assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI + 1), 0);
	assert_int_equal(msi_new(SLOT_BUS, 3, SLOT_MSI + FAKE_NR_MSI, &addr, &data, &line), 0);
	assert_int_equal(line, MSI_FIRST + 1);
	for (unsigned int i = 0; i <= FAKE_NR_MSI; i++)
		if (i != 1)
			assert_int_equal(msi_free(SLOT_BUS, SLOT_MSI + i), 0);
}

#define MSI_TEST(f) cmocka_unit_test_setup_teardown(f, setup_msi, teardown)

#define IRQ_TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_masks_every_line, setup_machine,
						check_machine),
		IRQ_TEST(test_msi_without_controller),
		MSI_TEST(test_msi_new_refusals),
		MSI_TEST(test_msi_line_lifecycle),
		MSI_TEST(test_msi_pool_exhausted),
		MSI_TEST(test_msi_edge_held_until_ack),
		MSI_TEST(test_msi_edge_held_until_bind),
		MSI_TEST(test_msi_free_revokes_copies),
		MSI_TEST(test_msi_lender_end_ends_lendings),
		IRQ_TEST(test_bind_routes_and_unmasks),
		IRQ_TEST(test_bind_twice_is_busy),
		IRQ_TEST(test_bind_bad_badge_or_flags),
		IRQ_TEST(test_bind_capability_errors),
		IRQ_TEST(test_line_capability_errors),
		IRQ_TEST(test_fire_signals_once),
		IRQ_TEST(test_fire_from_user_mode),
		IRQ_TEST(test_pending_is_oneshot),
		IRQ_TEST(test_ack),
		IRQ_TEST(test_spurious_claim),
		IRQ_TEST(test_no_controller),
		IRQ_TEST(test_affinity_routes_to_one_hart),
		IRQ_TEST(test_affinity_invalid_hart),
		IRQ_TEST(test_affinity_moves_pending_interrupt),
		IRQ_TEST(test_bind_follows_binder),
		IRQ_TEST(test_affinity_before_bind),
		IRQ_TEST(test_unbind),
		IRQ_TEST(test_unbind_drops_last_reference),
		IRQ_TEST(test_release_owner),
		IRQ_TEST(test_shared_line),
		IRQ_TEST(test_shared_line_held),
		IRQ_TEST(test_own_line_held),
		IRQ_TEST(test_shared_bind_rules),
		IRQ_TEST(test_unhandled_disables),
		IRQ_TEST(test_busy_line_stays_on),
		IRQ_TEST(test_fast_storm_disables),
		IRQ_TEST(test_user_irq_direct),
		IRQ_TEST(test_user_irq_direct_service_loop),
		IRQ_TEST(test_service_loop_woken_by_top_half),
		IRQ_TEST(test_service_loop_woken_by_signal),
		IRQ_TEST(test_service_loop_woken_by_signal_call),
		IRQ_TEST(test_one_stamp_both_ways),
		IRQ_TEST(test_user_irq_fallbacks),
		IRQ_TEST(test_user_irq_shared_and_spurious),
		IRQ_TEST(test_ack_wait_blocks_and_stamps),
		IRQ_TEST(test_ack_wait_bits_at_once),
		IRQ_TEST(test_ack_wait_refusals),
		IRQ_TEST(test_ack_wait_fast),
		IRQ_TEST(test_ack_fast),
		IRQ_TEST(test_ack_wait_refired),
		IRQ_TEST(test_ack_wait_stranger),
		IRQ_TEST(test_ack_takes_pending),
		IRQ_TEST(test_signal_fast),
		IRQ_TEST(test_release_pending_delivers_next),
		IRQ_TEST(test_release_last_binder_masks),
		IRQ_TEST(test_rebind_keeps_unhandled_streak),
		IRQ_TEST(test_history_follows_processes),
		IRQ_TEST(test_irq_info),
		IRQ_TEST(test_wake_owed_counted_once),
		IRQ_TEST(test_histogram_fold),
		IRQ_TEST(test_latency_statistics),
		IRQ_TEST(test_fast_handler),
		IRQ_TEST(test_fast_handler_window),
		IRQ_TEST(test_claim_races_unbind),
		IRQ_TEST(test_claim_races_affinity),
		IRQ_TEST(test_random_against_model),
	};

	return cmocka_run_group_tests_name("irq", tests, NULL, NULL);
}
