/* framerace: 256-page FRAME_NEWs (1 MiB to zero: the kernel lets the BKL go between pages)
 * while another hart works against them (tests/qemu/cases_kit.py, frame-preempt; the kernel
 * side: kernel/object/frame.c). Each check prints PASS or FAIL:
 *   slot:   a thread on the other hart keeps filling and emptying the slot the frames go to;
 *           every FRAME_NEW makes a zeroed frame (mapped and read whole, then dirtied for the
 *           next) or fails with EEXIST, nothing else;
 *   budget: with 400 pages of budget left, a thread on the other hart keeps making and deleting
 *           200-page frames: every FRAME_NEW makes a zeroed frame or fails with ENOMEM, the
 *           account is never over its limit, and its usage comes back;
 *   kill:   child processes (their own budget) make and delete 256-page frames in a loop on
 *           the other hart, and are ended (their capability deleted) after 0 to 2 ms: each
 *           time every page and kernel object comes back (most ends land inside a FRAME_NEW:
 *           its thread is ended by this hart while its hart zeroes, between two pages);
 *   map:    MAPs of a 256-page frame (the kernel lets the BKL go between pages too) while the
 *           other hart maps a page of its own at the range's last page and unmaps it: every
 *           MAP is whole (each page where it belongs) or EEXIST, usage back;
 *   map-end: MAPs of it into a child process whose capability the other hart deletes
 *           meanwhile (half the children with a thread: the deletion ends them, and a MAP
 *           under way stops, EDEAD; half without: the MAP's reference keeps the child until
 *           the call is over): 0, EDEAD or EEMPTY, memory back each time.
 * Uses hart 0 (itself) and hart 1. No IPC protocol. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/driver.h>
#include <tacet/init_proto.h>

#define BIG        TACET_FRAME_MAX_PAGES
#define PAGE       TACET_PAGE_SIZE
#define BIG_VA     0x0000002000000000ul /* the frames made, mapped to be read */
#define SLOT_FRAME (TACET_CHILD_FIRST_FREE + 0) /* where the frames go */
#define SLOT_NTFN  (TACET_CHILD_FIRST_FREE + 1) /* what the slot filler puts there */
#define SLOT_OTHER (TACET_CHILD_FIRST_FREE + 2) /* the budget eater's frames */
#define SLOT_CHILD (TACET_CHILD_FIRST_FREE + 3)
#define SLOT_SMALL (TACET_CHILD_FIRST_FREE + 4) /* the other hart's page in the map check */
#define SLOT_BALLAST (TACET_CHILD_FIRST_FREE + 5) /* ..+12: frames that leave 400 pages */
#define BALLAST_MAX 8
#define ROUNDS     24
#define KILLS      20
#define LEFT_PAGES 400 /* budget left for the budget check */
#define EAT_PAGES  200 /* the other thread's frames then: one of each fits, not both */
#define CHILD_VA   0x10000ul
#define CHILD_BUDGET 300 /* pages: a 256-page frame and the child's own */
#define HELPER_PRIO 100
#define STACK      (4 * PAGE)

static int failures;

