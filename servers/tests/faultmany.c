/* faultmany: one thread of a process faults while 200 others wait: a fault ends the whole process,
 * not only the faulting thread (init, its supervisor, answers TACET_FAULT_END; a process without
 * one is ended by the kernel), or the process would live on with its 200 threads and its memory,
 * never ended nor restarted. The case checks that init reports the fault, the process ends, and
 * init's leak check finds every page and object back. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "waiters.h"

int main(void)
{
	long err = waiters_start(TACET_CHILD_FIRST_FREE);
	unsigned long addr = 8;

	if (err) {
		printf("faultmany: FAIL: set-up: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("faultmany: %d threads wait; faulting now\n", WAITERS);
	__asm__("" : "+r"(addr)); /* hidden from gcc, which would make a trap of its own */
	*(volatile unsigned long *)addr = 1; /* no page there */
	printf("faultmany: FAIL: the store did not fault\n");
	return 1;
}
