/* blk_raw.h: a raw call on the block service, for the tests that send what lib's client does
 * not (blktest, blkmmio): the call's error, or the service's answer in w0. */
#ifndef TESTS_BLK_RAW_H
#define TESTS_BLK_RAW_H

#include <tacet.h>

static inline long raw(unsigned long ep, unsigned long tag, unsigned long w0, unsigned long w1,
		       unsigned long w2, unsigned long w3)
{
	struct tacet_msg msg = { .tag = tag, .w = { w0, w1, w2, w3 } };
	long err = tacet_call(ep, &msg);

	return err ? err : (long)msg.w[0];
}

#endif
