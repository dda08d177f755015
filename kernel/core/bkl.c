/* bkl.c: the big kernel lock's contended side (bkl.h): the queue of waiters, their sleep and
 * wake-up, the hand-over to a starved head, the hold records and the preemption point.
 * A waiter's place in the queue and whether it sleeps are in its struct hart (bkl_ticket,
 * bkl_queued, bkl_asleep: written by that hart, read by the releasing one); a sleeper asks the
 * holder to wake the head at its release through the holder's bkl_wake (the one byte of another
 * hart's struct that harts set, with an atomic OR). */
#include <stddef.h>
#include "core/bkl.h"
#include "core/console.h"
#include "core/hart.h"
#include "core/panic.h"
#include "core/platform.h"
#include "core/timer.h"
#include "core/trace.h"

struct bkl bkl;

/* How long the queue's head lets harts arriving at a free lock go first before it claims the
 * next release (cycles; instructions under -icount). */
#define BKL_STARVE 20000

#define BKL_WAKE_BIT (1u << 24) /* bkl_wake within unlock_work (hart.h) */
_Static_assert(offsetof(struct hart, bkl_wake) == offsetof(struct hart, unlock_work) + 3 &&
		       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "BKL_WAKE_BIT is bkl_wake's byte of unlock_work");

_Noreturn void bkl_misuse(const char *what)
{
	const struct hart *o = bkl_holder();

	panic("bkl: %s (hart %u, holder %d)", what, this_hart()->id, o ? (int)o->id : -1);
}

/* Ask the hart holding the lock now to wake the head at its release; false if the lock is free
 * or handed to this hart (look again). Its bkl_wake is set first, then the lock word read
 * again: the release swaps it (to 0, or to the heir's token), then reads unlock_work
 * (bkl_unlock), so either the release sees the request or this look sees the release. The word
 * names its holder from the swap that took it on: no window where it is held by nobody known. */
static bool ask_holder_to_wake(struct hart *me)
{
	uint32_t v = __atomic_load_n(&bkl.locked, __ATOMIC_ACQUIRE);

	if (!v || v == me->bkl_token)
		return false;
	__atomic_fetch_or(&harts[v - 1].unlock_work, BKL_WAKE_BIT, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&bkl.locked, __ATOMIC_SEQ_CST) == v;
}

struct bkl_waits bkl_waits[MAX_HARTS];

/* The hand-over's record (bkl.h): a wait of this hart's, from its arrival to its take. */
static void note_wait(struct hart *me, uint64_t wait, bool slept)
{
	struct bkl_waits *w = &bkl_waits[me->id];

	if (wait > me->bkl_wait_max)
		me->bkl_wait_max = wait;
	w->hist[tacet_log2hist_bucket(wait)]++;
	w->total += wait;
	w->slept += slept;
}

/* Sleep until an IPI: the head's wake-up at a release, a hand-over, or an IPI with requests
 * (hart_signal), which is taken here too: returns true, and the caller makes it pending again
 * once it has the lock. Counted asleep first. A waiter behind the head sleeps until it is the
 * head: the hart that takes the lock out of the queue makes the next waiter the head, then
 * finds the count and asks itself to wake the new head at its release (bkl_lock_slow: it
 * writes qhead, then reads sleepers; this hart counts itself, then reads qhead: one of the two
 * sees the other). The head sleeps only once the holder is asked to wake it. A wake-up that
 * comes between the look and the wfi is not lost: the IPI stays pending and wfi returns at
 * once. */
static bool sleep_once(struct hart *me, uint64_t t, bool *slept)
{
	bool requests = false, head;

	__atomic_store_n(&me->bkl_asleep, true, __ATOMIC_RELAXED);
	__atomic_fetch_add(&bkl.sleepers, 1, __ATOMIC_SEQ_CST); /* after the flag */
	head = __atomic_load_n(&bkl.qhead, __ATOMIC_SEQ_CST) == t;
	if (!head || ask_holder_to_wake(me)) {
		requests = hart_sleep_until_ipi(me);
		*slept = true;
	}
	__atomic_store_n(&me->bkl_asleep, false, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&bkl.sleepers, 1, __ATOMIC_RELAXED);
	return requests;
}

