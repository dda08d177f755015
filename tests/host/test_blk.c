/* test_blk.c: host test of lib/blk.c (the block service's client, <tacet/blk.h>) against a fake
 * kernel and a fake blk service: what lib holds across a restart of the service. One thread:
 * the service acts when the test says, or, through on_wait, while the client waits.
 *
 * The fake service keeps, as the real one does, the ids its running instance holds for the
 * client (an ended instance holds nothing: init resets the device before the next starts),
 * refuses a request at refuse_sector with `refusal` (as a restarted instance may refuse what the
 * last one took: a grant that shrank, a faulted instance's answer), and records the first time
 * lib submits an id the instance still holds: lib then thinks that id and its buffer range
 * free while the device may still complete the old request into them. Its lookups find the
 * running instance only once it has published (a driver hung in its set-up never does); a
 * reconnect that finds none leaves lib's endpoint reaching the ended instance, as lib/names.c's
 * does (test_names.c checks that side).
 *
 * What it checks: a submission that meets the service's end and reconnects returns its own
 * request's result, not another's refusal; no id is free in lib while an instance holds it;
 * every request in flight is submitted again to the next instance, even after one of them is
 * refused; a wait's reconnect gives the wait its own request's result; a refused request's
 * wait says the refusal; a reconnect that found no instance is tried again by the next
 * submission or wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <tacet.h>
#include <tacet/blk.h>

#define CAPACITY  64 /* sectors */
#define SECTORS   16 /* the client's buffer */
#define TIMER_BIT (1ul << 17) /* lib's, <tacet/blk.h>'s notification bits */
#define GONE_BIT  (1ul << 18)
#define NONE      (~0ull)

/* --- the fake kernel and blk service -------------------------------------------------------- */

static struct tacet_blk b;
static unsigned long bits;     /* on the client's notification */
static uint64_t now;           /* the timebase */
static unsigned long live;     /* the service's running instance */
static unsigned long reached;  /* the instance lib's endpoint reaches */
static int published;          /* the running instance has published its name */
static uint32_t held;          /* ids the running instance holds for the client */
static uint64_t refuse_sector; /* the running instance refuses a request there (NONE: none) */
static long refusal;
static char misuse[160];       /* the first id lib submitted while the instance held it */
static void (*on_wait)(void);  /* what the service does while the client waits */

/* The bits waiting; none and nothing to come: the time jumps past any deadline and lib's
 * timer fires (a wait for a request no instance holds ends at its timeout). */
long tacet_wait(unsigned long ntfn)
{
	unsigned long got;

	(void)ntfn;
	if (!bits && on_wait)
		on_wait();
	if (!bits) {
		now += 1ull << 40;
		return (long)TIMER_BIT;
	}
	got = bits;
	bits = 0;
	return (long)got;
}

long tacet_poll(unsigned long ntfn)
{
	unsigned long got = bits;

	(void)ntfn;
	bits = 0;
	return (long)got;
}

long tacet_timer_set(unsigned long ntfn, unsigned long badge, unsigned long deadline)
{
	(void)ntfn, (void)badge, (void)deadline;
	return 0;
}

uint64_t tacet_time(void)
{
	return now;
}

uint64_t tacet_ns_to_ticks(uint64_t ns)
{
	return ns / 100;
}

long tacet_sleep_ns(uint64_t ns)
{
	(void)ns;
	return 0;
}

long tacet_ntfn_new(unsigned long dst)
{
	(void)dst;
	return 0;
}

/* Its `tries` spent at once when the running instance has not published: -TACET_ENOENT. */
long tacet_lookup_instance(const char *name, unsigned long dst, unsigned int tries,
			   unsigned long *instance)
{
	(void)name, (void)dst, (void)tries;
	if (!published)
		return -TACET_ENOENT;
	reached = *instance = live;
	return 0;
}

/* lib/names.c's: the endpoint in slot replaced only by one found. */
long tacet_reconnect_instance(const char *name, unsigned long slot, unsigned int tries,
			      unsigned long *instance)
{
	return tacet_lookup_instance(name, slot, tries, instance);
}

static int ends_reported;      /* init ends an instance reported stuck (else: no liveness) */
static unsigned int reports;   /* instances reported stuck */

static void restart_refusing(uint64_t sector, long err);

