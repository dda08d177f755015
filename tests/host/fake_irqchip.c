/* fake_irqchip.c: the fake interrupt controller and machine of fake_irqchip.h: per-line controller
 * state, the operation log (with the wrapper of notification_signal_stamped), harts[] and their
 * run queues, the BKL, the cycle counter, the timebase, the console, the scheduler's side of a
 * wake-up, and the stubs of what a notification's making and end reach. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_irqchip.h"
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "object/notification.h"
#include "object/process_watch.h"
#include "core/sched.h"
#include "core/bkl.h"
#include "core/spinlock.h"
#include "core/timer.h"
#include <tacet/abi.h>

extern const struct irqchip *irq_chip; /* irq.c: the registered controller */

_Static_assert(FAKE_NHARTS <= MAX_HARTS, "the fake machine fits harts[]");
_Static_assert(FAKE_NR_IRQS < IRQ_MAX, "every fake line gets a descriptor");

#define FAKE_IRQ_STACK_BASE 0x40000000UL /* made-up addresses: irq.c only compares them */
#define FAKE_IRQ_STACK_SIZE 0x10000UL

struct hart harts[MAX_HARTS];
unsigned int nharts;
__thread struct hart *host_current_hart;
struct bkl bkl;

static struct fake_line lines[FAKE_NR_IRQS + 1];
static struct fake_event events[FAKE_LOG_MAX];
static size_t nevents;
static void (*claim_hook)(unsigned int hart, unsigned int irq);
static uint64_t cycles, cycles_step;
static uint64_t now;
static uintptr_t irq_stack_used;
static unsigned int readied;
static unsigned int console_lines;
static char console_last[256];

static struct fake_line *line(unsigned int irq)
{
	if (irq == 0 || irq > FAKE_NR_IRQS)
		fail_msg("fake irqchip: line %u does not exist (1..%d)", irq, FAKE_NR_IRQS);
	return &lines[irq];
}

static void log_event(struct fake_event e)
{
	if (nevents == FAKE_LOG_MAX)
		fail_msg("fake irqchip: more than %d operations logged", FAKE_LOG_MAX);
	e.bkl_held = bkl_held();
	events[nevents++] = e;
}

/* --- the controller --- */

static bool msi_mode; /* fake_irqchip_msi(): the last FAKE_NR_MSI lines are message-signalled */

/* A message-signalled line: an edge the controller masks only by arch_irq_hold (the AIA's
 * IMSIC: the mask's store goes to a source the APLIC does not have). */
static bool is_msi(unsigned int irq)
{
	return msi_mode && irq > FAKE_NR_IRQS - FAKE_NR_MSI;
}

/* the operations of every interrupt: the port's inline arch_irq_*() in the kernel */
void arch_irq_mask(unsigned int irq)
{
	if (!is_msi(irq))
		line(irq)->masked = true;
	line(irq)->masks++;
	log_event((struct fake_event){ .op = FAKE_MASK, .irq = irq, .hart = fake_hart() });
}

/* A message-signalled line's message claimed while the line was not IDLE: masked, pending
 * again, for the next unmask. */
void arch_irq_hold(unsigned int irq)
{
	if (!is_msi(irq))
		fail_msg("fake irqchip: hold of line %u, which is not message-signalled", irq);
	line(irq)->masked = true;
	line(irq)->pending = true;
	log_event((struct fake_event){ .op = FAKE_HOLD, .irq = irq, .hart = fake_hart() });
}

void arch_irq_unmask(unsigned int irq)
{
	line(irq)->masked = false;
	line(irq)->unmasks++;
	log_event((struct fake_event){ .op = FAKE_UNMASK, .irq = irq, .hart = fake_hart() });
}

static void fake_set_affinity(unsigned int irq, unsigned int hart)
{
	if (hart >= nharts)
		fail_msg("fake irqchip: line %u routed to hart %u of %u", irq, hart, nharts);
	line(irq)->routed = 1u << hart;
	log_event((struct fake_event){ .op = FAKE_SET_AFFINITY, .irq = irq, .hart = hart });
}

