/* test_runqueue.c: host unit tests of kernel/core/runqueue.c: thread FIFOs, the priority run queue at
 * its bitmap's word boundaries, and random operations (rq_take_first among them) checked
 * against a per-priority model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/runqueue.h"
#include "object/thread.h"
#include "host_rng.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NTHREADS     8

static struct thread threads[NTHREADS];

static int reset_threads(void **state)
{
	(void)state;
	memset(threads, 0, sizeof(threads));
	return 0;
}

/* q holds exactly want[0..n), linked consistently both ways. */
static void check_queue(const struct tqueue *q, struct thread *const *want, int n)
{
	struct thread *t = q->head, *prev = NULL;

	for (int i = 0; i < n; i++, prev = t, t = t->next) {
		if (t != want[i])
			fail_msg("position %d: thread %p, expected %p", i, (void *)t,
				 (void *)want[i]);
		assert_ptr_equal(t->prev, prev);
	}
	assert_null(t);
	assert_ptr_equal(q->tail, prev);
	if (!n)
		assert_null(q->head);
}

#define CHECK_QUEUE(q, ...)                                               \
	do {                                                              \
		struct thread *const want_[] = { __VA_ARGS__ };           \
		check_queue(q, want_, (int)ARRAY_LEN(want_));             \
	} while (0)

/* --- struct tqueue --- */

static void test_tqueue_fifo(void **state)
{
	struct tqueue q = { 0 };

	(void)state;
	check_queue(&q, NULL, 0);
	for (int i = 0; i < 4; i++)
		tqueue_push(&q, &threads[i], 0);
	CHECK_QUEUE(&q, &threads[0], &threads[1], &threads[2], &threads[3]);
	for (int i = 0; i < 4; i++) {
		struct thread *const rest[] = { &threads[1], &threads[2], &threads[3] };

		assert_ptr_equal(tqueue_pop(&q), &threads[i]);
		check_queue(&q, rest + i, 3 - i); /* the rest, linked both ways */
	}
	check_queue(&q, NULL, 0);
	/* Popped threads are unlinked. */
	for (int i = 0; i < 4; i++)
		assert_true(!threads[i].next && !threads[i].prev);
}

static void test_tqueue_push_front(void **state)
{
	struct tqueue q = { 0 };

	(void)state;
	tqueue_push(&q, &threads[0], 1); /* into an empty queue */
	CHECK_QUEUE(&q, &threads[0]);
	tqueue_push(&q, &threads[1], 0);
	tqueue_push(&q, &threads[2], 1);
	tqueue_push(&q, &threads[3], 1);
	tqueue_push(&q, &threads[4], 0);
	CHECK_QUEUE(&q, &threads[3], &threads[2], &threads[0], &threads[1], &threads[4]);
	assert_ptr_equal(tqueue_pop(&q), &threads[3]);
	CHECK_QUEUE(&q, &threads[2], &threads[0], &threads[1], &threads[4]);
}

static void test_tqueue_push_clears_stale_links(void **state)
{
	struct tqueue q = { 0 };

	(void)state;
	threads[0].next = &threads[5];
	threads[0].prev = &threads[6];
	tqueue_push(&q, &threads[0], 0);
	CHECK_QUEUE(&q, &threads[0]);
	threads[1].next = &threads[5];
	threads[1].prev = &threads[6];
	tqueue_push(&q, &threads[1], 1);
	CHECK_QUEUE(&q, &threads[1], &threads[0]);
}

