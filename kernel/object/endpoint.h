/* endpoint.h: synchronous IPC endpoints: call, receive, reply, with the message in registers.
 * BKL held. The sys_* functions take the calling thread and set its result registers. */
#ifndef KERNEL_ENDPOINT_H
#define KERNEL_ENDPOINT_H

#include "arch.h"
#include "object/kobj.h"
#include "lib/list.h"
#include "core/runqueue.h"
#include "object/thread.h"

struct process;

#define ENDPOINT_WATCH_STEP 16 /* watchers told in one step of an endpoint's end */

struct endpoint {
	struct kobj obj;
	struct tqueue senders;   /* BLOCKED_SEND, oldest first */
	struct tqueue receivers; /* BLOCKED_RECV, oldest first */
	struct process *owner;   /* its creator, whose end ends it (NULL once ended) */
	struct list_node owner_link; /* on owner->endpoints */
	struct list_node watchers;   /* notifications signalled at its end (ENDPOINT_WATCH) */
};

/* May a user thread send this tag? At most TACET_MSG_WORDS words, and never one of the
 * kernel's labels (TACET_LABEL_KERNEL up): those are how a receiver knows the kernel spoke. */
static inline int endpoint_tag_ok(unsigned long tag)
{
	return TACET_TAG_WORDS(tag) <= TACET_MSG_WORDS && !TACET_TAG_IS_KERNEL(tag);
}

/* The one message copy: the receiving end's registers after a message or a reply, a0 = 0
 * (success), a1 = tag, a2.. = the TACET_MSG_WORDS words w (a kernel buffer, or the sender's
 * own argument registers: arch_ctx_args). Inline: it is on the IPC fast paths. */
static inline __attribute__((always_inline)) void
endpoint_put_message(struct thread *to, unsigned long tag, const unsigned long *w)
{
	arch_ctx_set_ret(&to->ctx, 0, 0);
	arch_ctx_set_ret(&to->ctx, 1, tag);
	for (int i = 0; i < TACET_MSG_WORDS; i++)
		arch_ctx_set_ret(&to->ctx, 2 + i, w[i]);
}

/* t waits in q, one of ep's two queues (senders or receivers); the caller blocks it (state,
 * switch). Inline: the reply_recv fast path queues its server here too. */
static inline __attribute__((always_inline)) void
endpoint_enqueue(struct endpoint *ep, struct tqueue *q, struct thread *t)
{
	t->blocked_on = ep;
	tqueue_push(q, t, 0);
}

/* Receiver t's receive ends with the bits of its bound notification (the kernel's label
 * TACET_LABEL_NOTIFY, the bits in the first word, no badge). */
static inline __attribute__((always_inline)) void endpoint_put_notify(struct thread *t,
								    uint64_t bits)
{
	arch_ctx_set_ret(&t->ctx, 0, 0);
	arch_ctx_set_ret(&t->ctx, 1, TACET_TAG(TACET_LABEL_NOTIFY, 1));
	arch_ctx_set_ret(&t->ctx, 2, bits);
	arch_ctx_set_ret(&t->ctx, 6, 0);
}

/* t, blocked receiving on an endpoint, leaves its queue with the bits of its bound
 * notification (notification_deliver); the caller makes it run. */
static inline __attribute__((always_inline)) void endpoint_notify_receiver(struct thread *t,
									 uint64_t bits)
{
	struct endpoint *ep = t->blocked_on;

	if (ep->receivers.head == t) /* a service loop: its endpoint's one receiver */
		tqueue_pop(&ep->receivers);
	else
		tqueue_remove(&ep->receivers, t);
	t->blocked_on = NULL;
	endpoint_put_notify(t, bits);
}

/* A new endpoint of process owner (its creator, charged for it); NULL when out of memory (or
 * budget). It serves only while owner lives: owner's end ends it (endpoint_end). */
struct endpoint *endpoint_new(struct process *owner);
/* owner's end: every thread waiting on ep (either side) gets TACET_EDEAD, and so does every
 * later call or receive on it: a client learns its server is gone instead of waiting for ever
 * (and can look the name up again when the server is restarted). */
void endpoint_end(struct endpoint *ep);
/* The reaper's step of an ended endpoint whose watchers are not all told yet (endpoint_end
 * queued it: reaper_end). */
void endpoint_reap(struct endpoint *ep);
void endpoint_free(struct endpoint *ep);

void sys_endpoint_new(struct thread *t);
void sys_endpoint_watch(struct thread *t);
/* n no longer watches the endpoint it watched, if any (its destruction). */
void endpoint_unwatch(struct notification *n);
void sys_call(struct thread *t);
void sys_recv(struct thread *t);
void sys_reply(struct thread *t);
void sys_reply_recv(struct thread *t);

/* t leaves the endpoint queue it waits in. */
void endpoint_cancel(struct thread *t);
/* Wake a caller blocked for a reply with an error instead of an answer. */
void endpoint_reply_error(struct thread *caller, long err);
/* Send t's fault to its process's fault endpoint as a call (t waits for the reply, which
 * resumes it). Returns 0, or -1 if nobody can be told. */
int endpoint_send_fault(struct thread *t);

#endif
