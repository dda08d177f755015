/* bench_work.h: the long handler of the masked-vs-threaded experiment (docs/interrupts.md,
 * "Masked, windowed or threaded"): device A's handler is this counted loop, in the test kernel
 * (kernel/test/ktest_masked.c, cases 1 and 2) and in a user-space server
 * (servers/bench/irq_prio.c, cases 3 and 4), so both run the same instructions.
 * Not an ABI: shared here because both sides of the kernel run it. */
#ifndef TACET_BENCH_WORK_H
#define TACET_BENCH_WORK_H

/* Rounds of the loop: two instructions each, ~20,000 in all. */
#define TACET_BENCH_WORK_ROUNDS 10000ul

/* Retires 2 x rounds instructions (+1), touching no memory: under -icount, exactly that many. */
static inline void tacet_bench_work(unsigned long rounds)
{
	__asm__ volatile("1: addi %0, %0, -1\n"
			 "   bnez %0, 1b"
			 : "+r"(rounds)
			 :
			 : "memory");
}

#endif
