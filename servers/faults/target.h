/* target.h: what the fault injector's servers (servers/faults: the campaign; servers/tests'
 * injectbad) share: a driver's thread found by its process's name, and a fault thrown at it
 * through the faults kernel's TACET_SYS_INJECT, with the trace authority at TACET_CHILD_TRACE. */
#ifndef FAULTS_TARGET_H
#define FAULTS_TARGET_H

/* The id of the first thread of the process named `process` that has not ended; 0 if none. */
unsigned int target_thread(const char *process);
/* tacet_inject(op, TACET_CHILD_TRACE, tid, where, value), tried again (100 us between two)
 * while the thread is running (-TACET_EBUSY), up to `tries` times: where it struck, or the
 * error. */
long target_inject(unsigned long op, unsigned int tid, unsigned long where, unsigned long value,
		   unsigned int tries);
/* The same, and what the injector found at the word (TACET_INJECT_FOUND_*) into *found. */
long target_inject_found(unsigned long op, unsigned int tid, unsigned long where,
			 unsigned long value, unsigned int tries, unsigned long *found);

#endif
