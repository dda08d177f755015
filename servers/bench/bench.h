/* bench.h: what the benchmark servers share: the counter read, the overhead of a read pair,
 * the summary line tests/bench/bench.py parses, and raw threads started inside a server.
 *
 * Under `make bench` QEMU runs with -icount shift=0: the cycle counter counts retired
 * instructions, one count for all harts, so every figure is "instructions retired by the
 * whole machine between two reads". An empty read pair counts too (1 instruction: the
 * first read itself); bench_overhead() measures it and the servers subtract it from every
 * sample.
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#define BENCH_SAMPLES 2000 /* recorded per benchmark */
#define BENCH_WARMUP  100  /* run first and thrown away */

/* The cycle counter, readable from user mode (scounteren.CY); volatile and a compiler barrier,
 * so that it stays exactly where it is written relative to the code it brackets. */
static inline unsigned long bench_rdcycle(void)
{
	unsigned long c;

	__asm__ volatile("rdcycle %0" : "=r"(c) : : "memory");
	return c;
}

/* The instructions counted by an empty rdcycle; rdcycle pair: its median over
 * BENCH_SAMPLES pairs (its minimum and maximum are the same under -icount), also printed as
 * `bench: rdcycle pair overhead N instructions` for tests/bench/bench.py. */
unsigned long bench_overhead(void);

/* Sorts samples (n of them, already less the overhead) and prints
 * `BENCH name samples=n min=.. median=.. max=..` (the median of an even count is the lower of
 * the middle two, so that every figure is a measured sample). */
void bench_report(const char *name, unsigned long *samples, unsigned long n);

/* The timer interrupts the harts of the mask `harts` (bit h: hart h) have taken so far
 * (TACET_INFO_HART's timer_irqs, summed; a hart the machine lacks counts 0). */
unsigned long bench_ticks(unsigned long harts);

/* Times op (which reads the counter around what it measures and puts the difference in *took;
 * 0 or a negative TACET_E* code) BENCH_WARMUP times, then until BENCH_SAMPLES samples are in,
 * each less overhead, into samples[], and reports them (bench_report). A round in which any hart
 * took a timer interrupt is not a sample (as irq.c's: the scheduler tick's handling, hundreds
 * of instructions, would land in it by where the ticks fall) and is taken again, at most
 * BENCH_SPARE times; prints how many. 0 or the first error (printed). */
#define BENCH_SPARE 32
long bench_measure(const char *name, long (*op)(unsigned long *took), unsigned long overhead,
		   unsigned long *samples);

/* Asks init to power the machine off (the benchmark is over; init.run= starts it alone, with
 * `^`: tests/bench/bench.py). */
void bench_power_off(void);

/* A thread of this process, started at fn(arg) on `hart` at `prio` with a one-page stack of its
 * own (frame in slot stack_slot, mapped at stack_va). It starts with gp set and nothing else:
 * no TLS and no C runtime, so fn may make raw system calls (<tacet/syscall.h>) and touch
 * memory, nothing more (no printf, no errno); returning from fn ends the thread.
 * Returns 0 or a negative TACET_E* code. */
long bench_thread_start(void (*fn)(unsigned long arg), unsigned long arg, unsigned int prio,
			unsigned int hart, unsigned long stack_slot, unsigned long stack_va);

/* The turn-taking of the wake-up benchmarks (notify.c, irq.c): three threads of this process,
 * nobody spinning (under -icount a spinning hart would stall the others):
 *   waiter (BENCH_WAITER_PRIO, waiter_hart): waits for what is measured, takes its sample, then
 *       tells the acker through acker_slot (1, or BENCH_ACKER_QUIT when done);
 *   acker (BENCH_ACKER_PRIO, waiter_hart): below the waiter, so it runs only once the waiter
 *       waits again; then gives the driver the go-ahead on ack_slot;
 *   driver (BENCH_DRIVER_PRIO, driver_hart): waits for the go-ahead, then does what wakes the
 *       waiter (a signal, a device interrupt).
 * The calling thread must run at BENCH_WAITER_PRIO or above. Stacks: slots first_stack_slot..+2,
 * pages at stacks_va, a page apart. Returns 0 or a negative TACET_E* code. */
#define BENCH_WAITER_PRIO 150
#define BENCH_ACKER_PRIO  130
#define BENCH_DRIVER_PRIO 120
#define BENCH_ACKER_QUIT  2ul /* in acker_slot's bits: the waiter is done */

struct bench_trio {
	void (*waiter)(unsigned long arg), (*driver)(unsigned long arg);
	unsigned int waiter_hart, driver_hart;
	unsigned long ack_slot, acker_slot;
	unsigned long first_stack_slot, stacks_va;
};

long bench_trio_start(const struct bench_trio *trio);

#endif
