/* waiters.c: 200 threads of the calling process that wait for ever on a notification nobody
 * signals (faultmany, returnmany: processes that must not outlive a fault or their main).
 * They need no stack: each runs waiter_code, a few instructions of the server's own text. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include "waiters.h"

#define WAIT_PRIO 50 /* below the server's main (init's default, 100): they wait when it does */

_Static_assert(TACET_SYS_WAIT == 9 && TACET_SYS_EXIT == 2, "waiter_code's call numbers");
extern const char waiter_code[];
__asm__(".pushsection .text\n"
	".globl waiter_code\n"
	"waiter_code:\n"          /* a0: the notification's slot */
	"	mv s0, a0\n"
	"1:	mv a0, s0\n"
	"	li a7, 9\n"       /* TACET_SYS_WAIT */
	"	ecall\n"
	"	bgez a0, 1b\n"
	"	li a7, 2\n"       /* TACET_SYS_EXIT: the wait failed */
	"	ecall\n"
	".popsection\n");

long waiters_start(unsigned long ntfn_slot)
{
	struct tacet_self self;
	long err = tacet_ntfn_new(ntfn_slot);

	tacet_self(&self);
	for (unsigned int i = 0; !err && i < WAITERS; i++) {
		long tid = tacet_thread_new(TACET_CHILD_SELF, 0, (unsigned long)waiter_code, 0,
					    ntfn_slot, TACET_SCHED(WAIT_PRIO, self.hart));

		err = tid < 0 ? tid : 0;
	}
	tacet_yield(); /* (they run once main waits) */
	return err;
}
