/* endpoint.c: synchronous IPC. Owns the endpoint queues, their watchers (ENDPOINT_WATCH) and each
 * thread's IPC fields; BKL held.
 *
 * A call meets a waiting receiver or queues; a receive meets a waiting sender or queues. The
 * receiver of a call owes the caller a reply (reply_to / replier link the two) and the caller
 * stays BLOCKED_REPLY until it comes. Messages go register to register: the tag, up to
 * TACET_MSG_WORDS words, the badge of the sender's capability and, with GRANT, one capability;
 * a reply may carry one capability into the slot the caller named in its call.
 * Each sys_* decodes everything first and changes nothing on an error. */
#include "object/endpoint.h"
#include "object/cap.h"
#include "inject/inject.h"
#include "core/syscall.h"
#include "mm/kalloc.h"
#include "object/notification.h"
#include "object/process.h"
#include "core/sched.h"
#include "core/trace.h"
#include "object/reaper.h"

struct endpoint *endpoint_new(struct process *owner)
{
	struct endpoint *ep = kobj_new(owner->acct, sizeof(struct endpoint), TACET_CAP_ENDPOINT);

	if (ep) {
		ep->owner = owner;
		list_push_back(&owner->endpoints, &ep->owner_link);
		list_init(&ep->watchers);
	}
	return ep;
}

void endpoint_unwatch(struct notification *n)
{
	if (n->watching) {
		list_remove(&n->watch_link);
		n->watching = NULL;
	}
}

/* Up to ENDPOINT_WATCH_STEP of an ended endpoint's watchers signalled; true when none is left.
 * A user decides how many notifications watch one endpoint (a notification each, each in a
 * slot of some process: children multiply the slots), so they are told a bounded step at a
 * time, as the reaper runs (no BKL hold may pass 5,000 instructions: core/bkl.h). */
static bool signal_watchers(struct endpoint *ep)
{
	for (unsigned int i = 0; i < ENDPOINT_WATCH_STEP && !list_empty(&ep->watchers); i++) {
		struct notification *n = list_entry(ep->watchers.next, struct notification,
						    watch_link);

		endpoint_unwatch(n);
		notification_signal(n, n->watch_badge);
	}
	return list_empty(&ep->watchers);
}

/* One step of an ended endpoint's news: its waiting threads woken with TACET_EDEAD, a bounded
 * number (senders first, then receivers), then its watchers; true when nobody is left to tell.
 * Nobody new can wait or watch: an ended endpoint refuses both (it has no owner). */
static bool tell_step(struct endpoint *ep)
{
	return thread_wake_some(&ep->senders, TACET_EDEAD, THREAD_WAKE_STEP) &&
	       thread_wake_some(&ep->receivers, TACET_EDEAD, THREAD_WAKE_STEP) &&
	       signal_watchers(ep);
}

/* Its end: callers and receivers get TACET_EDEAD, watchers their badge (the first step of them
 * now; if more are left, the reaper goes on with them: endpoint_reap, holding a reference). */
void endpoint_end(struct endpoint *ep)
{
	if (ep->owner) {
		list_remove(&ep->owner_link);
		ep->owner = NULL;
	}
	if (!tell_step(ep) && ep->obj.refs)
		reaper_end(&ep->obj);
}

void endpoint_reap(struct endpoint *ep)
{
	if (!tell_step(ep))
		reaper_end_first(&ep->obj);
}

void endpoint_free(struct endpoint *ep)
{
	endpoint_end(ep);
	if (ep->senders.head || ep->receivers.head || !list_empty(&ep->watchers)) {
		reaper_free(&ep->obj); /* the next step later: nobody names it */
		return;
	}
	kobj_free(&ep->obj, sizeof(*ep));
}

/* Move the capability a sender named in its tag into the receiver's recv_slot, if it can; the
 * tag the receiver sees says whether one arrived. */
