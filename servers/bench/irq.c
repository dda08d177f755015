/* irq.c: the interrupt-latency benchmarks. An edu device (claimed from the PCI server, its line
 * bound to a notification) raises an interrupt when a register is written; the figures are
 * taken from that write:
 *   irq_raise_to_trap   to the kernel's trap entry (the cycle count trap.S stamps);
 *   irq_top_half        from the trap entry to the end of the top half (claim, mask, signal,
 *                       complete, accounting);
 *   NAME                to the bound thread running after its tacet_wait() returns;
 * the kernel's two stamps of the latest interrupt are read from TACET_INFO_IRQ.
 *
 * Three raw threads take turns (struct bench_trio, bench.h), as in notify.c:
 *   raiser (the trio's driver, on the line's hart): after the go-ahead, reads the cycle
 *       counter, keeps the count in raise_at and writes the edu's raise register;
 *   waiter: tacet_wait() on the line's notification, reads the counter, then acknowledges the
 *       device and the line, collects the samples and tells the acker. A round in which a hart
 *       of the path took a timer interrupt is dropped and taken again (ticks()).
 * On one hart the waiter outranks the raiser: the interrupt (taken right after the write, in
 * user mode) switches to it at once.
 */
#include <stdio.h>
#include <tacet.h>
#include "../edu/edu_dev.h"
#include "bench.h"
#include "irq.h"

enum irq_slot {
	SLOT_ACK = EDU_SLOT_FREE, /* the acker tells the raiser: go on */
	SLOT_ACKER,               /* the waiter tells the acker: I am about to wait */
	SLOT_DONE,                /* the raiser tells main: all samples are in */
	SLOT_STACK_WAITER, /* and the two after it: the trio's stacks (bench.h) */
};

_Static_assert(IRQ_PRIO_MAIN >= BENCH_WAITER_PRIO, "main starts the waiter");

/* the threads' stacks: a page each, a gap between; below lib's region (edu_open maps BAR0 there) */
#define STACKS_VA  0x0000002000000000ul
#define IRQ_BADGE  1ul
#define SPARE      32 /* rounds to take again when a timer interrupt disturbed one (ticks()) */
#define ROUNDS     (BENCH_WARMUP + BENCH_SAMPLES + SPARE)

static struct edu dev;
static volatile unsigned long raise_at;
static unsigned long to_trap[BENCH_SAMPLES], top_half[BENCH_SAMPLES], to_server[BENCH_SAMPLES];
static unsigned long overhead, nsamples, dropped;
static long failure; /* the waiter's: a negative TACET_E* code */
static unsigned int harts_crossed[2]; /* the raiser's hart, the waiter's */

/* Timer interrupts the harts of the measured path have taken. A round in which the count
 * moved is not a sample: a scheduler tick landing between the raise and the waiter adds its
 * own handling (about 570 instructions) to that one sample, and whether one lands there
 * depends on where the ticks fall, which any change to what runs before (any server, any
 * hart) moves. */
static unsigned long ticks(void)
{
	struct tacet_hart_info hi;
	unsigned long n = 0;

	for (int i = 0; i < 2; i++) {
		if (i && harts_crossed[1] == harts_crossed[0])
			break;
		if (tacet_info(TACET_INFO_HART, harts_crossed[i], &hi, sizeof(hi)) < 0)
			return ~0ul;
		n += hi.timer_irqs;
	}
	return n;
}

/* The counter read and the device write back to back; the count is kept before the write,
 * since on the line's own hart the interrupt is taken right after it. */
static inline void raise_now(void)
{
	unsigned long c;

	__asm__ volatile("rdcycle %0\n"
			 "sd %0, %1\n"
			 "sw %2, %3"
			 : "=&r"(c), "=m"(raise_at)
			 : "r"(EDU_IRQ_BIT), "m"(dev.regs[EDU_IRQ_RAISE])
			 : "memory");
}

static void waiter(unsigned long arg)
{
	struct tacet_irq_info ii;
	unsigned long seen = ticks(), now;

	(void)arg;
	for (unsigned long i = 0; i < ROUNDS && !failure; i++) {
		long bits = tacet_wait(EDU_SLOT_NTFN);
		unsigned long end = bench_rdcycle(), start = raise_at;
		long err = bits < 0 ? bits : 0;

		dev.regs[EDU_IRQ_ACK] = dev.regs[EDU_IRQ_STATUS];
		if (!err)
			err = tacet_irq_ack(EDU_SLOT_IRQ, 1);
		if (!err && tacet_info(TACET_INFO_IRQ, dev.irq, &ii, sizeof(ii)) < 0)
			err = -TACET_EINVAL;
		if (err) {
			failure = err;
			break;
		}
		now = ticks();
		dropped += i >= BENCH_WARMUP && nsamples < BENCH_SAMPLES && now != seen;
		if (i >= BENCH_WARMUP && nsamples < BENCH_SAMPLES && now == seen) {
			to_trap[nsamples] = ii.last_trap - start - overhead;
			top_half[nsamples] = ii.last_done - ii.last_trap - overhead;
			to_server[nsamples] = end - start - overhead;
			nsamples++;
		}
		seen = now;
		if (i < ROUNDS - 1)
			tacet_signal(SLOT_ACKER, 1);
	}
	tacet_signal(SLOT_ACKER, BENCH_ACKER_QUIT);
}

static void raiser(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < ROUNDS; i++) {
		tacet_wait(SLOT_ACK);
		if (failure)
			break;
		raise_now();
	}
	tacet_wait(SLOT_ACK);
	tacet_signal(SLOT_DONE, 1);
}

int bench_irq(const char *name, unsigned int waiter_hart, unsigned int raiser_hart,
	      int report_top_half)
{
	long err;

	overhead = bench_overhead();
	harts_crossed[0] = raiser_hart;
	harts_crossed[1] = waiter_hart;
	err = edu_open(&dev, IRQ_BADGE);
	if (!err)
		err = tacet_irq_set_affinity(EDU_SLOT_IRQ, raiser_hart);
	for (unsigned long slot = SLOT_ACK; !err && slot <= SLOT_DONE; slot++)
		err = tacet_ntfn_new(slot);
	if (!err) {
		struct bench_trio trio = {
			.waiter = waiter, .driver = raiser,
			.waiter_hart = waiter_hart, .driver_hart = raiser_hart,
			.ack_slot = SLOT_ACK, .acker_slot = SLOT_ACKER,
			.first_stack_slot = SLOT_STACK_WAITER, .stacks_va = STACKS_VA,
		};

		err = bench_trio_start(&trio);
	}
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EDEAD;
	if (!err && (err = failure) == 0 && nsamples != BENCH_SAMPLES)
		err = -TACET_EINVAL;
	if (err) {
		printf("%s: %s (%lu samples)\n", name, tacet_strerror(err), nsamples);
		return 1;
	}
	printf("%s: %lu rounds dropped for a timer interrupt\n", name, dropped);
	if (report_top_half) {
		bench_report("irq_raise_to_trap", to_trap, BENCH_SAMPLES);
		bench_report("irq_top_half", top_half, BENCH_SAMPLES);
	}
	bench_report(name, to_server, BENCH_SAMPLES);
	bench_power_off();
	return 0;
}