static void fake_set_priority(unsigned int irq, unsigned int prio)
{
	line(irq)->prio = prio;
	log_event((struct fake_event){
		.op = FAKE_SET_PRIORITY, .irq = irq, .hart = fake_hart(), .prio = prio });
}

static bool claimable(const struct fake_line *l, unsigned int hart)
{
	return l->pending && !l->masked && l->prio > 0 && (l->routed & (1u << hart)) &&
	       l->claimed_by < 0;
}

/* The hart whose struct arch_hart the kernel passed (its own: &me->arch). */
static unsigned int hart_of(const struct arch_hart *a)
{
	const struct hart *h = (const struct hart *)((const char *)a - offsetof(struct hart, arch));

	if (h < harts || h >= harts + MAX_HARTS)
		fail_msg("fake irqchip: %p is no hart's arch_hart", (const void *)a);
	return h->id;
}

/* The most urgent claimable line, the lowest number among equals (as the PLIC chooses). */
unsigned int arch_irq_claim(const struct arch_hart *a)
{
	unsigned int best = 0, hart = hart_of(a);

	if (!irq_chip)
		return 0; /* no controller registered: as the PLIC's claim without a context */

	if (hart >= nharts)
		fail_msg("fake irqchip: claim by hart %u of %u", hart, nharts);
	for (unsigned int irq = 1; irq <= FAKE_NR_IRQS; irq++)
		if (claimable(&lines[irq], hart) && (!best || lines[irq].prio > lines[best].prio))
			best = irq;
	log_event((struct fake_event){ .op = FAKE_CLAIM, .irq = best, .hart = hart });
	if (!best)
		return 0;
	lines[best].pending = false;
	lines[best].claimed_by = (int)hart;
	lines[best].claims++;
	if (claim_hook)
		claim_hook(hart, best);
	return best;
}

void arch_irq_complete(const struct arch_hart *a, unsigned int irq)
{
	struct fake_line *l = line(irq);
	unsigned int hart = hart_of(a);

	log_event((struct fake_event){ .op = FAKE_COMPLETE, .irq = irq, .hart = hart });
	l->completes++;
	if (!(l->routed & (1u << hart)))
		l->ignored_completes++;
	else if (l->claimed_by < 0)
		l->stray_completes++;
	else
		l->claimed_by = -1;
}

static const struct irqchip fake_chip = {
	.name = "fake",
	.nr_irqs = FAKE_NR_IRQS,
	.set_affinity = fake_set_affinity,
	.set_priority = fake_set_priority,
};

/* The message-signalled lines (fake_irqchip_msi): lent or not, as msi_alloc and msi_free say. */
static bool msi_lent[FAKE_NR_MSI];
static unsigned int msi_frees;

static uint64_t fake_msi_address(unsigned int irq, unsigned int hart)
{
	(void)irq;
	return FAKE_MSI_ADDR + 0x1000UL * hart;
}

static long fake_msi_alloc(unsigned int hart, uint64_t *addr, uint32_t *data)
{
	for (unsigned int i = 0; i < FAKE_NR_MSI; i++) {
		unsigned int irq = FAKE_NR_IRQS - FAKE_NR_MSI + 1 + i;

		if (msi_lent[i])
			continue;
		if (!line(irq)->masked)
			fail_msg("fake irqchip: message-signalled line %u lent unmasked", irq);
		msi_lent[i] = true;
		*addr = fake_msi_address(irq, hart);
		*data = irq + 1;
		return irq;
	}
	return -TACET_ENOMEM;
}

