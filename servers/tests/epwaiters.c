/* epwaiters: an endpoint ended with 1,000 threads waiting on it (qemu/endpoint-end-in-steps).
 * RECEIVERS threads wait to receive on one endpoint and CALLERS threads call another nobody
 * receives on; main deletes both capabilities, which ends both endpoints: every thread must
 * come back from its call with TACET_EDEAD. A user decides how many threads wait on one
 * object, so the kernel wakes them THREAD_WAKE_STEP (16) at a time as the reaper runs, not all
 * in one hold of the BKL: the case runs on one hart under -icount, where the kernel's record
 * of its longest hold (INFO_HART) is exact, and checks it stays under 5,000 instructions (with
 * every waiter woken in one step it was about 150 a thread: 180,000).
 *
 * The threads need no stack: each runs epw_receiver or epw_caller, a few instructions of this
 * server's text, which count the result and signal main's notification. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define SLOT_RECV_EP TACET_CHILD_FIRST_FREE
#define SLOT_CALL_EP (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_NTFN    (TACET_CHILD_FIRST_FREE + 2)
#define RECEIVERS    1000
#define CALLERS      200

unsigned int epw_dead;  /* threads whose call came back with TACET_EDEAD */
unsigned int epw_other; /* threads whose call came back with anything else */

_Static_assert(TACET_SYS_RECV == 5 && TACET_SYS_CALL == 4 && TACET_SYS_SIGNAL == 8 &&
		       TACET_SYS_EXIT == 2 && TACET_EDEAD == 12 && SLOT_NTFN == 18,
	       "epw_code's numbers");
extern const char epw_receiver[], epw_caller[];
__asm__(".pushsection .text\n"
	".option push\n"
	".option norelax\n" /* no gp-relative addresses: gp is not set in these threads */
	"epw_receiver:\n" /* a0: the endpoint's slot */
	"	li a1, 0\n"
	"	li a7, 5\n" /* TACET_SYS_RECV */
	"	j 1f\n"
	"epw_caller:\n"
	"	li a1, 0\n" /* the tag: label 0, no words */
	"	li a6, 0\n"
	"	li a7, 4\n" /* TACET_SYS_CALL */
	"1:	ecall\n"
	"	li t0, -12\n" /* -TACET_EDEAD */
	"	lla t1, epw_dead\n"
	"	beq a0, t0, 2f\n"
	"	lla t1, epw_other\n"
	"2:	li t2, 1\n"
	"	amoadd.w zero, t2, (t1)\n"
	"	li a0, 18\n" /* SLOT_NTFN */
	"	li a1, 1\n"
	"	li a7, 8\n" /* TACET_SYS_SIGNAL */
	"	ecall\n"
	"	li a7, 2\n" /* TACET_SYS_EXIT: this thread */
	"	ecall\n"
	".option pop\n"
	".popsection\n");

/* n threads at code, each waiting on ep by the time this returns: each is as urgent as main on
 * its hart, and main yields to it after making it. */
static long start(const char *code, unsigned long ep, unsigned int n)
{
	struct tacet_self self;

	tacet_self(&self);
	for (unsigned int i = 0; i < n; i++) {
		long tid = tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)code, 0, ep,
					    TACET_SCHED(self.prio, self.hart));

		if (tid < 0)
			return tid;
		tacet_yield();
	}
	return 0;
}

int main(void)
{
	struct tacet_hart_info hi = { 0 };
	unsigned int done = 0;
	long err = tacet_endpoint_new(SLOT_RECV_EP);

	if (!err)
		err = tacet_endpoint_new(SLOT_CALL_EP);
	if (!err)
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err)
		err = start(epw_receiver, SLOT_RECV_EP, RECEIVERS);
	if (!err)
		err = start(epw_caller, SLOT_CALL_EP, CALLERS);
	if (err) {
		printf("epwaiters: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("epwaiters: %d threads receive, %d call; ending both endpoints\n", RECEIVERS,
	       CALLERS);
	tacet_cap_delete(SLOT_RECV_EP);
	tacet_cap_delete(SLOT_CALL_EP);
	while ((done = __atomic_load_n(&epw_dead, __ATOMIC_ACQUIRE) +
		       __atomic_load_n(&epw_other, __ATOMIC_ACQUIRE)) < RECEIVERS + CALLERS)
		tacet_wait(SLOT_NTFN);
	tacet_info(TACET_INFO_HART, 0, &hi, sizeof(hi));
	printf("epwaiters: %u of %d threads woken with EDEAD, %u otherwise; longest BKL hold %lu "
	       "instructions: %s\n",
	       epw_dead, RECEIVERS + CALLERS, epw_other, hi.bkl_hold_max,
	       epw_dead == RECEIVERS + CALLERS ? "PASS" : "FAIL");
	return epw_dead == RECEIVERS + CALLERS ? 0 : 1;
}
