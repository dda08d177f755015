/* threadhog: a process of 100,001 threads must be listed and must die in linear time. It makes
 * a child process "hogs" whose threads all block in a wait on a notification nobody signals
 * (their code is a few instructions copied onto one page; they need no stack), lists every
 * thread of the system with TACET_INFO_THREAD, ends the child by deleting the only capability
 * to it and times how long the kernel takes until the child's PROCESS_WATCH notification
 * arrives (guest time: under -icount, retired instructions), then checks that no thread of it
 * is left and that every page and kernel object came back. Last it leaves two more children,
 * one with threads and one without, for its own end to end (init's leak check sees whether
 * they went). No IPC protocol; exits 0 when every check passed. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define HOGS          100000ul
#define ORPHAN_HOGS   1000ul
/* threadhog's own hart, and init's (init.run=threadhog): the hogs run when both wait. No other
 * hart has work, so under -icount none spins for the kernel lock while this one holds it (that
 * can starve the holder: each round-robin turn then ends at its next timer write). */
#define HOG_HART      0
#define HOG_PRIO      50  /* below threadhog's */
#define LAST_PRIO     49  /* the last one: below the others */
#define CODE_VA       0x0000002100000000ul /* the code page in threadhog, to fill it */
#define HOG_VA        0x0000000000010000ul /* the code page in the child */
#define BUDGET_NS     500000000ull /* 0.5 s of guest time for the listing and for the end */

/* threadhog's slots */
#define SLOT_CHILD (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_BLOCK (TACET_CHILD_FIRST_FREE + 1) /* the hogs wait on it; never signalled */
#define SLOT_READY (TACET_CHILD_FIRST_FREE + 2) /* the last hog signals it */
#define SLOT_WATCH (TACET_CHILD_FIRST_FREE + 3) /* PROCESS_WATCH: the child ended */
#define SLOT_CODE  (TACET_CHILD_FIRST_FREE + 4)
#define SLOT_ORPHAN (TACET_CHILD_FIRST_FREE + 5)
#define SLOT_EMPTY (TACET_CHILD_FIRST_FREE + 6)
/* the child's slots (its cspace holds nothing else) */
#define HOG_SLOT_BLOCK 1
#define HOG_SLOT_READY 2

/* A hog: with a0 != 0 (the last one) it first signals HOG_SLOT_READY; then it waits on
 * HOG_SLOT_BLOCK for ever, or exits if the wait fails (a check then fails rather than a hog
 * spinning). Position-independent, no memory access: copied onto the child's code page and run
 * with sp = 0. */
_Static_assert(TACET_SYS_EXIT == 2 && TACET_SYS_SIGNAL == 8 && TACET_SYS_WAIT == 9,
	       "hog_code's call numbers");
_Static_assert(HOG_SLOT_BLOCK == 1 && HOG_SLOT_READY == 2, "hog_code's slots");
extern const char hog_code[], hog_code_end[];
__asm__(".pushsection .text\n"
	".globl hog_code, hog_code_end\n"
	"hog_code:\n"
	"	beqz a0, 1f\n"
	"	li a0, 2\n"  /* HOG_SLOT_READY */
	"	li a1, 1\n"
	"	li a7, 8\n"  /* TACET_SYS_SIGNAL */
	"	ecall\n"
	"1:	li a0, 1\n"  /* HOG_SLOT_BLOCK */
	"	li a7, 9\n"  /* TACET_SYS_WAIT */
	"	ecall\n"
	"	bgez a0, 1b\n"
	"	li a7, 2\n"  /* TACET_SYS_EXIT */
	"	ecall\n"
	"hog_code_end:\n"
	".popsection\n");

static int failed;

static const char *verdict(int ok)
{
	failed |= !ok;
	return ok ? "PASS" : "FAIL";
}

static unsigned long us(unsigned long ticks)
{
	return tacet_ticks_to_ns(ticks) / 1000;
}

/* The child with the code page mapped, two notifications to use, and threadhog watching it. */
static long make_child(void)
{
	long err = tacet_ntfn_new(SLOT_BLOCK);

	if (!err)
		err = tacet_ntfn_new(SLOT_READY);
	if (!err)
		err = tacet_ntfn_new(SLOT_WATCH);
	if (!err)
		err = tacet_process_new(SLOT_CHILD, 0, "hogs", 0);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_CODE, CODE_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) {
		memcpy((void *)CODE_VA, hog_code, (size_t)(hog_code_end - hog_code));
		err = tacet_unmap(TACET_CHILD_SELF, CODE_VA, 1);
	}
	if (!err)
		err = tacet_map(SLOT_CHILD, SLOT_CODE, HOG_VA, TACET_RIGHT_READ | TACET_MAP_EXEC);
	if (!err)
		err = tacet_cap_give(SLOT_CHILD, SLOT_BLOCK, HOG_SLOT_BLOCK, TACET_RIGHT_READ);
	if (!err)
		err = tacet_cap_give(SLOT_CHILD, SLOT_READY, HOG_SLOT_READY, TACET_RIGHT_WRITE);
	if (!err)
		err = tacet_process_watch(SLOT_CHILD, SLOT_WATCH, 1);
	return err;
}

/* HOGS threads, then the one that says they all wait: they queue on threadhog's hart below it
 * and run, each until its wait, once threadhog waits for the last one. That one's priority is
 * lower still, so it runs only when no other is ready (a hog whose slice ended while it ran
 * goes behind its equals). */
