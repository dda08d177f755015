/* runqueue.c: thread FIFOs and priority run queues (see runqueue.h); no locking of its own. */
#include "runqueue.h"
#include "thread.h"

void tqueue_push(struct tqueue *q, struct thread *t, int front)
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

void tqueue_remove(struct tqueue *q, struct thread *t)
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

struct thread *tqueue_pop(struct tqueue *q)
{
	struct thread *t = q->head;

	if (t)
		tqueue_remove(q, t);
	return t;
}

static int scan_top(const struct runqueue *rq);

void rq_push(struct runqueue *rq, struct thread *t, bool front)
{
	tqueue_push(&rq->level[t->prio], t, front);
	rq->bitmap[t->prio / 64] |= 1UL << (t->prio % 64);
	if (!rq->nready++ || t->prio > rq->top)
		rq->top = t->prio;
}

void rq_remove(struct runqueue *rq, struct thread *t)
{
	tqueue_remove(&rq->level[t->prio], t);
	rq->nready--;
	if (!rq->level[t->prio].head) {
		rq->bitmap[t->prio / 64] &= ~(1UL << (t->prio % 64));
		if (t->prio == rq->top)
			rq->top = scan_top(rq);
	}
}

/* Index of the highest set bit of a non-zero word (rv64gc has no count-leading-zeros). */
static int highest_bit(uint64_t w)
{
	int b = 0;

	for (int shift = 32; shift; shift >>= 1) {
		if (w >> shift) {
			w >>= shift;
			b += shift;
		}
	}
	return b;
}

/* The highest non-empty level from the bitmap, or -1. */
static int scan_top(const struct runqueue *rq)
{
	for (int w = PRIO_BITMAP_WORDS - 1; w >= 0; w--)
		if (rq->bitmap[w])
			return w * 64 + highest_bit(rq->bitmap[w]);
	return -1;
}

struct thread *rq_pop(struct runqueue *rq)
{
	int top = rq_top(rq);
	struct thread *t;

	if (top < 0)
		return NULL;
	t = rq->level[top].head;
	rq_remove(rq, t);
	return t;
}
