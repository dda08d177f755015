/* hog: a hostile server that tries to drain the kernel's memory (servers are isolated).
 *
 * Three ways, each until the kernel says TACET_ENOMEM: frames (each mapped, its capability
 * dropped, so only the mapping holds it), mappings (one frame mapped at ever more addresses:
 * each a kernel object and page tables) and threads (each blocked on a notification). Each must
 * stop at the hog's own budget (its account's limit, from init.budget=), not when the machine
 * is empty: the `victim` server, told at each high-water mark, must then still create objects
 * normally. After each way the hog gives everything back and checks its account is where it
 * started. init's leak check at the end shows the machine's memory back where it was.
 * Protocol with the victim: the victim publishes a notification "victim" (bit n: check now,
 * for way n; QUIT: done), the hog one named "hog" (the victim's answer).
 */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "hogvictim.h"

enum {
	SLOT_ANSWER = TACET_CHILD_FIRST_FREE, /* ours, published as "hog" */
	SLOT_VICTIM,                          /* the victim's, looked up */
	SLOT_BLOCK,                           /* the threads wait here */
	SLOT_FRAME,
	SLOT_SLEEP, /* for pauses */
};

#define HOG_VA 0x0000002000000000ul /* frames and mappings go from here up */

/* ENOMEM comes when the next object would pass the limit: a page, the room asked for the page
 * tables a mapping may need (two pages) and an object or two. */
#define NEAR_LIMIT (4 * TACET_PAGE_SIZE)
#define THREADS_GONE_MS 10000 /* the hog's threads end within this, however busy the host */

static int failures;
static unsigned long base_used, limit;
static unsigned long pages_spanned; /* the most pages from HOG_VA mapped at once so far */

