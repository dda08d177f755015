/* fuzz.c: the system call fuzzer (fuzz.h): an unprivileged process that makes system calls
 * (fuzz_main.c: FUZZ_CALLS of them) with random numbers and arguments, counts what they return,
 * and then checks that a full IPC round trip through init still works. Speaks no protocol of
 * its own; uses init's.
 *
 * Reproducible: the calls come from xorshift64* seeded with FUZZ_SEED mixed with the start
 * argument (init's server index), printed first. What the calls return can still depend on
 * the other harts (kernel memory, thread ids), not which calls are made. Half the calls are
 * wild (any argument anything), half plausible (arg_kinds[]), to get past the first checks.
 *
 * The report counts returns by TACET_E* code, and apart from them any other negative a0: since
 * a0 carries both results and errors, such a value is an ABI bug.
 * The rules that keep the fuzzer itself alive are listed at make_safe.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "fuzz.h"

#define FUZZ_SEED  0x7ace7f0022f00d5ul

/* Slots kept out of the fuzzer's way (see the top of the file): init's endpoint while the
 * fuzzer runs, and one left empty for a check of the fuzzer's own. */
#define SLOT_SPARE 126
#define SLOT_INIT  127
/* The sanity check looks this up: init must answer -TACET_ENOENT. */
#define SANITY_NAME "no.such.name"
#define SANITY_DST  100

#define USER_VA_TOP     0x0000004000000000ul /* the kernel's user address limit (layout.h) */
#define FUZZ_ARGS       7                    /* a0..a6 */
#define DEBUG_WRITE_MAX 4096                 /* the kernel's limit for one DEBUG_WRITE */
#define SCRATCH_SIZE    512                  /* more than any struct TACET_SYS_INFO writes */
#define NAME_READ       16                   /* what PROCESS_NEW reads of a name, at most */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

extern char _start[], _end[]; /* the image, from lib/user.ld */

/* Zeros: kprintf's "%.*s" stops at the first NUL, so DEBUG_WRITE from here prints nothing. */
static char quiet_buf[DEBUG_WRITE_MAX];
static char info_scratch[SCRATCH_SIZE] __attribute__((aligned(16)));
/* Room for the largest INFO record: a smaller buffer would let an INFO write over the tallies
 * after it. */
_Static_assert(sizeof(struct tacet_hart_info) <= SCRATCH_SIZE &&
	       sizeof(struct tacet_irq_info) <= SCRATCH_SIZE &&
	       sizeof(struct tacet_thread_info) <= SCRATCH_SIZE &&
	       sizeof(struct tacet_mem_info) <= SCRATCH_SIZE, "INFO's scratch buffer");
static const char child_name[NAME_READ] = "fuzz.child";

static unsigned long rng_state;
static const unsigned long *kept; /* fuzz_keep's slots */
static unsigned long nkept;

/* Tallies: results[0] successes (a0 >= 0), results[e] the -e returns, the rest elsewhere. */
static unsigned long results[TACET_ERRNO_COUNT];
static unsigned long other_negative;
static unsigned long other_negative_nr[TACET_SYS_COUNT];
static unsigned long skipped;
static unsigned long succeeded[TACET_SYS_COUNT];

static const char *const err_names[TACET_ERRNO_COUNT] = {
	[TACET_OK] = "ok",	       [TACET_EINVAL] = "EINVAL",   [TACET_ENOSYS] = "ENOSYS",
	[TACET_EBADSLOT] = "EBADSLOT", [TACET_EEMPTY] = "EEMPTY",   [TACET_ETYPE] = "ETYPE",
	[TACET_EPERM] = "EPERM",       [TACET_EFAULT] = "EFAULT",   [TACET_EALIGN] = "EALIGN",
	[TACET_ENOMEM] = "ENOMEM",     [TACET_EEXIST] = "EEXIST",   [TACET_ENOREPLY] = "ENOREPLY",
	[TACET_EDEAD] = "EDEAD",       [TACET_ERANGE] = "ERANGE",   [TACET_ENOENT] = "ENOENT",
	[TACET_EBUSY] = "EBUSY",
};

/* xorshift64* (Vigna): 64 bits of state, never zero. */
static unsigned long rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dul;
}