static unsigned long transfer_cap(struct thread *from, struct thread *to, unsigned long tag)
{
	long err;
	struct cap *src, *dst;

	if (!TACET_TAG_HAS_CAP(tag))
		return tag;
	tag &= ~(1ul << 8);
	src = cap_lookup(from->proc->cspace, TACET_TAG_SLOT(tag), TACET_CAP_NULL, 0, &err);
	dst = to->recv_slot ? cap_empty_slot(to->proc->cspace, to->recv_slot, &err) : NULL;
	if (!src || !dst)
		return tag & 0xffffffffUL; /* dropped: the receiver sees no capability */
	cap_install(dst, src->obj, src->rights, src->badge);
	return (tag & 0xffffffffUL) | 1ul << 8 | (unsigned long)to->recv_slot << 32;
}

/* The receiver's registers after a receive: a0 = 0, a1 = tag, a2.. = words, a6 = badge. */
static void deliver(struct thread *from, struct thread *to, unsigned long tag,
		    const unsigned long *w, uint64_t badge)
{
	endpoint_put_message(to, transfer_cap(from, to, tag), w);
	arch_ctx_set_ret(&to->ctx, 6, badge);
}

/* 0 if slot is 0 (no capability wanted) or an empty slot of t's, else the error. */
static long decode_recv_slot(struct thread *t, unsigned long slot)
{
	long err;

	if (slot && !cap_empty_slot(t->proc->cspace, slot, &err))
		return err;
	return 0;
}

/* The receiver `to` owes caller a reply now; an unanswered earlier caller gets ENOREPLY. */
static void link_reply(struct thread *to, struct thread *caller)
{
	if (to->reply_to)
		endpoint_reply_error(to->reply_to, TACET_ENOREPLY);
	to->reply_to = caller;
	caller->replier = to;
	caller->state = TACET_THREAD_BLOCKED_REPLY;
}

/* A capability to a living endpoint (its owner has not ended) with rights, or NULL and *err. */
static struct cap *decode_ep_cap(struct thread *t, unsigned long slot, uint32_t rights, long *err)
{
	struct cap *c = cap_lookup(t->proc->cspace, slot, TACET_CAP_ENDPOINT, rights, err);

	if (c && !((struct endpoint *)c->obj)->owner) {
		*err = TACET_EDEAD;
		return NULL;
	}
	return c;
}

static struct endpoint *decode_ep(struct thread *t, unsigned long slot, uint32_t rights, long *err)
{
	struct cap *c = decode_ep_cap(t, slot, rights, err);

	return c ? (struct endpoint *)c->obj : NULL;
}

/* CALL's decode: a living endpoint (WRITE), a tag a user may send, GRANT if it carries a
 * capability, and an empty reply slot if one is named (a6). */
static long decode_call(struct thread *t, struct cap **c)
{
	unsigned long tag = syscall_arg(t, 1);
	long err;

	*c = decode_ep_cap(t, syscall_arg(t, 0), TACET_RIGHT_WRITE, &err);
	if (!*c)
		return err;
	if (!endpoint_tag_ok(tag))
		return TACET_EINVAL;
	if (TACET_TAG_HAS_CAP(tag) && !cap_has_rights(*c, TACET_RIGHT_GRANT))
		return TACET_EPERM;
	return decode_recv_slot(t, syscall_arg(t, 6));
}

/* t calls ep with tag, the words w (t's own argument registers, or t->msg_w) and the badge of
 * its capability: the call meets ep's first receiver, or t queues as a sender with the message
 * kept in t->msg_*; either way t then waits for the reply. CALL's and a fault's common end;
 * inline, as CALL's general path is every cross-hart call's (a call costs it ~23 instructions). */
