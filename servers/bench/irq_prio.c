/* irq_prio.c: the bench_irq_prio server: the threaded half of the masked-vs-threaded experiment
 * (docs/interrupts.md, "Masked, windowed or threaded"; the in-kernel half, cases 1 and 2, is the
 * test kernel's irq_masked). Two edu devices, A and B, on two lines, each bound to a raw thread
 * of this process, all on hart 1:
 *   thread A waits for A's interrupt, then raises B (the count read just before the write, as
 *       irq.c does), runs tacet_bench_work (~20,000 instructions, the loop of the in-kernel A),
 *       clears A, acknowledges its line and says it is done;
 *   thread B waits for B's interrupt, reads the count, clears B, acknowledges and says so.
 * B's latency is from the write that raises it to its thread running after its wait, the same
 * path as irq_raise_to_server_same_hart. main (priority IRQ_PRIO_MAIN) raises A and waits until
 * both have said they are done; a round in which hart 1 took a timer interrupt is taken again
 * (irq.c says why). Two cases, two fresh pairs of threads:
 *   case 3, irq_threaded_lower_b_latency: A's server at LOWER_PRIO, under B's (B_PRIO): B's
 *       interrupt preempts A's server at once;
 *   case 4, irq_threaded_equal_b_latency: both at B_PRIO: B's server waits until A's blocks.
 * irq_a_server_length: A's thread from its wait's return to the end of its work (case 4's).
 * Asserted here: case 3's B latency is under A's length (B preempted A's server), case 4's at
 * least A's length (B waited for it); if not, it says FAIL and powers off with status 1, which
 * fails the boot in tests/bench/bench.py. Started as ^bench_irq_prio@1/200 with two edus.
 * irq_a_server_length_preempted, A's run in case 3, holds B's whole handling: printed too.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/bench_work.h>
#include "bench.h"
#include "irq.h"

#define B_PRIO     150
#define LOWER_PRIO 100
#define WARMUP     10
#define SAMPLES    100
#define ROUNDS_MAX (WARMUP + SAMPLES + 32) /* rounds a timer interrupt disturbed are taken again */
#define DONE_A     1ul
#define DONE_B     2ul
#define STACKS_VA  0x0000002000000000ul

enum prio_slot {
	SLOT_EDU_B = EDU_SLOT_FREE,           /* edu B's four slots (edu_open_at) */
	SLOT_DONE = SLOT_EDU_B + EDU_SLOT_FREE - EDU_SLOT_PCI, /* A and B tell main */
	SLOT_STACKS,                          /* and 3 more: the four threads' stacks */
};

static struct edu dev_a, dev_b;
static volatile unsigned long raise_at, a_length, b_latency;
static volatile long failure;
static unsigned long overhead, rounds;
static unsigned long b_samples[SAMPLES], a_samples[SAMPLES];

#define A_IRQ  (dev_a.slot + EDU_SLOT_IRQ - EDU_SLOT_PCI)
#define A_NTFN (dev_a.slot + EDU_SLOT_NTFN - EDU_SLOT_PCI)
#define B_IRQ  (dev_b.slot + EDU_SLOT_IRQ - EDU_SLOT_PCI)
#define B_NTFN (dev_b.slot + EDU_SLOT_NTFN - EDU_SLOT_PCI)

static void thread_a(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < rounds && !failure; i++) {
		long err = tacet_wait(A_NTFN);
		unsigned long start = bench_rdcycle(), c;

		__asm__ volatile("rdcycle %0\n" /* B raised while A runs: the count, then the write */
				 "sd %0, %1\n"
				 "sw %2, %3"
				 : "=&r"(c), "=m"(raise_at)
				 : "r"(EDU_IRQ_BIT), "m"(dev_b.regs[EDU_IRQ_RAISE])
				 : "memory");
		tacet_bench_work(TACET_BENCH_WORK_ROUNDS);
		a_length = bench_rdcycle() - start - overhead;
		dev_a.regs[EDU_IRQ_ACK] = dev_a.regs[EDU_IRQ_STATUS];
		if (err >= 0)
			err = tacet_irq_ack(A_IRQ, 1);
		if (err < 0)
			failure = err;
		tacet_signal(SLOT_DONE, DONE_A);
	}
}

