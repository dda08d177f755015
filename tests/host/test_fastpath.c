/* test_fastpath.c: host unit tests of the IPC fast paths (kernel/core/fastpath.h: call and
 * reply_recv) against the fake machine of fake_irqchip.c, the real capability tables and
 * notifications. Each fall-back the fast paths promise (anything unusual: a capability either way,
 * a kernel label, a reply slot, nobody or somebody unfit receiving, a pending caller, another
 * hart, a more urgent READY thread, senders queued, a bound notification's bits, a faulted caller,
 * an ended endpoint) must return 0 and change nothing, so the general path (endpoint.c) runs; the
 * fast cases must switch straight to the other thread with the message in its registers. And the
 * wait's and the receive's fast paths (bits at once, or block and switch, or leave the hart to the
 * scheduler). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <cmocka.h>

#include "object/cap.h"
#include "fake_irqchip.h"
#include "fake_kernel.h"
#include "fake_pages.h"
#include "core/runqueue.h"
#include "core/fastpath.h"

/* The client's and the server's capabilities. */
enum slot {
	SLOT_EP = 1,  /* the endpoint: WRITE for the client, READ for the server */
	SLOT_EP_RO,   /* client: READ only (cannot call) */
	SLOT_TAKEN,   /* server: an occupied slot (no capability may be received there) */
};

#define BADGE 0x77
#define PRIO_CLIENT 10
#define PRIO_SERVER 20

static struct process client_p, server_p;
static struct thread client, server;
static struct endpoint ep;
static struct notification ntfn;

static void install(struct cspace *cs, unsigned long slot, struct kobj *obj, uint32_t rights,
		    uint64_t badge)
{
	long err = 0;
	struct cap *c = cap_empty_slot(cs, slot, &err);

	if (!c)
		fail_msg("slot %lu: error %ld", slot, err);
	cap_install(c, obj, rights, badge);
}

static void new_process(struct process *p, struct thread *t, unsigned int prio)
{
	p->obj = (struct kobj){ .type = TACET_CAP_PROCESS, .refs = 1 };
	p->cspace = cspace_new();
	assert_non_null(p->cspace);
	*t = (struct thread){ .obj = { .type = TACET_CAP_THREAD, .refs = 1 }, .proc = p,
			      .prio = (uint8_t)prio, .hart = 0 };
}

/* The server waits in receive on ep; the client runs. */
static int setup(void **state)
{
	(void)state;
	fake_kernel_reset();
	fake_irqchip_reset();
	memset(&ep, 0, sizeof(ep));
	memset(&ntfn, 0, sizeof(ntfn));
	new_process(&client_p, &client, PRIO_CLIENT);
	new_process(&server_p, &server, PRIO_SERVER);
	ep.obj = (struct kobj){ .type = TACET_CAP_ENDPOINT, .refs = 1 };
	ep.owner = &server_p;
	ntfn.obj = (struct kobj){ .type = TACET_CAP_NOTIFICATION, .refs = 1 };
	install(client_p.cspace, SLOT_EP, &ep.obj, TACET_RIGHT_WRITE, BADGE);
	install(client_p.cspace, SLOT_EP_RO, &ep.obj, TACET_RIGHT_READ, BADGE);
	install(server_p.cspace, SLOT_EP, &ep.obj, TACET_RIGHT_READ, 0);
	install(server_p.cspace, SLOT_TAKEN, &ntfn.obj, TACET_RIGHT_WRITE, 0);
	client.state = TACET_THREAD_RUNNING;
	server.state = TACET_THREAD_BLOCKED_RECV;
	server.blocked_on = &ep;
	tqueue_push(&ep.receivers, &server, 0);
	harts[0].current = &client;
	return 0;
}

/* The BKL free; the capability tables go, and with them every page; no reference lost. */
static int teardown(void **state)
{
	(void)state;
	assert_int_equal(bkl_is_locked(), 0);
	cspace_free(client_p.cspace);
	cspace_free(server_p.cspace);
	assert_int_equal(fake_pages_in_use(), 0);
	assert_int_equal(ep.obj.refs, 1);
	assert_int_equal(ntfn.obj.refs, 1);
	return 0;
}

/* A fast path run by t on hart 0, the BKL held as the trap entry holds it. */
static int run(int (*path)(struct hart *, struct thread *), struct thread *t)
{
	int done;

	fake_switched_from = fake_switched_to = NULL;
	bkl_lock();
	done = path(&harts[0], t);
	bkl_unlock();
	return done;
}

