/* ktest_marks.h: the test kernel's markers in its instruction stream, each one instruction that
 * does nothing (arch_mark(n): on RISC-V `slti x0, x0, n`), for a tool that watches the stream
 * from outside the machine: tools/qemu-plugins/bkl_holds.c, a QEMU plugin that counts what each
 * hart itself retires between two of them (docs/benchmarks.md, "BKL holds per hart"). The
 * kernel places them through ktest.h's hooks; the plugin includes this header for the numbers.
 * The shipped kernel has none. */
#ifndef KERNEL_KTEST_MARKS_H
#define KERNEL_KTEST_MARKS_H

/* The BKL's hold markers: a stretch of a hart's hold of the lock starts where the hart sets
 * bkl_since (it took the lock, or was handed it) and ends where it computes a hold (the
 * release); a preemption point that keeps the lock (bkl_yield, nobody waiting) ends one
 * stretch and starts the next (RESTART); RESET: this hart's longest stretch counts from here
 * (sched_start_hart: the boot's holds delayed nobody). */
#define KTEST_MARK_HOLD_RESET   0x4b0
#define KTEST_MARK_HOLD_START   0x4b1
#define KTEST_MARK_HOLD_END     0x4b2
#define KTEST_MARK_HOLD_RESTART 0x4b3

#endif