long tacet_report_stuck(const char *name, unsigned long instance)
{
	(void)name, (void)instance;
	if (!ends_reported)
		return -TACET_EPERM; /* no liveness for this service: the timeout is the answer */
	if (++reports == 100)
		fail_msg("a wait reported 100 instances stuck and waits on");
	restart_refusing(NONE, 0); /* init ends it; the next one holds nothing yet */
	return 0;
}

/* BLK_READ, BLK_WRITE, BLK_FLUSH (w: sector, count, offset, id): queued, or refused. */
static long serve_request(const uint64_t *w)
{
	uint32_t bit = 1u << w[3];

	if (w[3] >= BLK_IDS)
		return -TACET_EINVAL;
	if (held & bit) {
		if (!misuse[0])
			snprintf(misuse, sizeof(misuse),
				 "lib submitted id %lu (sector %lu) while instance %lu still held "
				 "its earlier request", (unsigned long)w[3], (unsigned long)w[0],
				 live);
		return -TACET_EBUSY;
	}
	if (w[0] == refuse_sector)
		return refusal;
	held |= bit;
	return 0;
}

long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot)
{
	unsigned long label = TACET_TAG_LABEL(msg->tag);
	uint64_t w[3] = { 0, 0, 0 };

	(void)reply_slot, (void)ep;
	if (reached != live)
		return -TACET_EDEAD;
	if (label == BLK_INFO) {
		w[0] = CAPACITY;
		w[1] = BLK_SECTOR;
	} else if (label == BLK_OPEN) {
		w[2] = CAPACITY; /* sectors 0 to the end granted */
	} else if (label == BLK_READ || label == BLK_WRITE || label == BLK_FLUSH) {
		w[0] = (uint64_t)serve_request(msg->w);
	}
	msg->tag = TACET_TAG(0, 3);
	memcpy(msg->w, w, sizeof(w));
	return 0;
}

/* The running instance completes request id. */
static void complete(unsigned int id)
{
	assert_true(held & (1u << id));
	held &= ~(1u << id);
	b.status[id] = BLK_S_OK;
	bits |= 1ul << id;
}

/* The running instance ends (its device reset: it holds nothing) and the next one starts,
 * refusing a request at `sector` with `err`. */
static void restart_refusing(uint64_t sector, long err)
{
	live++;
	published = 1;
	held = 0;
	bits |= GONE_BIT; /* the endpoint's watch */
	refuse_sector = sector;
	refusal = err;
}

/* --- the tests ------------------------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	bits = 0;
	now = 1000;
	live = reached = 0;
	published = 1;
	held = 0;
	refuse_sector = NONE;
	refusal = 0;
	misuse[0] = 0;
	on_wait = NULL;
	ends_reported = 0;
	reports = 0;
	assert_int_equal(tacet_blk_open(&b, SECTORS * BLK_SECTOR, 1), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tacet_blk_close(&b);
	return 0;
}

static long read_at(uint64_t sector)
{
	return tacet_blk_submit(&b, BLK_READ, sector, 1, sector * BLK_SECTOR);
}

/* Reads of sectors 0..n-1 in flight as ids 0..n-1, then id 1 completed and collected: the
 * next submission takes id 1 while the others are in flight. */
static void in_flight_but_one(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(read_at(i), i);
	complete(1);
	assert_int_equal(tacet_blk_wait(&b, 1), 0);
	assert_int_equal(held, ((1u << n) - 1) & ~2u);
}

static void assert_no_misuse(void)
{
	if (misuse[0])
		fail_msg("%s", misuse);
}

/* Ids 0 and 2 in flight, the service ends; the next submission (id 1) meets the end: lib
 * reaches the next instance, submits all three again, and each completes there. */
static void test_reconnect_submits_every_request_again(void **state)
{
	(void)state;
	in_flight_but_one(3);
	restart_refusing(NONE, 0);
	assert_int_equal(read_at(1), 1);
	assert_int_equal(b.instance, 1);
	assert_int_equal(held, 0x7);
	for (unsigned int id = 0; id < 3; id++) {
		complete(id);
		assert_int_equal(tacet_blk_wait(&b, id), 0);
	}
	assert_int_equal(b.busy, 0);
	assert_no_misuse();
}

/* Ids 0 and 2 in flight, the service ends; the next submission (id 1, sector 1) meets the
 * end, and its reconnect submits 0, 1 and 2 again; the next instance takes 0 and 1, and refuses
 * 2 (sector 2). The submission's answer is its own request's: id 1, held by the next instance.
 * Before: -TACET_EPERM (id 2's refusal), id 1 free again in lib while the instance held it. */
