/* chain_fault: a chain of 3,000 faulted threads, each waiting for its supervisor's answer. Each
 * process of the chain is created by the one before, with its fault endpoint that process's
 * endpoint: the last one's thread faults, the one before receives the fault and faults in turn,
 * and so on up to the first, whose fault comes to the tester. Each thread now waits for a reply
 * (to its fault) from a thread that owes one to the next. The tester answers "end it"
 * (TACET_FAULT_KILL): the first thread ends; a faulted thread whose supervisor ended ends too,
 * so the next one ends, and the next... (a naive kernel recurses through thread exit, 3,000
 * deep). Checks the fault the tester received, that the chain was whole, and that after the
 * answer the kernel lives, no thread of the chain is left and every page and kernel object is
 * back. No IPC protocol; exits 0 when every check passed. */
#include <stdio.h>
#include "chains.h"

int main(void)
{
	struct tacet_mem_info before;
	struct tacet_msg msg = { 0 };
	unsigned long n, replying, badge = 0;
	long err = chains_setup();

	if (!err)
		err = tacet_endpoint_new(SLOT_EP);
	if (!err)
		err = tacet_ntfn_bind(SLOT_READY); /* a failed level ends the receive below */
	mem_snapshot(&before);
	if (!err)
		err = chain_process_new(SLOT_FIRST, SLOT_EP, 1);
	if (!err)
		err = tacet_process_watch(SLOT_FIRST, SLOT_WATCH, 1);
	if (!err)
		err = chain_thread_new(SLOT_FIRST, (CHAIN_DEPTH - 1) | CHAIN_FAULTS, CHAIN_PRIO);
	if (!err)
		err = tacet_recv(SLOT_EP, 0, &msg, &badge);
	if (!err && TACET_TAG_LABEL(msg.tag) != TACET_LABEL_FAULT)
		err = -TACET_EINVAL;
	if (err) {
		printf("chain_fault: FAIL: building the chain: %s (label %#lx, word %#lx)\n",
		       tacet_strerror(err), TACET_TAG_LABEL(msg.tag), msg.w[0]);
		return 1;
	}
	printf("chain_fault: the first process's fault: cause %lu, address %#lx: %s\n", msg.w[0],
	       msg.w[2], verdict(msg.w[0] == 13 && msg.w[2] == 0));
	n = chain_threads(TACET_THREAD_BLOCKED_REPLY, &replying);
	printf("chain_fault: %lu threads faulted, each supervised by the next: %lu threads, %lu of "
	       "them waiting for their supervisor: %s\n", CHAIN_DEPTH, n, replying,
	       verdict(n == CHAIN_DEPTH && replying == n));
	msg = (struct tacet_msg){ .tag = TACET_TAG(TACET_FAULT_KILL, 0) };
	err = tacet_reply(&msg);
	if (!err)
		err = tacet_poll(SLOT_WATCH) == 1 ? 0 : -TACET_EINVAL;
	n = chain_threads(TACET_THREAD_BLOCKED_REPLY, &replying);
	printf("chain_fault: told the kernel to end the first: the kernel lives, the first process "
	       "ended, threads of the chain left: %lu: %s\n", n, verdict(!err && n == 0));
	tacet_cap_delete(SLOT_FIRST);
	mem_check("chain_fault", &before);
	chains_report_bkl("chain_fault");
	printf("chain_fault: %s\n", chains_failed ? "some checks failed" : "all checks passed");
	return chains_failed;
}
