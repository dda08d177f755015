/* irq.c: the interrupt-latency benchmarks. An edu device (claimed from the PCI server, its line
 * bound to a notification) raises an interrupt when a register is written; the figures are
 * taken from that write:
 *   irq_raise_to_trap   to the kernel's trap entry (the cycle count trap.S stamps);
 *   irq_top_half        from the trap entry to the end of the top half (claim, mask, signal,
 *                       complete, accounting);
 *   NAME                to the driver thread running after its wait returns: a plain wait on
 *                       the notification, or a service loop's receive as its bound thread;
 * the kernel's two stamps of the latest interrupt are read from TACET_INFO_IRQ (on an idle
 * machine) or returned by tacet_irq_ack_wait (under stress).
 *
 * Three raw threads take turns (struct bench_trio, bench.h), as in notify.c:
 *   raiser (the trio's driver, on the line's hart): after the go-ahead, reads the cycle
 *       counter, keeps the count in raise_at and writes the edu's raise register;
 *   waiter: waits on the line's notification (or, a service loop, receives on an endpoint
 *       as the notification's bound thread), reads the counter, then acknowledges the
 *       device and the line, collects the samples and tells the acker. On an idle machine a
 *       round in which a hart of the path took a timer interrupt is dropped and taken again
 *       (ticks()); under stress every round counts (struct bench_irq_path).
 * On one hart the waiter outranks the raiser: the interrupt (taken right after the write, in
 * user mode) switches to it at once.
 */
#include <stdio.h>
#include <tacet.h>
#include "bench.h"
#include "irq.h"

enum irq_slot {
	SLOT_ACK = EDU_SLOT_FREE, /* the acker tells the raiser: go on */
	SLOT_ACKER,               /* the waiter tells the acker: I am about to wait */
	SLOT_DONE,                /* the raiser tells main: all samples are in */
	SLOT_EP,                  /* the service loop's endpoint (nobody calls it) */
	SLOT_STACK_WAITER, /* and the two after it: the trio's stacks (bench.h), per path */
};

_Static_assert(SLOT_STACK_WAITER + 3 * IRQ_MAX_PATHS == IRQ_SLOT_FREE, "irq.h's free slots");

_Static_assert(IRQ_PRIO_MAIN >= BENCH_WAITER_PRIO, "main starts the waiter");

/* the threads' stacks: a page each, a gap between, 6 pages per path; below lib's region
 * (edu_open maps BAR0 there) */
#define STACKS_VA  0x0000002000000000ul
#define PATH_STACKS (6 * TACET_PAGE_SIZE)
#define IRQ_BADGE  1ul

static struct edu dev;
int bench_irq_msi;
static volatile unsigned long raise_at;
unsigned long bench_irq_to_trap[BENCH_SAMPLES], bench_irq_top_half[BENCH_SAMPLES],
	bench_irq_to_server[BENCH_SAMPLES];
static const struct bench_irq_path *path; /* the one being measured */
static unsigned long overhead, nsamples, dropped, rounds, paths;
static long failure; /* the waiter's: a negative TACET_E* code */

/* Timer interrupts the harts of the measured path have taken. A round in which the count
 * moved is not a sample: a scheduler tick landing between the raise and the waiter adds its
 * own handling (about 570 instructions) to that one sample, and whether one lands there
 * depends on where the ticks fall, which any change to what runs before (any server, any
 * hart) moves. */