static void test_submit_answers_for_its_own_request(void **state)
{
	long id;

	(void)state;
	in_flight_but_one(3);
	restart_refusing(2, -TACET_EPERM);
	id = read_at(1);
	if (id != 1)
		fail_msg("the submission that reconnected returned %ld, not its id 1: the next "
			 "instance held its request (ids held 0x%x) and refused only id 2's", id,
			 held);
	assert_int_equal(held, 0x3);
	assert_int_equal(tacet_blk_wait(&b, 2), -TACET_EPERM);
	complete(0);
	complete(1);
	assert_int_equal(tacet_blk_wait(&b, 0), 0);
	assert_int_equal(tacet_blk_wait(&b, 1), 0);
	assert_int_equal(b.busy, 0);
	assert_no_misuse();
}

/* As above; whatever that submission said, the next one must not take an id (and so a buffer
 * range, in the caller's reckoning) that the running instance still holds. Before: it took
 * id 1, which the instance refused as in flight (the real one completes the old request later:
 * its bit would have been taken for the new one's). */
static void test_no_id_taken_while_an_instance_holds_it(void **state)
{
	(void)state;
	in_flight_but_one(3);
	restart_refusing(2, -TACET_EPERM);
	(void)read_at(1);
	(void)read_at(5);
	assert_no_misuse();
}

/* Ids 0, 2 and 3 in flight; the next instance refuses id 2's request: the ones after it (3)
 * are submitted again all the same. Before: the reconnect stopped at the refusal, id 3 held by
 * no instance and still waited for. */
static void test_requests_after_a_refusal_are_submitted_again(void **state)
{
	(void)state;
	in_flight_but_one(4);
	restart_refusing(2, -TACET_EPERM);
	(void)read_at(1);
	if (held != 0xb)
		fail_msg("after the reconnect the next instance holds ids 0x%x, not 0xb (0, 1 and "
			 "3: only id 2 was refused)", held);
	complete(3);
	assert_int_equal(tacet_blk_wait(&b, 3), 0);
	assert_no_misuse();
}

/* The new request itself refused by the next instance: its submission says so and its id is
 * free again (no instance holds it); the others are held by the next instance. */
static void test_submit_refused_itself_frees_its_id_only(void **state)
{
	(void)state;
	in_flight_but_one(3);
	restart_refusing(7, -TACET_EPERM);
	assert_int_equal(read_at(7), -TACET_EPERM);
	if (held != 0x5)
		fail_msg("after the reconnect the next instance holds ids 0x%x, not 0x5 (0 and 2)",
			 held);
	assert_int_equal(b.busy, 0x5);
	assert_no_misuse();
}

/* The next instance refuses id 2's request for the client's share for the whole timeout: the
 * submission that reconnected still answers for its own (id 1), and id 2's wait says it failed
 * (-TACET_EFAULT: no instance holds it; -TACET_EBUSY would say it is still in flight). Before:
 * the submission returned -TACET_EBUSY, id 1 free again while the instance held it. */
static void test_refused_for_the_share_fails_that_request_only(void **state)
{
	(void)state;
	in_flight_but_one(3);
	restart_refusing(2, -TACET_EBUSY);
	assert_int_equal(read_at(1), 1);
	assert_int_equal(tacet_blk_wait(&b, 2), -TACET_EFAULT);
	complete(0);
	complete(1);
	assert_int_equal(tacet_blk_wait(&b, 0), 0);
	assert_int_equal(tacet_blk_wait(&b, 1), 0);
	assert_no_misuse();
}

static int waits;

/* While the client waits: first the service ends (its next instance refusing sector 2), then
 * the next instance completes id 0. */
static void end_then_complete_0(void)
{
	if (waits++ == 0)
		restart_refusing(2, -TACET_EPERM);
	else if (held & 1u)
		complete(0);
}

/* A wait for id 0 meets the service's end; its reconnect submits ids 0 and 2 again and the next
 * instance refuses 2. The wait goes on and answers for id 0 (done); id 2's wait says the
 * refusal. Before: the wait for id 0 returned -TACET_EPERM, id 2's. */
