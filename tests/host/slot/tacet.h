/* slot/tacet.h: <tacet.h> for the host test of lib/slot.c: the real slot header and the two
 * system call wrappers slot.c makes, defined by the test (a capability table of its own). First
 * on test_slot's include path. */
#ifndef TACET_H
#define TACET_H

#include <tacet/abi.h>
#include <tacet/slot.h>

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge);
long tacet_cap_delete(unsigned long slot);

#endif
