/* test_process_watch.c: host unit tests of kernel/object/process_watch.c, PROCESS_WATCH's
 * records, over the real accounts: a process takes PROCESS_WATCHERS records and no more; a
 * notification's end frees its records (a watcher's end gives the process its places back:
 * restarted servers do not fill a client's places for good), PROCESS_WATCH_STEP a step however
 * many processes it watches; a process's end signals each notification once with its badge
 * (none whose end is under way) and frees its records; every charge comes back. A "process" is
 * its list of watches, as process.c hands it over. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "object/process_watch.h"
#include "object/notification.h"
#include "object/account.h"
#include "mm/kalloc.h"
#include "fake_kernel.h"

#define MAX_SIGNALS 64

static struct notification *signalled[MAX_SIGNALS];
static uint64_t signalled_bits[MAX_SIGNALS];
static size_t nsignals;

struct thread *notification_signal(struct notification *n, uint64_t bits)
{
	assert_true(nsignals < MAX_SIGNALS);
	signalled[nsignals] = n;
	signalled_bits[nsignals++] = bits;
	return NULL;
}

static struct account *acct;

static int setup(void **state)
{
	(void)state;
	nsignals = 0;
	acct = account_new(NULL, 1 << 20);
	return acct ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(acct->used, 0); /* every record's charge back */
	account_put(acct);
	assert_int_equal(kalloc_live(), 0);
	return 0;
}

static void ntfn_init(struct notification *n)
{
	*n = (struct notification){ .obj.refs = 1 };
	list_init(&n->process_watches);
}

/* sys_process_watch's path for a new watch: room, a record, linked. 0 or -1 (no room). */
static int watch(struct list_node *proc, struct notification *n, uint64_t badge)
{
	struct process_watch *w;

	if (process_watch_find(proc, n) || !process_watch_room(proc))
		return -1;
	w = process_watch_new(acct);
	assert_non_null(w);
	process_watch_link(w, proc, n, badge);
	return 0;
}

static size_t count(struct list_node *l)
{
	size_t k = 0;

	for (struct list_node *i = l->next; i != l; i = i->next)
		k++;
	return k;
}

/* A client outlives ten instances of a server that each watch it with their own notification:
 * each instance's notification ends with it and frees its place, so the next one gets one. */
static void test_watcher_end_frees_place(void **state)
{
	struct list_node client = LIST_INIT(client);
	struct notification parent, inst[10];

	(void)state;
	ntfn_init(&parent);
	assert_int_equal(watch(&client, &parent, 1), 0);
	for (int i = 0; i < 10; i++) {
		ntfn_init(&inst[i]);
		assert_int_equal(watch(&client, &inst[i], 2), 0);
		assert_int_equal(count(&client), 2);
		assert_true(process_watch_unlink_step(&inst[i].process_watches)); /* its end */
		assert_int_equal(count(&client), 1);
	}
	process_watch_fire(&client, true);
	assert_int_equal(nsignals, 1);
	assert_ptr_equal(signalled[0], &parent);
	assert_true(list_empty(&parent.process_watches));
}

static void test_places_are_bounded(void **state)
{
	struct list_node proc = LIST_INIT(proc);
	struct notification n[PROCESS_WATCHERS + 1];

	(void)state;
	for (int i = 0; i <= PROCESS_WATCHERS; i++)
		ntfn_init(&n[i]);
	for (int i = 0; i < PROCESS_WATCHERS; i++)
		assert_int_equal(watch(&proc, &n[i], 1ul << i), 0);
	assert_false(process_watch_room(&proc));
	assert_int_equal(watch(&proc, &n[PROCESS_WATCHERS], 1), -1);
	/* badge 0: one record freed, its place back */
	process_watch_free(process_watch_find(&proc, &n[1]));
	assert_null(process_watch_find(&proc, &n[1]));
	assert_true(list_empty(&n[1].process_watches));
	assert_int_equal(watch(&proc, &n[PROCESS_WATCHERS], 1ul << 9), 0);
	process_watch_fire(&proc, true);
	assert_int_equal(nsignals, PROCESS_WATCHERS);
	assert_int_equal(signalled_bits[0], 1ul << 0);
	assert_int_equal(signalled_bits[1], 1ul << 2);
	assert_int_equal(signalled_bits[2], 1ul << 3);
	assert_int_equal(signalled_bits[3], 1ul << 9);
	for (int i = 0; i <= PROCESS_WATCHERS; i++)
		assert_true(list_empty(&n[i].process_watches));
}

/* One notification watching 100 processes ends in steps of PROCESS_WATCH_STEP. */
#define MANY 100
static void test_notification_end_in_steps(void **state)
{
	static struct list_node procs[MANY];
	struct notification n;
	size_t steps = 0;

	(void)state;
	ntfn_init(&n);
	for (int i = 0; i < MANY; i++) {
		list_init(&procs[i]);
		assert_int_equal(watch(&procs[i], &n, 1), 0);
	}
	for (;;) {
		size_t before = count(&n.process_watches);
		bool done = process_watch_unlink_step(&n.process_watches);

		steps++;
		assert_int_equal(before - count(&n.process_watches),
				 before < PROCESS_WATCH_STEP ? before : PROCESS_WATCH_STEP);
		if (done)
			break;
	}
	assert_int_equal(steps, (MANY + PROCESS_WATCH_STEP - 1) / PROCESS_WATCH_STEP);
	for (int i = 0; i < MANY; i++)
		assert_true(list_empty(&procs[i]));
	/* the processes' ends find nothing to signal */
	for (int i = 0; i < MANY; i++)
		process_watch_fire(&procs[i], true);
	assert_int_equal(nsignals, 0);
}

/* A process's end with a notification whose end is under way (no reference, records still to
 * free): the record goes, the notification is not signalled; a process freed without having
 * run signals nobody. */
static void test_fire_skips_ending_notification(void **state)
{
	struct list_node a = LIST_INIT(a), b = LIST_INIT(b);
	struct notification n, m;

	(void)state;
	ntfn_init(&n);
	ntfn_init(&m);
	assert_int_equal(watch(&a, &n, 4), 0);
	assert_int_equal(watch(&a, &m, 8), 0);
	assert_int_equal(watch(&b, &m, 8), 0);
	n.obj.refs = 0;
	process_watch_fire(&a, true);
	assert_int_equal(nsignals, 1);
	assert_ptr_equal(signalled[0], &m);
	assert_true(list_empty(&n.process_watches));
	assert_int_equal(count(&m.process_watches), 1);
	process_watch_fire(&b, false);
	assert_int_equal(nsignals, 1);
	assert_true(list_empty(&m.process_watches));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_watcher_end_frees_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_places_are_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notification_end_in_steps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fire_skips_ending_notification, setup, teardown),
	};

	return cmocka_run_group_tests_name("process_watch", tests, NULL, NULL);
}
