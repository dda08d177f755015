/* test_session.c: host unit tests of lib/session.c, the service's session table, against a
 * fake kernel: a capability table (slots 0..127: a type and rights), process watches as
 * PROCESS_WATCH keeps them (four a process, one a notification and process: watching again
 * replaces the badge, badge 0 ends it, and is 0 with none), and lib's slot allocator. Cases:
 * open and close, the client's death ending its session exactly once, a death bit that comes
 * after its session closed, a session opened again (the old one ended once, one watch, fresh
 * state), reuse of a badge after a death, more opens than a process has watchers, refusals
 * that change nothing, and no slot kept after the end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <tacet.h>

#define NTFN   40 /* the service's notification */
#define PROC_A 50 /* a client's process capability as it arrives (rights-less) */
#define PROC_B 51 /* another process */
#define PROC_RW 52 /* a process capability with rights */
#define FRAME  53
#define FIRST_LIB 96

struct fake_cap {
	long type; /* 0: empty */
	unsigned long rights, process; /* which process (PROCESS) */
};
struct fake_watch {
	unsigned long process, ntfn, badge; /* badge 0: a free entry */
};

static struct fake_cap caps[128];
static struct fake_watch watches[16];
static unsigned int slots_used; /* lib slots handed out and not freed */
static unsigned int ends[TACET_SESSIONS_MAX + 1]; /* `ended` calls per badge */
static struct tacet_sessions table;
static struct { uint64_t cookie; } state[TACET_SESSIONS_MAX];

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	(void)badge;
	if (slot >= 128 || !caps[slot].type)
		return -TACET_EEMPTY;
	if (rights)
		*rights = caps[slot].rights;
	return caps[slot].type;
}

long tacet_cap_copy(unsigned long src, unsigned long dst, unsigned long rights,
		    unsigned long badge)
{
	(void)badge;
	if (!caps[src].type)
		return -TACET_EEMPTY;
	if (caps[dst].type)
		return -TACET_EEXIST;
	caps[dst] = caps[src];
	caps[dst].rights &= rights;
	return 0;
}

static unsigned int watchers_of(unsigned long process)
{
	unsigned int n = 0;

	for (size_t i = 0; i < 16; i++)
		n += watches[i].badge && watches[i].process == process;
	return n;
}

long tacet_process_watch(unsigned long process, unsigned long ntfn, unsigned long badge)
{
	unsigned long p = caps[process].process;

	if (caps[process].type != TACET_CAP_PROCESS || ntfn != NTFN)
		return -TACET_ETYPE;
	for (size_t i = 0; i < 16; i++) /* the notification's watch of p: ended or replaced */
		if (watches[i].badge && watches[i].process == p && watches[i].ntfn == ntfn) {
			watches[i].badge = badge;
			return 0;
		}
	if (!badge)
		return 0;
	if (watchers_of(p) >= 4)
		return -TACET_EBUSY;
	for (size_t i = 0; i < 16; i++)
		if (!watches[i].badge) {
			watches[i] = (struct fake_watch){ p, ntfn, badge };
			return 0;
		}
	return -TACET_EBUSY;
}

/* Process p ends: the bits of its watches, each watch gone. */
static unsigned long process_ends(unsigned long p)
{
	unsigned long bits = 0;

	for (size_t i = 0; i < 16; i++)
		if (watches[i].badge && watches[i].process == p) {
			bits |= watches[i].badge;
			watches[i].badge = 0;
		}
	return bits;
}

long tacet_slot_alloc(void)
{
	for (unsigned long i = FIRST_LIB; i < 128; i++)
		if (!caps[i].type && !(slots_used & (1u << (i - FIRST_LIB)))) {
			slots_used |= 1u << (i - FIRST_LIB);
			return (long)i;
		}
	return -TACET_ENOMEM;
}

void tacet_slot_free(unsigned long slot)
{
	if (slot < FIRST_LIB)
		return;
	caps[slot] = (struct fake_cap){ 0 };
	slots_used &= ~(1u << (slot - FIRST_LIB));
}

static void ended(struct tacet_sessions *t, unsigned long badge, void *st)
{
	assert_ptr_equal(t, &table);
	assert_ptr_equal(st, &state[badge - 1]); /* still there when it runs */
	ends[badge]++;
}