/* t's message: a0 the endpoint, a1 the tag, a2.. words first + i, a6 a capability slot. */
static void message(struct thread *t, unsigned long slot, unsigned long tag,
		    unsigned long first, unsigned long cap_slot)
{
	arch_ctx_set_ret(&t->ctx, 0, slot);
	arch_ctx_set_ret(&t->ctx, 1, tag);
	for (int i = 0; i < TACET_MSG_WORDS; i++)
		arch_ctx_set_ret(&t->ctx, 2 + i, first + i);
	arch_ctx_set_ret(&t->ctx, 6, cap_slot);
}

/* The client's CALL: a6 is its reply slot (0: none). */
static int call(unsigned long slot, unsigned long tag, unsigned long reply_slot)
{
	message(&client, slot, tag, 0x100, reply_slot);
	return run(fastpath_call, &client);
}

/* Nothing changed: the server still waits, the client still runs, no switch. */
static void assert_untouched(void)
{
	assert_null(fake_switched_to);
	assert_ptr_equal(ep.receivers.head, &server);
	assert_int_equal(server.state, TACET_THREAD_BLOCKED_RECV);
	assert_null(server.reply_to);
	assert_int_equal(client.state, TACET_THREAD_RUNNING);
	assert_null(client.replier);
}

static void test_call_fallbacks(void **state)
{
	struct thread other = { .prio = PRIO_CLIENT };
	struct thread urgent = { .prio = PRIO_SERVER + 1, .hart = 0,
				 .state = TACET_THREAD_READY };

	(void)state;
	assert_int_equal(call(SLOT_EP, TACET_TAG_CAP(1, 1, 5), 0), 0); /* a capability sent */
	assert_int_equal(call(SLOT_EP, TACET_TAG(TACET_LABEL_KERNEL, 1), 0), 0); /* forged */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, TACET_MSG_WORDS + 1), 0), 0);
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 9), 0); /* a capability wanted back */
	assert_int_equal(call(SLOT_EP_RO, TACET_TAG(1, 1), 0), 0); /* no WRITE */
	assert_int_equal(call(SLOT_TAKEN, TACET_TAG(1, 1), 0), 0); /* empty for the client */
	server.reply_to = &other; /* it owes an earlier caller its reply */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 0), 0);
	server.reply_to = NULL;
	server.prio = PRIO_CLIENT - 1; /* less urgent than the caller */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 0), 0);
	server.prio = PRIO_SERVER;
	server.hart = 1; /* on another hart */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 0), 0);
	server.hart = 0;
	rq_push(harts[0].rq, &urgent, false); /* something READY more urgent than the server */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 0), 0);
	rq_remove(harts[0].rq, &urgent);
	assert_untouched();
	tqueue_pop(&ep.receivers); /* nobody receiving */
	assert_int_equal(call(SLOT_EP, TACET_TAG(1, 1), 0), 0);
	assert_null(fake_switched_to);
}

static void test_call_fast(void **state)
{
	(void)state;
	assert_int_equal(call(SLOT_EP, TACET_TAG(5, 3), 0), 1);
	assert_ptr_equal(fake_switched_from, &client);
	assert_ptr_equal(fake_switched_to, &server);
	assert_null(ep.receivers.head);
	assert_null(server.blocked_on);
	assert_int_equal(arch_ctx_arg(&server.ctx, 0), 0);
	assert_int_equal(arch_ctx_arg(&server.ctx, 1), TACET_TAG(5, 3));
	for (int i = 0; i < TACET_MSG_WORDS; i++)
		assert_int_equal(arch_ctx_arg(&server.ctx, 2 + i), 0x100 + i);
	assert_int_equal(arch_ctx_arg(&server.ctx, 6), BADGE);
	assert_ptr_equal(server.reply_to, &client);
	assert_ptr_equal(client.replier, &server);
	assert_int_equal(client.state, TACET_THREAD_BLOCKED_REPLY);
}

/* The server's REPLY_RECV: a0 endpoint, a1 tag, a2.. words, a6 its receive slot. */
static int reply_recv(unsigned long slot, unsigned long tag, unsigned long recv_slot)
{
	message(&server, slot, tag, 0x200, recv_slot);
	return run(fastpath_reply_recv, &server);
}

/* After the client's call went the fast way: the server runs and owes the client its reply. */
static void called(void)
{
	assert_int_equal(call(SLOT_EP, TACET_TAG(5, 1), 0), 1);
	server.state = TACET_THREAD_RUNNING;
	harts[0].current = &server;
}