static void test_tqueue_remove(void **state)
{
	struct tqueue q = { 0 };

	(void)state;
	for (int i = 0; i < 5; i++)
		tqueue_push(&q, &threads[i], 0);
	tqueue_remove(&q, &threads[2]); /* middle */
	CHECK_QUEUE(&q, &threads[0], &threads[1], &threads[3], &threads[4]);
	assert_true(!threads[2].next && !threads[2].prev);
	tqueue_remove(&q, &threads[0]); /* head */
	CHECK_QUEUE(&q, &threads[1], &threads[3], &threads[4]);
	assert_true(!threads[0].next && !threads[0].prev);
	tqueue_remove(&q, &threads[4]); /* tail */
	CHECK_QUEUE(&q, &threads[1], &threads[3]);
	assert_true(!threads[4].next && !threads[4].prev);
	tqueue_remove(&q, &threads[3]);
	CHECK_QUEUE(&q, &threads[1]);
	tqueue_remove(&q, &threads[1]); /* the only one */
	check_queue(&q, NULL, 0);
	assert_true(!threads[1].next && !threads[1].prev);
	/* The queue is usable again. */
	tqueue_push(&q, &threads[2], 0);
	tqueue_push(&q, &threads[0], 0);
	CHECK_QUEUE(&q, &threads[2], &threads[0]);
}

static void test_tqueue_pop_empty(void **state)
{
	struct tqueue q = { 0 };

	(void)state;
	assert_null(tqueue_pop(&q));
	tqueue_push(&q, &threads[0], 0);
	assert_ptr_equal(tqueue_pop(&q), &threads[0]);
	assert_null(tqueue_pop(&q));
	assert_null(tqueue_pop(&q));
	check_queue(&q, NULL, 0);
}

/* --- struct runqueue --- */

static void test_rq_empty(void **state)
{
	struct runqueue rq;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	assert_int_equal(rq_top(&rq), -1);
	assert_null(rq_pop(&rq));
	assert_int_equal(rq_top(&rq), -1);
}

/* 0, 63 | 64, 127 | 128, ... 255: each side of every 64-bit bitmap word boundary. */
static const int edge_prios[] = { 0, 1, 62, 63, 64, 65, 127, 128, 129, 191, 192, 254, 255 };

static void test_rq_word_boundaries(void **state)
{
	struct runqueue rq;
	struct thread t[ARRAY_LEN(edge_prios)];

	(void)state;
	memset(&rq, 0, sizeof(rq));
	memset(t, 0, sizeof(t));
	/* Each priority alone. */
	for (size_t i = 0; i < ARRAY_LEN(edge_prios); i++) {
		t[i].prio = (uint8_t)edge_prios[i];
		rq_push(&rq, &t[i], false);
		assert_int_equal(rq_top(&rq), edge_prios[i]);
		for (int w = 0; w < PRIO_BITMAP_WORDS; w++) {
			uint64_t bit = 1ULL << (edge_prios[i] % 64);

			assert_int_equal(rq.bitmap[w], w == edge_prios[i] / 64 ? bit : 0);
		}
		assert_ptr_equal(rq_pop(&rq), &t[i]);
		assert_int_equal(rq_top(&rq), -1);
		for (int w = 0; w < PRIO_BITMAP_WORDS; w++)
			assert_int_equal(rq.bitmap[w], 0);
	}
	/* All of them, queued lowest first: they come out highest first. */
	for (size_t i = 0; i < ARRAY_LEN(edge_prios); i++)
		rq_push(&rq, &t[i], false);
	for (size_t i = ARRAY_LEN(edge_prios); i-- > 0;) {
		assert_int_equal(rq_top(&rq), edge_prios[i]);
		assert_ptr_equal(rq_pop(&rq), &t[i]);
	}
	assert_int_equal(rq_top(&rq), -1);
	/* And queued highest first. */
	for (size_t i = ARRAY_LEN(edge_prios); i-- > 0;)
		rq_push(&rq, &t[i], true);
	for (size_t i = ARRAY_LEN(edge_prios); i-- > 0;)
		assert_ptr_equal(rq_pop(&rq), &t[i]);
	assert_null(rq_pop(&rq));
}