static int setup(void **unused)
{
	(void)unused;
	memset(caps, 0, sizeof(caps));
	memset(watches, 0, sizeof(watches));
	memset(ends, 0, sizeof(ends));
	memset(state, 0xee, sizeof(state));
	slots_used = 0;
	caps[NTFN] = (struct fake_cap){ TACET_CAP_NOTIFICATION, TACET_RIGHT_WRITE, 0 };
	caps[PROC_A] = (struct fake_cap){ TACET_CAP_PROCESS, 0, 1000 };
	caps[PROC_B] = (struct fake_cap){ TACET_CAP_PROCESS, 0, 2000 };
	caps[PROC_RW] = (struct fake_cap){ TACET_CAP_PROCESS, TACET_RIGHT_WRITE, 1000 };
	caps[FRAME] = (struct fake_cap){ TACET_CAP_FRAME, 0, 0 };
	tacet_sessions_init(&table, state, sizeof(state[0]), ended, NTFN);
	return 0;
}

static void test_open_close(void **unused)
{
	uint64_t *s;

	(void)unused;
	assert_null(tacet_session_get(&table, 3));
	assert_int_equal(tacet_session_open(&table, 3, PROC_A), 0);
	s = tacet_session_get(&table, 3);
	assert_ptr_equal(s, &state[2]);
	assert_int_equal(*s, 0); /* zeroed */
	assert_int_equal(watchers_of(1000), 1);
	assert_int_equal(caps[PROC_A].type, TACET_CAP_PROCESS); /* the call's slot left as it was */
	assert_int_equal(tacet_session_close(&table, 3), 0);
	assert_int_equal(ends[3], 1);
	assert_null(tacet_session_get(&table, 3));
	assert_int_equal(tacet_session_close(&table, 3), -TACET_EINVAL);
	assert_int_equal(ends[3], 1);
}

static void test_death_ends_once(void **unused)
{
	unsigned long bits;

	(void)unused;
	assert_int_equal(tacet_session_open(&table, 5, PROC_A), 0);
	assert_int_equal(tacet_session_open(&table, 6, PROC_B), 0);
	bits = process_ends(1000);
	assert_int_equal(bits, TACET_SESSION_BIT(5));
	/* the device's bits pass through; the session's are taken */
	assert_int_equal(tacet_sessions_notified(&table, bits | 1), 1);
	assert_int_equal(ends[5], 1);
	assert_null(tacet_session_get(&table, 5));
	assert_non_null(tacet_session_get(&table, 6));
	assert_int_equal(tacet_sessions_notified(&table, bits), 0); /* a stray second bit */
	assert_int_equal(ends[5], 1);
	assert_int_equal(ends[6], 0);
	assert_int_equal(tacet_session_close(&table, 6), 0);
	assert_int_equal(tacet_sessions_notified(&table, process_ends(2000)), 0);
	assert_int_equal(ends[6], 1);
	assert_int_equal(slots_used, 0); /* the kept capabilities are gone */
}

/* The client dies just as it closes: the death's bit comes after the close, and ends nothing. */
static void test_death_bit_after_close(void **unused)
{
	unsigned long bits;

	(void)unused;
	assert_int_equal(tacet_session_open(&table, 2, PROC_A), 0);
	bits = process_ends(1000);
	assert_int_equal(tacet_session_close(&table, 2), 0);
	assert_int_equal(tacet_sessions_notified(&table, bits), 0);
	assert_int_equal(ends[2], 1);
	assert_int_equal(slots_used, 0);
}

static void test_close_ends_watch(void **unused)
{
	(void)unused;
	for (int i = 0; i < 10; i++) { /* more than a process's four watchers */
		assert_int_equal(tacet_session_open(&table, 4, PROC_A), 0);
		assert_int_equal(watchers_of(1000), 1);
	}
	assert_int_equal(ends[4], 9);
	assert_int_equal(tacet_session_close(&table, 4), 0);
	assert_int_equal(watchers_of(1000), 0);
	assert_int_equal(slots_used, 0);
	for (int i = 0; i < 10; i++) { /* opened and closed again and again */
		assert_int_equal(tacet_session_open(&table, 4, PROC_A), 0);
		assert_int_equal(tacet_session_close(&table, 4), 0);
	}
	assert_int_equal(watchers_of(1000), 0);
	assert_int_equal(ends[4], 20);
}