static inline __attribute__((always_inline)) void
send_call(struct thread *t, struct endpoint *ep, unsigned long tag,
	  const unsigned long *w, uint64_t badge)
{
	struct thread *r = tqueue_pop(&ep->receivers);

	if (r) {
		r->blocked_on = NULL;
		deliver(t, r, tag, w, badge);
		link_reply(r, t);
		sched_ready(r);
		sched_block(t, TACET_THREAD_BLOCKED_REPLY);
		trace_event(TACET_TRACE_CALL, r, 0, 0);
		return;
	}
	trace_event(TACET_TRACE_CALL, NULL, 0, 0);
	t->msg_tag = tag;
	for (int i = 0; w != t->msg_w && i < TACET_MSG_WORDS; i++)
		t->msg_w[i] = w[i];
	t->msg_badge = badge;
	t->msg_is_call = 1;
	endpoint_enqueue(ep, &ep->senders, t);
	sched_block(t, TACET_THREAD_BLOCKED_SEND);
}

void sys_call(struct thread *t)
{
	struct cap *c = NULL;
	long err = decode_call(t, &c);

	if (err) {
		syscall_ret(t, -err);
		return;
	}
	t->recv_slot = syscall_arg(t, 6); /* where a capability in the reply goes */
	send_call(t, (struct endpoint *)c->obj, syscall_arg(t, 1), arch_ctx_args(&t->ctx) + 2,
		  c->badge);
}

/* Receive on ep (already decoded) into t: pending bits of t's bound notification first (as
 * seL4 does: bits coalesce, so they cannot starve the senders, while a queue kept full by
 * hostile callers could starve a supervisor's notifications for ever), then a waiting sender,
 * else block. */
static void receive(struct thread *t, struct endpoint *ep)
{
	uint64_t bits = notification_take_bound(t);
	struct thread *s;

	if (bits) {
		endpoint_put_notify(t, bits);
		return;
	}
	s = tqueue_pop(&ep->senders);
	if (!s) {
		endpoint_enqueue(ep, &ep->receivers, t);
		sched_block(t, TACET_THREAD_BLOCKED_RECV);
		return;
	}
	s->blocked_on = NULL;
	deliver(s, t, s->msg_tag, s->msg_w, s->msg_badge);
	if (s->msg_is_call)
		link_reply(t, s);
	else
		sched_ready(s);
}

void sys_recv(struct thread *t)
{
	long err = 0;
	struct endpoint *ep = decode_ep(t, syscall_arg(t, 0), TACET_RIGHT_READ, &err);

	if (ep)
		err = decode_recv_slot(t, syscall_arg(t, 1));
	if (!ep || err) {
		syscall_ret(t, -err);
		return;
	}
	t->recv_slot = syscall_arg(t, 1);
	receive(t, ep);
}

/* Answer t's caller with the tag and words in t's argument registers from index first. */
static long reply_from(struct thread *t, int first)
{
	struct thread *caller = t->reply_to;
	unsigned long tag = syscall_arg(t, first), garbage[TACET_MSG_WORDS];
	long err;

	if (!caller)
		return -TACET_ENOENT;
	if (!endpoint_tag_ok(tag))
		return -TACET_EINVAL;
	if (TACET_TAG_HAS_CAP(tag) && !cap_lookup(t->proc->cspace, TACET_TAG_SLOT(tag),
						  TACET_CAP_NULL, 0, &err))
		return -err;
	t->reply_to = NULL;
	caller->replier = NULL;
	if (caller->in_fault) { /* its registers are the faulting state: leave them alone */
		caller->in_fault = 0;
		if (TACET_TAG_LABEL(tag) == TACET_FAULT_KILL)
			thread_end(caller, -TACET_EFAULT);
		else if (TACET_TAG_LABEL(tag) == TACET_FAULT_END)
			thread_end_faulted(caller);
		else
			sched_ready(caller);
		return 0;
	}
	endpoint_put_message(caller, transfer_cap(t, caller, tag),
			     inject_reply_words(t, arch_ctx_args(&t->ctx) + first + 1, tag, garbage));
	sched_ready(caller);
	trace_event(TACET_TRACE_REPLY, caller, 0, 0);
	return 0;
}

