/* runqueue.h: queues of threads: FIFO wait queues (struct tqueue, linked through the threads'
 * next/prev) and per-hart priority run queues (a tqueue per priority plus a bitmap of the
 * non-empty ones). Pure data structures: the caller holds the BKL. */
#ifndef KERNEL_RUNQUEUE_H
#define KERNEL_RUNQUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <tacet/abi.h>

struct thread;

struct tqueue {
	struct thread *head, *tail;
};

void tqueue_push(struct tqueue *q, struct thread *t, int front);
/* t must be in q. */
void tqueue_remove(struct tqueue *q, struct thread *t);
struct thread *tqueue_pop(struct tqueue *q);

#define PRIO_LEVELS (TACET_PRIO_MAX + 1)
#define PRIO_BITMAP_WORDS (PRIO_LEVELS / 64)

struct runqueue {
	unsigned int nready;                /* threads queued, for a quick "empty?" */
	int top;                            /* the highest non-empty level, when nready */
	uint64_t bitmap[PRIO_BITMAP_WORDS]; /* bit p: level[p] is not empty */
	struct tqueue level[PRIO_LEVELS];
};

/* Queue t at its priority (t->prio): behind its equals, or in front of them. */
void rq_push(struct runqueue *rq, struct thread *t, bool front);
void rq_remove(struct runqueue *rq, struct thread *t);
/* The highest priority with a thread, or -1. Kept up to date by push and remove (a scan of
 * the bitmap only when the top level empties): the fast paths ask it on every switch. */
static inline int rq_top(const struct runqueue *rq)
{
	return rq->nready ? rq->top : -1;
}
/* Take the first thread of the highest priority; NULL if empty. */
struct thread *rq_pop(struct runqueue *rq);

#endif