static void test_rq_fifo_within_priority(void **state)
{
	struct runqueue rq;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	for (int i = 0; i < NTHREADS; i++) {
		threads[i].prio = i % 2 ? 64 : 63;
		rq_push(&rq, &threads[i], false);
	}
	CHECK_QUEUE(&rq.level[64], &threads[1], &threads[3], &threads[5], &threads[7]);
	CHECK_QUEUE(&rq.level[63], &threads[0], &threads[2], &threads[4], &threads[6]);
	for (int i = 1; i < NTHREADS; i += 2)
		assert_ptr_equal(rq_pop(&rq), &threads[i]);
	for (int i = 0; i < NTHREADS; i += 2) {
		assert_int_equal(rq_top(&rq), 63);
		assert_ptr_equal(rq_pop(&rq), &threads[i]);
	}
	assert_int_equal(rq_top(&rq), -1);
}

static void test_rq_push_front(void **state)
{
	struct runqueue rq;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	for (int i = 0; i < 4; i++) {
		threads[i].prio = 200;
		rq_push(&rq, &threads[i], i == 2);
	}
	/* A lower priority pushed to the front still runs after every higher one. */
	threads[4].prio = 199;
	rq_push(&rq, &threads[4], true);
	CHECK_QUEUE(&rq.level[200], &threads[2], &threads[0], &threads[1], &threads[3]);
	assert_ptr_equal(rq_pop(&rq), &threads[2]);
	assert_ptr_equal(rq_pop(&rq), &threads[0]);
	/* A preempted thread goes back in front of its equals. */
	rq_push(&rq, &threads[0], true);
	assert_ptr_equal(rq_pop(&rq), &threads[0]);
	assert_ptr_equal(rq_pop(&rq), &threads[1]);
	assert_ptr_equal(rq_pop(&rq), &threads[3]);
	assert_ptr_equal(rq_pop(&rq), &threads[4]);
	assert_null(rq_pop(&rq));
}

/* The thread held in front (rq->first): taken before its equals, moved into its level's list
 * (at the head) when another is pushed in front, and the top kept right when it leaves. */
static void test_rq_front_slot(void **state)
{
	struct runqueue rq;
	struct thread *a = &threads[0], *b = &threads[1], *c = &threads[2], *d = &threads[3];

	(void)state;
	memset(&rq, 0, sizeof(rq));
	a->prio = b->prio = 100;
	c->prio = 70;
	d->prio = 130;
	rq_push(&rq, a, false);
	rq_push(&rq, b, true);
	assert_ptr_equal(rq.first, b);
	CHECK_QUEUE(&rq.level[100], a);
	rq_push(&rq, c, true); /* b moves into level 100, ahead of a */
	assert_ptr_equal(rq.first, c);
	CHECK_QUEUE(&rq.level[100], b, a);
	assert_int_equal(rq_top(&rq), 100);
	rq_push(&rq, d, true); /* c into level 70 */
	CHECK_QUEUE(&rq.level[70], c);
	assert_int_equal(rq_top(&rq), 130);
	rq_remove(&rq, d); /* the slot's thread leaves: the top falls back to the lists */
	assert_null(rq.first);
	assert_int_equal(rq_top(&rq), 100);
	rq_push(&rq, d, true);
	rq_remove(&rq, b);
	rq_remove(&rq, a);
	assert_int_equal(rq_top(&rq), 130);
	assert_ptr_equal(rq_pop(&rq), d);
	assert_int_equal(rq_top(&rq), 70);
	/* a slot thread below the top waits for the top level to empty */
	rq_push(&rq, a, false);
	rq_push(&rq, d, true);
	rq_push(&rq, b, false);
	rq_remove(&rq, c);
	rq_remove(&rq, d); /* requeued at a lower priority: out, changed, in front */
	d->prio = 60;
	rq_push(&rq, d, true);
	assert_int_equal(rq_top(&rq), 100);
	assert_ptr_equal(rq_take_first(&rq), a);
	assert_ptr_equal(rq_take_first(&rq), b);
	assert_int_equal(rq_top(&rq), 60);
	assert_ptr_equal(rq_take_first(&rq), d);
	assert_int_equal(rq_top(&rq), -1);
	for (int p = 0; p < PRIO_LEVELS; p++)
		assert_true(!rq.level[p].head && !rq.level[p].tail);
	for (int w = 0; w < PRIO_BITMAP_WORDS; w++)
		assert_int_equal(rq.bitmap[w], 0);
}