static void fake_msi_free(unsigned int irq)
{
	unsigned int i = irq - (FAKE_NR_IRQS - FAKE_NR_MSI + 1);

	if (i >= FAKE_NR_MSI || !msi_lent[i])
		fail_msg("fake irqchip: line %u freed, not lent", irq);
	if (line(irq)->claimed_by >= 0)
		fail_msg("fake irqchip: message-signalled line %u freed with its claim open", irq);
	/* as the AIA's: disabled in every file, a message pending there dropped and counted */
	line(irq)->masked = true;
	if (line(irq)->pending)
		irq_spurious_add(1);
	line(irq)->pending = false;
	msi_lent[i] = false;
	msi_frees++;
}

static const struct irqchip fake_msi_chip = {
	.name = "fake, with message-signalled lines",
	.nr_irqs = FAKE_NR_IRQS - FAKE_NR_MSI,
	.set_affinity = fake_set_affinity,
	.set_priority = fake_set_priority,
	.nr_msi = FAKE_NR_MSI,
	.msi_alloc = fake_msi_alloc,
	.msi_address = fake_msi_address,
	.msi_free = fake_msi_free,
};

void fake_irqchip_msi(void)
{
	memset(msi_lent, 0, sizeof(msi_lent));
	msi_frees = 0;
	msi_mode = true;
	for (unsigned int i = 0; i < FAKE_NR_MSI; i++) /* a free line: disabled in every file */
		lines[FAKE_NR_IRQS - FAKE_NR_MSI + 1 + i].masked = true;
	irqchip_register(&fake_msi_chip);
}

unsigned int fake_irqchip_msi_frees(void)
{
	return msi_frees;
}

static bool seip_visible;

void fake_irqchip_seip_visible(bool visible)
{
	seip_visible = visible;
}

bool arch_irq_external_pending(void)
{
	for (unsigned int irq = 1; seip_visible && irq <= FAKE_NR_IRQS; irq++) {
		const struct fake_line *l = fake_irqchip_line(irq);

		if (l->pending && !l->masked && l->prio && l->claimed_by < 0 &&
		    (l->routed & (1u << fake_hart())))
			return true;
	}
	return false;
}

void fake_irqchip_reset(void)
{
	seip_visible = false;
	msi_mode = false;
	memset(lines, 0, sizeof(lines));
	for (unsigned int irq = 0; irq <= FAKE_NR_IRQS; irq++)
		lines[irq].claimed_by = -1;
	nevents = 0;
	claim_hook = NULL;
	cycles = 0;
	cycles_step = 0;
	now = 0;
	irq_stack_used = 256;
	readied = 0;
	fake_last_readied = NULL;
	memset(runqueues, 0, sizeof(runqueues));
	console_lines = 0;
	console_last[0] = 0;
	memset(harts, 0, sizeof(harts));
	for (unsigned int h = 0; h < FAKE_NHARTS; h++) {
		harts[h].id = h;
		harts[h].bkl_token = h + 1;
		harts[h].rq = &runqueues[h];
		harts[h].hwid = h;
		harts[h].online = true;
		harts[h].irq_stack_top = FAKE_IRQ_STACK_BASE + (h + 1) * FAKE_IRQ_STACK_SIZE;
	}
	nharts = FAKE_NHARTS;
	host_current_hart = &harts[0];
	bkl = (struct bkl){ 0 };
	irqchip_register(&fake_chip);
}

const struct irqchip *fake_irqchip(void)
{
	return &fake_chip;
}

void fake_irqchip_raise(unsigned int irq)
{
	line(irq)->pending = true;
}

const struct fake_line *fake_irqchip_line(unsigned int irq)
{
	return line(irq);
}

void fake_irqchip_on_claim(void (*hook)(unsigned int hart, unsigned int irq))
{
	claim_hook = hook;
}

/* --- the log --- */

size_t fake_log_len(void)
{
	return nevents;
}

const struct fake_event *fake_log(size_t i)
{
	if (i >= nevents)
		fail_msg("fake log: event %zu of %zu", i, nevents);
	return &events[i];
}

