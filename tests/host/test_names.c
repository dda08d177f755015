/* test_names.c: host test of lib/names.c (the client side of init's name service) against a
 * fake kernel, a capability table of endpoints and notifications, and a fake init whose one
 * service ends and comes back on the test's word. One thread.
 *
 * An endpoint capability reaches one instance of the service: a call through it says
 * -TACET_EDEAD once that instance has ended, through an empty slot -TACET_EEMPTY (which no client
 * takes for the service's end). init's lookup puts the published instance's endpoint into an
 * empty slot; until init withdraws an ended instance's name (`stale` lookups), it still finds the
 * ended one; an instance hung in its set-up has not published, and a lookup finds none.
 *
 * What it checks: a reconnect puts the next instance's endpoint in the client's slot; one that
 * finds none leaves the ended instance's there (the client's next call says -TACET_EDEAD and
 * reconnects again), never an empty slot; a first connect into an empty slot works; the
 * reconnect past the ended instance waits for init's withdrawal and leaves a live endpoint
 * alone; no slot of the caller's pool is kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOTS     128
#define POOL      100 /* the pool's slots: POOL..SLOTS-1 */
#define CLIENT_EP 10  /* the client's endpoint slot */

enum kind { EMPTY, ENDPOINT, NOTIFICATION, INIT };

static struct {
	enum kind kind;
	unsigned long instance; /* an endpoint's */
} cap[SLOTS];
static int pool_used[SLOTS];
static unsigned long live;      /* the service's running instance */
static int published;           /* ...has published its name */
static unsigned int stale;      /* lookups that still find the ended instance (init's lag) */
static unsigned int publish_in; /* pauses until the running instance publishes (0: never) */
static unsigned int pauses;     /* waits and sleeps between lookups */

/* --- the fake kernel ------------------------------------------------------------------------- */

static int bad(unsigned long slot)
{
	return slot >= SLOTS;
}

long tacet_cap_delete(unsigned long slot)
{
	if (bad(slot))
		return -TACET_EBADSLOT;
	if (cap[slot].kind == EMPTY)
		return -TACET_EEMPTY;
	cap[slot].kind = EMPTY;
	return 0;
}

long tacet_cap_copy(unsigned long src, unsigned long dst, unsigned long rights,
		    unsigned long badge)
{
	(void)rights, (void)badge;
	if (bad(src) || bad(dst))
		return -TACET_EBADSLOT;
	if (cap[src].kind == EMPTY)
		return -TACET_EEMPTY;
	if (cap[dst].kind != EMPTY)
		return -TACET_EEXIST;
	cap[dst] = cap[src];
	return 0;
}

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	(void)rights, (void)badge;
	return bad(slot) ? -TACET_EBADSLOT : cap[slot].kind == EMPTY ? -TACET_EEMPTY : 0;
}

long tacet_slot_alloc(void)
{
	for (unsigned long s = POOL; s < SLOTS; s++)
		if (!pool_used[s] && cap[s].kind == EMPTY) {
			pool_used[s] = 1;
			return (long)s;
		}
	return -TACET_ENOMEM;
}

void tacet_slot_free(unsigned long slot)
{
	if (slot < POOL || bad(slot))
		return;
	cap[slot].kind = EMPTY;
	pool_used[slot] = 0;
}

long tacet_ntfn_new(unsigned long dst)
{
	if (bad(dst))
		return -TACET_EBADSLOT;
	if (cap[dst].kind != EMPTY)
		return -TACET_EEXIST;
	cap[dst].kind = NOTIFICATION;
	return 0;
}

/* Time passes between lookups: the running instance may publish meanwhile. */
static void pause_passes(void)
{
	pauses++;
	if (publish_in && pauses >= publish_in)
		published = 1;
}

long tacet_wait(unsigned long ntfn)
{
	assert_int_equal(cap[ntfn].kind, NOTIFICATION);
	pause_passes();
	return 1; /* the timer's badge */
}

long tacet_sleep_ns(uint64_t ns)
{
	(void)ns;
	pause_passes();
	return 0;
}

long tacet_yield(void)
{
	pause_passes();
	return 0;
}

long tacet_timer_set(unsigned long ntfn, unsigned long badge, unsigned long deadline)
{
	(void)badge, (void)deadline;
	return cap[ntfn].kind == NOTIFICATION ? 0 : -TACET_ETYPE;
}

uint64_t tacet_time(void)
{
	return 0;
}

uint64_t tacet_ns_to_ticks(uint64_t ns)
{
	return ns;
}

/* -TACET_EDEAD once the instance the endpoint reaches has ended. */
long tacet_endpoint_watch(unsigned long ep, unsigned long ntfn, unsigned long badge)
{
	(void)ntfn, (void)badge;
	if (bad(ep))
		return -TACET_EBADSLOT;
	if (cap[ep].kind == EMPTY)
		return -TACET_EEMPTY;
	return cap[ep].instance == live ? 0 : -TACET_EDEAD;
}

/* init's INIT_LOOKUP: the instance published now (or, while stale, the ended one) into dst. */
static long init_lookup(struct tacet_msg *msg)
{
	unsigned long dst = msg->w[3], found = stale ? live - 1 : live;

	if (!published && !stale)
		return -TACET_ENOENT;
	if (bad(dst))
		return -TACET_EBADSLOT;
	if (cap[dst].kind != EMPTY)
		return -TACET_EEXIST;
	stale -= stale > 0;
	cap[dst].kind = ENDPOINT;
	cap[dst].instance = found;
	msg->w[1] = found;
	return 0;
}