void sys_reply(struct thread *t)
{
	syscall_ret(t, reply_from(t, 0));
}

void sys_reply_recv(struct thread *t)
{
	long err = 0;
	struct endpoint *ep = decode_ep(t, syscall_arg(t, 0), TACET_RIGHT_READ, &err);
	unsigned long recv_slot = syscall_arg(t, 6);

	if (ep)
		err = decode_recv_slot(t, recv_slot);
	if (!ep || err) {
		syscall_ret(t, -err);
		return;
	}
	if (t->reply_to && (err = reply_from(t, 1)) < 0) {
		syscall_ret(t, err);
		return;
	}
	t->recv_slot = recv_slot;
	receive(t, ep);
}

void endpoint_cancel(struct thread *t)
{
	struct endpoint *ep = t->blocked_on;

	if (!ep)
		return;
	tqueue_remove(t->state == TACET_THREAD_BLOCKED_SEND ? &ep->senders : &ep->receivers, t);
	t->blocked_on = NULL;
}

void endpoint_reply_error(struct thread *caller, long err)
{
	caller->replier = NULL;
	if (caller->in_fault) { /* nobody will handle its fault */
		caller->in_fault = 0;
		thread_end_faulted(caller);
		return;
	}
	syscall_ret(caller, -err);
	sched_ready(caller);
}

int endpoint_send_fault(struct thread *t)
{
	struct process *p = t->proc;
	struct endpoint *ep = (struct endpoint *)p->fault_ep;
	const struct trap_frame *tf = &t->ctx;

	if (!ep || !ep->owner) /* none, or its supervisor has ended */
		return -1;
	t->msg_w[0] = tf->scause;
	t->msg_w[1] = tf->sepc;
	t->msg_w[2] = tf->stval;
	t->msg_w[3] = t->tid;
	t->in_fault = 1;
	t->recv_slot = 0; /* its reply resumes or ends it and carries nothing */
	send_call(t, ep, TACET_TAG(TACET_LABEL_FAULT, 4), t->msg_w, p->fault_badge);
	return 0;
}

/* (endpoint, ntfn, badge) -> 0: signal badge on ntfn when the endpoint ends (its owner, the
 * server, ended), as a call to it would then say TACET_EDEAD: a client waiting for something
 * else (its completions, on ntfn) learns at once that the server is gone (Zircon's
 * PEER_CLOSED on a channel). A notification watches one endpoint at a time: a new watch
 * replaces the last; badge 0 ends the watch. Any capability to the endpoint; WRITE on ntfn
 * (the kernel signals it); a badge notification_badge_ok refuses is refused; TACET_EDEAD if
 * it has ended already. */
void sys_endpoint_watch(struct thread *t)
{
	long err;
	uint64_t badge = syscall_arg(t, 2);
	struct cap *e = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_ENDPOINT, 0, &err);
	struct cap *c = e ? cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_NOTIFICATION,
				       TACET_RIGHT_WRITE, &err) : NULL;
	struct endpoint *ep = e ? (struct endpoint *)e->obj : NULL;
	struct notification *n = c ? (struct notification *)c->obj : NULL;

	if (!n || badge & TACET_NTFN_BIT_RESERVED || (badge && !ep->owner)) {
		syscall_ret(t, !n ? -err : badge & TACET_NTFN_BIT_RESERVED ? -TACET_EINVAL
									 : -TACET_EDEAD);
		return;
	}
	endpoint_unwatch(n);
	if (badge) {
		n->watching = ep;
		n->watch_badge = badge;
		list_push_back(&ep->watchers, &n->watch_link);
	}
	syscall_ret(t, 0);
}

/* (slot): a new one, every right, in the empty slot. */
void sys_endpoint_new(struct thread *t)
{
	long err;
	struct cap *dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 0), &err);

	syscall_ret(t, dst ? cap_install_new(dst, (struct kobj *)endpoint_new(t->proc)) : -err);
}