static unsigned long ticks(void)
{
	return bench_ticks(1ul << path->waiter_hart | 1ul << path->raiser_hart);
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

/* One interrupt's wait: the notification's own (a plain waiter), or, for a service loop, a
 * receive on the service's endpoint as the notification's bound thread, which the interrupt
 * ends with a NOTIFY message (what lib's tacet_service_run waits in). *end: the cycle count as
 * the wait returns, before anything else (the driver's own code: both figures stop there).
 * The bits, or a negative TACET_E* code. */
static long wait_interrupt(unsigned long *end)
{
	struct tacet_msg msg;
	unsigned long badge;
	long err;

	if (!path->service) {
		err = tacet_wait(EDU_SLOT_NTFN);
		*end = bench_rdcycle();
		return err;
	}
	err = tacet_recv(SLOT_EP, 0, &msg, &badge);
	*end = bench_rdcycle();
	if (!err && TACET_TAG_LABEL(msg.tag) != TACET_LABEL_NOTIFY)
		err = -TACET_EINVAL; /* nobody calls this endpoint */
	return err ? err : (long)msg.w[0];
}

static void waiter(unsigned long arg)
{
	struct tacet_irq_info ii;
	unsigned long seen = ticks(), now;

	(void)arg;
	if (path->service)
		failure = tacet_ntfn_bind(EDU_SLOT_NTFN); /* an error ends the path at once */
	for (unsigned long i = 0; i < rounds && !failure; i++) {
		unsigned long end;
		long bits = wait_interrupt(&end);
		unsigned long start = raise_at;
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
		dropped += i >= path->warmup && nsamples < path->samples && now != seen;
		if (i >= path->warmup && nsamples < path->samples && now == seen) {
			bench_irq_to_trap[nsamples] = ii.last_trap - start - overhead;
			bench_irq_top_half[nsamples] = ii.last_done - ii.last_trap - overhead;
			bench_irq_to_server[nsamples] = end - start - overhead;
			nsamples++;
		}
		seen = now;
		if (i < rounds - 1)
			tacet_signal(SLOT_ACKER, 1);
	}
	tacet_signal(SLOT_ACKER, BENCH_ACKER_QUIT);
}

/* The waiter under stress: a driver's loop, one kernel entry per interrupt (clear the device,
 * then tacet_irq_ack_wait acknowledges the line and waits for the next interrupt, whose trap
 * stamp it returns). The first wait is a plain one (ack_wait acknowledges only what was
 * delivered) and has no stamp: it is a warm-up round. Every round counts. */
static void stressed_waiter(unsigned long arg)
{
	unsigned long stamp = 0;
	long bits = tacet_wait(EDU_SLOT_NTFN);

	(void)arg;
	for (unsigned long i = 0; bits >= 0; i++) {
		unsigned long end = bench_rdcycle(), start = raise_at;

		dev.regs[EDU_IRQ_ACK] = dev.regs[EDU_IRQ_STATUS];
		if (i >= path->warmup) {
			bench_irq_to_trap[nsamples] = stamp ? stamp - start - overhead : 0;
			bench_irq_to_server[nsamples++] = end - start - overhead;
		}
		if (i == rounds - 1)
			break;
		tacet_signal(SLOT_ACKER, 1);
		bits = tacet_irq_ack_wait(EDU_SLOT_IRQ, 1, EDU_SLOT_NTFN, &stamp);
	}
	if (bits < 0)
		failure = bits;
	else /* the last interrupt: the line unmasked for the next path */
		failure = tacet_irq_ack(EDU_SLOT_IRQ, 1);
	tacet_signal(SLOT_ACKER, BENCH_ACKER_QUIT);
}

/* n in a register: the cross-hart figure counts the raiser's way back to its wait too */
static void raiser(unsigned long arg)
{
	const unsigned long n = rounds;

	(void)arg;
	for (unsigned long i = 0; i < n; i++) {
		tacet_wait(SLOT_ACK);
		if (failure)
			break;
		raise_now();
	}
	tacet_wait(SLOT_ACK);
	tacet_signal(SLOT_DONE, 1);
}

long bench_irq_open(void)
{
	long err;

	overhead = bench_overhead();
	err = (bench_irq_msi ? edu_open_msi : edu_open)(&dev, IRQ_BADGE);
	if (!err && bench_irq_msi && !dev.msi)
		err = -TACET_ENODEV; /* the MSI figures on a machine without MSIs: none */
	for (unsigned long slot = SLOT_ACK; !err && slot <= SLOT_DONE; slot++)
		err = tacet_ntfn_new(slot);
	if (!err)
		err = tacet_endpoint_new(SLOT_EP);
	return err;
}

long bench_irq_path(const struct bench_irq_path *p)
{
	struct bench_trio trio = {
		.waiter = p->stressed ? stressed_waiter : waiter, .driver = raiser,
		.waiter_hart = p->waiter_hart, .driver_hart = p->raiser_hart,
		.ack_slot = SLOT_ACK, .acker_slot = SLOT_ACKER,
		.first_stack_slot = SLOT_STACK_WAITER + 3 * paths,
		.stacks_va = STACKS_VA + PATH_STACKS * paths,
	};
	long err;

	if (paths == IRQ_MAX_PATHS || p->samples > BENCH_SAMPLES || (p->stressed && !p->warmup) ||
	    (p->stressed && p->service))
		return -TACET_EINVAL;
	paths++;
	path = p;
	rounds = p->warmup + p->samples + (p->stressed ? 0 : BENCH_SPARE);
	nsamples = dropped = 0;
	failure = 0;
	err = edu_move(&dev, p->raiser_hart);
	if (!err)
		err = bench_trio_start(&trio);
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EDEAD;
	if (!err && (err = failure) == 0 && nsamples != p->samples)
		err = -TACET_EINVAL;
	if (err)
		printf("%s: %s (%lu samples)\n", p->name, tacet_strerror(err), nsamples);
	else if (!p->stressed)
		printf("%s: %lu rounds dropped for a timer interrupt\n", p->name, dropped);
	return err;
}

int bench_irq(const char *name, unsigned int waiter_hart, unsigned int raiser_hart,
	      int report_top_half, int service)
{
	struct bench_irq_path p = {
		.name = name, .waiter_hart = waiter_hart, .raiser_hart = raiser_hart,
		.warmup = BENCH_WARMUP, .samples = BENCH_SAMPLES, .service = service,
	};
	long err = bench_irq_open();

	if (!err)
		err = bench_irq_path(&p);
	if (err)
		return 1;
	if (report_top_half) {
		bench_report(bench_irq_msi ? "irq_raise_to_trap_msi" : "irq_raise_to_trap",
			     bench_irq_to_trap, BENCH_SAMPLES);
		bench_report(bench_irq_msi ? "irq_top_half_msi" : "irq_top_half",
			     bench_irq_top_half, BENCH_SAMPLES);
	}
	bench_report(name, bench_irq_to_server, BENCH_SAMPLES);
	bench_power_off();
	return 0;
}