/* A call: to init, or to the service (which answers 0 while the instance it reaches runs). */
long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot)
{
	(void)reply_slot;
	if (bad(ep))
		return -TACET_EBADSLOT;
	if (cap[ep].kind == EMPTY)
		return -TACET_EEMPTY;
	if (cap[ep].kind == INIT) {
		assert_int_equal(TACET_TAG_LABEL(msg->tag), INIT_LOOKUP);
		msg->w[0] = (uint64_t)init_lookup(msg);
		return 0;
	}
	if (cap[ep].kind != ENDPOINT)
		return -TACET_ETYPE;
	return cap[ep].instance == live ? 0 : -TACET_EDEAD;
}

/* A call of the client's on its endpoint. */
static long client_call(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(1, 0) };

	return tacet_call_cap(CLIENT_EP, &m, 0);
}

/* The service's running instance ends and init starts the next, which publishes or not. */
static void restart(int publishes)
{
	live++;
	published = publishes;
}

/* --- the tests ------------------------------------------------------------------------------- */

static int setup(void **state)
{
	(void)state;
	memset(cap, 0, sizeof(cap));
	memset(pool_used, 0, sizeof(pool_used));
	cap[TACET_CHILD_INIT].kind = INIT;
	cap[CLIENT_EP].kind = ENDPOINT;
	cap[CLIENT_EP].instance = 0;
	live = 0;
	published = 1;
	stale = 0;
	publish_in = 0;
	pauses = 0;
	return 0;
}

/* Every slot of the pool is back, empty. */
static int teardown(void **state)
{
	(void)state;
	for (unsigned long s = POOL; s < SLOTS; s++)
		if (pool_used[s] || cap[s].kind != EMPTY)
			fail_msg("slot %lu of the caller's pool kept after the call", s);
	return 0;
}

static void test_reconnect_reaches_the_next_instance(void **state)
{
	unsigned long instance = 0;

	(void)state;
	restart(1);
	assert_int_equal(client_call(), -TACET_EDEAD);
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 5, &instance), 0);
	assert_int_equal(instance, 1);
	assert_int_equal(cap[CLIENT_EP].instance, 1);
	assert_int_equal(client_call(), 0);
}

/* The next instance has not published within the reconnect's wait: -TACET_ENOENT, and the
 * client's slot still reaches the ended instance (its calls -TACET_EDEAD: the client reconnects
 * again), the instance it knows unchanged. Once the instance publishes, the next reconnect
 * reaches it. Before: the slot was emptied first, every later call said -TACET_EEMPTY, which no
 * client took for the service's end, and netdev (and blk, until it looked up on its own) never
 * reached the service again. */
static void test_reconnect_that_finds_none_keeps_the_ended_endpoint(void **state)
{
	unsigned long instance = 0;
	long r;

	(void)state;
	restart(0);
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 5, &instance), -TACET_ENOENT);
	assert_int_equal(instance, 0);
	r = client_call();
	if (r != -TACET_EDEAD)
		fail_msg("a call after a reconnect that found no instance said %ld, not -TACET_EDEAD "
			 "(%d): the client's slot must still reach the ended instance, so that it "
			 "reconnects again", r, -TACET_EDEAD);
	published = 1;
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 5, &instance), 0);
	assert_int_equal(instance, 1);
	assert_int_equal(client_call(), 0);
}

/* The instance publishes while the reconnect waits: reached within its tries. */
static void test_reconnect_waits_for_the_next_instance(void **state)
{
	unsigned long instance = 0;

	(void)state;
	restart(0);
	publish_in = 3;
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 10, &instance), 0);
	assert_int_equal(instance, 1);
	assert_int_equal(client_call(), 0);
}

/* A first connect: the slot empty, filled. */
static void test_reconnect_into_an_empty_slot(void **state)
{
	unsigned long instance = 7;

	(void)state;
	cap[CLIENT_EP].kind = EMPTY;
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 5, &instance), 0);
	assert_int_equal(instance, 0);
	assert_int_equal(client_call(), 0);
}

/* No slot free in the caller's pool: the error, the client's slot as it was. */
static void test_reconnect_without_a_free_slot_keeps_the_slot(void **state)
{
	unsigned long instance = 0;

	(void)state;
	restart(1);
	for (unsigned long s = POOL; s < SLOTS; s++)
		pool_used[s] = 1;
	assert_int_equal(tacet_reconnect_instance("svc", CLIENT_EP, 5, &instance), -TACET_ENOMEM);
	assert_int_equal(client_call(), -TACET_EDEAD);
	memset(pool_used, 0, sizeof(pool_used));
}

/* init still finds the ended instance twice: tacet_reconnect_next looks again until it reaches
 * the next. */
static void test_reconnect_next_waits_for_the_withdrawal(void **state)
{
	unsigned long instance = 0;

	(void)state;
	restart(1);
	stale = 2;
	assert_int_equal(tacet_reconnect_next("svc", CLIENT_EP, 5, &instance), 0);
	assert_int_equal(instance, 1);
	assert_int_equal(client_call(), 0);
}

/* The endpoint's instance still runs (-TACET_EDEAD was its own answer): nothing changes. */
static void test_reconnect_next_leaves_a_live_endpoint(void **state)
{
	unsigned long instance = 0;

	(void)state;
	assert_int_equal(tacet_reconnect_next("svc", CLIENT_EP, 5, &instance), 0);
	assert_int_equal(instance, 0);
	assert_int_equal(cap[CLIENT_EP].instance, 0);
	assert_int_equal(pauses, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reconnect_reaches_the_next_instance, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_that_finds_none_keeps_the_ended_endpoint,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_waits_for_the_next_instance, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_into_an_empty_slot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_without_a_free_slot_keeps_the_slot, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_next_waits_for_the_withdrawal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reconnect_next_leaves_a_live_endpoint, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
