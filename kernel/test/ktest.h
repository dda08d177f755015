/* ktest.h: in-kernel test cases, chosen with the boot argument "test=NAME" (the QEMU tests
 * pass it with -append). Each prints "ktest: NAME: PASS" or "ktest: NAME: FAIL: why" and powers
 * off with the matching exit code. Without "test=" the kernel just idles.
 *
 * The tests are built only into the test kernel (build/test/kernel.bin: every object compiled
 * with -DCONFIG_KTEST, plus the sources of kernel/test); the shipped kernel (build/kernel.bin)
 * has none.
 * The kernel calls them through the hooks below, each one line at its site (main.c, hart.c,
 * sched.c; the BKL's hold markers in bkl.h, bkl.c and sched.c) with no #ifdef there: without
 * CONFIG_KTEST each hook is an empty static inline function (an empty macro for the hold
 * markers, below) and the call compiles to nothing, so both kernels build from the same
 * sources, the shipped one pays nothing for them (not even a load on every idle entry), and
 * the code around a hook reads the same in both. A hook that grew past one line would be test
 * logic in the shipped kernel's sources: it belongs in kernel/test. */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdint.h>

#ifdef CONFIG_KTEST
#include "arch.h"
#include "test/ktest_marks.h"

/* The BKL's hold markers (ktest_marks.h), one instruction each, for the QEMU plugin that
 * counts each hart's own instructions between them (tools/qemu-plugins/bkl_holds.c): a hold's
 * stretch starts (bkl_since set: the lock taken or handed over), ends (a hold computed: the
 * release), ends and starts again (bkl_yield keeping the lock), and this hart's longest
 * stretch counts from here (sched_start_hart). */
static inline __attribute__((always_inline)) void ktest_mark_hold_start(void)
{
	arch_mark(KTEST_MARK_HOLD_START);
}
static inline __attribute__((always_inline)) void ktest_mark_hold_end(void)
{
	arch_mark(KTEST_MARK_HOLD_END);
}
static inline __attribute__((always_inline)) void ktest_mark_hold_restart(void)
{
	arch_mark(KTEST_MARK_HOLD_RESTART);
}
static inline __attribute__((always_inline)) void ktest_mark_hold_reset(void)
{
	arch_mark(KTEST_MARK_HOLD_RESET);
}

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
/* The cases kept in files of their own (ktest_edu.c, ktest_masked.c, ktest_mm.c). */
void ktest_irq_fast_latency(void);
void ktest_irq_nest_plic(void);
void ktest_irq_fast_storm(void);
void ktest_irq_masked(void);
void ktest_mm(void);
#else
/* The shipped kernel: no tests, the hooks are nothing. */
static inline void ktest_main(void) {}
static inline void ktest_hart_poll(void) {}
static inline void ktest_answer_pings(void) {}
/* The hold markers are empty macros, not empty functions: the call of an empty inline function
 * in bkl_yield still moved GCC 12's register allocation there (two registers swapped), and the
 * shipped kernel must stay the same instruction for instruction (make test checks the
 * figures). An empty macro leaves nothing for the compiler to see. */
#define ktest_mark_hold_start()   ((void)0)
#define ktest_mark_hold_end()     ((void)0)
#define ktest_mark_hold_restart() ((void)0)
#define ktest_mark_hold_reset()   ((void)0)
#endif

#endif