static void check(const char *what, int ok)
{
	printf("hog: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

static unsigned long used_now(void)
{
	unsigned long used = 0, lim = 0;

	tacet_process_memory(TACET_CHILD_SELF, &used, &lim);
	return used;
}

/* At a high-water mark: how far is the account from its limit, and does the victim still
 * create objects while we hold all this? */
static void at_the_limit(const char *way, unsigned long count, long err, unsigned int bit)
{
	unsigned long used = used_now();
	char what[128];

	snprintf(what, sizeof(what), "%s: %lu until %s, %lu of %lu KiB used", way, count,
		 tacet_strerror(err), used / 1024, limit / 1024);
	check(what, err == -TACET_ENOMEM && used + NEAR_LIMIT >= limit && used <= limit);
	tacet_signal(SLOT_VICTIM, bit);
	check("the victim was heard from while the hog held it all", tacet_wait(SLOT_ANSWER) == 1);
}

/* Everything back but the page tables of the range used (an address space keeps its tables
 * until it ends): one per 512 pages, and one above them per 512 of those. */
static void back_to_start(const char *way, unsigned long pages)
{
	unsigned long tables, used = used_now();
	char what[128];

	if (pages > pages_spanned)
		pages_spanned = pages;
	tables = (pages_spanned + 511) / 512 + (pages_spanned + 512 * 512 - 1) / (512 * 512);
	snprintf(what, sizeof(what), "%s given back: account at %lu KiB, the start and %lu page "
		 "tables", way, used / 1024, tables);
	check(what, used == base_used + tables * TACET_PAGE_SIZE);
}

static void hog_frames(void)
{
	unsigned long n = 0;
	long err;

	while (!(err = tacet_frame_new(SLOT_FRAME, 1))) {
		err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, HOG_VA + n * TACET_PAGE_SIZE,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
		tacet_cap_delete(SLOT_FRAME); /* the mapping keeps the frame */
		if (err)
			break;
		n++;
	}
	at_the_limit("frames", n, err, HOG_FRAMES);
	tacet_unmap(TACET_CHILD_SELF, HOG_VA, n);
	back_to_start("frames", n);
}

static void hog_mappings(void)
{
	unsigned long n = 0;
	long err = tacet_frame_new(SLOT_FRAME, 1);

	while (!err && !(err = tacet_map(TACET_CHILD_SELF, SLOT_FRAME, HOG_VA + n * TACET_PAGE_SIZE,
					 TACET_RIGHT_READ)))
		n++;
	at_the_limit("mappings of one frame", n, err, HOG_MAPPINGS);
	tacet_unmap(TACET_CHILD_SELF, HOG_VA, n);
	tacet_cap_delete(SLOT_FRAME);
	back_to_start("mappings", n);
}

/* A hog thread: no stack, no C: wait on the notification in a0 until the wait fails (the
 * notification is gone), then end. */
__asm__(".pushsection .text.hog_blocker, \"ax\", @progbits\n"
	".globl hog_blocker\n"
	"hog_blocker:\n"
	"	mv s1, a0\n"
	"1:	mv a0, s1\n"
	"	li a7, 9\n" /* TACET_SYS_WAIT */
	"	ecall\n"
	"	bgez a0, 1b\n"
	"	li a7, 2\n" /* TACET_SYS_EXIT */
	"	ecall\n"
	".popsection\n");
void hog_blocker(void);
_Static_assert(TACET_SYS_WAIT == 9 && TACET_SYS_EXIT == 2, "hog_blocker's call numbers");

/* The hog's threads the kernel still lists (TACET_INFO_THREAD), but for this one. */
static unsigned long hog_threads_alive(void)
{
	struct tacet_thread_info ti;
	struct tacet_self self;
	unsigned long n = 0;

	tacet_self(&self);
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
		n += !strncmp(ti.process, "hog", sizeof(ti.process)) && ti.tid != self.tid;
	return n;
}

static void hog_threads(void)
{
	unsigned long n = 0, left;
	long err = tacet_ntfn_new(SLOT_BLOCK);

	while (!err) {
		err = tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)hog_blocker, 0, SLOT_BLOCK,
				       TACET_SCHED(50, 1));
		if (err >= 0) /* a thread id */
			err = 0, n++;
	}
	at_the_limit("threads", n, err, HOG_THREADS);
	tacet_cap_delete(SLOT_BLOCK); /* every thread's wait fails: they all end */
	/* They end as they run, on our hart below us: let the hart go to them until the kernel
	 * lists none of them (a thread leaves the list as its memory goes back). How long that
	 * takes is the host's business (a busy host stops our hart for milliseconds at a time);
	 * THREADS_GONE_MS is only a safety net. */
	for (unsigned int ms = 0; (left = hog_threads_alive()) && ms < THREADS_GONE_MS; ms++) {
		tacet_timer_set(SLOT_SLEEP, 1, tacet_time() + tacet_ns_to_ticks(1000000));
		tacet_wait(SLOT_SLEEP);
	}
	if (left)
		printf("hog: %lu of %lu threads still there after %u ms: FAIL\n", left, n,
		       THREADS_GONE_MS);
	back_to_start("threads", 0);
}

int main(void)
{
	long err = tacet_ntfn_new(SLOT_ANSWER);

	if (!err)
		err = tacet_ntfn_new(SLOT_SLEEP);
	if (!err)
		err = tacet_publish("hog", SLOT_ANSWER, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_lookup("victim", SLOT_VICTIM, 10000);
	if (!err)
		err = tacet_process_memory(TACET_CHILD_SELF, &base_used, &limit);
	if (err) {
		printf("hog: cannot start: %s: FAIL\n", tacet_strerror(err));
		return 1;
	}
	printf("hog: budget %lu KiB, %lu KiB used at the start\n", limit / 1024, base_used / 1024);
	hog_frames();
	hog_mappings();
	hog_threads();
	tacet_signal(SLOT_VICTIM, HOG_QUIT);
	printf("hog: %s\n", failures ? "some checks failed" : "all checks passed");
	return failures != 0;
}