static void check(int ok, const char *what)
{
	printf("framerace: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

/* The other hart's thread: at each round of this one (`round`, set when it starts), after a
 * delay of 0 to 1.4 times a FRAME_NEW's own time (`took`), its act (which keeps what it took
 * for a quarter of that), while this hart calls FRAME_NEW after a delay of its own
 * (round_start): so that some acts come before the call, some inside it, some after. Until
 * stop is set, then done. */
static volatile int stop, done;
static volatile unsigned long round, helper_ops, helper_hits;
static uint64_t took;
static unsigned long seen; /* the helper's: the last round it acted in */

static void spin_ns(uint64_t ns)
{
	uint64_t until = tacet_time_ns() + ns;

	while (tacet_time_ns() < until && !stop)
		;
}

static void helper_wait(void)
{
	while (round == seen && !stop)
		;
	seen = round;
	spin_ns(seen * 7 % 12 * took / 8);
}

/* This hart's side: a new round, once the other hart has acted in the last one, and its own
 * delay before the call. */
static void round_start(int i)
{
	while (helper_ops < (unsigned long)i && !done)
		tacet_yield();
	round = (unsigned long)i + 1;
	spin_ns((unsigned long)i * 5 % 12 * took / 8);
}

static void slot_filler(void *arg)
{
	(void)arg;
	while (helper_wait(), !stop) {
		/* the slot holds the notification until it is deleted: only this thread deletes
		 * it, and only after its own copy went in (the frames' owner deletes only frames) */
		if (tacet_cap_copy(SLOT_NTFN, SLOT_FRAME, TACET_RIGHTS_ALL, 0) == 0) {
			helper_hits++;
			spin_ns(took / 4);
			tacet_cap_delete(SLOT_FRAME);
		}
		helper_ops++;
	}
	done = 1;
}

static void budget_eater(void *arg)
{
	(void)arg;
	while (helper_wait(), !stop) {
		if (tacet_frame_new(SLOT_OTHER, EAT_PAGES) == 0) {
			helper_hits++;
			spin_ns(took / 4);
			tacet_cap_delete(SLOT_OTHER);
		}
		helper_ops++;
	}
	done = 1;
}

/* The map check's: a page of its own at the last page of the range this hart maps. */
static void last_page_mapper(void *arg)
{
	unsigned long va = BIG_VA + (BIG - 1) * PAGE;

	(void)arg;
	while (helper_wait(), !stop) {
		if (tacet_map(TACET_CHILD_SELF, SLOT_SMALL, va, TACET_RIGHT_READ) == 0) {
			helper_hits++;
			spin_ns(took / 4);
			tacet_unmap(TACET_CHILD_SELF, va, 1);
		}
		helper_ops++;
	}
	done = 1;
}

/* The map-end check's: the child's only capability deleted. */
static void child_ender(void *arg)
{
	(void)arg;
	while (helper_wait(), !stop) {
		helper_hits += tacet_cap_delete(SLOT_CHILD) == 0;
		helper_ops++;
	}
	done = 1;
}

/* A stack each: a helper may still be on its way out (tacet_exit) when the next starts. */
static struct tacet_dma stacks[4];

static long helper_start(void (*fn)(void *arg), int which)
{
	long tid;

	stop = done = 0;
	helper_ops = helper_hits = 0;
	round = seen = 0;
	tid = tacet_thread_start(fn, NULL, (unsigned long)stacks[which].va + STACK,
				 TACET_SCHED(HELPER_PRIO, 1));
	return tid < 0 ? tid : 0;
}

static void helper_stop(void)
{
	stop = 1;
	while (!done)
		tacet_yield();
}

static void memory(unsigned long *used, unsigned long *limit)
{
	*used = *limit = 0;
	tacet_process_memory(TACET_CHILD_SELF, used, limit);
}

/* The frame in SLOT_FRAME: BIG pages, every byte zero; then dirtied (its pages are the next
 * frame's, mostly) and deleted. 1 if it was whole and zeroed. */
static int frame_zeroed_then_dirty(void)
{
	unsigned long pa = 0, pages = 0, zero = 1;
	volatile unsigned long *w = (volatile unsigned long *)BIG_VA;

	if (tacet_frame_info(SLOT_FRAME, &pa, &pages) || pages != BIG ||
	    tacet_map(TACET_CHILD_SELF, SLOT_FRAME, BIG_VA, TACET_RIGHT_READ | TACET_RIGHT_WRITE))
		return 0;
	for (unsigned long i = 0; i < BIG * PAGE / sizeof(long); i++) {
		zero &= w[i] == 0;
		w[i] = ~0ul;
	}
	tacet_unmap(TACET_CHILD_SELF, BIG_VA, BIG);
	tacet_cap_delete(SLOT_FRAME);
	return (int)zero;
}

static void slot_race(void)
{
	unsigned long made = 0, exist = 0, other = 0, bad = 0;
	long err = tacet_ntfn_new(SLOT_NTFN);

	if (!err)
		err = helper_start(slot_filler, 0);
	if (err) {
		printf("framerace: slot: cannot start: %s\n", tacet_strerror(err));
		failures++;
		return;
	}
	for (int i = 0; i < ROUNDS; i++) {
		round_start(i);
		err = tacet_frame_new(SLOT_FRAME, BIG);
		if (!err) {
			made++;
			bad += !frame_zeroed_then_dirty();
		} else if (err == -TACET_EEXIST) {
			exist++;
		} else {
			other++;
			printf("framerace: slot: FRAME_NEW returned %s\n", tacet_strerror(err));
		}
	}
	helper_stop();
	/* and one more with the other hart stopped, on pages the rounds dirtied: whatever the
	 * rounds' outcomes were, a frame is made and read */
	bad += tacet_frame_new(SLOT_FRAME, BIG) || !frame_zeroed_then_dirty();
	printf("framerace: slot: %lu frames made, %lu EEXIST; the other hart filled the slot %lu "
	       "times in %lu tries\n", made, exist, helper_hits, helper_ops);
	check(!bad && !other && made + exist == ROUNDS,
	      "slot: 256-page frames zeroed or EEXIST, nothing else");
	tacet_cap_delete(SLOT_NTFN);
}

static void budget_race(void)
{
	unsigned long used, limit, before, made = 0, nomem = 0, other = 0, bad = 0, over = 0;
	unsigned long ballast = 0;
	long err = 0;

	memory(&before, &limit);
	/* frames of up to 256 pages until LEFT_PAGES are left */
	for (used = before; !err && ballast < BALLAST_MAX && (limit - used) / PAGE > LEFT_PAGES;
	     ballast++) {
		unsigned long pages = (limit - used) / PAGE - LEFT_PAGES;

		err = tacet_frame_new(SLOT_BALLAST + ballast, pages > BIG ? BIG : pages);
		memory(&used, &limit);
	}
	if (!err)
		err = helper_start(budget_eater, 1);
	if (err || (limit - used) / PAGE > LEFT_PAGES) {
		printf("framerace: budget: cannot start: %s\n", tacet_strerror(err));
		failures++;
		return;
	}
	printf("framerace: budget: %lu KiB of %lu KiB left\n", (limit - used) / 1024, limit / 1024);
	for (int i = 0; i < ROUNDS; i++) {
		round_start(i);
		err = tacet_frame_new(SLOT_FRAME, BIG);
		memory(&used, &limit);
		over += used > limit;
		if (!err) {
			made++;
			bad += !frame_zeroed_then_dirty();
		} else if (err == -TACET_ENOMEM) {
			nomem++;
		} else {
			other++;
			printf("framerace: budget: FRAME_NEW returned %s\n", tacet_strerror(err));
		}
	}
	helper_stop();
	bad += tacet_frame_new(SLOT_FRAME, BIG) || !frame_zeroed_then_dirty(); /* alone: fits */
	for (unsigned long i = 0; i < ballast; i++)
		tacet_cap_delete(SLOT_BALLAST + i);
	memory(&used, &limit);
	printf("framerace: budget: %lu frames made, %lu ENOMEM; the other hart made %lu frames of "
	       "%d pages in %lu tries; usage %lu -> %lu bytes\n", made, nomem, helper_hits,
	       EAT_PAGES, helper_ops, before, used);
	check(!bad && !other && !over && used == before,
	      "budget: 256-page frames zeroed or ENOMEM, never over the limit, usage back");
}

/*
 * The child: FRAME_NEW(1, 256, 0), CAP_DELETE(1), again, for ever. Position-independent, no stack,
 * no data; copied onto a page mapped at CHILD_VA in each child.
 */
_Static_assert(TACET_SYS_FRAME_NEW == 17 && TACET_SYS_CAP_DELETE == 12 && BIG == 256,
	       "child_code's numbers");
extern const char child_code[], child_code_end[];
__asm__(".pushsection .text\n"
	".globl child_code, child_code_end\n"
	"child_code:\n"
	"1:	li	a0, 1\n"
	"	li	a1, 256\n"
	"	li	a2, 0\n"            /* no flags */
	"	li	a7, 17\n"           /* FRAME_NEW(1, 256, 0) */
	"	ecall\n"
	"	li	a0, 1\n"
	"	li	a7, 12\n"           /* CAP_DELETE(1) */
	"	ecall\n"
	"	j	1b\n"
	"child_code_end:\n"
	".popsection\n");

static void kernel_memory(struct tacet_mem_info *m)
{
	if (tacet_info(TACET_INFO_MEM, 0, m, sizeof(*m)) < 0)
		memset(m, 0, sizeof(*m));
}

/* As init's leak check: the object caches keep their pages, so those count as free. */
static int memory_back(const struct tacet_mem_info *before, unsigned long used_before)
{
	struct tacet_mem_info now;
	unsigned long used, limit;

	kernel_memory(&now);
	memory(&used, &limit);
	return now.free_pages + now.kernel_object_pages ==
		       before->free_pages + before->kernel_object_pages &&
	       now.kernel_objects == before->kernel_objects && used == used_before;
}

static void kill_race(const struct tacet_dma *code)
{
	struct tacet_mem_info before;
	unsigned long used_before, limit, holding = 0, back = 0;
	long err;

	kernel_memory(&before);
	memory(&used_before, &limit);
	for (int i = 0; i < KILLS; i++) {
		unsigned long child_used = 0, child_limit = 0;
		int waited = 0;

		err = tacet_process_new(SLOT_CHILD, 0, "framekid", CHILD_BUDGET);
		if (!err)
			err = tacet_map(SLOT_CHILD, code->slot, CHILD_VA,
					TACET_RIGHT_READ | TACET_MAP_EXEC);
		if (!err) {
			long tid = tacet_thread_new(SLOT_CHILD, 0, CHILD_VA, 0, 0,
						    TACET_SCHED(HELPER_PRIO, 1));

			err = tid < 0 ? tid : 0;
		}
		if (err) {
			printf("framerace: kill: child %d: %s\n", i, tacet_strerror(err));
			failures++;
			tacet_cap_delete(SLOT_CHILD);
			break;
		}
		tacet_sleep_ns((unsigned long)(i * 97 % 20) * 100000ul); /* 0 to 1.9 ms */
		/* a child charged for a frame is (nearly always) zeroing it */
		tacet_process_memory(SLOT_CHILD, &child_used, &child_limit);
		holding += child_used >= BIG * PAGE;
		tacet_cap_delete(SLOT_CHILD); /* its only capability: it ends */
		/* its hart lets its thread go once it sees it ended; then its memory comes back */
		while (!memory_back(&before, used_before) && waited++ < 2000)
			tacet_sleep_ns(100000ul);
		back += memory_back(&before, used_before);
	}
	printf("framerace: kill: %d children ended, %lu of them while charged for a 1 MiB frame; "
	       "memory back after %lu\n", KILLS, holding, back);
	check(back == KILLS, "kill: children ended while making 256-page frames, memory back each time");
}

/* The frame in SLOT_FRAME mapped at BIG_VA: each page holds its stamp (index + 1). */
static int stamps_hold(void)
{
	const volatile unsigned long *w = (const volatile unsigned long *)BIG_VA;

	for (unsigned long i = 0; i < BIG; i++)
		if (w[i * PAGE / sizeof(long)] != i + 1)
			return 0;
	return 1;
}

static void map_race(void)
{
	unsigned long used, limit, before, made = 0, exist = 0, other = 0, bad = 0;
	long err;

	memory(&before, &limit);
	err = tacet_frame_new(SLOT_SMALL, 1);
	if (!err)
		err = helper_start(last_page_mapper, 2);
	if (err) {
		printf("framerace: map: cannot start: %s\n", tacet_strerror(err));
		failures++;
		return;
	}
	for (int i = 0; i < ROUNDS; i++) {
		round_start(i);
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, BIG_VA, TACET_RIGHT_READ);
		if (!err) {
			made++;
			bad += !stamps_hold();
			tacet_unmap(TACET_CHILD_SELF, BIG_VA, BIG);
		} else if (err == -TACET_EEXIST) {
			exist++;
		} else {
			other++;
			printf("framerace: map: MAP returned %s\n", tacet_strerror(err));
		}
	}
	helper_stop();
	tacet_cap_delete(SLOT_SMALL);
	/* nothing of a MAP that failed is left: the whole range maps again */
	err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, BIG_VA, TACET_RIGHT_READ);
	bad += err || !stamps_hold();
	tacet_unmap(TACET_CHILD_SELF, BIG_VA, BIG);
	memory(&used, &limit);
	printf("framerace: map: %lu whole, %lu EEXIST; the other hart mapped the last page %lu "
	       "times in %lu tries; usage %lu -> %lu bytes\n", made, exist, helper_hits, helper_ops,
	       before, used);
	check(!bad && !other && used == before,
	      "map: 256-page MAPs whole (every page its own) or EEXIST, usage back");
}

