/* fake_sock/tacet.h: <tacet.h> for the host test of servers/ip/sock.c (test_sock.c): fake_net's
 * (fake_lib's and the kit's DMA, signal and wait), and the system calls and kit calls sock.c
 * makes besides (syscall.h's inline wrappers and driver.h's address room), declared as
 * functions the test defines (its fake kernel). First on the test's include path. */
#ifndef TACET_FAKE_SOCK_H
#define TACET_FAKE_SOCK_H

#include "../fake_net/tacet.h"

long tacet_cap_info_of(unsigned long slot, long type, unsigned long out[5]);
long tacet_frame_info(unsigned long slot, unsigned long *paddr, unsigned long *pages);
long tacet_frame_is_ram(unsigned long slot);
long tacet_map(unsigned long process, unsigned long frame, unsigned long vaddr,
	       unsigned long rights);
long tacet_unmap(unsigned long process, unsigned long vaddr, unsigned long pages);
unsigned long tacet_va_alloc(unsigned long pages);
void tacet_va_free(unsigned long va, unsigned long pages);

#endif
