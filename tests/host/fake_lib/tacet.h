/* fake_lib/tacet.h: <tacet.h> for host tests of lib/ code that calls the kernel (lib/session.c,
 * the generated dispatch and stubs): the real headers that hold no system call (abi.h, msg.h,
 * service.h, session.h), and the few system call wrappers and kit calls that code makes,
 * declared as functions the test defines (its fake kernel). First on the host test's include
 * path, before lib/include. */
#ifndef TACET_H
#define TACET_H

#include <stdint.h>
#include <tacet/abi.h>
#include <tacet/msg.h>
#include <tacet/service.h>
#include <tacet/session.h>

long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge);
long tacet_cap_copy(unsigned long src, unsigned long dst, unsigned long rights,
		    unsigned long badge);
long tacet_process_watch(unsigned long process, unsigned long ntfn, unsigned long badge);
long tacet_cap_delete(unsigned long slot);
long tacet_endpoint_watch(unsigned long ep, unsigned long ntfn, unsigned long badge);
long tacet_call_cap(unsigned long ep, struct tacet_msg *msg, unsigned long reply_slot);
long tacet_slot_alloc(void);
void tacet_slot_free(unsigned long slot);

#endif
