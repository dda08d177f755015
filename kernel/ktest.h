/* ktest.h: in-kernel test cases, chosen with the boot argument "test=NAME" (the QEMU tests
 * pass it with -append). Each prints "ktest: NAME: PASS" or "ktest: NAME: FAIL: why" and powers
 * off with the matching exit code. Without "test=" the kernel just idles. */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

/* Boot hart, once every hart is online: run the chosen test, if any (does not return then). */
void ktest_main(void);
/* Idle loop hook on every hart: run work the test posted for all harts. */
void ktest_hart_poll(void);
/* IPI handler: answer the pings other harts sent to this one. */
void ktest_answer_pings(void);

#endif