size_t fake_log_count(enum fake_op op)
{
	size_t n = 0;

	for (size_t i = 0; i < nevents; i++)
		n += events[i].op == op;
	return n;
}

void fake_log_clear(void)
{
	nevents = 0;
}

const char *fake_op_name(enum fake_op op)
{
	static const char *const names[] = {
		[FAKE_MASK] = "mask",
		[FAKE_UNMASK] = "unmask",
		[FAKE_SET_AFFINITY] = "set_affinity",
		[FAKE_SET_PRIORITY] = "set_priority",
		[FAKE_CLAIM] = "claim",
		[FAKE_COMPLETE] = "complete",
		[FAKE_SIGNAL] = "signal",
		[FAKE_IRQ_ENABLE] = "irq_enable",
		[FAKE_IRQ_DISABLE] = "irq_disable",
		[FAKE_HOLD] = "hold",
	};

	return op < sizeof(names) / sizeof(names[0]) && names[op] ? names[op] : "?";
}

/* --- the machine --- */

void fake_set_hart(unsigned int h)
{
	if (h >= nharts)
		fail_msg("fake machine: hart %u of %u", h, nharts);
	host_current_hart = &harts[h];
}

unsigned int fake_hart(void)
{
	return host_current_hart->id;
}

void fake_set_cycles(uint64_t c)
{
	cycles = c;
}

void fake_set_irq_stack_used(uintptr_t used)
{
	irq_stack_used = used;
}

void fake_set_time(uint64_t ticks)
{
	now = ticks;
}

uint64_t arch_time_now(void) /* timer_now() */
{
	return now;
}

uint64_t fake_timer_deadline = UINT64_MAX;

void arch_timer_set(uint64_t deadline) /* what bkl_unlock() programs */
{
	fake_timer_deadline = deadline;
}

uint64_t timer_us_to_ticks(uint64_t us)
{
	return us * FAKE_TICKS_PER_US;
}

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(console_last, sizeof(console_last), fmt, ap);
	va_end(ap);
	console_lines++;
}

unsigned int fake_console_lines(void)
{
	return console_lines;
}

const char *fake_console_last(void)
{
	return console_last;
}

void fake_set_cycles_step(uint64_t step)
{
	cycles_step = step;
}

uint64_t arch_cycles(void)
{
	uint64_t c = cycles;

	cycles += cycles_step;
	return c;
}

uintptr_t arch_stack_pointer(void)
{
	return host_current_hart->irq_stack_top - irq_stack_used;
}

void arch_local_irq_enable(void)
{
	log_event((struct fake_event){ .op = FAKE_IRQ_ENABLE, .hart = fake_hart() });
}

void arch_local_irq_disable(void)
{
	log_event((struct fake_event){ .op = FAKE_IRQ_DISABLE, .hart = fake_hart() });
}

/* spinlock.c's slow side, here the test's: a wait spins (the host's threads run at once and
 * nobody sleeps, so a release has nobody to wake). */
