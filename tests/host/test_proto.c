/* test_proto.c: host unit tests of what tools/genproto.py generates. The dispatch of a test
 * protocol (tests/host/proto/demo.proto: words, a status, outs, a capability each way, a
 * capability refused with its own code) gets hostile messages (an unknown label, too few and
 * too many words, a capability where none is expected, none where one is) and must answer each
 * with the error reply and call no handler; each client stub goes through a fake call into the
 * dispatch and back, so the two sides agree on every word. rng's description checks the error
 * replies by label (RNG_ERROR); init's (lib/proto/init.proto) that the name service's handlers
 * see no malformed request (a publish without its capability or with a word too few, a
 * capability where none is expected) and that INIT_POWEROFF's status may be left out. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <tacet/demo_client.h>
#include <tacet/demo_server.h>
#include <tacet/rng_client.h>
#include <tacet/rng_server.h>
#include <tacet/init_client.h>
#include <tacet/init_server.h>

#define EP_DEMO   1
#define EP_RNG    2
#define EP_INIT   3
#define RECV_SLOT 50 /* where the server receives a call's capability */
#define SERVER_CAP 60 /* the capability the server's claim handler replies with */

static unsigned int calls; /* handler calls since the last reset */
static uint64_t seen[4];   /* the last handler's words */
static unsigned long seen_cap, reply_into; /* the cap slot it got; where the last reply's went */

long demo_serve_ping(struct tacet_service *s)
{
	(void)s;
	calls++;
	return 0;
}

long demo_serve_sum(struct tacet_service *s, uint64_t a, uint64_t b, uint64_t c, uint64_t d,
		    uint64_t *hi, uint64_t *lo)
{
	(void)s;
	calls++;
	seen[0] = a, seen[1] = b, seen[2] = c, seen[3] = d;
	if (a == 99)
		return -TACET_ERANGE;
	*hi = a + b;
	*lo = c + d;
	return 7;
}

long demo_serve_give(struct tacet_service *s, uint64_t x, unsigned long thing)
{
	(void)s;
	calls++;
	seen[0] = x;
	seen_cap = thing;
	return 0;
}

long demo_serve_claim(struct tacet_service *s, uint64_t x, unsigned long proc, uint64_t *got,
		      unsigned long *back)
{
	(void)s;
	calls++;
	seen_cap = proc;
	*got = x * 2;
	*back = x ? SERVER_CAP : 0;
	return 0;
}

/* The reply's capability is optional: x 0 sends none. */
long demo_serve_maybe(struct tacet_service *s, uint64_t x, uint64_t *got, unsigned long *back)
{
	(void)s;
	calls++;
	*got = x + 1;
	*back = x ? SERVER_CAP : 0;
	return 0;
}

long demo_serve_info(struct tacet_service *s, uint64_t *w0, uint64_t *w1, uint64_t *w2,
		     uint64_t *w3)
{
	(void)s;
	calls++;
	*w0 = 10, *w1 = 11, *w2 = 12, *w3 = 13;
	return 0;
}

long rng_serve_read(struct tacet_service *s, uint64_t n, uint64_t *b0, uint64_t *b1, uint64_t *b2,
		    uint64_t *b3)
{
	(void)s;
	calls++;
	if (!n || n > RNG_READ_MAX)
		return -TACET_EINVAL;
	*b0 = ~0ull, *b1 = 1, *b2 = 2, *b3 = 3; /* w0 all ones: negative, yet not an error */
	return 0;
}

long rng_serve_stats(struct tacet_service *s, uint64_t *completed, uint64_t *in_flight,
		     uint64_t *irqs, uint64_t *line_count)
{
	(void)s;
	calls++;
	*completed = 1, *in_flight = 2, *irqs = 3, *line_count = 4;
	return 0;
}

/* init's handlers, faked: each records what it got. */
long init_serve_exit(struct tacet_service *s, uint64_t status)
{
	(void)s;
	calls++;
	seen[0] = status;
	return 0;
}

long init_serve_publish(struct tacet_service *s, uint64_t name0, uint64_t name1, uint64_t name2,
			uint64_t how, unsigned long what)
{
	(void)s;
	calls++;
	seen[0] = name0, seen[1] = name1, seen[2] = name2, seen[3] = how;
	seen_cap = what;
	return 0;
}

long init_serve_lookup(struct tacet_service *s, uint64_t name0, uint64_t name1, uint64_t name2,
		       uint64_t dst, uint64_t *instance)
{
	(void)s;
	calls++;
	seen[0] = name0, seen[1] = name1, seen[2] = name2, seen[3] = dst;
	if (!name0)
		return -TACET_ENOENT;
	*instance = 5;
	return 0;
}

