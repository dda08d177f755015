/* ktest.h: in-kernel test cases, chosen with the boot argument "test=NAME" (the QEMU tests
 * pass it with -append). Each prints "ktest: NAME: PASS" or "ktest: NAME: FAIL: why" and powers
 * off with the matching exit code. Without "test=" the kernel just idles. */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdint.h>

/* Boot hart, once every hart is online: run the chosen test, if any (does not return then). */
void ktest_main(void);
/* Idle loop hook on every hart: run work the test posted for all harts. Inline, as every
 * idle entry passes here: without a test that posts such work, one load. */
extern uint32_t ktest_generation; /* how many times work was posted (0: never) */
void ktest_hart_run_posted(void);

static inline void ktest_hart_poll(void)
{
	if (__atomic_load_n(&ktest_generation, __ATOMIC_RELAXED))
		ktest_hart_run_posted();
}
/* IPI handler: answer the pings other harts sent to this one. */
void ktest_answer_pings(void);

/* For the test cases (ktest*.c): the end of a case, and a benchmark's summary line
 * `BENCH name samples=n min=.. median=.. max=..` (samples sorted in place; tests/bench/bench.py
 * reads it). */
_Noreturn void ktest_pass(void);
_Noreturn __attribute__((format(printf, 1, 2))) void ktest_fail(const char *fmt, ...);
void ktest_report(const char *name, uint64_t *samples, unsigned int n);
/* The cases kept in files of their own (ktest_edu.c, ktest_mm.c). */
void ktest_irq_fast_latency(void);
void ktest_irq_nest_plic(void);
void ktest_irq_fast_storm(void);
void ktest_mm(void);

#endif
