/* ipc_client.c: the client side of the IPC tests: looks up ipc_server's "ipc" endpoint and
 * checks, through the protocol of ipc_test.h, call/reply, badges, capability transfer with and
 * without GRANT, a notification that wakes the server, the error codes of bad arguments to
 * the system calls, and finally stops the server. One line per check, `ipc_client: CHECK:
 * PASS` or `...: FAIL why`; exits 1 if any failed. */
#include <stdarg.h>
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "ipc_test.h"

enum ipc_client_slot {
	SLOT_EP = TACET_CHILD_FIRST_FREE, /* "ipc", unbadged, all rights */
	SLOT_EP_BADGE7,
	SLOT_EP_BADGE9,
	SLOT_EP_NO_GRANT, /* WRITE only */
	SLOT_NTFN,        /* ours: sent to the server with IPC_TAKE_CAP */
	SLOT_SERVER_NTFN, /* "ipc.ntfn" */
	SLOT_FRAME,
	SLOT_EMPTY = 100, /* never filled */
};

/* kernel/object/cap.h's CSPACE_SLOTS: a capability table has slots 0..127, slot 0 is never valid. */
#define SLOT_LAST 127
#define SLOT_BEYOND 128

#define ECHO_ROUNDS 1000
/* Tries of tacet_lookup (each an IPC to init and a yield) before giving up on the server. */
#define LOOKUP_TRIES 100000
#define BADGE_A 7
#define BADGE_B 9
#define SERVER_NTFN_BITS 0x30ul

/* Addresses for the bad-pointer checks: one in the user half that nothing maps (below
 * TACET_CHILD_STACK_TOP's stack, far above the image), one in the kernel's half. */
#define UNMAPPED_USER_VA 0x3000000000ul
#define KERNEL_VA        0xffffffc080000000ul
/* Where the frame check maps a page: unused by the image and the stack. */
#define SCRATCH_VA 0x2000000000ul

static int failures;

static long rdtime(void)
{
	unsigned long t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return (long)t;
}

/* Prints `ipc_client: what: PASS`, or FAIL and the reason formatted from why (NULL: passed).
 * Returns whether it passed. */
static int __attribute__((format(printf, 2, 3))) report(const char *what, const char *why, ...)
{
	va_list ap;

	if (!why) {
		printf("ipc_client: %s: PASS\n", what);
		return 1;
	}
	printf("ipc_client: %s: FAIL ", what);
	va_start(ap, why);
	vprintf(why, ap);
	va_end(ap);
	printf("\n");
	failures++;
	return 0;
}

/* One check of a call's result: got must be want (0 or a negative TACET_E*). */
static int expect(const char *what, long got, long want)
{
	if (got == want)
		return report(what, NULL);
	return report(what, "got %ld (%s), expected %ld (%s)", got, tacet_strerror(got), want,
		      tacet_strerror(want));
}

/* A call that must succeed; a failed call is reported under what. The reply is in *msg. */
static int call_ok(const char *what, unsigned long ep, struct tacet_msg *msg)
{
	long err = tacet_call(ep, msg);

	if (err)
		return report(what, "call: %s", tacet_strerror(err));
	return 1;
}

/* The server's IPC_STATS; *received is ~0 if the call failed. */
static void server_stats(unsigned long *received, unsigned long *caps, unsigned long *bits)
{
	struct tacet_msg m = { .tag = TACET_TAG(IPC_STATS, 0) };

	if (tacet_call(SLOT_EP, &m))
		m.w[0] = m.w[1] = m.w[2] = ~0ul;
	if (received)
		*received = m.w[0];
	if (caps)
		*caps = m.w[1];
	if (bits)
		*bits = m.w[2];
}