long init_serve_poweroff(struct tacet_service *s, uint64_t status)
{
	(void)s;
	calls++;
	seen[0] = status;
	return -TACET_EPERM;
}

long init_serve_grant(struct tacet_service *s, uint64_t badge, uint64_t name0, uint64_t name1,
		      uint64_t name2, uint64_t *arg0, uint64_t *arg1, uint64_t *arg2)
{
	(void)s;
	calls++;
	seen[0] = badge, seen[1] = name0, seen[2] = name1, seen[3] = name2;
	*arg0 = 0x61, *arg1 = 0x62, *arg2 = 0x63;
	return 0;
}

long init_serve_stuck(struct tacet_service *s, uint64_t name0, uint64_t name1, uint64_t name2,
		      uint64_t instance)
{
	(void)s;
	calls++;
	seen[0] = name0, seen[1] = name1, seen[2] = name2, seen[3] = instance;
	return 0;
}

long init_serve_sync(struct tacet_service *s)
{
	(void)s;
	calls++;
	return 0;
}

/* The kernel's part of a call, faked: the message reaches the server (a capability lands in
 * its receive slot), the service loop's reply comes back (a capability only into a reply slot
 * the caller named). */
long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot)
{
	struct tacet_service s = { .recv = RECV_SLOT, .badge = 3 };
	struct tacet_msg in = *msg, reply = { .tag = TACET_TAG(0, 1) };

	if (TACET_TAG_HAS_CAP(in.tag))
		in.tag = TACET_TAG_CAP(TACET_TAG_LABEL(in.tag), TACET_TAG_WORDS(in.tag), RECV_SLOT);
	if (ep == EP_DEMO)
		demo_dispatch(&s, &in, &reply);
	else if (ep == EP_INIT)
		init_dispatch(&s, &in, &reply);
	else
		rng_dispatch(&s, &in, &reply);
	reply_into = TACET_TAG_HAS_CAP(reply.tag) && reply_slot ? reply_slot : 0;
	*msg = reply;
	if (TACET_TAG_HAS_CAP(reply.tag))
		msg->tag = reply_slot ? TACET_TAG_CAP(TACET_TAG_LABEL(reply.tag),
						      TACET_TAG_WORDS(reply.tag), reply_slot)
				      : TACET_TAG(TACET_TAG_LABEL(reply.tag), TACET_TAG_WORDS(reply.tag));
	return 0;
}

/* The demo dispatch's answer to a raw message; *label the reply's label. */
static long raw(unsigned long tag, unsigned long *label)
{
	struct tacet_service s = { .recv = RECV_SLOT };
	struct tacet_msg in = { .tag = tag, .w = { 1, 2, 3, 4 } }, reply = { .tag = TACET_TAG(0, 1) };

	demo_dispatch(&s, &in, &reply);
	if (label)
		*label = TACET_TAG_LABEL(reply.tag);
	return (long)reply.w[0];
}

static void reset(void)
{
	calls = 0;
	seen_cap = reply_into = 0;
}

static void test_hostile_refused_unhandled(void **state)
{
	static const struct {
		unsigned long tag;
		long want;
	} bad[] = {
		{ TACET_TAG(0x7777, 0), -TACET_EINVAL },          /* unknown label */
		{ TACET_TAG(0, 0), -TACET_EINVAL },               /* label 0 */
		{ TACET_TAG(DEMO_PING, 1), -TACET_EINVAL },       /* too many words */
		{ TACET_TAG(DEMO_SUM, 3), -TACET_EINVAL },        /* too few */
		{ TACET_TAG(DEMO_SUM, 0), -TACET_EINVAL },
		{ TACET_TAG_CAP(DEMO_SUM, 4, 9), -TACET_EINVAL }, /* a capability where none is expected */
		{ TACET_TAG_CAP(DEMO_PING, 0, 9), -TACET_EINVAL },
		{ TACET_TAG(DEMO_GIVE, 1), -TACET_EINVAL },       /* none where one is */
		{ TACET_TAG_CAP(DEMO_GIVE, 0, 9), -TACET_EINVAL }, /* the capability, too few words */
		{ TACET_TAG_CAP(DEMO_GIVE, 2, 9), -TACET_EINVAL },
		{ TACET_TAG(DEMO_CLAIM, 1), -TACET_EPERM },       /* its own refusal code */
		{ TACET_TAG_CAP(DEMO_CLAIM, 2, 9), -TACET_EINVAL }, /* words first */
		{ TACET_TAG_CAP(DEMO_INFO, 0, 9), -TACET_EINVAL },
	};
	unsigned long label;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset();
		label = 1;
		assert_int_equal(raw(bad[i].tag, &label), bad[i].want);
		assert_int_equal(label, 0);
		if (calls)
			fail_msg("message %zu (tag %#lx) reached a handler", i, bad[i].tag);
	}
}

