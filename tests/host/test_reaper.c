/* test_reaper.c: host unit tests of kernel/object/reaper.c, the queue that turns teardown chains into
 * a loop. The test's kobj_reap stands in for kobj.c's: it records what it did, how deep in
 * kobj_reap calls it was, and follows a script: destroying object i drops the last reference
 * of the objects i names (as a process's cspace does), ending one may ask for other ends (as a
 * thread's end fails its faulted caller). Checks: a chain a million objects long is destroyed
 * one object at a time at depth 1, in order; outside a teardown everything is done before the
 * call returns; the queue is first in, first out; an end holds a reference and is asked for
 * once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "object/reaper.h"

#define MAX_OBJS 1000000
#define MAX_NAMES 2

struct obj {
	struct kobj k;         /* first: kobj_reap casts back */
	size_t id;
	struct obj *holds[MAX_NAMES]; /* last references dropped at its destruction */
	struct obj *ends[MAX_NAMES];  /* ends asked for at its end */
	struct obj *drops;            /* last reference dropped at its end */
	size_t again;                 /* ends asked for first again at its end (a step at a time) */
};

enum event { DESTROYED = 1, ENDED = 2 };

static struct obj *objs;
static size_t nevents, depth, max_depth;
static size_t *log_id;
static enum event *log_what;

static void put(struct obj *o)
{
	assert_true(o->k.refs > 0);
	if (--o->k.refs == 0)
		reaper_free(&o->k);
}

void kobj_reap(struct kobj *k)
{
	struct obj *o = (struct obj *)k;

	assert_true(nevents < 2 * MAX_OBJS);
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	log_id[nevents] = o->id;
	log_what[nevents++] = o->k.refs ? ENDED : DESTROYED;
	for (int i = 0; i < MAX_NAMES; i++) {
		if (!o->k.refs && o->holds[i])
			put(o->holds[i]);
		if (o->k.refs && o->ends[i])
			reaper_end(&o->ends[i]->k);
	}
	if (o->k.refs && o->drops)
		put(o->drops);
	if (o->k.refs && o->again) {
		o->again--;
		reaper_end_first(&o->k); /* the rest of its end next, before what was queued */
	}
	if (o->k.refs)
		put(o); /* the queue's reference, as kobj.c's kobj_reap drops it */
	depth--;
}

static int setup(void **state)
{
	(void)state;
	objs = calloc(MAX_OBJS, sizeof(*objs));
	log_id = calloc(2 * MAX_OBJS, sizeof(*log_id));
	log_what = calloc(2 * MAX_OBJS, sizeof(*log_what));
	assert_non_null(objs);
	assert_non_null(log_id);
	assert_non_null(log_what);
	for (size_t i = 0; i < MAX_OBJS; i++)
		objs[i].id = i;
	nevents = depth = max_depth = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(objs);
	free(log_id);
	free(log_what);
	return 0;
}

static void expect(size_t i, size_t id, enum event what)
{
	assert_true(i < nevents);
	assert_int_equal(log_id[i], id);
	assert_int_equal(log_what[i], what);
}

/* Object i holds the only reference to i + 1 (a cspace holding the only capability to the next
 * process): dropping the first destroys all of them, in order, never two kobj_reap deep. */
static void test_million_chain_is_a_loop(void **state)
{
	(void)state;
	for (size_t i = 0; i < MAX_OBJS; i++) {
		objs[i].k.refs = 1;
		if (i + 1 < MAX_OBJS)
			objs[i].holds[0] = &objs[i + 1];
	}
	put(&objs[0]);
	assert_int_equal(nevents, 0); /* queued: run on the way out of the kernel */
	reaper_run(NULL);
	assert_int_equal(nevents, MAX_OBJS);
	assert_int_equal(max_depth, 1);
	for (size_t i = 0; i < MAX_OBJS; i += 99991)
		expect(i, i, DESTROYED);
	expect(MAX_OBJS - 1, MAX_OBJS - 1, DESTROYED);
}

/* Object i destroys 2i + 1 and 2i + 2: breadth first, parents before children. */
static void test_first_in_first_out(void **state)
{
	(void)state;
	for (size_t i = 0; i < 15; i++) {
		objs[i].k.refs = 1;
		if (2 * i + 2 < 15) {
			objs[i].holds[0] = &objs[2 * i + 1];
			objs[i].holds[1] = &objs[2 * i + 2];
		}
	}
	put(&objs[0]);
	reaper_run(NULL);
	assert_int_equal(nevents, 15);
	assert_int_equal(max_depth, 1);
	for (size_t i = 0; i < 15; i++)
		expect(i, i, DESTROYED);
}

/* Ends: each holds a reference while queued (the object outlives its own end, then goes), an
 * end asked for again while queued is not queued twice, and one thread's end failing the next
 * one's caller... is a loop too. */
static void test_end_chain(void **state)
{
	(void)state;
	for (size_t i = 0; i < MAX_OBJS; i++) {
		objs[i].k.refs = 1; /* "alive", dropped by nothing here: ends do not free */
		if (i + 1 < MAX_OBJS)
			objs[i].ends[0] = objs[i].ends[1] = &objs[i + 1]; /* asked twice */
	}
	reaper_end(&objs[0].k);
	reaper_run(NULL);
	assert_int_equal(nevents, MAX_OBJS);
	assert_int_equal(max_depth, 1);
	for (size_t i = 0; i < MAX_OBJS; i += 77777) {
		expect(i, i, ENDED);
		assert_int_equal(objs[i].k.refs, 1); /* the queue's reference went back */
		assert_int_equal(objs[i].k.queued, 0);
	}
}