/* (a) ECHO_ROUNDS round trips, each with new words and 1..4 of them. */
static void test_echo(void)
{
	const char *what = "call/reply x1000";
	unsigned long x = 0x9e3779b97f4a7c15ul;
	long start = rdtime(), ticks;

	for (int i = 0; i < ECHO_ROUNDS; i++) {
		unsigned long words = 1 + i % TACET_MSG_WORDS, sent[TACET_MSG_WORDS];
		struct tacet_msg m = { .tag = TACET_TAG(IPC_ECHO, words) };

		for (unsigned long j = 0; j < TACET_MSG_WORDS; j++) {
			x = x * 6364136223846793005ul + 1442695040888963407ul;
			/* round 0 also covers the carry out of the top bit */
			sent[j] = m.w[j] = i ? x : ~0ul - j;
		}
		if (!call_ok(what, SLOT_EP, &m))
			return;
		if (m.tag != TACET_TAG(IPC_ECHO, words)) {
			report(what, "round %d: reply tag %#lx, expected %#lx", i, m.tag,
			       TACET_TAG(IPC_ECHO, words));
			return;
		}
		for (unsigned long j = 0; j < words; j++) {
			if (m.w[j] != sent[j] + 1) {
				report(what, "round %d word %lu: %#lx, expected %#lx", i, j, m.w[j],
				       sent[j] + 1);
				return;
			}
		}
	}
	ticks = rdtime() - start;
	printf("ipc_client: call/reply x1000: PASS (%ld ns a round trip)\n",
	       tacet_ticks_to_ns(ticks) / ECHO_ROUNDS);
}

static void check_badge(const char *what, unsigned long ep, unsigned long want)
{
	struct tacet_msg m = { .tag = TACET_TAG(IPC_BADGE, 0) };

	if (!call_ok(what, ep, &m))
		return;
	if (m.w[0] != want)
		report(what, "server saw badge %lu, expected %lu", m.w[0], want);
	else
		report(what, NULL);
}

/* (b) Two badged copies of the unbadged endpoint capability; each call shows its own badge. */
static void test_badges(void)
{
	long err = tacet_cap_copy(SLOT_EP, SLOT_EP_BADGE7, TACET_RIGHTS_ALL, BADGE_A);

	if (!err)
		err = tacet_cap_copy(SLOT_EP, SLOT_EP_BADGE9, TACET_RIGHTS_ALL, BADGE_B);
	if (err) {
		report("badges", "cap_copy: %s", tacet_strerror(err));
		return;
	}
	check_badge("badge 0 (unbadged)", SLOT_EP, 0);
	check_badge("badge 7", SLOT_EP_BADGE7, BADGE_A);
	check_badge("badge 9", SLOT_EP_BADGE9, BADGE_B);
}

/* (c) Our notification travels to the server, which signals it through its copy. The server
 * signals before it replies, so the bits are set by the time the call returns: poll, not
 * wait, so that a missing signal is a FAIL rather than a hang. */
static void test_grant(void)
{
	const char *what = "grant: notification sent with TAKE_CAP";
	struct tacet_msg m = { .tag = TACET_TAG_CAP(IPC_TAKE_CAP, 0, SLOT_NTFN) };
	unsigned long caps_before, caps_after;
	long err = tacet_ntfn_new(SLOT_NTFN), bits;

	if (err) {
		report(what, "ntfn_new: %s", tacet_strerror(err));
		return;
	}
	server_stats(NULL, &caps_before, NULL);
	if (!call_ok(what, SLOT_EP, &m))
		return;
	server_stats(NULL, &caps_after, NULL);
	if ((long)m.w[0] != TACET_CAP_NOTIFICATION)
		report(what, "server's recv_slot holds type %ld, expected %d (notification)",
		       (long)m.w[0], TACET_CAP_NOTIFICATION);
	else if (caps_after != caps_before + 1)
		report(what, "server counted %lu capabilities, expected %lu", caps_after,
		       caps_before + 1);
	else
		report(what, NULL);
	bits = tacet_poll(SLOT_NTFN);
	if (bits != (long)IPC_TAKE_CAP_BITS)
		report("grant: server signalled through the transferred cap",
		       "our notification has bits %#lx, expected %#lx", (unsigned long)bits,
		       IPC_TAKE_CAP_BITS);
	else
		report("grant: server signalled through the transferred cap", NULL);
	/* a transfer copies: ours stays */
	expect("grant: sender keeps its capability",
	       tacet_cap_info(SLOT_NTFN, NULL, NULL), TACET_CAP_NOTIFICATION);
}