static void test_well_formed_reaches_handler(void **state)
{
	(void)state;
	reset();
	assert_int_equal(raw(TACET_TAG(DEMO_PING, 0), NULL), 0);
	assert_int_equal(raw(TACET_TAG(DEMO_SUM, 4), NULL), 7);
	assert_int_equal(raw(TACET_TAG_CAP(DEMO_GIVE, 1, 9), NULL), 0);
	assert_int_equal(seen_cap, RECV_SLOT);
	assert_int_equal(calls, 3);
}

static void test_stubs_round_trip(void **state)
{
	uint64_t hi = 0, lo = 0, got = 0, w[4] = { 0 };

	(void)state;
	reset();
	assert_int_equal(demo_call_ping(EP_DEMO), 0);
	assert_int_equal(demo_call_sum(EP_DEMO, 1, 2, 30, 40, &hi, &lo), 7);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[3], 40);
	assert_int_equal(hi, 3);
	assert_int_equal(lo, 70);
	assert_int_equal(demo_call_give(EP_DEMO, 5, 21), 0);
	assert_int_equal(seen[0], 5);
	assert_int_equal(seen_cap, RECV_SLOT);
	assert_int_equal(demo_call_claim(EP_DEMO, 4, 22, &got, 23), 0);
	assert_int_equal(got, 8);
	assert_int_equal(reply_into, 23); /* the reply's capability reached the slot named */
	assert_int_equal(demo_call_info(EP_DEMO, &w[0], &w[1], &w[2], &w[3]), 0);
	assert_int_equal(w[0], 10);
	assert_int_equal(w[3], 13);
	assert_int_equal(calls, 5);
}

static void test_stub_error_leaves_outs(void **state)
{
	uint64_t hi = 123, lo = 456, got = 9;

	(void)state;
	reset();
	assert_int_equal(demo_call_sum(EP_DEMO, 99, 0, 0, 0, &hi, &lo), -TACET_ERANGE);
	assert_int_equal(hi, 123);
	assert_int_equal(lo, 456);
	/* a success without its reply capability */
	assert_int_equal(demo_call_claim(EP_DEMO, 0, 22, &got, 23), -TACET_EEMPTY);
	assert_int_equal(reply_into, 0);
	assert_int_equal(got, 9);
}

/* A reply capability written `cap NAME?`: a success without it is a success, outs filled. */
static void test_stub_optional_reply_cap(void **state)
{
	uint64_t got = 9;

	(void)state;
	reset();
	assert_int_equal(demo_call_maybe(EP_DEMO, 0, &got, 23), 0);
	assert_int_equal(got, 1);
	assert_int_equal(reply_into, 0);
	assert_int_equal(demo_call_maybe(EP_DEMO, 4, &got, 23), 0);
	assert_int_equal(got, 5);
	assert_int_equal(reply_into, 23);
}

static void test_error_label(void **state)
{
	uint64_t b[4] = { 0 }, st[4] = { 0 };
	struct tacet_service s = { .recv = RECV_SLOT };
	struct tacet_msg in = { .tag = TACET_TAG_CAP(RNG_READ, 1, 9), .w = { 4 } };
	struct tacet_msg reply = { .tag = TACET_TAG(0, 1) };

	(void)state;
	reset();
	assert_int_equal(rng_call_read(EP_RNG, 8, &b[0], &b[1], &b[2], &b[3]), 0);
	assert_true(b[0] == ~0ull); /* a negative w0 is data when errors come by label */
	assert_int_equal(b[3], 3);
	assert_int_equal(rng_call_read(EP_RNG, 0, &b[0], &b[1], &b[2], &b[3]), -TACET_EINVAL);
	assert_int_equal(rng_call_stats(EP_RNG, &st[0], &st[1], &st[2], &st[3]), 0);
	assert_int_equal(st[3], 4);
	calls = 0;
	rng_dispatch(&s, &in, &reply); /* a capability RNG_READ does not take */
	assert_int_equal(TACET_TAG_LABEL(reply.tag), RNG_ERROR);
	assert_int_equal((long)reply.w[0], -TACET_EINVAL);
	assert_int_equal(calls, 0);
}

/* init's dispatch's answer to a raw message (every word all ones, as a hostile server would
 * send); *label the reply's label. */
