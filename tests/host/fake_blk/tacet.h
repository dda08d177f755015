/* fake_blk/tacet.h: <tacet.h> for the host test of lib/blk.c (test_blk.c): fake_net's (fake_lib's
 * and the kit's DMA, wait, timer, time and lookup), and the system calls and kit calls lib/blk.c
 * makes besides (a poll, a new notification, the instance lookups, a report to init), declared
 * as functions the test defines (its fake kernel and fake blk service). First on the test's
 * include path, before fake_net and fake_lib. */
#ifndef TACET_FAKE_BLK_H
#define TACET_FAKE_BLK_H

#include "../fake_net/tacet.h"

long tacet_poll(unsigned long ntfn);
long tacet_ntfn_new(unsigned long dst);
long tacet_lookup_instance(const char *name, unsigned long dst, unsigned int tries,
			   unsigned long *instance);
long tacet_reconnect_instance(const char *name, unsigned long slot, unsigned int tries,
			      unsigned long *instance);
long tacet_report_stuck(const char *name, unsigned long instance);

#endif