/* (d) Without GRANT the call is refused before it reaches the endpoint. */
static void test_no_grant(void)
{
	const char *what = "no grant: refused call not seen by the server";
	struct tacet_msg m = { .tag = TACET_TAG_CAP(IPC_TAKE_CAP, 0, SLOT_NTFN) };
	unsigned long rights = 0, seen_before, seen_after, caps_before, caps_after;
	long err = tacet_cap_copy(SLOT_EP, SLOT_EP_NO_GRANT, TACET_RIGHT_WRITE, 0);

	if (err) {
		report("no grant", "cap_copy: %s", tacet_strerror(err));
		return;
	}
	tacet_cap_info(SLOT_EP_NO_GRANT, &rights, NULL);
	if (rights != TACET_RIGHT_WRITE)
		report("no grant: copy has WRITE only", "rights %#lx", rights);
	server_stats(&seen_before, &caps_before, NULL);
	expect("no grant: call carrying a cap -> EPERM", tacet_call(SLOT_EP_NO_GRANT, &m),
	       -TACET_EPERM);
	server_stats(&seen_after, &caps_after, NULL);
	/* one message between the two: the first STATS itself */
	if (seen_after != seen_before + 1 || caps_after != caps_before)
		report(what, "server's counts went from %lu messages, %lu caps to %lu, %lu",
		       seen_before, caps_before, seen_after, caps_after);
	else
		report(what, NULL);
	/* the same capability without a capability in the message is fine */
	m.tag = TACET_TAG(IPC_ECHO, 1);
	m.w[0] = 41;
	if (call_ok("no grant: plain call still works", SLOT_EP_NO_GRANT, &m)) {
		if (m.w[0] != 42)
			report("no grant: plain call still works", "echo %lu", m.w[0]);
		else
			report("no grant: plain call still works", NULL);
	}
}

/* (e) The server blocks on its notification; we signal it from wherever we run. The server
 * takes our next call only after its wait returned, so STATS shows what it woke with. */
static void test_notification(void)
{
	const char *what = "notification wakes the server";
	struct tacet_msg m = { .tag = TACET_TAG(IPC_NTFN_WAIT, 0) };
	unsigned long bits;
	long err;

	if (!call_ok(what, SLOT_EP, &m))
		return;
	if (m.w[0]) {
		report(what, "NTFN_WAIT: %s", tacet_strerror((long)m.w[0]));
		return;
	}
	err = tacet_lookup(IPC_NTFN_NAME, SLOT_SERVER_NTFN, LOOKUP_TRIES);
	if (!err)
		err = tacet_signal(SLOT_SERVER_NTFN, SERVER_NTFN_BITS);
	if (err) {
		report(what, "lookup/signal: %s", tacet_strerror(err));
		return;
	}
	server_stats(NULL, NULL, &bits);
	if (bits != SERVER_NTFN_BITS)
		report(what, "server woke with %#lx, expected %#lx", bits, SERVER_NTFN_BITS);
	else
		report(what, NULL);
}