static long init_raw(unsigned long tag, unsigned long *label)
{
	struct tacet_service s = { .recv = RECV_SLOT, .badge = 4 };
	struct tacet_msg in = { .tag = tag, .w = { ~0ul, ~0ul, ~0ul, ~0ul } };
	struct tacet_msg reply = { .tag = TACET_TAG(0, 1) };

	init_dispatch(&s, &in, &reply);
	*label = TACET_TAG_LABEL(reply.tag);
	return (long)reply.w[0];
}

static void test_init_hostile_refused_unhandled(void **state)
{
	static const unsigned long bad[] = {
		TACET_TAG(INIT_PUBLISH, 4),          /* no capability to publish */
		TACET_TAG_CAP(INIT_PUBLISH, 3, 9),   /* a word too few */
		TACET_TAG_CAP(INIT_PUBLISH, 0, 9),
		TACET_TAG_CAP(INIT_PUBLISH, 5, 9),   /* a word too many */
		TACET_TAG_CAP(INIT_LOOKUP, 4, 9),    /* a capability where none is expected */
		TACET_TAG(INIT_LOOKUP, 3),
		TACET_TAG_CAP(INIT_GRANT, 4, 9),
		TACET_TAG(INIT_GRANT, 1),
		TACET_TAG(INIT_EXIT, 0),
		TACET_TAG_CAP(INIT_EXIT, 1, 9),
		TACET_TAG(INIT_POWEROFF, 2),         /* its optional word, and one more */
		TACET_TAG_CAP(INIT_POWEROFF, 0, 9),
		TACET_TAG(INIT_SERVICE_SYNC, 1),
		TACET_TAG(0, 4),                     /* labels init has not */
		TACET_TAG(INIT_STUCK, 3),            /* a word too few */
		TACET_TAG_CAP(INIT_STUCK, 4, 9),
		TACET_TAG(INIT_STUCK + 1, 4),
	};
	unsigned long label;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		reset();
		label = 1;
		assert_int_equal(init_raw(bad[i], &label), -TACET_EINVAL);
		assert_int_equal(label, 0);
		if (calls)
			fail_msg("init message %zu (tag %#lx) reached a handler", i, bad[i]);
	}
}

static void test_init_well_formed(void **state)
{
	uint64_t instance = 0, arg[3] = { 0 };
	unsigned long label;

	(void)state;
	reset();
	/* a raw power-off without its status word reaches the handler (its refusal is init's) */
	seen[0] = 7;
	assert_int_equal(init_raw(TACET_TAG(INIT_POWEROFF, 0), &label), -TACET_EPERM);
	assert_int_equal(seen[0], 0);
	assert_int_equal(init_raw(TACET_TAG(INIT_POWEROFF, 1), &label), -TACET_EPERM);
	assert_true(seen[0] == ~0ull);
	assert_int_equal(calls, 2);
	/* the stubs lib's names.c calls, through the dispatch and back */
	assert_int_equal(init_call_publish(EP_INIT, 1, 2, 3, 4, 21), 0);
	assert_int_equal(seen[3], 4);
	assert_int_equal(seen_cap, RECV_SLOT);
	assert_int_equal(init_call_lookup(EP_INIT, 0x6e, 0, 0, 40, &instance), 0);
	assert_int_equal(seen[3], 40);
	assert_int_equal(instance, 5);
	instance = 9;
	assert_int_equal(init_call_lookup(EP_INIT, 0, 0, 0, 40, &instance), -TACET_ENOENT);
	assert_int_equal(instance, 9);
	assert_int_equal(init_call_grant(EP_INIT, 2, 0x6b6c62, 0, 0, &arg[0], &arg[1], &arg[2]), 0);
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[1], 0x6b6c62);
	assert_int_equal(arg[2], 0x63);
	assert_int_equal(init_call_exit(EP_INIT, 3), 0);
	assert_int_equal(seen[0], 3);
	assert_int_equal(init_call_sync(EP_INIT), 0);
	assert_int_equal(init_call_stuck(EP_INIT, 0x6b6c62, 0, 0, 7), 0);
	assert_int_equal(seen[0], 0x6b6c62);
	assert_int_equal(seen[3], 7);
	assert_int_equal(calls, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_refused_unhandled),
		cmocka_unit_test(test_well_formed_reaches_handler),
		cmocka_unit_test(test_stubs_round_trip),
		cmocka_unit_test(test_stub_error_leaves_outs),
		cmocka_unit_test(test_stub_optional_reply_cap),
		cmocka_unit_test(test_error_label),
		cmocka_unit_test(test_init_hostile_refused_unhandled),
		cmocka_unit_test(test_init_well_formed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