static long make_hogs(void)
{
	unsigned long start = tacet_time();
	long err = 0;

	for (unsigned long i = 0; i <= HOGS && err >= 0; i++)
		err = tacet_thread_new(SLOT_CHILD, 0, HOG_VA, 0, i == HOGS,
				       TACET_SCHED(i == HOGS ? LAST_PRIO : HOG_PRIO, HOG_HART));
	if (err < 0)
		return err;
	printf("threadhog: made %lu threads in %lu us\n", HOGS + 1, us(tacet_time() - start));
	start = tacet_time();
	err = tacet_wait(SLOT_READY);
	printf("threadhog: all of them ran into their wait in %lu us\n", us(tacet_time() - start));
	return err < 0 ? err : 0;
}

/* Lists every thread; counts those of the child, and those of them that wait at HOG_PRIO (all
 * but the last one, which threadhog preempted when it signalled). */
static unsigned long list_threads(unsigned long *hogs, unsigned long *waiting)
{
	struct tacet_thread_info ti;
	unsigned long i;

	*hogs = *waiting = 0;
	for (i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++) {
		if (strncmp(ti.process, "hogs", sizeof(ti.process)))
			continue;
		++*hogs;
		*waiting += ti.priority == HOG_PRIO && ti.state == TACET_THREAD_BLOCKED_NTFN;
	}
	return i;
}

static void check_listing(void)
{
	unsigned long hogs, waiting, start = tacet_time(), n = list_threads(&hogs, &waiting);
	unsigned long took = tacet_time() - start;

	printf("threadhog: listed %lu threads (%lu of hogs, %lu of them waiting) in %lu us of guest "
	       "time: %s\n", n, hogs, waiting, us(took),
	       verdict(hogs == HOGS + 1 && waiting == HOGS && took < tacet_ns_to_ticks(BUDGET_NS)));
}

/* Deleting the only capability to the child ends it; PROCESS_WATCH says when it is gone. */
static void check_end(void)
{
	unsigned long hogs, waiting, start = tacet_time(), took;
	long err = tacet_cap_delete(SLOT_CHILD);

	if (!err)
		err = tacet_wait(SLOT_WATCH);
	took = tacet_time() - start;
	printf("threadhog: ended a process of %lu threads in %lu us of guest time: %s\n", HOGS + 1,
	       us(took), verdict(err == 1 && took < tacet_ns_to_ticks(BUDGET_NS)));
	list_threads(&hogs, &waiting);
	printf("threadhog: threads of hogs left: %lu: %s\n", hogs, verdict(hogs == 0));
}

/* Every page and kernel object the child took is back (the object caches keep their pages, so
 * those count as free), as in init's leak check. */
static void check_memory(const struct tacet_mem_info *before)
{
	struct tacet_mem_info after;
	int same;

	if (tacet_info(TACET_INFO_MEM, 0, &after, sizeof(after)) < 0) {
		verdict(0);
		return;
	}
	same = before->free_pages + before->kernel_object_pages ==
		       after.free_pages + after.kernel_object_pages &&
	       before->kernel_objects == after.kernel_objects;
	printf("threadhog: memory back: free pages %lu -> %lu (object caches %lu -> %lu), kernel "
	       "objects %lu -> %lu: %s\n", before->free_pages, after.free_pages,
	       before->kernel_object_pages, after.kernel_object_pages, before->kernel_objects,
	       after.kernel_objects, verdict(same));
}

/* "orphan", whose hogs are ready or waiting when threadhog ends, and "empty", which never had
 * a thread: the end of their creator must end both. */
static long make_orphans(void)
{
	long err = tacet_ntfn_new(SLOT_BLOCK);

	if (!err)
		err = tacet_process_new(SLOT_ORPHAN, 0, "orphan", 0);
	if (!err)
		err = tacet_map(SLOT_ORPHAN, SLOT_CODE, HOG_VA, TACET_RIGHT_READ | TACET_MAP_EXEC);
	if (!err)
		err = tacet_cap_give(SLOT_ORPHAN, SLOT_BLOCK, HOG_SLOT_BLOCK, TACET_RIGHT_READ);
	for (unsigned long i = 0; i < ORPHAN_HOGS && err >= 0; i++)
		err = tacet_thread_new(SLOT_ORPHAN, 0, HOG_VA, 0, 0, TACET_SCHED(HOG_PRIO, HOG_HART));
	if (err >= 0)
		err = tacet_process_new(SLOT_EMPTY, 0, "empty", 0);
	printf("threadhog: leaving 2 children to end with it: orphan (%lu threads) and empty: %s\n",
	       ORPHAN_HOGS, verdict(err >= 0));
	return err < 0 ? err : 0;
}

int main(void)
{
	struct tacet_mem_info before;
	long err;

	/* the code frame and threadhog's page tables for CODE_VA come before the baseline */
	err = tacet_frame_new(SLOT_CODE, 1);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_CODE, CODE_VA, TACET_RIGHT_READ);
	if (!err)
		err = tacet_unmap(TACET_CHILD_SELF, CODE_VA, 1);
	if (!err && tacet_info(TACET_INFO_MEM, 0, &before, sizeof(before)) < 0)
		err = -TACET_EINVAL;
	if (!err)
		err = make_child();
	if (!err)
		err = make_hogs();
	if (err) {
		printf("threadhog: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	check_listing();
	check_end();
	tacet_cap_delete(SLOT_BLOCK);
	tacet_cap_delete(SLOT_READY);
	tacet_cap_delete(SLOT_WATCH);
	check_memory(&before);
	make_orphans();
	tacet_cap_delete(SLOT_CODE); /* the orphan's mapping keeps the page */
	printf("threadhog: %s\n", failed ? "some checks failed" : "all checks passed");
	return failed;
}