static void test_rq_remove_last_of_level(void **state)
{
	struct runqueue rq;

	(void)state;
	memset(&rq, 0, sizeof(rq));
	threads[0].prio = threads[1].prio = 128;
	threads[2].prio = 127;
	threads[3].prio = 0;
	for (int i = 0; i < 4; i++)
		rq_push(&rq, &threads[i], false);
	assert_int_equal(rq_top(&rq), 128);
	rq_remove(&rq, &threads[1]);
	assert_int_equal(rq_top(&rq), 128); /* threads[0] is still there */
	assert_int_equal(rq.bitmap[2], 1);
	rq_remove(&rq, &threads[0]);
	assert_int_equal(rq.bitmap[2], 0); /* the level's bit, and its word, are clear */
	assert_int_equal(rq_top(&rq), 127);
	rq_remove(&rq, &threads[2]);
	assert_int_equal(rq.bitmap[1], 0);
	assert_int_equal(rq_top(&rq), 0);
	rq_remove(&rq, &threads[3]);
	assert_int_equal(rq.bitmap[0], 0);
	assert_int_equal(rq_top(&rq), -1);
	assert_null(rq_pop(&rq));
	for (int p = 0; p < PRIO_LEVELS; p++)
		assert_true(!rq.level[p].head && !rq.level[p].tail);
}

/* --- random operations against a model --- */

#define POOL        48
#define RANDOM_OPS  100000
#define CHECK_EVERY 1024 /* a full comparison of every level this often */

/* The model: per priority, an array of thread indices, first to run first. */
struct model {
	int len[PRIO_LEVELS];
	int q[PRIO_LEVELS][POOL];
	int prio_of[POOL]; /* -1: not queued */
};


static int model_top(const struct model *m)
{
	for (int p = PRIO_LEVELS - 1; p >= 0; p--)
		if (m->len[p])
			return p;
	return -1;
}

static void model_push(struct model *m, int i, int prio, bool front)
{
	int *q = m->q[prio];

	if (front) {
		memmove(q + 1, q, m->len[prio] * sizeof(*q));
		q[0] = i;
	} else {
		q[m->len[prio]] = i;
	}
	m->len[prio]++;
	m->prio_of[i] = prio;
}

static void model_remove(struct model *m, int i)
{
	int prio = m->prio_of[i], *q = m->q[prio], k = 0;

	while (q[k] != i)
		k++;
	memmove(q + k, q + k + 1, (m->len[prio] - k - 1) * sizeof(*q));
	m->len[prio]--;
	m->prio_of[i] = -1;
}

/* The run queue's level prio agrees with the model: the thread held in front (rq->first), if
 * it is of this level, is the model's first, and the level's list and its bit hold the rest. */
static void check_level(const struct runqueue *rq, const struct model *m, struct thread *pool,
			int prio)
{
	struct thread *want[POOL];
	int n = m->len[prio], skip = rq->first && rq->first->prio == prio;

	for (int k = 0; k < n; k++)
		want[k] = &pool[m->q[prio][k]];
	if (skip) {
		assert_true(n > 0);
		assert_ptr_equal(rq->first, want[0]);
		assert_true(!rq->first->next && !rq->first->prev);
	}
	check_queue(&rq->level[prio], want + skip, n - skip);
	assert_int_equal(!!(rq->bitmap[prio / 64] & 1ULL << (prio % 64)), n - skip > 0);
}

/* A priority, often one next to a bitmap word boundary, otherwise any. */
static int random_prio(void)
{
	if (rng_below(2))
		return edge_prios[rng_below(ARRAY_LEN(edge_prios))];
	return (int)rng_below(PRIO_LEVELS);
}

