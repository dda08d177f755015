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

static void chain(int threads)
{
	const char *what = threads ? "with a thread each" : "without threads";
	struct tacet_mem_info before, built;
	unsigned long n, waiting;
	long err;

	mem_snapshot(&before);
	err = chain_cap_build(CHAIN_DEPTH, threads);
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
	err = chain_end(threads);
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
