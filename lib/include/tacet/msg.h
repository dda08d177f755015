/* msg.h: an IPC message as lib passes it (<tacet/syscall.h>'s IPC wrappers, the service loop). */
#ifndef TACET_MSG_H
#define TACET_MSG_H

#include <tacet/abi.h>

/* The tag (TACET_TAG()) and the data words, all carried in registers. */
struct tacet_msg {
	unsigned long tag;
	unsigned long w[TACET_MSG_WORDS];
};

/* The IPC wrappers pass w[0..3] in four consecutive registers. */
_Static_assert(TACET_MSG_WORDS == 4, "IPC wrappers pass exactly four message words");

#endif