static void map_end_race(const struct tacet_dma *code)
{
	struct tacet_mem_info before;
	unsigned long used_before, limit, ok = 0, dead = 0, empty = 0, other = 0, back = 0;
	long err = helper_start(child_ender, 3);

	kernel_memory(&before);
	memory(&used_before, &limit);
	for (int i = 0; !err && i < KILLS; i++) {
		int waited = 0;

		err = tacet_process_new(SLOT_CHILD, 0, "mapkid", CHILD_BUDGET);
		if (!err && i % 2) {
			long tid;

			err = tacet_map(SLOT_CHILD, code->slot, CHILD_VA,
					TACET_RIGHT_READ | TACET_MAP_EXEC);
			/* below the ender on its hart: it waits READY, alive, until its end */
			tid = err ? err : tacet_thread_new(SLOT_CHILD, 0, CHILD_VA, 0, 0,
							   TACET_SCHED(HELPER_PRIO / 2, 1));
			err = tid < 0 ? tid : 0;
		}
		if (err)
			break;
		round_start(i);
		err = tacet_map(SLOT_CHILD, SLOT_FRAME, BIG_VA, TACET_RIGHT_READ);
		ok += !err;
		dead += err == -TACET_EDEAD;
		empty += err == -TACET_EEMPTY;
		if (err && err != -TACET_EDEAD && err != -TACET_EEMPTY) {
			other++;
			printf("framerace: map-end: MAP returned %s\n", tacet_strerror(err));
		}
		err = 0;
		while (helper_ops < (unsigned long)i + 1)
			tacet_yield(); /* the child's capability goes, before or after */
		while (!memory_back(&before, used_before) && waited++ < 2000)
			tacet_sleep_ns(100000ul);
		back += memory_back(&before, used_before);
	}
	helper_stop();
	if (err)
		printf("framerace: map-end: %s\n", tacet_strerror(err));
	printf("framerace: map-end: %d children, MAP into them 0 %lu, EDEAD %lu, EEMPTY %lu times; "
	       "memory back after %lu\n", KILLS, ok, dead, empty, back);
	check(!err && !other && back == KILLS,
	      "map-end: MAPs into a child ended meanwhile: 0, EDEAD or EEMPTY, memory back each "
	      "time");
}

