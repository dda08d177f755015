/* chain_cap: capability chains through cspaces. 3,000 processes, each holding in its cspace the
 * only capability to the next; the tester keeps one capability, to the first, and deletes it.
 * Twice:
 *  - processes without threads: the first one's last reference goes, its cspace goes with it
 *    and drops the last reference to the second, and so on (a naive kernel frees them by
 *    recursion through kobj_put);
 *  - processes with a thread each, waiting on a notification: the last capability to a
 *    process that has threads ends them, its end drops its cspace, which ends the next one's
 *    threads, and so on (a naive kernel recurses through thread exit and process end).
 * Both must end with the kernel alive, every process gone (the last one's PROCESS_WATCH fires
 * in the second), no thread of the chain left and every page and kernel object back. No IPC
 * protocol; exits 0 when every check passed. */
#include <stdio.h>
#include "chains.h"

/* CHAIN_DEPTH processes from SLOT_FIRST, process i holding process i + 1 in CHAIN_SLOT_CHILD;
 * with `threads`, each with chain_code mapped and a thread waiting on BLOCK, the last one
 * (lowest priority: it runs after all the others waited) signalling READY first. The tester
 * watches the last one. 0 or -TACET_E*. */
static long build(int threads)
{
	unsigned long cur = SLOT_FIRST, next = SLOT_A;
	long err = 0;

	for (unsigned long i = 0; i < CHAIN_DEPTH && !err; i++) {
		unsigned long slot = i ? next : SLOT_FIRST;
		int last = i == CHAIN_DEPTH - 1;

		if (threads)
			err = chain_process_new(slot, 0, last);
		else
			err = tacet_process_new(slot, 0, CHAIN_NAME, 0);
		if (!err && threads)
			err = chain_thread_new(slot, 0, last ? CHAIN_PRIO - 1 : CHAIN_PRIO);
		if (!err && i)
			err = tacet_cap_give(cur, slot, CHAIN_SLOT_CHILD, TACET_RIGHTS_ALL);
		if (!err && last)
			err = tacet_process_watch(slot, SLOT_WATCH, 1);
		/* the link before lives on in the cspace of the one before it */
		if (!err && cur != SLOT_FIRST)
			err = tacet_cap_delete(cur);
		if (!err && i) {
			cur = slot;
			next = cur == SLOT_A ? SLOT_B : SLOT_A;
		}
	}
	if (!err && cur != SLOT_FIRST)
		err = tacet_cap_delete(cur);
	if (!err && threads)
		err = tacet_wait(SLOT_READY) == (long)READY_DONE ? 0 : -TACET_EINVAL;
	return err;
}

static void chain(int threads)
{
	const char *what = threads ? "with a thread each" : "without threads";
	struct tacet_mem_info before, built;
	unsigned long n, waiting;
	long err;

	mem_snapshot(&before);
	err = build(threads);
	if (err) {
		printf("chain_cap: FAIL: building %lu processes %s: %s\n", CHAIN_DEPTH, what,
		       tacet_strerror(err));
		chains_failed = 1;
		return;
	}
	mem_snapshot(&built);
	n = chain_threads(TACET_THREAD_BLOCKED_NTFN, &waiting);
	/* the last thread may not have reached its wait: the tester preempted it at its signal */
	printf("chain_cap: %lu processes %s, each holding the only capability to the next: %lu "
	       "kernel objects more, %lu threads, %lu of them waiting: %s\n", CHAIN_DEPTH, what,
	       built.kernel_objects - before.kernel_objects, n, waiting,
	       verdict(built.kernel_objects - before.kernel_objects >= CHAIN_DEPTH &&
		       n == (threads ? CHAIN_DEPTH : 0) && waiting + threads >= n));
	err = tacet_cap_delete(SLOT_FIRST);
	if (!err && threads)
		err = tacet_poll(SLOT_WATCH) == 1 ? 0 : -TACET_EINVAL;
	n = chain_threads(TACET_THREAD_BLOCKED_NTFN, &waiting);
	printf("chain_cap: deleted the capability to the first: the kernel lives, %s, threads of "
	       "the chain left: %lu: %s\n", threads ? "the last one ended" : "all freed", n,
	       verdict(!err && n == 0));
	mem_check("chain_cap", &before);
}

int main(void)
{
	long err = chains_setup();

	if (err) {
		printf("chain_cap: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	chain(0);
	chain(1);
	chains_report_bkl("chain_cap");
	printf("chain_cap: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