/* Values at the edges of what the kernel checks: signs, widths, sched and tag words. */
static const unsigned long boundary_values[] = {
	0, 1, 2, 3, 4, 5, 15, 16, 127, 128, 255, 256, 4095, 4096, 0x7fffffff, 0x80000000,
	0xffffffff, 0x100000000, 1ul << 62, 1ul << 63, (1ul << 63) - 1, -1ul, -2ul, -4096ul,
	TACET_RIGHTS_ALL, TACET_RIGHT_READ | TACET_MAP_EXEC, TACET_RIGHT_WRITE | TACET_MAP_EXEC,
	TACET_SCHED(100, 0), TACET_SCHED(100, 1), TACET_SCHED(100, 3), TACET_SCHED(101, 0),
	TACET_SCHED(1, 2), TACET_SCHED(0, 4), TACET_SCHED(0, 255), TACET_SCHED(255, 0),
	TACET_TAG(1, 4), TACET_TAG(1, 5), TACET_TAG(0xffff, 15), TACET_TAG_CAP(2, 3, 5),
	TACET_TAG_CAP(2, 0, 127), TACET_TAG_CAP(0xfa17, 4, 0xffffffff),
};

/* Page-aligned user addresses: the null page, the image, the stack, the top of user space. */
static unsigned long user_address(unsigned long r)
{
	static const unsigned long fixed[] = {
		0, TACET_PAGE_SIZE, 0x10000, TACET_CHILD_STACK_TOP - TACET_PAGE_SIZE,
		TACET_CHILD_STACK_TOP, USER_VA_TOP - TACET_PAGE_SIZE, USER_VA_TOP,
		USER_VA_TOP + TACET_PAGE_SIZE,
	};

	if (r & 1)
		return (r >> 1) & (USER_VA_TOP - 1) & ~(TACET_PAGE_SIZE - 1);
	return fixed[(r >> 1) % ARRAY_LEN(fixed)];
}

/* Kernel addresses: the direct map, RAM through it, the stacks, the image, the very top. */
static unsigned long kernel_address(unsigned long r)
{
	static const unsigned long fixed[] = {
		0xffffffc000000000ul, 0xffffffc080000000ul, 0xffffffc080200000ul,
		0xffffffd000000000ul, 0xffffffd000004000ul, 0xffffffff80000000ul,
		0xffffffff80200000ul, 0xfffffffffffff000ul,
	};

	return fixed[r % ARRAY_LEN(fixed)] + ((r >> 8) & 1 ? (r >> 9) & 0xff8 : 0);
}

/* Pointers into the fuzzer's own memory: make_safe() redirects them to the buffers above, so
 * calls that read or write user memory succeed now and then instead of always failing. */
static unsigned long own_pointer(unsigned long r)
{
	static const char *const fixed[] = { quiet_buf, info_scratch, child_name };

	return (unsigned long)fixed[r % ARRAY_LEN(fixed)];
}

/* One argument: 3/8 small numbers (most below 16, where the fuzzer's objects gather), 1/8
 * boundary values, 1/8 user addresses, 1/16 kernel addresses, 1/16 pointers into the fuzzer,
 * 1/4 random words. */
static unsigned long fuzz_arg(void)
{
	unsigned long r = rng_next();

	switch (r & 15) {
	case 0 ... 5:
		return (r >> 8) & ((r >> 14) & 3 ? 15 : 63);
	case 6 ... 7:
		return boundary_values[(r >> 8) % ARRAY_LEN(boundary_values)];
	case 8 ... 9:
		return user_address(r >> 8);
	case 10:
		return kernel_address(r >> 8);
	case 11:
		return own_pointer(r >> 8);
	default:
		return rng_next();
	}
}

/*
 * Well-formed calls: what each argument of each call means, so that half of the calls are
 * plausible (each argument of its kind, one of them then replaced by a wild one half of the
 * time) and reach the paths behind the argument checks: threads in child processes, mappings,
 * capability transfers. Unlisted arguments are ARG_WILD.
 */
enum arg_kind {
	ARG_WILD,   /* fuzz_arg() */
	ARG_SLOT,   /* 0..15, where the fuzzer's own objects gather */
	ARG_SLOT0,  /* 0 (no slot) or a slot */
	ARG_RIGHTS, /* 0..15: READ, WRITE, GRANT / MAP_EXEC */
	ARG_COUNT,  /* 0..3: pages, an info kind or index */
	ARG_UADDR,  /* a page-aligned user address */
	ARG_PTR,    /* a pointer into the fuzzer (redirected by make_safe) */
	ARG_SCHED,  /* a scheduling word, mostly valid */
	ARG_TAG,    /* a message tag, mostly valid */
};

