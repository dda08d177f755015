/* chain_proc: a chain of 3,000 processes, each created by the one before (so each ends with
 * its creator) and each with one thread waiting on a notification. Deleting the tester's only
 * capability to the first ends its thread; its end ends the process it created, whose end ends
 * the next... (a naive kernel recurses through process end and thread exit, 3,000 deep). Checks
 * that the chain was whole, that after the deletion the kernel lives, no thread of the chain is
 * left (and the first one's PROCESS_WATCH fired) and every page and kernel object is back. No
 * IPC protocol; exits 0 when every check passed. */
#include <stdio.h>
#include "chains.h"

int main(void)
{
	struct tacet_mem_info before;
	unsigned long n, waiting, ready;
	long err = chains_setup();

	mem_snapshot(&before);
	if (!err)
		err = chain_proc_build(CHAIN_DEPTH);
	if (err) {
		printf("chain_proc: FAIL: building the chain: %s\n", tacet_strerror(err));
		return 1;
	}
	/* Every thread waits or is about to: READY, at its level's priority below the tester's on
	 * the tester's hart. The last one is when the tester preempted it at its signal; so is any
	 * level whose time slice ended between making the next level and its wait (then the next
	 * ran first: seen once under load, the last level's maker and the last one both READY). */
	n = chain_threads(TACET_THREAD_BLOCKED_NTFN, &waiting);
	chain_threads(TACET_THREAD_READY, &ready);
	printf("chain_proc: %lu processes, each created by the one before: %lu threads, %lu of them "
	       "waiting, %lu about to: %s\n", CHAIN_DEPTH, n, waiting, ready,
	       verdict(n == CHAIN_DEPTH && waiting + ready == n && waiting > 0));
	err = chain_end(1);
	n = chain_threads(TACET_THREAD_BLOCKED_NTFN, &waiting);
	printf("chain_proc: deleted the capability to the first: the kernel lives, the first one "
	       "ended, threads of the chain left: %lu: %s\n", n, verdict(!err && n == 0));
	mem_check("chain_proc", &before);
	chains_report_bkl("chain_proc");
	printf("chain_proc: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
