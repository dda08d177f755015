/* irq_busy.c: the bench_irq_busy server: irq_busy_cycle, what one interrupt costs a driver
 * whose device is busy, i.e. raises its next interrupt before the driver has acknowledged the
 * last (a disk with more completions queued, a network card under load).
 *
 * One thread, alone on its hart: it waits for the edu's first interrupt, then, round after
 * round, reads the status, clears the device, makes it raise the next interrupt at once (the
 * line is still masked: oneshot) and calls tacet_irq_ack_wait. Each sample is one whole round,
 * from the counter read at the top of a round to the one at the top of the next: the driver's
 * own work, the acknowledgement that unmasks the line, the interrupt, its top half and the
 * driver running again. Started as ^bench_irq_busy@1/200 (the line follows it to hart 1;
 * `^`: it powers the machine off when done).
 */
#include <stdint.h>
#include <stdio.h>
#include <tacet.h>
#include "../edu/edu_dev.h"
#include "bench.h"

#define IRQ_BADGE 1ul
#define ROUNDS    (BENCH_WARMUP + BENCH_SAMPLES + 1)

static struct edu dev;
static unsigned long samples[BENCH_SAMPLES];

int main(void)
{
	long err = edu_open(&dev, IRQ_BADGE);
	unsigned long overhead = bench_overhead(), prev = 0, handled = 0;
	long bits = 0;

	if (!err) {
		dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		bits = tacet_wait(EDU_SLOT_NTFN);
	}
	for (unsigned long i = 0; !err && bits > 0 && i < ROUNDS; i++) {
		unsigned long now = bench_rdcycle();
		uint32_t status = dev.regs[EDU_IRQ_STATUS];

		if (i > BENCH_WARMUP)
			samples[i - BENCH_WARMUP - 1] = now - prev - overhead;
		prev = now;
		if (status) {
			dev.regs[EDU_IRQ_ACK] = status; /* clear the device, then ack the line */
			handled++;
		}
		dev.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT; /* busy: the next is there before the ack */
		bits = tacet_irq_ack_wait(EDU_SLOT_IRQ, status != 0, EDU_SLOT_NTFN, 0);
	}
	if (!err && bits < 0)
		err = bits;
	if (!err && handled != ROUNDS)
		err = -TACET_EINVAL; /* a round without its interrupt */
	if (err) {
		printf("irq_busy_cycle: %s (%lu handled)\n", tacet_strerror(err), handled);
		return 1;
	}
	bench_report("irq_busy_cycle", samples, BENCH_SAMPLES);
	bench_power_off();
	return 0;
}