static const unsigned char arg_kinds[TACET_SYS_COUNT][FUZZ_ARGS] = {
	[TACET_SYS_DEBUG_WRITE] = { ARG_PTR, ARG_COUNT },
	[TACET_SYS_CALL] = { ARG_SLOT, ARG_TAG, [6] = ARG_SLOT0 },
	[TACET_SYS_RECV] = { ARG_SLOT, ARG_SLOT0 },
	[TACET_SYS_REPLY] = { ARG_TAG },
	[TACET_SYS_REPLY_RECV] = { ARG_SLOT, ARG_TAG, [6] = ARG_SLOT0 },
	[TACET_SYS_SIGNAL] = { ARG_SLOT },
	[TACET_SYS_WAIT] = { ARG_SLOT },
	[TACET_SYS_POLL] = { ARG_SLOT },
	[TACET_SYS_CAP_COPY] = { ARG_SLOT, ARG_SLOT, ARG_RIGHTS },
	[TACET_SYS_CAP_DELETE] = { ARG_SLOT },
	[TACET_SYS_CAP_INFO] = { ARG_SLOT },
	[TACET_SYS_CAP_GIVE] = { ARG_SLOT, ARG_SLOT, ARG_SLOT, ARG_RIGHTS },
	[TACET_SYS_ENDPOINT_NEW] = { ARG_SLOT },
	[TACET_SYS_NTFN_NEW] = { ARG_SLOT },
	[TACET_SYS_FRAME_NEW] = { ARG_SLOT, ARG_COUNT },
	[TACET_SYS_MAP] = { ARG_SLOT, ARG_SLOT, ARG_UADDR, ARG_RIGHTS },
	[TACET_SYS_UNMAP] = { ARG_SLOT, ARG_UADDR, ARG_COUNT },
	[TACET_SYS_PROCESS_NEW] = { ARG_SLOT, ARG_SLOT0, ARG_PTR },
	[TACET_SYS_THREAD_NEW] = { ARG_SLOT, ARG_SLOT0, ARG_UADDR, ARG_UADDR, ARG_WILD, ARG_SCHED },
	[TACET_SYS_THREAD_SET] = { ARG_SLOT, ARG_SCHED },
	[TACET_SYS_INFO] = { ARG_COUNT, ARG_COUNT, ARG_PTR, ARG_SLOT },
	[TACET_SYS_IRQ_BIND] = { ARG_SLOT, ARG_SLOT },
	[TACET_SYS_IRQ_ACK] = { ARG_SLOT },
	[TACET_SYS_NTFN_BIND] = { ARG_SLOT },
	[TACET_SYS_PROCESS_WATCH] = { ARG_SLOT, ARG_SLOT },
};

static unsigned long plausible_arg(enum arg_kind kind)
{
	unsigned long r = rng_next();

	switch (kind) {
	case ARG_SLOT:
		return r & 15;
	case ARG_SLOT0:
		return r & 1 ? 0 : (r >> 1) & 15;
	case ARG_RIGHTS:
		return r & 15;
	case ARG_COUNT:
		return r & 3;
	case ARG_UADDR:
		return user_address(r);
	case ARG_PTR:
		return own_pointer(r);
	case ARG_SCHED:
		return TACET_SCHED((r >> 8) % 128, (r >> 16) % 5); /* past prio 100 or hart 3 fails */
	case ARG_TAG:
		return r & 1 ? TACET_TAG(r >> 16, (r >> 8) % 6)
			     : TACET_TAG_CAP(r >> 16, (r >> 8) % 6, (r >> 32) & 15);
	default:
		return fuzz_arg();
	}
}

static void fuzz_args(unsigned long nr, unsigned long *arg)
{
	unsigned long r = rng_next();

	if (nr < TACET_SYS_COUNT && r & 1) {
		for (int i = 0; i < FUZZ_ARGS; i++)
			arg[i] = plausible_arg(arg_kinds[nr][i]);
		if (r & 2)
			arg[(r >> 2) % FUZZ_ARGS] = fuzz_arg();
		return;
	}
	for (int i = 0; i < FUZZ_ARGS; i++)
		arg[i] = fuzz_arg();
}