static void thread_b(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; i < rounds && !failure; i++) {
		long err = tacet_wait(B_NTFN);
		unsigned long end = bench_rdcycle();

		b_latency = end - raise_at - overhead;
		dev_b.regs[EDU_IRQ_ACK] = dev_b.regs[EDU_IRQ_STATUS];
		if (err >= 0)
			err = tacet_irq_ack(B_IRQ, 1);
		if (err < 0)
			failure = err;
		tacet_signal(SLOT_DONE, DONE_B);
	}
}

static unsigned long hart1_ticks(void)
{
	struct tacet_hart_info hi;

	return tacet_info(TACET_INFO_HART, 1, &hi, sizeof(hi)) < 0 ? ~0ul : hi.timer_irqs;
}

/* One case: A's server at a_prio, B's at B_PRIO; the samples in a_samples and b_samples. */
static long run_case(const char *name, unsigned int a_prio, unsigned int pair)
{
	unsigned long n = 0, slot = SLOT_STACKS + 2 * pair, va = STACKS_VA + 4 * pair * TACET_PAGE_SIZE;
	long err;

	rounds = ROUNDS_MAX;
	err = bench_thread_start(thread_b, 0, B_PRIO, 1, slot, va);
	if (!err)
		err = bench_thread_start(thread_a, 0, a_prio, 1, slot + 1, va + 2 * TACET_PAGE_SIZE);
	for (unsigned long i = 0; !err && n < SAMPLES; i++) {
		unsigned long ticks = hart1_ticks(), got = 0;

		if (i == ROUNDS_MAX - 1)
			rounds = i + 1; /* the threads' last round, whatever it brings */
		if (i == ROUNDS_MAX) {
			err = -TACET_EBUSY; /* timer interrupts in too many rounds */
			break;
		}
		dev_a.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		while (!err && got != (DONE_A | DONE_B)) {
			long bits = tacet_wait(SLOT_DONE);

			err = bits < 0 ? bits : failure;
			got |= (unsigned long)bits;
		}
		if (!err && i >= WARMUP && hart1_ticks() == ticks) {
			b_samples[n] = b_latency;
			a_samples[n++] = a_length;
		}
	}
	rounds = 0; /* the threads end after their current round */
	if (err)
		printf("%s: %s (%lu samples)\n", name, tacet_strerror(err), n);
	return err;
}

int main(void)
{
	long err;
	unsigned long lower_b_max, lower_a_min;

	overhead = bench_overhead();
	err = edu_open(&dev_a, 1);
	if (!err)
		err = edu_open_at(&dev_b, 2, SLOT_EDU_B);
	if (!err)
		err = tacet_ntfn_new(SLOT_DONE);
	if (err)
		return 1;
	printf("irq_prio: A on line %lu, B on line %lu, both servers on hart 1\n", dev_a.irq,
	       dev_b.irq);
	if (run_case("irq_threaded_lower_b_latency", LOWER_PRIO, 0))
		return 1;
	bench_report("irq_threaded_lower_b_latency", b_samples, SAMPLES);
	bench_report("irq_a_server_length_preempted", a_samples, SAMPLES);
	lower_b_max = b_samples[SAMPLES - 1];
	lower_a_min = a_samples[0];
	if (run_case("irq_threaded_equal_b_latency", B_PRIO, 1))
		return 1;
	bench_report("irq_a_server_length", a_samples, SAMPLES);
	bench_report("irq_threaded_equal_b_latency", b_samples, SAMPLES);
	printf("irq_prio: lower: B's longest latency %lu, A's shortest server run %lu: %s\n",
	       lower_b_max, lower_a_min, lower_b_max < lower_a_min ? "B preempted A" : "B waited");
	printf("irq_prio: equal: B's least latency %lu, A's longest server run %lu: %s\n",
	       b_samples[0], a_samples[SAMPLES - 1],
	       b_samples[0] >= a_samples[SAMPLES - 1] ? "B waited for A" : "B got in");
	if (lower_b_max >= lower_a_min || b_samples[0] < a_samples[SAMPLES - 1]) {
		printf("irq_prio: FAIL: the servers' priorities did not order B and A\n");
		tacet_poweroff(1); /* QEMU's exit status: bench.py fails the boot */
		return 1;
	}
	bench_power_off();
	return 0;
}