static void test_wait_answers_for_its_own_request(void **state)
{
	long r;

	(void)state;
	in_flight_but_one(3);
	waits = 0;
	on_wait = end_then_complete_0;
	r = tacet_blk_wait(&b, 0);
	if (r != 0)
		fail_msg("the wait for id 0 that reconnected returned %ld, not 0: the next instance "
			 "took and completed id 0 and refused only id 2", r);
	assert_int_equal(tacet_blk_wait(&b, 2), -TACET_EPERM);
	assert_int_equal(b.busy, 0);
	assert_no_misuse();
}

/* Every instance leaves the request unanswered (its device starved: a shared interrupt line
 * another driver holds masked), and init ends each one the wait reports. The wait reports 4,
 * then its next timeout is its answer: -TACET_EBUSY, the request still in flight (every new
 * instance was given it). Before: it reported instance after instance for ever. */
static void test_wait_ends_when_every_instance_is_stuck(void **state)
{
	(void)state;
	b.timeout_ns = 25000000;
	assert_int_equal(read_at(0), 0);
	ends_reported = 1;
	assert_int_equal(tacet_blk_wait(&b, 0), -TACET_EBUSY);
	assert_int_equal(reports, 4);
	assert_int_equal(held, 1); /* the last instance holds it */
	assert_int_equal(b.busy, 1);
	assert_no_misuse();
}

/* The running instance ends and the next one hangs in its set-up (pci left its function
 * claimed: it never publishes). */
static void restart_unpublished(void)
{
	restart_refusing(NONE, 0);
	published = 0;
}

/* Id 0 in flight, the service ends, and its next instance does not publish within the
 * reconnect's wait: the submission that met the end (id 1) says so (-TACET_ENOENT). Once an
 * instance has published, the next submission reaches it and submits id 0 again. Before: the
 * failed reconnect left lib's endpoint slot empty (tacet_reconnect_instance dropped the ended
 * instance's endpoint first), every later call said -TACET_EEMPTY, which lib did not take for
 * the service's end, and the client never reached the service again (the fault campaign over
 * PCI: every use of blk failed for good after one fault into pci). */
static void test_reconnect_that_found_none_is_tried_again(void **state)
{
	long id;

	(void)state;
	assert_int_equal(read_at(0), 0);
	restart_unpublished();
	assert_int_equal(read_at(1), -TACET_ENOENT);
	published = 1;
	id = read_at(2);
	if (id != 1)
		fail_msg("the submission after a reconnect that found no instance returned %ld, "
			 "not id 1: an instance has published since", id);
	assert_int_equal(held, 0x3);
	complete(0);
	complete(1);
	assert_int_equal(tacet_blk_wait(&b, 0), 0);
	assert_int_equal(tacet_blk_wait(&b, 1), 0);
	assert_int_equal(b.busy, 0);
	assert_no_misuse();
}

/* While the client waits: the next instance publishes, then completes id 0. */
static void publish_then_complete_0(void)
{
	published = 1;
	if (held & 1u)
		complete(0);
}

/* The same for a wait: the service ends while id 0 is in flight and the wait's reconnect finds
 * no instance (-TACET_ENOENT, id 0 still held in lib); the next wait for id 0 reaches the
 * instance that published since, submits id 0 again there and answers its completion. Before:
 * the next wait's timeout asked an empty slot whether the service was alive (-TACET_EEMPTY,
 * taken for yes) and answered -TACET_EBUSY, for good. */
static void test_wait_after_a_reconnect_that_found_none(void **state)
{
	long r;

	(void)state;
	assert_int_equal(read_at(0), 0);
	restart_unpublished();
	assert_int_equal(tacet_blk_wait(&b, 0), -TACET_ENOENT);
	assert_int_equal(b.busy, 1);
	on_wait = publish_then_complete_0;
	r = tacet_blk_wait(&b, 0);
	if (r != 0)
		fail_msg("the wait after a reconnect that found no instance returned %ld, not 0: "
			 "an instance published since and completed id 0", r);
	assert_int_equal(b.busy, 0);
	assert_no_misuse();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reconnect_submits_every_request_again, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_submit_answers_for_its_own_request, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_id_taken_while_an_instance_holds_it, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_requests_after_a_refusal_are_submitted_again,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_submit_refused_itself_frees_its_id_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused_for_the_share_fails_that_request_only,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_answers_for_its_own_request, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wait_ends_when_every_instance_is_stuck, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_that_found_none_is_tried_again,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_after_a_reconnect_that_found_none, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