/* Mostly real call numbers, now and then one past the table. Never EXIT nor PROCESS_EXIT. */
static unsigned long fuzz_nr(void)
{
	static const unsigned long bad[] = { TACET_SYS_COUNT, TACET_SYS_COUNT + 1, 63, 255,
					     1ul << 32, -1ul };
	unsigned long r, nr;

	do {
		r = rng_next();
		if (r % 16)
			nr = (r >> 8) % TACET_SYS_COUNT;
		else if ((r >> 8) & 1)
			nr = bad[(r >> 9) % ARRAY_LEN(bad)];
		else
			nr = rng_next();
	} while (nr == TACET_SYS_EXIT || nr == TACET_SYS_PROCESS_EXIT);
	return nr;
}

/* Does [a, a + len) touch [start, end)? A range that wraps around counts as touching. */
static int overlaps(unsigned long a, unsigned long len, unsigned long start, unsigned long end)
{
	return a < end && (a + len > start || a + len < a);
}

static int own_memory(unsigned long a, unsigned long len)
{
	return overlaps(a, len, (unsigned long)_start, (unsigned long)_end) ||
	       overlaps(a, len, TACET_CHILD_STACK_TOP - TACET_CHILD_STACK_PAGES * TACET_PAGE_SIZE,
			TACET_CHILD_STACK_TOP);
}

/* One ecall with all of a0..a6 in and out: calls that answer in a1..a6 may write any of them. */
static long fuzz_ecall(unsigned long nr, const unsigned long *arg)
{
	register unsigned long a0 __asm__("a0") = arg[0];
	register unsigned long a1 __asm__("a1") = arg[1];
	register unsigned long a2 __asm__("a2") = arg[2];
	register unsigned long a3 __asm__("a3") = arg[3];
	register unsigned long a4 __asm__("a4") = arg[4];
	register unsigned long a5 __asm__("a5") = arg[5];
	register unsigned long a6 __asm__("a6") = arg[6];
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6)
			 : "r"(a7)
			 : "memory");
	return (long)a0;
}

/* Make the call safe for the fuzzer to make; 0: skip it. The rules that keep the fuzzer itself
 * alive, so that the kernel is what gets tested:
 *   - it drops its own process capability (slot TACET_CHILD_SELF) and moves init's endpoint
 *     to SLOT_INIT, so it cannot unmap, map over or re-thread itself;
 *   - slots SLOT_INIT and SLOT_SPARE (and fuzz_keep's) are never an argument of a call (not
 *     even a fault endpoint for PROCESS_NEW: init would take a child's fault for the fuzzer's
 *     own), and EXIT and PROCESS_EXIT are never called;
 *   - a call that would block forever is not made: CALL, RECV and REPLY_RECV on an endpoint
 *     (only the fuzzer holds its endpoints, so nobody would answer), WAIT on a notification it
 *     could not signal first;
 *   - a user pointer the kernel would read or write (DEBUG_WRITE's buffer, PROCESS_NEW's name,
 *     INFO's buffer) that lands in the fuzzer's own image or stack is redirected to a buffer
 *     kept for it: INFO would overwrite the stack, DEBUG_WRITE would print binary to the log. */
static int make_safe(unsigned long nr, unsigned long *arg)
{
	long type;

	switch (nr) {
	case TACET_SYS_DEBUG_WRITE:
		if (own_memory(arg[0], arg[1] > DEBUG_WRITE_MAX ? DEBUG_WRITE_MAX : arg[1]))
			arg[0] = (unsigned long)quiet_buf;
		return 1;
	case TACET_SYS_PROCESS_NEW:
		if (own_memory(arg[2], NAME_READ))
			arg[2] = (unsigned long)child_name;
		return 1;
	case TACET_SYS_INFO:
		if (own_memory(arg[2], SCRATCH_SIZE))
			arg[2] = (unsigned long)info_scratch;
		return 1;
	case TACET_SYS_CALL:
	case TACET_SYS_RECV:
	case TACET_SYS_REPLY_RECV:
		return tacet_cap_info(arg[0], NULL, NULL) != TACET_CAP_ENDPOINT;
	case TACET_SYS_WAIT:
		type = tacet_cap_info(arg[0], NULL, NULL);
		/* a signal that succeeds leaves a bit set (the badge, or 1), so WAIT returns */
		return type != TACET_CAP_NOTIFICATION || tacet_signal(arg[0], 1) == 0;
	default:
		return 1;
	}
}