static void test_reopen_fresh_state(void **unused)
{
	uint64_t *s;

	(void)unused;
	assert_int_equal(tacet_session_open(&table, 7, PROC_A), 0);
	s = tacet_session_get(&table, 7);
	*s = 42;
	assert_int_equal(tacet_session_open(&table, 7, PROC_A), 0);
	assert_int_equal(ends[7], 1);
	assert_int_equal(*(uint64_t *)tacet_session_get(&table, 7), 0);
	/* the badge used again after its client's death */
	tacet_sessions_notified(&table, process_ends(1000));
	assert_int_equal(ends[7], 2);
	assert_int_equal(tacet_session_open(&table, 7, PROC_B), 0);
	assert_int_equal(watchers_of(2000), 1);
	assert_int_equal(ends[7], 2);
	assert_non_null(tacet_session_get(&table, 7));
}

static void test_refusals_change_nothing(void **unused)
{
	(void)unused;
	assert_int_equal(tacet_session_open(&table, 0, PROC_A), -TACET_EPERM); /* unbadged */
	assert_int_equal(tacet_session_open(&table, TACET_SESSIONS_MAX + 1, PROC_A), -TACET_EPERM);
	assert_int_equal(tacet_session_open(&table, 1, PROC_RW), -TACET_EPERM); /* rights */
	assert_int_equal(tacet_session_open(&table, 1, FRAME), -TACET_EPERM);
	assert_int_equal(tacet_session_open(&table, 1, 77), -TACET_EPERM); /* empty */
	for (unsigned long p = 0; p < 4; p++) /* the process's four watchers taken */
		watches[8 + p] = (struct fake_watch){ 1000, 100 + p, 1ul << 40 };
	assert_int_equal(tacet_session_open(&table, 1, PROC_A), -TACET_EBUSY);
	assert_null(tacet_session_get(&table, 1));
	assert_int_equal(tacet_session_close(&table, 0), -TACET_EINVAL);
	assert_int_equal(tacet_session_close(&table, 1000), -TACET_EINVAL);
	assert_null(tacet_session_get(&table, 0));
	assert_null(tacet_session_get(&table, TACET_SESSIONS_MAX + 1));
	assert_int_equal(slots_used, 0);
	for (int b = 0; b <= TACET_SESSIONS_MAX; b++)
		assert_int_equal(ends[b], 0);
}

static void test_every_badge(void **unused)
{
	unsigned long bits = 0;

	(void)unused;
	for (unsigned long b = 1; b <= TACET_SESSIONS_MAX; b++) {
		caps[PROC_A].process = 100 + b;
		assert_int_equal(tacet_session_open(&table, b, PROC_A), 0);
		bits |= process_ends(100 + b);
	}
	assert_int_equal(bits, TACET_SESSION_BITS);
	assert_int_equal(tacet_sessions_notified(&table, bits | (1ul << 62)), 1ul << 62);
	for (unsigned long b = 1; b <= TACET_SESSIONS_MAX; b++)
		assert_int_equal(ends[b], 1);
	assert_int_equal(slots_used, 0);
}

static void stateless_ended(struct tacet_sessions *t, unsigned long badge, void *st)
{
	(void)t;
	assert_null(st);
	ends[badge]++;
}

/* A table that keeps no state (rtc's, pci's, blk's): open, is_open, get's NULL, the end. */
static void test_stateless(void **unused)
{
	(void)unused;
	tacet_sessions_init(&table, NULL, 0, stateless_ended, NTFN);
	assert_int_equal(tacet_session_open(&table, 9, PROC_A), 0);
	assert_true(tacet_session_is_open(&table, 9));
	assert_false(tacet_session_is_open(&table, 8));
	assert_false(tacet_session_is_open(&table, 0));
	assert_null(tacet_session_get(&table, 9));
	assert_int_equal(tacet_sessions_notified(&table, process_ends(1000)), 0);
	assert_false(tacet_session_is_open(&table, 9));
	assert_int_equal(ends[9], 1);
	assert_int_equal(slots_used, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open_close, setup),
		cmocka_unit_test_setup(test_death_ends_once, setup),
		cmocka_unit_test_setup(test_death_bit_after_close, setup),
		cmocka_unit_test_setup(test_close_ends_watch, setup),
		cmocka_unit_test_setup(test_reopen_fresh_state, setup),
		cmocka_unit_test_setup(test_refusals_change_nothing, setup),
		cmocka_unit_test_setup(test_every_badge, setup),
		cmocka_unit_test_setup(test_stateless, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