/* Become the heir: if no hart is, or, for a hart entering for an interrupt (urgent:
 * bkl_lock_urgent), in the place of a queue head that became it after BKL_STARVE, never of
 * another interrupt's hart (that one's claim stands: this one queues). The heir is cleared only
 * by the release that hands it the lock (bkl_hand_over) or by itself once it has the lock,
 * each by a compare-and-swap, so an interrupt's claim is never undone and the release hands
 * that hart the lock. A head put out of the place loses no wake-up: it sleeps only once it
 * has asked the holder to wake it at the release (sleep_once), and claims the place again at a
 * later look. */
static bool claim_heir(struct hart *me, bool urgent)
{
	struct hart *cur = __atomic_load_n(&bkl.heir, __ATOMIC_SEQ_CST);

	do {
		if (cur && (!urgent || __atomic_load_n(&cur->bkl_urgent, __ATOMIC_SEQ_CST)))
			return false;
	} while (!__atomic_compare_exchange_n(&bkl.heir, &cur, me, false, __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	return true;
}

/* The heir, once it has the lock by itself (it was free), gives the place up, unless it was
 * handed over meanwhile (then the release cleared it). */
static void heir_done(struct hart *me)
{
	struct hart *expect = me;

	__atomic_compare_exchange_n(&bkl.heir, &expect, NULL, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_RELAXED);
}

/* The head's one try: the lock handed to it, or free and taken. A head that has waited
 * BKL_STARVE claims the next release (only the head sets heir; a hand-over clears it, and a
 * hand-over may come between the look at the word and the claim: it is looked at again). */
static bool head_try(struct hart *me, uint64_t since)
{
	uint32_t v = __atomic_load_n(&bkl.locked, __ATOMIC_ACQUIRE);

	if (v == me->bkl_token)
		return true; /* handed over */
	if (!v && !arch_cas_from_zero_acquire(&bkl.locked, me->bkl_token))
		return true;
	if (arch_cycles() - since > BKL_STARVE && claim_heir(me, false))
		return __atomic_load_n(&bkl.locked, __ATOMIC_SEQ_CST) == me->bkl_token;
	return false;
}

/* The lock is this hart's after a wait from start: requests that came with a wake-up made
 * pending again (sleep_once), the hold's start, the wait recorded. */
static void taken(struct hart *me, uint64_t start, bool requests, bool slept)
{
	if (requests)
		arch_ipi_raise_self();
	me->bkl_since = arch_cycles();
	ktest_mark_hold_start();
	note_wait(me, me->bkl_since - start, slept);
	trace_event(TACET_TRACE_BKL, NULL, 0, start);
}

/* bkl_lock_masked() found the lock taken: a hart that holds it already is a bug (it would wait
 * for itself for ever); otherwise take a ticket in the queue and wait: look a few times, then
 * sleep until woken. Interrupts stay masked throughout and only IPIs wake the sleep: a device
 * line of this hart or its timer is taken after the lock, by the entry that is waiting; an
 * IPI's requests are made pending again then. TLB shootdowns are answered while waiting: the
 * holder may be waiting for exactly that. */
static void queue_wait(struct hart *me, uint64_t start)
{
	uint64_t head_since = 0, t;
	unsigned int looks = 0;
	bool requests = false, slept = false;

	t = __atomic_fetch_add(&bkl.qnext, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&me->bkl_ticket, (uint32_t)t, __ATOMIC_RELAXED);
	__atomic_store_n(&me->bkl_queued, true, __ATOMIC_SEQ_CST);
	for (;;) {
		hart_tlb_flush_if_asked();
		if (__atomic_load_n(&bkl.qhead, __ATOMIC_ACQUIRE) == t) {
			if (!head_since)
				head_since = arch_cycles() | 1;
			if (head_try(me, head_since))
				break;
		}
		if (looks++ < HART_WAIT_LOOKS)
			arch_cpu_relax();
		else if (sleep_once(me, t, &slept))
			requests = true;
	}
	/* the lock is this hart's: leave the queue, the next waiter is its head */
	heir_done(me);
	__atomic_store_n(&me->bkl_queued, false, __ATOMIC_RELAXED);
	__atomic_store_n(&bkl.qhead, t + 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&bkl.sleepers, __ATOMIC_SEQ_CST))
		__atomic_store_n(&me->bkl_wake, true, __ATOMIC_RELAXED); /* wake the new head */
	taken(me, start, requests, slept);
}

void bkl_lock_slow(void)
{
	if (KDEBUG && bkl_held())
		bkl_misuse("already held by this hart");
	queue_wait(this_hart(), arch_cycles());
}

/* Sleep as the heir until the lock is handed over or freed. Like a queue's head it sleeps only
 * once it has asked the holder to wake it at its release (ask_holder_to_wake: the request set,
 * then the word read again; the release swaps the word, then reads the request), and the
 * release wakes the heir as it wakes the head (bkl_wake_next): a release that looked at the
 * place before this hart took it frees the lock without a hand-over, and only the request
 * tells it that a sleeper waits. A hand-over wakes it too (bkl_hand_over). Returns whether the
 * IPI came with requests (sleep_once). */
static bool heir_sleep(struct hart *me, bool *slept)
{
	bool requests = false;

	__atomic_store_n(&me->bkl_asleep, true, __ATOMIC_SEQ_CST);
	if (ask_holder_to_wake(me)) {
		requests = hart_sleep_until_ipi(me);
		*slept = true;
	}
	__atomic_store_n(&me->bkl_asleep, false, __ATOMIC_RELAXED);
	return requests;
}

/* How long an interrupt's entry waiting for the lock looks before it sleeps, in timebase ticks
 * past its HART_WAIT_LOOKS (boot argument bkl_spin_us=; 0, the default: sleep after those
 * looks). Under -icount a hart that looks stalls the one it waits for (the harts run in turn),
 * so there the looks must be few; where the harts run side by side the holder's hold goes on
 * meanwhile, and a look that outlasts the hold spares the sleep's wake-up, an IPI and the
 * waking of a halted hart (in QEMU's MTTCG, a host thread's). */
static uint64_t urgent_spin_ticks;

void bkl_spin_init(void)
{
	char arg[16];
	const char *v = platform_bootarg("bkl_spin_us", arg, sizeof(arg));
	uint64_t us = 0;

	while (v && *v >= '0' && *v <= '9' && us < 1000000)
		us = us * 10 + (uint64_t)(*v++ - '0');
	urgent_spin_ticks = timer_us_to_ticks(us);
}

/* An urgent waiter's next look: a relax (true), or time to sleep (false). */
static bool urgent_look(unsigned int *looks, uint64_t since)
{
	if ((*looks)++ < HART_WAIT_LOOKS ||
	    (urgent_spin_ticks && arch_time_now() - since < urgent_spin_ticks)) {
		arch_cpu_relax();
		return true;
	}
	return false;
}

/* One look of an interrupt's entry that found the heir's place another interrupt's: the lock
 * taken if it is free, else a look, or a sleep once the holder is asked to wake it (a release
 * wakes every such sleeper, bkl_wake_next). True if it took the lock. It claims the place again
 * at each look (bkl_lock_urgent_slow), so it goes in right after that other one, before the
 * queue: behind it, an interrupt waits for two holds, not for every queued hart's. */
static bool urgent_second_look(struct hart *me, unsigned int *looks, uint64_t since,
			       bool *requests, bool *slept)
{
	hart_tlb_flush_if_asked();
	if (!__atomic_load_n(&bkl.locked, __ATOMIC_ACQUIRE) &&
	    arch_cas_from_zero_acquire(&bkl.locked, me->bkl_token) == 0)
		return true;
	if (!urgent_look(looks, since) && heir_sleep(me, slept))
		*requests = true;
	return false;
}

void bkl_lock_urgent_slow(void)
{
	struct hart *me = this_hart();
	uint64_t start = arch_cycles(), since = urgent_spin_ticks ? arch_time_now() : 0;
	unsigned int looks = 0;
	bool requests = false, slept = false;
	uint32_t v;

	if (KDEBUG && bkl_held())
		bkl_misuse("already held by this hart");
	__atomic_store_n(&me->bkl_urgent, true, __ATOMIC_SEQ_CST); /* before the claim */
	while (!claim_heir(me, true)) { /* another interrupt's hart is the heir */
		if (urgent_second_look(me, &looks, since, &requests, &slept)) {
			__atomic_store_n(&me->bkl_urgent, false, __ATOMIC_RELAXED);
			taken(me, start, requests, slept);
			return;
		}
	}
	for (;;) {
		hart_tlb_flush_if_asked();
		v = __atomic_load_n(&bkl.locked, __ATOMIC_ACQUIRE);
		if (v == me->bkl_token) /* handed over: the release cleared the heir */
			break;
		if (!v && !arch_cas_from_zero_acquire(&bkl.locked, me->bkl_token)) {
			heir_done(me); /* free before its holder saw this hart as the heir */
			break;
		}
		if (!urgent_look(&looks, since) && heir_sleep(me, &slept))
			requests = true;
	}
	__atomic_store_n(&me->bkl_urgent, false, __ATOMIC_RELAXED);
	taken(me, start, requests, slept);
}

/* The queue's head, if it is in the queue (NULL: none, or not yet marked). */
static struct hart *queue_head(void)
{
	uint64_t head = __atomic_load_n(&bkl.qhead, __ATOMIC_SEQ_CST);

	for (unsigned int h = 0; h < nharts; h++)
		if (__atomic_load_n(&harts[h].bkl_queued, __ATOMIC_RELAXED) &&
		    __atomic_load_n(&harts[h].bkl_ticket, __ATOMIC_RELAXED) == (uint32_t)head)
			return &harts[h]; /* a queued ticket lies within nharts of the head */
	return NULL;
}

/* Interrupt the head if it sleeps (one that only looks finds the lock by itself), and every
 * interrupt's hart asleep outside the queue (heir_sleep): the heir, and one waiting for the
 * heir's place (urgent_second_look). */
void bkl_wake_next(struct hart *me)
{
	struct hart *h;

	__atomic_store_n(&me->bkl_wake, false, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the flags and tickets after the request */
	h = queue_head();
	if (h && __atomic_load_n(&h->bkl_asleep, __ATOMIC_RELAXED))
		arch_ipi_send(h); /* a bare wake-up: arch_ipi_wait() takes it */
	for (unsigned int i = 0; i < nharts; i++) {
		h = &harts[i];
		if (h != me && __atomic_load_n(&h->bkl_urgent, __ATOMIC_SEQ_CST) &&
		    __atomic_load_n(&h->bkl_asleep, __ATOMIC_SEQ_CST))
			arch_ipi_send(h); /* an interrupt's heir, or one waiting for its place */
	}
}

/* The lock stays taken and becomes the heir's: the word names it (head_try). The place is
 * cleared by a compare-and-swap: a hart taking an interrupt may have taken it from a queue head
 * since the release looked (claim_heir), and then the lock is that hart's. */
void bkl_hand_over(struct bkl *l)
{
	struct hart *h = __atomic_load_n(&l->heir, __ATOMIC_SEQ_CST);

	while (!__atomic_compare_exchange_n(&l->heir, &h, NULL, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST))
		; /* h is now the heir that took the place */
	if (KDEBUG && !h)
		bkl_misuse("a hand-over without an heir");
	__atomic_store_n(&l->locked, h->bkl_token, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&h->bkl_asleep, __ATOMIC_SEQ_CST))
		arch_ipi_send(h);
}

void bkl_note_hold(struct hart *me, uint64_t hold)
{
	const struct trap_frame *tf = me->user_ctx;

	me->bkl_hold_max = hold;
	me->bkl_hold_cause = tf ? arch_ctx_cause(tf) : 0;
	me->bkl_hold_call = tf ? arch_ctx_syscall_nr(tf) : 0;
}

void bkl_unlock_console(struct hart *me)
{
	console_written_after_unlock(me);
}

bool bkl_yield(void)
{
	struct hart *me = this_hart();
	uint64_t now = arch_cycles();
	struct hart *head;

	if (now - me->bkl_since < BKL_YIELD_AFTER)
		return false; /* held briefly yet: going on costs others less than a hand-over */
	if (!arch_interrupts_pending() && !bkl_contended()) {
		/* nobody to let in: the hold goes on, but what a waiter could have waited ends
		 * here, so the measured hold does too (bkl_hold_max: the longest stretch without a
		 * point where the lock would have been let go) */
		if (now - me->bkl_since > me->bkl_hold_max)
			bkl_note_hold(me, now - me->bkl_since);
		me->bkl_since = now;
		ktest_mark_hold_restart();
		return false;
	}
	/* the first waiter goes in now (a release alone would let this hart take it back) */
	head = queue_head();
	if (head)
		claim_heir(head, false); /* unless a hart taking an interrupt is the heir already */
	bkl_unlock();
	arch_take_pending_interrupts(); /* each top half takes the BKL itself */
	bkl_lock();
	return true;
}
