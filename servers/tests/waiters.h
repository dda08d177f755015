/* waiters.h: see waiters.c. */
#ifndef TESTS_WAITERS_H
#define TESTS_WAITERS_H

#define WAITERS 200

/* A notification in ntfn_slot and WAITERS threads of this process waiting on it for ever,
 * below the caller's priority on its hart. 0 or -TACET_E*. */
long waiters_start(unsigned long ntfn_slot);

#endif