/* (f) Bad arguments: each is refused with its own code and changes nothing. */
static void test_bad_arguments(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(IPC_ECHO, 0) };
	struct tacet_mem_info mem;
	unsigned long seen_before, seen_after;
	static const char text[] = "x";
	long err;

	expect("bad args: call slot 0 -> EBADSLOT", tacet_call(0, &m), -TACET_EBADSLOT);
	expect("bad args: call slot 128 -> EBADSLOT", tacet_call(SLOT_BEYOND, &m),
	       -TACET_EBADSLOT);
	expect("bad args: call slot 1000 -> EBADSLOT", tacet_call(1000, &m), -TACET_EBADSLOT);
	expect("bad args: call empty slot 127 -> EEMPTY", tacet_call(SLOT_LAST, &m),
	       -TACET_EEMPTY);
	expect("bad args: call empty slot 100 -> EEMPTY", tacet_call(SLOT_EMPTY, &m),
	       -TACET_EEMPTY);
	expect("bad args: call on a notification -> ETYPE", tacet_call(SLOT_NTFN, &m),
	       -TACET_ETYPE);
	expect("bad args: debug_write unmapped -> EFAULT",
	       tacet_debug_write((const void *)UNMAPPED_USER_VA, 8), -TACET_EFAULT);
	expect("bad args: debug_write kernel address -> EFAULT",
	       tacet_debug_write((const void *)KERNEL_VA, 8), -TACET_EFAULT);
	expect("bad args: debug_write 1 MiB -> ERANGE", tacet_debug_write(text, 1ul << 20),
	       -TACET_ERANGE);

	err = tacet_frame_new(SLOT_FRAME, 1);
	if (err) {
		report("bad args: frame_new", "%s", tacet_strerror(err));
	} else {
		expect("bad args: map unaligned -> EALIGN",
		       tacet_map(TACET_CHILD_SELF, SLOT_FRAME, SCRATCH_VA + 8,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE),
		       -TACET_EALIGN);
		expect("bad args: map WRITE|EXEC -> EINVAL",
		       tacet_map(TACET_CHILD_SELF, SLOT_FRAME, SCRATCH_VA,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_MAP_EXEC),
		       -TACET_EINVAL);
		/* the refused maps left nothing behind: the page maps, holds what we write */
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
		if (!err) {
			volatile unsigned long *p = (volatile unsigned long *)SCRATCH_VA;

			err = p[0] == 0 ? 0 : -TACET_EINVAL; /* frames come zeroed */
			p[TACET_PAGE_SIZE / sizeof(*p) - 1] = 0x7ac37;
			if (!err && p[TACET_PAGE_SIZE / sizeof(*p) - 1] != 0x7ac37)
				err = -TACET_EINVAL;
			if (!err)
				err = tacet_unmap(TACET_CHILD_SELF, SCRATCH_VA, 1);
		}
		expect("bad args: then a good map works", err, 0);
	}

	expect("bad args: syscall 999 -> ENOSYS", tacet_syscall0(999), -TACET_ENOSYS);

	server_stats(&seen_before, NULL, NULL);
	m.tag = TACET_TAG(IPC_ECHO, TACET_MSG_WORDS + 1);
	expect("bad args: tag with 5 words -> EINVAL", tacet_call(SLOT_EP, &m), -TACET_EINVAL);
	server_stats(&seen_after, NULL, NULL);
	if (seen_after != seen_before + 1)
		report("bad args: server saw no 5-word message", "server count %lu -> %lu",
		       seen_before, seen_after);
	else
		report("bad args: server saw no 5-word message", NULL);

	expect("bad args: info with a short buffer -> ERANGE",
	       tacet_info(TACET_INFO_MEM, 0, &mem, sizeof(mem) - 1), -TACET_ERANGE);
	expect("bad args: info with a full buffer works",
	       tacet_info(TACET_INFO_MEM, 0, &mem, sizeof(mem)), sizeof(mem));
}

/* (g) Labels the server does not take, then the real QUIT. */
static void test_quit(void)
{
	struct tacet_msg m = { .tag = TACET_TAG(0x77, 0) };

	if (call_ok("unknown label -> EINVAL", SLOT_EP, &m))
		expect("unknown label -> EINVAL", (long)m.w[0], -TACET_EINVAL);
	m.tag = TACET_TAG(IPC_QUIT, 1);
	m.w[0] = IPC_QUIT_MAGIC + 1;
	if (call_ok("quit without the magic -> EINVAL", SLOT_EP, &m))
		expect("quit without the magic -> EINVAL", (long)m.w[0], -TACET_EINVAL);
	m.tag = TACET_TAG(IPC_QUIT, 1);
	m.w[0] = IPC_QUIT_MAGIC;
	if (call_ok("quit", SLOT_EP, &m))
		expect("quit", (long)m.w[0], 0);
}

int main(void)
{
	long err = tacet_lookup(IPC_NAME, SLOT_EP, LOOKUP_TRIES);

	if (err) {
		report("lookup " IPC_NAME, "%s", tacet_strerror(err));
		return 1;
	}
	test_echo();
	test_badges();
	test_grant();
	test_no_grant();
	test_notification();
	test_bad_arguments();
	test_quit();
	if (failures)
		printf("ipc_client: %d checks failed\n", failures);
	else
		printf("ipc_client: all checks passed\n");
	return failures ? 1 : 0;
}