static void test_rq_random_against_model(void **state)
{
	static struct model m;
	struct runqueue rq;
	struct thread *pool = calloc(POOL, sizeof(*pool));
	int counts[4] = { 0 };

	(void)state;
	assert_non_null(pool);
	memset(&rq, 0, sizeof(rq));
	memset(&m, 0, sizeof(m));
	for (int i = 0; i < POOL; i++)
		m.prio_of[i] = -1;
	rng_state = 0x72756e7175657565ULL;
	print_message("seed %#llx, %d operations on %d threads\n", (unsigned long long)rng_state,
		      RANDOM_OPS, POOL);
	for (int op = 0; op < RANDOM_OPS; op++) {
		int i = (int)rng_below(POOL), kind = (int)rng_below(4), touched = -1;

		/* Push an idle thread (at a new priority), or remove a queued one, or pop. */
		if (kind == 3) {
			int top = model_top(&m);
			/* not empty: half the time the fast paths' take, which assumes it */
			struct thread *t = top >= 0 && rng_below(2) ? rq_take_first(&rq) : rq_pop(&rq);

			if (top < 0) {
				assert_null(t);
			} else {
				assert_ptr_equal(t, &pool[m.q[top][0]]);
				assert_true(!t->next && !t->prev);
				model_remove(&m, m.q[top][0]);
				touched = top;
			}
		} else if (m.prio_of[i] < 0) {
			bool front = kind == 1;

			pool[i].prio = (uint8_t)random_prio();
			rq_push(&rq, &pool[i], front);
			model_push(&m, i, pool[i].prio, front);
			touched = pool[i].prio;
			kind = front;
		} else {
			touched = m.prio_of[i];
			rq_remove(&rq, &pool[i]);
			assert_true(!pool[i].next && !pool[i].prev);
			model_remove(&m, i);
			kind = 2;
		}
		counts[kind]++;
		assert_int_equal(rq_top(&rq), model_top(&m));
		if (touched >= 0)
			check_level(&rq, &m, pool, touched);
		if (op % CHECK_EVERY == 0)
			for (int p = 0; p < PRIO_LEVELS; p++)
				check_level(&rq, &m, pool, p);
	}
	print_message("%d pushes, %d pushes in front, %d removes, %d pops\n", counts[0], counts[1],
		      counts[2], counts[3]);
	/* Drain: everything comes out in the model's order, with every level checked. */
	for (int top; (top = model_top(&m)) >= 0;) {
		assert_int_equal(rq_top(&rq), top);
		assert_ptr_equal(rq_take_first(&rq), &pool[m.q[top][0]]);
		model_remove(&m, m.q[top][0]);
		check_level(&rq, &m, pool, top);
	}
	assert_int_equal(rq_top(&rq), -1);
	assert_null(rq_pop(&rq));
	free(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_tqueue_fifo, reset_threads),
		cmocka_unit_test_setup(test_tqueue_push_front, reset_threads),
		cmocka_unit_test_setup(test_tqueue_push_clears_stale_links, reset_threads),
		cmocka_unit_test_setup(test_tqueue_remove, reset_threads),
		cmocka_unit_test_setup(test_tqueue_pop_empty, reset_threads),
		cmocka_unit_test_setup(test_rq_empty, reset_threads),
		cmocka_unit_test_setup(test_rq_word_boundaries, reset_threads),
		cmocka_unit_test_setup(test_rq_fifo_within_priority, reset_threads),
		cmocka_unit_test_setup(test_rq_push_front, reset_threads),
		cmocka_unit_test_setup(test_rq_front_slot, reset_threads),
		cmocka_unit_test_setup(test_rq_remove_last_of_level, reset_threads),
		cmocka_unit_test_setup(test_rq_random_against_model, reset_threads),
	};

	return cmocka_run_group_tests_name("runqueue", tests, NULL, NULL);
}