void spin_lock_wait(struct spinlock *lock)
{
	while (__atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		;
}

void spin_wake_sleepers(struct spinlock *lock)
{
	(void)lock;
}

void spin_misuse(const struct spinlock *lock, const char *what)
{
	fail_msg("spinlock %s: %s (hart %u)", lock->name, what, fake_hart());
	abort(); /* fail_msg() leaves the test; this only tells the compiler */
}

/* --- notifications: the real ones, the signal logged --- */

/* -Wl,--wrap=notification_signal_stamped sends every call from another object file here: logged
 * (FAKE_SIGNAL), then the kernel's notification.c delivers it. */
struct thread *__real_notification_signal_stamped(struct notification *n, uint64_t bits,
						  uint64_t stamp);
struct thread *__wrap_notification_signal_stamped(struct notification *n, uint64_t bits,
						  uint64_t stamp);

struct thread *__wrap_notification_signal_stamped(struct notification *n, uint64_t bits,
						  uint64_t stamp)
{
	log_event((struct fake_event){ .op = FAKE_SIGNAL, .hart = fake_hart(), .ntfn = n,
				       .bits = bits, .stamp = stamp });
	return __real_notification_signal_stamped(n, bits, stamp);
}

/* --- the scheduler's side of a wake-up (fake_irqchip.h) --- */

struct thread *fake_last_readied;

/* What sched.c's does with the queue, without telling the hart to reschedule. */
void sched_ready(struct thread *t)
{
	if (!bkl_held())
		fail_msg("sched_ready: BKL not held (hart %u)", fake_hart());
	t->state = TACET_THREAD_READY;
	rq_push(harts[t->hart].rq, t, false);
	readied++;
	fake_last_readied = t;
}

unsigned int fake_readied_count(void)
{
	return readied;
}

/* The caller (notification_wait) queued t already; the hart's pick of another is not modelled. */
void sched_block(struct thread *t, enum tacet_thread_state state)
{
	t->state = state;
}

/* The harts' run queues (the real structure, kernel/core/runqueue.c): the fast path asks whether a
 * woken thread may run before everything READY on its hart; sched_ready queues there. */
struct runqueue runqueues[MAX_HARTS];

/* A direct switch (sched.c): next becomes the hart's current thread. */
struct thread *fake_switched_from, *fake_switched_to;

void sched_switch_direct(struct hart *me, struct thread *prev, struct thread *next)
{
	fake_switched_from = prev;
	fake_switched_to = next;
	next->state = TACET_THREAD_RUNNING;
	me->current = next;
}

/* The BKL's record of its longest hold (kernel/core/bkl.c's, which the host build leaves out
 * with the lock itself): the hold only. */
void bkl_note_hold(struct hart *me, uint64_t hold)
{
	me->bkl_hold_max = hold;
}

/* After a release (kernel/core/bkl.c's, left out with the lock): no console on the host. */
void bkl_unlock_console(struct hart *me)
{
	me->console_dirty = false;
}

/* The BKL's slow paths (kernel/core/bkl.c): one hart at a time on the host, so taken means
 * taken twice. */
void bkl_lock_slow(void)
{
	bkl_misuse("already held by this hart");
}

void bkl_lock_urgent_slow(void)
{
	bkl_misuse("already held by this hart");
}

/* No hart waits for the lock on the host. */
void bkl_hand_over(struct bkl *l)
{
	(void)l;
	fail_msg("bkl: a release found an heir on the host");
}

void bkl_wake_next(struct hart *me)
{
	(void)me;
	fail_msg("bkl: a release found sleepers on the host");
}

void bkl_misuse(const char *what)
{
	fail_msg("bkl: %s (hart %u)", what, fake_hart());
	abort();
}

/* --- what a notification's making and end reach (notification.c): not these tests' paths --- */

static void not_here(const char *what)
{
	fail_msg("%s: the interrupt tests make no notification and end none", what);
	abort();
}

void *kobj_new(struct account *acct, size_t size, uint32_t type)
{
	(void)acct, (void)size, (void)type;
	not_here("kobj_new");
	return NULL;
}

void kobj_free(struct kobj *o, size_t size)
{
	(void)o, (void)size;
	not_here("kobj_free");
}

void endpoint_unwatch(struct notification *n)
{
	(void)n;
	not_here("endpoint_unwatch");
}

bool thread_wake_some(struct tqueue *q, long err, unsigned int max)
{
	(void)q, (void)err, (void)max;
	not_here("thread_wake_some");
	return true;
}

bool process_watch_unlink_step(struct list_node *ntfn_watches)
{
	(void)ntfn_watches;
	not_here("process_watch_unlink_step");
	return true;
}

void reaper_free(struct kobj *o)
{
	(void)o;
	not_here("reaper_free");
}

void timer_reprogram(void)
{
	not_here("timer_reprogram");
}
