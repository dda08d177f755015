/* runqueue.h: queues of threads: FIFO wait queues (struct tqueue, linked through the threads'
 * next/prev) and per-hart priority run queues (a tqueue per priority plus a bitmap of the
 * non-empty ones, and one thread held apart in front). Pure data structures: the caller holds
 * the BKL. */
#ifndef KERNEL_RUNQUEUE_H
#define KERNEL_RUNQUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include <tacet/abi.h>

struct thread;

struct tqueue {
	struct thread *head, *tail;
};

/* The queue operations are inline (below the run queue): every thread switch does two or
 * three of them, and a call costs as much as the operation. */
static inline void tqueue_push(struct tqueue *q, struct thread *t, int front);
/* t must be in q. */
static inline void tqueue_remove(struct tqueue *q, struct thread *t);
static inline struct thread *tqueue_pop(struct tqueue *q);

#define PRIO_LEVELS (TACET_PRIO_MAX + 1)
#define PRIO_BITMAP_WORDS (PRIO_LEVELS / 64)

/* The thread last pushed in front (a running thread a more urgent one preempted, on every
 * direct switch) is kept apart in `first` rather than linked into its level: it is usually
 * the next one taken, and a slot is a store where a level is a list and a bitmap. Logically it
 * heads level[first->prio]; pushing another in front moves it into that list, at its head. */
struct runqueue {
	unsigned int nready;                /* threads queued, first included: a quick "empty?" */
	int top;                            /* the highest non-empty level, first's included */
	struct thread *first;               /* NULL, or the head of its level, outside the list */
	uint64_t bitmap[PRIO_BITMAP_WORDS]; /* bit p: level[p]'s list is not empty */
	struct tqueue level[PRIO_LEVELS];
};

/* Queue t at its priority (t->prio): behind its equals, or in front of them. */
static inline void rq_push(struct runqueue *rq, struct thread *t, bool front);
static inline void rq_remove(struct runqueue *rq, struct thread *t);
/* The highest priority with a thread, or -1. Kept up to date by push and remove (a scan of
 * the bitmap only when the top level empties): the fast paths ask it on every switch. */
static inline int rq_top(const struct runqueue *rq)
{
	return rq->nready ? rq->top : -1;
}
/* Take the first thread of the highest priority; NULL if empty. */
static inline struct thread *rq_pop(struct runqueue *rq);
/* The same when rq is known not to be empty (rq_top() >= 0), as on the fast paths that asked. */
static inline struct thread *rq_take_first(struct runqueue *rq);

/* The highest non-empty level from the bitmap and first, or -1 (runqueue.c). */
int rq_scan_top(const struct runqueue *rq);

#include "object/thread.h" /* the definitions use next, prev and prio */

static inline __attribute__((always_inline)) void tqueue_push(struct tqueue *q, struct thread *t,
							      int front)
{
	t->prev = t->next = NULL;
	if (!q->head) {
		q->head = q->tail = t;
	} else if (front) {
		t->next = q->head;
		q->head->prev = t;
		q->head = t;
	} else {
		t->prev = q->tail;
		q->tail->next = t;
		q->tail = t;
	}
}

static inline __attribute__((always_inline)) void tqueue_remove(struct tqueue *q, struct thread *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		q->head = t->next;
	if (t->next)
		t->next->prev = t->prev;
	else
		q->tail = t->prev;
	t->prev = t->next = NULL;
}

/* tqueue_remove() of the head: it has no predecessor, so there is none to load or unlink. */
static inline __attribute__((always_inline)) struct thread *tqueue_pop(struct tqueue *q)
{
	struct thread *t = q->head, *next;

	if (!t)
		return NULL;
	next = t->next;
	q->head = next;
	if (next)
		next->prev = NULL;
	else
		q->tail = NULL;
	t->next = NULL;
	return t;
}

/* t into its level's list (not first). */
static inline __attribute__((always_inline)) void rq_link(struct runqueue *rq, struct thread *t,
							  bool front)
{
	tqueue_push(&rq->level[t->prio], t, front);
	rq->bitmap[t->prio / 64] |= 1UL << (t->prio % 64);
}

static inline __attribute__((always_inline)) void rq_push(struct runqueue *rq, struct thread *t,
							  bool front)
{
	if (front) {
		if (rq->first)
			rq_link(rq, rq->first, true); /* still ahead of its equals, behind t */
		t->prev = t->next = NULL;
		rq->first = t;
	} else {
		rq_link(rq, t, false);
	}
	if (!rq->nready++ || t->prio > rq->top)
		rq->top = t->prio;
}

/* After a removal from level p: a new top if p was it and is now empty. */
static inline __attribute__((always_inline)) void rq_left(struct runqueue *rq, int p)
{
	if (p == rq->top && rq->nready && !rq->level[p].head &&
	    !(rq->first && rq->first->prio == p))
		rq->top = rq_scan_top(rq); /* (empty: rq_top() does not read top) */
}

/* After a thread left level p's list: its bit goes with the last one, then rq_left(). */
static inline __attribute__((always_inline)) void rq_unlinked(struct runqueue *rq, int p)
{
	if (!rq->level[p].head)
		rq->bitmap[p / 64] &= ~(1UL << (p % 64));
	rq_left(rq, p);
}

static inline __attribute__((always_inline)) void rq_remove(struct runqueue *rq, struct thread *t)
{
	rq->nready--;
	if (t == rq->first) {
		rq->first = NULL;
		rq_left(rq, t->prio);
	} else {
		tqueue_remove(&rq->level[t->prio], t);
		rq_unlinked(rq, t->prio);
	}
}

/* rq_remove() for the head of the top level: no predecessor to unlink, the level known. Half
 * the instructions of the general removal, on every switch that takes a READY thread. */
static inline __attribute__((always_inline)) struct thread *rq_take_first(struct runqueue *rq)
{
	int top = rq->top;
	struct thread *t = rq->first;

	rq->nready--;
	if (t && t->prio == top) { /* the one held in front: no list, no bitmap */
		rq->first = NULL;
		rq_left(rq, top);
		return t;
	}
	t = tqueue_pop(&rq->level[top]);
	rq_unlinked(rq, top);
	return t;
}

static inline __attribute__((always_inline)) struct thread *rq_pop(struct runqueue *rq)
{
	return rq_top(rq) < 0 ? NULL : rq_take_first(rq);
}

#endif