static void assert_reply_untouched(void)
{
	assert_null(fake_switched_to);
	assert_ptr_equal(server.reply_to, &client);
	assert_ptr_equal(client.replier, &server);
	assert_int_equal(client.state, TACET_THREAD_BLOCKED_REPLY);
	assert_null(ep.receivers.head);
	assert_int_equal(server.state, TACET_THREAD_RUNNING);
}

static void test_reply_recv_fallbacks(void **state)
{
	struct thread sender = { .prio = PRIO_CLIENT, .state = TACET_THREAD_BLOCKED_SEND };
	struct thread urgent = { .prio = PRIO_SERVER + 1, .hart = 0,
				 .state = TACET_THREAD_READY };

	(void)state;
	called();
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG_CAP(0, 1, 5), 0), 0); /* a capability sent */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(TACET_LABEL_KERNEL, 1), 0), 0);
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), SLOT_TAKEN), 0); /* slot in use */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 100000), 0); /* no such slot */
	assert_int_equal(reply_recv(SLOT_TAKEN, TACET_TAG(0, 1), 0), 0); /* not an endpoint */
	client.in_fault = 1; /* the "call" was a fault report */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	client.in_fault = 0;
	tqueue_push(&ep.senders, &sender, 0); /* a sender is queued: it is received next */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	tqueue_pop(&ep.senders);
	server.bound_ntfn = &ntfn; /* its bound notification has bits: they come first */
	ntfn.bits = 1;
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	server.bound_ntfn = NULL;
	ntfn.bits = 0;
	client.hart = 1; /* the caller on another hart */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	client.hart = 0;
	urgent.prio = PRIO_CLIENT + 1; /* READY and more urgent than the caller */
	rq_push(harts[0].rq, &urgent, false);
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	rq_remove(harts[0].rq, &urgent);
	ep.owner = NULL; /* ended: receiving on it says EDEAD, the slow path's job */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	ep.owner = &server_p;
	assert_reply_untouched();
	server.reply_to = NULL; /* nobody to reply to */
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 1), 0), 0);
	assert_null(fake_switched_to);
}

static void test_reply_recv_fast(void **state)
{
	(void)state;
	called();
	assert_int_equal(reply_recv(SLOT_EP, TACET_TAG(0, 2), SLOT_TAKEN + 1), 1);
	assert_ptr_equal(fake_switched_from, &server);
	assert_ptr_equal(fake_switched_to, &client);
	assert_int_equal(arch_ctx_arg(&client.ctx, 0), 0);
	assert_int_equal(arch_ctx_arg(&client.ctx, 1), TACET_TAG(0, 2));
	for (int i = 0; i < TACET_MSG_WORDS; i++)
		assert_int_equal(arch_ctx_arg(&client.ctx, 2 + i), 0x200 + i);
	assert_null(client.replier);
	assert_null(server.reply_to);
	assert_int_equal(server.state, TACET_THREAD_BLOCKED_RECV);
	assert_ptr_equal(server.blocked_on, &ep);
	assert_ptr_equal(ep.receivers.head, &server);
	assert_int_equal(server.recv_slot, SLOT_TAKEN + 1);
}

/* The server's WAIT on a notification (a0: the slot). */
/* The server blocked (state) in q, on obj, with no switch: nothing was READY, the scheduler
 * idles the hart. It is taken out of q again, running, for the next case. */
static void assert_blocked_here(enum tacet_thread_state state, void *obj, struct tqueue *q)
{
	assert_int_equal(server.state, state);
	assert_ptr_equal(server.blocked_on, obj);
	assert_ptr_equal(q->head, &server);
	assert_null(fake_switched_to);
	tqueue_pop(q);
}

static int wait_fast(unsigned long slot)
{
	arch_ctx_set_ret(&server.ctx, 0, slot);
	return run(fastpath_wait, &server);
}

/* The server leaves its receive and runs on hart 0 (its own call comes next). */
static void server_running(void)
{
	tqueue_pop(&ep.receivers);
	server.state = TACET_THREAD_RUNNING;
	server.blocked_on = NULL;
	harts[0].current = &server;
}

/* A wait takes bits there at once; without any it blocks and switches to the most urgent
 * READY thread, or leaves the hart to the scheduler; a bad capability takes the slow path. */
