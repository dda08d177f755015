/* target.c: a driver's thread for the injector, and a fault thrown at it (target.h). */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "target.h"

#define TARGET_PAUSE_NS 100000ull /* between two tries: the thread's hart may be another */

unsigned int target_thread(const char *process)
{
	struct tacet_thread_info ti;

	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
		if (!strncmp(ti.process, process, sizeof(ti.process)) &&
		    ti.state != TACET_THREAD_DEAD)
			return ti.tid;
	return 0;
}

long target_inject_found(unsigned long op, unsigned int tid, unsigned long where,
			 unsigned long value, unsigned int tries, unsigned long *found)
{
	long r = tacet_inject_found(op, TACET_CHILD_TRACE, tid, where, value, found);

	while (r == -TACET_EBUSY && tries--) {
		tacet_sleep_ns(TARGET_PAUSE_NS);
		r = tacet_inject_found(op, TACET_CHILD_TRACE, tid, where, value, found);
	}
	return r;
}

long target_inject(unsigned long op, unsigned int tid, unsigned long where, unsigned long value,
		   unsigned int tries)
{
	return target_inject_found(op, tid, where, value, tries, NULL);
}