/* An end and frees mixed: object 0's end asks for 2's end, then drops the last reference to 1
 * (as a process's end queues its children, then drops its cspace). Order: as asked, 0 ended,
 * 2 ended, 1 destroyed, then 0 destroyed (its last reference was the queue's). */
static void test_end_then_free(void **state)
{
	(void)state;
	objs[0].k.refs = 0; /* only the queue will hold it */
	objs[1].k.refs = 1;
	objs[2].k.refs = 1;
	objs[0].drops = &objs[1];
	objs[0].ends[0] = &objs[2];
	reaper_end(&objs[0].k);
	reaper_run(NULL);
	assert_int_equal(nevents, 4);
	expect(0, 0, ENDED);
	expect(1, 2, ENDED);
	expect(2, 1, DESTROYED);
	expect(3, 0, DESTROYED);
	assert_int_equal(objs[2].k.refs, 1);
	put(&objs[2]); /* outside any teardown: destroyed when the queue next runs */
	assert_true(reaper_pending());
	reaper_run(NULL);
	assert_int_equal(nevents, 5);
	expect(4, 2, DESTROYED);
	assert_int_equal(max_depth, 1);
}

/* Preemption points: after each object the run calls between(), where the kernel drops the
 * BKL for a moment; meanwhile other harts may queue more work or run the queue themselves.
 * Interrupted at every point, with both happening, the end state is the uninterrupted one:
 * every object destroyed exactly once, first in first out, never two kobj_reap deep. */
static size_t points, second_head;

static bool between(void)
{
	points++;
	if (points == 10)
		put(&objs[second_head]); /* another hart drops the head of a second chain */
	if (points % 1000 == 0)
		reaper_run(NULL); /* another hart, in the window, runs the queue to empty itself */
	return false;
}

static void test_preempted_at_every_point(void **state)
{
	const size_t n = 20000;
	bool *seen = calloc(2 * n, sizeof(*seen));

	(void)state;
	assert_non_null(seen);
	second_head = n;
	for (size_t i = 0; i < 2 * n; i++) {
		objs[i].k.refs = 1;
		if (i + 1 != n && i + 1 < 2 * n)
			objs[i].holds[0] = &objs[i + 1]; /* two chains: 0..n-1 and n..2n-1 */
	}
	points = 0;
	put(&objs[0]);
	reaper_run(between);
	assert_false(reaper_pending());
	assert_int_equal(nevents, 2 * n);
	assert_int_equal(max_depth, 1);
	for (size_t i = 0; i < nevents; i++) {
		assert_int_equal(log_what[i], DESTROYED);
		assert_false(seen[log_id[i]]);
		seen[log_id[i]] = true;
	}
	/* each chain in its own order */
	for (size_t i = 1, last0 = 0, last1 = n; i < nevents; i++) {
		size_t id = log_id[i];

		if (id < n && id != 0) {
			assert_true(id > last0);
			last0 = id;
		} else if (id >= n && id != n) {
			assert_true(id > last1);
			last1 = id;
		}
	}
	/* a point after every object of the outer run (the nested runs' objects passed none) */
	assert_true(points >= 1000);
	free(seen);
}

static size_t stops_at;
static bool stop_once(void);

/* The last object gets its point too: what the caller does next (a system call's own work)
 * starts a stretch of the lock of its own, not the reaped object's. A point that asks to stop
 * with nothing left queued does not stop the run: the queue is empty. */
static void test_single_object_one_point(void **state)
{
	(void)state;
	objs[0].k.refs = 1;
	points = 0;
	put(&objs[0]);
	assert_true(reaper_run(between));
	assert_int_equal(points, 1);
	assert_int_equal(nevents, 1);
	objs[1].k.refs = 1;
	points = 0;
	stops_at = 1;
	put(&objs[1]);
	assert_true(reaper_run(stop_once));
	assert_int_equal(points, 1);
	assert_false(reaper_pending());
}

/* An end done a step at a time (a process's, a thread a step) keeps its place: 0 ends in four
 * steps before 1, queued after it, and before 2, queued by 0's first step; a run stopped by its
 * point (a more urgent thread) leaves the rest first in line for the next run. */
static bool stop_once(void)
{
	return ++points == stops_at;
}

static void test_end_in_steps_keeps_its_place(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++)
		objs[i].k.refs = 1;
	objs[0].again = 3;
	objs[0].ends[0] = &objs[2];
	reaper_end(&objs[0].k);
	reaper_end(&objs[1].k);
	points = 0;
	stops_at = 2;
	assert_false(reaper_run(stop_once)); /* stopped after 0's second step */
	assert_int_equal(nevents, 2);
	assert_true(reaper_pending());
	assert_true(reaper_run(NULL));
	assert_int_equal(nevents, 6);
	for (size_t i = 0; i < 4; i++)
		expect(i, 0, ENDED);
	expect(4, 1, ENDED);
	expect(5, 2, ENDED);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(objs[i].k.refs, 1); /* every queue reference went back */
		assert_int_equal(objs[i].k.queued, 0);
	}
	assert_int_equal(max_depth, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_million_chain_is_a_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_first_in_first_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_then_free, setup, teardown),
		cmocka_unit_test_setup_teardown(test_preempted_at_every_point, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_object_one_point, setup, teardown),
		cmocka_unit_test_setup_teardown(test_end_in_steps_keeps_its_place, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