static void test_wait_fast(void **state)
{
	struct thread ready = { .prio = 5, .hart = 0, .state = TACET_THREAD_READY };

	(void)state;
	server_running();
	install(server_p.cspace, SLOT_EP_RO, &ntfn.obj, TACET_RIGHT_READ, 0);
	assert_int_equal(wait_fast(SLOT_TAKEN), FAST_NO); /* WRITE only: no READ */
	assert_int_equal(wait_fast(SLOT_EP), FAST_NO);    /* not a notification */
	ntfn.bits = 0x5;
	assert_int_equal(wait_fast(SLOT_EP_RO), FAST_DONE);
	assert_int_equal(arch_ctx_arg(&server.ctx, 0), 0x5);
	assert_int_equal(ntfn.bits, 0);
	assert_int_equal(server.state, TACET_THREAD_RUNNING);
	assert_null(fake_switched_to);
	/* nothing there, nothing READY: blocked, the scheduler idles the hart */
	assert_int_equal(wait_fast(SLOT_EP_RO), FAST_SCHEDULE);
	assert_blocked_here(TACET_THREAD_BLOCKED_NTFN, &ntfn, &ntfn.waiters);
	/* nothing there, a thread READY (even a less urgent one): switched to it */
	server.state = TACET_THREAD_RUNNING;
	rq_push(harts[0].rq, &ready, false);
	assert_int_equal(wait_fast(SLOT_EP_RO), FAST_DONE);
	assert_ptr_equal(fake_switched_from, &server);
	assert_ptr_equal(fake_switched_to, &ready);
	assert_int_equal(harts[0].rq->nready, 0);
	assert_ptr_equal(ntfn.waiters.head, &server);
	tqueue_pop(&ntfn.waiters);
}

/* The server's RECV on slot into recv_slot. */
static int recv_fast(unsigned long slot, unsigned long recv_slot)
{
	arch_ctx_set_ret(&server.ctx, 0, slot);
	arch_ctx_set_ret(&server.ctx, 1, recv_slot);
	return run(fastpath_recv, &server);
}

/* The receive's fast path (a service loop going back to sleep): nothing to take, so the
 * server blocks on the endpoint and the hart switches away as a wait does; anything to take
 * or anything wrong leaves it to the general receive, nothing changed. */
static void test_recv_fast(void **state)
{
	struct thread sender = { .prio = 5, .hart = 0, .state = TACET_THREAD_BLOCKED_SEND };
	struct thread ready = { .prio = 5, .hart = 0, .state = TACET_THREAD_READY };

	(void)state;
	server_running();
	/* the general receive's cases: nothing done */
	assert_int_equal(recv_fast(SLOT_TAKEN, 0), FAST_NO);  /* not an endpoint */
	assert_int_equal(recv_fast(SLOT_EP, SLOT_TAKEN), FAST_NO); /* the slot is taken */
	assert_int_equal(recv_fast(SLOT_EP, CSPACE_SLOTS), FAST_NO); /* no such slot */
	tqueue_push(&ep.senders, &sender, 0); /* a sender to take */
	assert_int_equal(recv_fast(SLOT_EP, 0), FAST_NO);
	tqueue_pop(&ep.senders);
	server.bound_ntfn = &ntfn; /* its bound notification's bits come first */
	ntfn.bits = 0x1;
	assert_int_equal(recv_fast(SLOT_EP, 0), FAST_NO);
	server.bound_ntfn = NULL;
	ntfn.bits = 0;
	ep.owner = NULL; /* ended: the general path says EDEAD */
	assert_int_equal(recv_fast(SLOT_EP, 0), FAST_NO);
	ep.owner = &server_p;
	assert_null(ep.receivers.head);
	assert_int_equal(server.state, TACET_THREAD_RUNNING);
	assert_null(fake_switched_to);
	/* nothing to take, nothing READY: blocked, the scheduler idles the hart */
	assert_int_equal(recv_fast(SLOT_EP, 0), FAST_SCHEDULE);
	assert_blocked_here(TACET_THREAD_BLOCKED_RECV, &ep, &ep.receivers);
	/* a thread READY: switched to it, the receive slot kept for the message to come */
	server.state = TACET_THREAD_RUNNING;
	rq_push(harts[0].rq, &ready, false);
	assert_int_equal(recv_fast(SLOT_EP, SLOT_EP_RO), FAST_DONE);
	assert_ptr_equal(fake_switched_from, &server);
	assert_ptr_equal(fake_switched_to, &ready);
	assert_int_equal(server.recv_slot, SLOT_EP_RO);
	assert_ptr_equal(ep.receivers.head, &server);
	assert_int_equal(harts[0].rq->nready, 0);
}

