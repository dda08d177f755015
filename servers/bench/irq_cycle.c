/* irq_cycle.c: the whole cost of one interrupt to the system (irq_cycle.h), for the
 * bench_irq_cycle server (irq_server_cycle) and the bench_irq_svc_cycle one
 * (irq_service_cycle). Start either at priority DRIVER_PRIO on the line's hart
 * (^bench_irq_cycle@1/200): a thread may not start threads more urgent than itself.
 *
 * Two threads on one hart: a driver thread (DRIVER_PRIO) that handles the edu's interrupt the
 * way a real driver's loop does (read the status, clear the device, then either
 * tacet_irq_ack_wait: one kernel entry per interrupt; or, as a service loop (lib's
 * tacet_service_run), tacet_irq_ack and a receive on its endpoint as the line's notification's
 * bound thread), and a raiser below it; main waits for the raiser to finish. Each
 * sample is the raiser's counter read before the edu write to its read right after: the
 * interrupt, the top half, the driver running and handling it, its acknowledgement and wait,
 * and the raiser running again are all in between, since the driver outranks the raiser and
 * takes the hart as soon as it is woken.
 */
#include <stdint.h>
#include <stdio.h>
#include <tacet.h>
#include "../edu/edu_dev.h"
#include "bench.h"
#include "irq_cycle.h"

#define STACK_VA      0x0000002000000000ul /* below lib's region, where edu_open maps BAR0 */
#define IRQ_BADGE     1ul
#define DRIVER_PRIO   200
#define RAISER_PRIO   100
#define ROUNDS        (BENCH_WARMUP + BENCH_SAMPLES)
#define SLOT_DONE     EDU_SLOT_FREE
#define SLOT_EP       (EDU_SLOT_FREE + 1) /* the service loop's endpoint (nobody calls it) */
#define SLOT_STACK    (EDU_SLOT_FREE + 2) /* and the one after it */

static struct edu dev;
static unsigned long samples[BENCH_SAMPLES];
static unsigned long overhead;
static volatile unsigned long handled;
static volatile long failure; /* a negative TACET_E* code */

/* The driver: a plain wait first (ack_wait acknowledges only what was delivered), then one
 * kernel entry per interrupt. Raw thread: system calls and memory only. */
static void driver(unsigned long arg)
{
	long bits = tacet_wait(EDU_SLOT_NTFN);

	(void)arg;
	while (bits > 0) {
		uint32_t status = dev.regs[EDU_IRQ_STATUS];

		if (status)
			dev.regs[EDU_IRQ_ACK] = status; /* clear the device, then acknowledge */
		handled++;
		bits = tacet_irq_ack_wait(EDU_SLOT_IRQ, status != 0, EDU_SLOT_NTFN, 0);
	}
	failure = bits;
}

/* The service loop's driver: a receive as the notification's bound thread; a NOTIFY message
 * is an interrupt (the device cleared, the line acknowledged), nothing else comes. */
static void service_driver(unsigned long arg)
{
	struct tacet_msg msg;
	unsigned long badge;
	long err = tacet_ntfn_bind(EDU_SLOT_NTFN);

	(void)arg;
	while (!err && !(err = tacet_recv(SLOT_EP, 0, &msg, &badge))) {
		uint32_t status;

		if (TACET_TAG_LABEL(msg.tag) != TACET_LABEL_NOTIFY) {
			err = -TACET_EINVAL;
			break;
		}
		status = dev.regs[EDU_IRQ_STATUS];
		if (status)
			dev.regs[EDU_IRQ_ACK] = status;
		handled++;
		err = tacet_irq_ack(EDU_SLOT_IRQ, status != 0);
	}
	failure = err;
}

/* The raiser: each edu write bracketed by two counter reads (raw thread). */
static void raiser(unsigned long arg)
{
	(void)arg;
	for (unsigned long i = 0; !failure && i < ROUNDS; i++) {
		unsigned long c0, c1;

		__asm__ volatile("rdcycle %0\n"
				 "sw %3, %2\n"
				 "rdcycle %1"
				 : "=&r"(c0), "=&r"(c1), "+m"(dev.regs[EDU_IRQ_RAISE])
				 : "r"(EDU_IRQ_BIT)
				 : "memory");
		if (!failure && handled != i + 1)
			failure = -TACET_EINVAL; /* the driver did not run in between */
		else if (i >= BENCH_WARMUP)
			samples[i - BENCH_WARMUP] = c1 - c0 - overhead;
	}
	tacet_signal(SLOT_DONE, 1);
}

int bench_irq_cycle(const char *name, int service)
{
	long err = edu_open(&dev, IRQ_BADGE);
	struct tacet_self self;

	overhead = bench_overhead();
	tacet_self(&self);
	if (!err)
		err = tacet_ntfn_new(SLOT_DONE);
	if (!err)
		err = tacet_endpoint_new(SLOT_EP);
	if (!err)
		err = bench_thread_start(service ? service_driver : driver, 0, DRIVER_PRIO,
					 (unsigned int)self.hart, SLOT_STACK, STACK_VA);
	if (!err) /* the driver outranks the raiser: it is waiting before the first raise */
		err = bench_thread_start(raiser, 0, RAISER_PRIO, (unsigned int)self.hart,
					 SLOT_STACK + 1, STACK_VA + 2 * TACET_PAGE_SIZE);
	if (!err && tacet_wait(SLOT_DONE) < 0)
		err = -TACET_EDEAD;
	if (!err)
		err = failure;
	if (err) {
		printf("%s: %s (%lu handled)\n", name, tacet_strerror(err), handled);
		return 1;
	}
	bench_report(name, samples, BENCH_SAMPLES);
	bench_power_off();
	return 0;
}