static void tally(unsigned long nr, long r)
{
	if (r >= 0) {
		results[0]++;
		if (nr < TACET_SYS_COUNT)
			succeeded[nr]++;
	} else if (-r < TACET_ERRNO_COUNT) {
		results[-r]++;
	} else {
		other_negative++;
		if (nr < TACET_SYS_COUNT)
			other_negative_nr[nr]++;
	}
}

/* A slot no call may name: the fuzzer's own and fuzz_keep's. */
static int kept_slot(unsigned long a)
{
	if (a == SLOT_INIT || a == SLOT_SPARE)
		return 1;
	for (unsigned long i = 0; i < nkept; i++)
		if (a == kept[i])
			return 1;
	return 0;
}

void fuzz_keep(const unsigned long *slots, unsigned long n)
{
	kept = slots;
	nkept = n;
}

void fuzz(unsigned long n)
{
	unsigned long calls = 0;

	while (calls < n) {
		unsigned long nr = fuzz_nr(), arg[FUZZ_ARGS];

		fuzz_args(nr, arg);
		for (int i = 0; i < FUZZ_ARGS; i++)
			while (kept_slot(arg[i]))
				arg[i] = fuzz_arg();
		if (!make_safe(nr, arg)) {
			skipped++;
			continue;
		}
		tally(nr, fuzz_ecall(nr, arg));
		calls++;
	}
}

/* The summary: a few lines of under 256 bytes (one console write each), so that the four
 * instances' reports interleave only line by line. */
static void report(unsigned long id, unsigned long calls)
{
	char line[256];
	int n = 0;

	printf("fuzz %lu: %lu calls made, %lu skipped as blocking\n", id, calls, skipped);
	for (int e = 0; e < TACET_ERRNO_COUNT; e++) {
		n += snprintf(line + n, sizeof(line) - n, " %s %lu", err_names[e], results[e]);
		if (e == TACET_EALIGN || e == TACET_ERRNO_COUNT - 1) {
			printf("fuzz %lu: returned%s\n", id, line);
			n = 0;
		}
	}
	for (unsigned long nr = 0; nr < TACET_SYS_COUNT; nr++)
		if (other_negative_nr[nr])
			n += snprintf(line + n, sizeof(line) - n, " %lu:%lu", nr, other_negative_nr[nr]);
	printf("fuzz %lu: returned other negative values %lu (by call:%s)\n", id, other_negative,
	       n ? line : " none");
	n = 0;
	for (unsigned long nr = 0; nr < TACET_SYS_COUNT; nr++) {
		n += snprintf(line + n, sizeof(line) - n, " %lu:%lu", nr, succeeded[nr]);
		if (nr == TACET_SYS_COUNT / 2 - 1 || nr == TACET_SYS_COUNT - 1) {
			printf("fuzz %lu: successes by call%s\n", id, line);
			n = 0;
		}
	}
}

long fuzz_start(unsigned long id)
{
	long err;

	rng_state = FUZZ_SEED ^ ((id + 1) * 0x9e3779b97f4a7c15ul);
	printf("fuzz: seed %#lx (instance %lu)\n", rng_state, id);

	/* Unprivileged from here: init's endpoint kept out of reach, no process capability. */
	err = tacet_cap_copy(TACET_CHILD_INIT, SLOT_INIT, TACET_RIGHTS_ALL, 0);
	if (!err)
		err = tacet_cap_delete(TACET_CHILD_INIT);
	if (!err)
		err = tacet_cap_delete(TACET_CHILD_SELF);
	if (err)
		printf("fuzz %lu: cannot drop privileges: %s\n", id, tacet_strerror(err));
	return err;
}

long fuzz_finish(unsigned long id, unsigned long calls)
{
	long err;

	/* lib's exit path and the name service both use TACET_CHILD_INIT: put init back there. */
	tacet_cap_delete(TACET_CHILD_INIT);
	err = tacet_cap_copy(SLOT_INIT, TACET_CHILD_INIT, TACET_RIGHTS_ALL, 0);
	report(id, calls);
	if (!err)
		err = tacet_lookup(SANITY_NAME, SANITY_DST, 0);
	printf("fuzz: sanity round trip through init: %s\n",
	       err == -TACET_ENOENT ? "PASS" : "FAIL");
	if (err != -TACET_ENOENT)
		printf("fuzz %lu: lookup of \"%s\" returned %ld (%s), not -TACET_ENOENT\n", id,
		       SANITY_NAME, err, tacet_strerror(err));
	return err == -TACET_ENOENT ? 0 : err < 0 ? err : -TACET_EINVAL;
}