/* The signal's fast path wakes a waiter through the one notification wake (notification.h),
 * as the general path does: a more urgent waiter blocked in IRQ_ACK_WAIT (it asked for an
 * interrupt's stamp) gets the bits, a1 = 0 (not woken by an interrupt) and no stamp owed any
 * more; the signaller stays READY, first in line. */
static void test_signal_fast_wakes_as_signal_does(void **state)
{
	enum { SLOT_NTFN = 4 };

	(void)state;
	tqueue_pop(&ep.receivers);
	server.blocked_on = &ntfn;
	server.state = TACET_THREAD_BLOCKED_NTFN;
	server.irq_stamp_wanted = true;
	arch_ctx_set_ret(&server.ctx, 1, 0x1234);
	tqueue_push(&ntfn.waiters, &server, 0);
	ntfn.bits = 0x10;
	install(client_p.cspace, SLOT_NTFN, &ntfn.obj, TACET_RIGHT_WRITE, 0);
	arch_ctx_set_ret(&client.ctx, 0, SLOT_NTFN);
	arch_ctx_set_ret(&client.ctx, 1, 0x3);
	assert_int_equal(run(fastpath_signal, &client), 1);
	assert_ptr_equal(fake_switched_from, &client);
	assert_ptr_equal(fake_switched_to, &server);
	assert_int_equal(arch_ctx_arg(&server.ctx, 0), 0x13);
	assert_int_equal(arch_ctx_arg(&server.ctx, 1), 0);
	assert_false(server.irq_stamp_wanted);
	assert_null(server.blocked_on);
	assert_null(ntfn.waiters.head);
	assert_int_equal(ntfn.bits, 0);
	assert_int_equal(arch_ctx_arg(&client.ctx, 0), 0);
	assert_int_equal(client.state, TACET_THREAD_READY);
	assert_ptr_equal(harts[0].rq->first, &client);
	rq_remove(harts[0].rq, &client);
}

/* The BKL measures its holds (bkl.h): a hold is the cycles from the lock to the unlock on this
 * hart, and only a hold longer than every one before is recorded. */
static void test_bkl_hold_measured(void **state)
{
	(void)state;
	harts[0].bkl_hold_max = 0;
	fake_set_cycles(1000);
	bkl_lock();
	fake_set_cycles(1500);
	bkl_unlock();
	assert_int_equal(harts[0].bkl_hold_max, 500);
	fake_set_cycles(2000);
	bkl_lock();
	fake_set_cycles(2100); /* shorter: not recorded */
	bkl_unlock();
	assert_int_equal(harts[0].bkl_hold_max, 500);
	bkl_lock();
	fake_set_cycles(3000);
	bkl_unlock();
	assert_int_equal(harts[0].bkl_hold_max, 900);
}

/* A deadline armed while the BKL is held reaches the timer hardware only when the BKL is
 * released (timer.h: under -icount, arming a sooner timer ends the hart's turn in QEMU, which
 * must not happen with the lock held), as the sooner of it and the notification timers. */
static void test_timer_programmed_at_unlock(void **state)
{
	struct hart *me = &harts[0];

	(void)state;
	me->ntfn_timer_next = UINT64_MAX;
	fake_timer_deadline = 7;
	bkl_lock();
	timer_arm_locked(me, 1000, NULL);
	assert_int_equal(fake_timer_deadline, 7); /* not while the lock is held */
	bkl_unlock();
	assert_int_equal(fake_timer_deadline, 1000);
	assert_false(me->timer_dirty);

	me->ntfn_timer_next = 500; /* a notification timer comes first */
	bkl_lock();
	timer_arm_locked(me, 1000, NULL);
	bkl_unlock();
	assert_int_equal(fake_timer_deadline, 500);

	fake_timer_deadline = 7; /* nothing armed: the release writes nothing */
	bkl_lock();
	bkl_unlock();
	assert_int_equal(fake_timer_deadline, 7);
}

#define FP_TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		FP_TEST(test_call_fallbacks),
		FP_TEST(test_call_fast),
		FP_TEST(test_reply_recv_fallbacks),
		FP_TEST(test_reply_recv_fast),
		FP_TEST(test_wait_fast),
		FP_TEST(test_recv_fast),
		FP_TEST(test_signal_fast_wakes_as_signal_does),
		FP_TEST(test_bkl_hold_measured),
		FP_TEST(test_timer_programmed_at_unlock),
	};

	return cmocka_run_group_tests_name("fastpath", tests, NULL, NULL);
}
