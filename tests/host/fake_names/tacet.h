/* fake_names/tacet.h: <tacet.h> for the host test of lib/names.c (test_names.c): fake_blk's
 * (fake_net's, fake_lib's), and the calls lib/names.c makes or defines besides, declared as
 * functions the test or names.c defines. First on the test's include path. */
#ifndef TACET_FAKE_NAMES_H
#define TACET_FAKE_NAMES_H

#include "../fake_blk/tacet.h"

long tacet_yield(void);
long tacet_publish(const char *name, unsigned long slot, unsigned long how);
long tacet_reconnect(const char *name, unsigned long slot, unsigned int tries);
long tacet_reconnect_next(const char *name, unsigned long slot, unsigned int tries,
			  unsigned long *instance);
long tacet_poweroff(int status);
long tacet_grant(const char *service, unsigned long badge, char *arg, unsigned long size);

#endif