int main(void)
{
	struct tacet_self self;
	struct tacet_dma code;
	long err = tacet_dma_alloc(PAGE, &code);

	for (int i = 0; !err && i < 4; i++)
		err = tacet_dma_alloc(STACK, &stacks[i]);
	tacet_self(&self);
	if (err || self.hart == 1) {
		printf("framerace: needs hart 1 for the other side (on hart %lu): %s: FAIL\n",
		       self.hart, tacet_strerror(err));
		return 1;
	}
	/* what a FRAME_NEW of 256 pages takes here, alone: the helpers' delays are up to 1.4
	 * times that; and lib's sleep notification made now, not during a memory check */
	for (int i = 0; !err && i < 4; i++) {
		uint64_t t0 = tacet_time_ns();

		err = tacet_frame_new(SLOT_FRAME, BIG);
		took += (tacet_time_ns() - t0) / 4;
		if (!err)
			err = tacet_cap_delete(SLOT_FRAME);
	}
	if (!err)
		err = tacet_sleep_ns(1000);
	if (err) {
		printf("framerace: FRAME_NEW alone: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	printf("framerace: a 256-page FRAME_NEW alone takes %llu us\n",
	       (unsigned long long)(took / 1000));
	memcpy(code.va, child_code, (size_t)(child_code_end - child_code));
	slot_race();
	budget_race();
	kill_race(&code);
	/* the map checks' frame, each page stamped; their delays from a MAP's time alone */
	err = tacet_frame_new(SLOT_FRAME, BIG);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, BIG_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	for (unsigned long i = 0; !err && i < BIG; i++)
		((volatile unsigned long *)BIG_VA)[i * PAGE / sizeof(long)] = i + 1;
	if (!err)
		err = tacet_unmap(TACET_CHILD_SELF, BIG_VA, BIG);
	took = 0;
	for (int i = 0; !err && i < 4; i++) {
		uint64_t t0 = tacet_time_ns();

		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, BIG_VA, TACET_RIGHT_READ);
		took += (tacet_time_ns() - t0) / 4;
		if (!err)
			err = tacet_unmap(TACET_CHILD_SELF, BIG_VA, BIG);
	}
	if (err) {
		printf("framerace: the map checks' frame: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	printf("framerace: a 256-page MAP alone takes %llu us\n", (unsigned long long)(took / 1000));
	map_race();
	map_end_race(&code);
	tacet_cap_delete(SLOT_FRAME);
	tacet_dma_free(&code);
	printf("framerace: %s\n", failures ? "FAIL" : "all checks passed");
	return failures != 0;
}
