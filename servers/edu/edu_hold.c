/* edu_hold.c: the edu_hold server, a driver that takes its calls but not its interrupt: it
 * claims an edu device, binds the device's INTx line, publishes its name and answers in lib's
 * service loop (init's liveness question among the calls), but never takes the line's
 * notification's bits, so it never acknowledges an interrupt of the line. Its `~MS` entry must
 * end it (servers/init/liveness.c). Two ways, by the name its init.run= entry grants it
 * (tacet_service_name()):
 *  - edu_hold: the line bound shared. The first interrupt of another driver's device on it then
 *    stays masked for all of them (oneshot: a shared line goes on once every binder has
 *    acknowledged): a question its server answers while it holds a shared line's interrupt it
 *    held when asked stands. With edu_shared (the case liveness-shared-line-holder,
 *    tests/qemu/cases_pci.py).
 *  - edu_hold_own (`edu_hold=edu_hold_own*1~MS`): the line bound alone, and one interrupt of its
 *    own device raised that it never takes (a driver deaf to its line: its device is not
 *    served): init ends it once it has held that interrupt ALIVE_OWN_HELD_MS in its receive.
 *    Its next instance (tacet_instance() > 0) is healthy, a driver of lib's kit: for
 *    HEALTHY_MS, in the loop that answers its calls, it takes a burst of interrupts a
 *    millisecond, the first through the loop (acknowledged at once), the rest through
 *    tacet_device_wait (each ack put off to the next wait), and is never ended for them (the
 *    case liveness-own-line-holder).
 * One thread; nothing locked. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include "edu_dev.h"

#define HEALTHY_MS  5000       /* the healthy instance's interrupts: for this long, ... */
#define BURST       8          /* ...in bursts, each an interrupt through the loop and this
				* many through tacet_device_wait, ... */
#define PAUSE_NS    1000000ull /* ...a burst a millisecond (the loop answers between) */
#define PAUSE_BIT   (1ul << 2) /* the pause's timer: a bit of the driver's own */
#define IRQ_BADGE   1
#define WAIT_NS     1000000000ull /* an interrupt later than this is lost */

static struct edu e;
static struct tacet_device dev;
static unsigned long raised, handled, put_off, deadline;

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	(void)s;
	(void)msg;
	reply->w[0] = 0;
}

/* The device's interrupt, taken: its status cleared, the line acknowledged (by the kit: at once
 * from the loop, put off to the next tacet_device_wait from one). */
static void clear(void)
{
	if (e.regs[EDU_IRQ_STATUS] & EDU_IRQ_BIT)
		handled++;
	e.regs[EDU_IRQ_ACK] = EDU_IRQ_BIT;
	tacet_device_ack(&dev, 1);
}

/* A burst's rest: BURST interrupts raised and waited for in lib's device loop, each ack put off
 * to the next wait (the last one's to the service loop's, before its receive). */
static void burst(void)
{
	for (unsigned int i = 0; i < BURST; i++) {
		raised++;
		e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		if (tacet_device_wait(&dev, WAIT_NS) != (long)TACET_DEVICE_IRQ)
			return; /* lost: the counts say so */
		clear();
		put_off++;
	}
}

/* The healthy instance's events (its service loop): an interrupt, then a burst and a pause; at
 * the pause's end the next interrupt, until HEALTHY_MS have passed. */
static void own_event(struct tacet_device *d, long ev)
{
	(void)d;
	if (ev & TACET_DEVICE_IRQ) {
		clear();
		burst();
		tacet_timer_set(dev.ntfn_slot, PAUSE_BIT, tacet_time() + tacet_ns_to_ticks(PAUSE_NS));
		return;
	}
	if (!(ev & PAUSE_BIT))
		return;
	if (tacet_time() < deadline) {
		raised++;
		e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		return;
	}
	printf("edu_hold_own: instance %lu: for %d ms: raised %lu, handled %lu (%lu acks put off "
	       "to the next wait): %s\n", tacet_instance(), HEALTHY_MS, raised, handled, put_off,
	       raised == handled && put_off ? "PASS" : "FAIL");
}

/* edu_hold_own's healthy instance: the line bound again through the kit (tacet_device_adopt,
 * alone), its notification bound to the service loop's thread; the first interrupt raised.
 * 0 or the error. */
static long own_healthy(struct tacet_service *service)
{
	long err = tacet_irq_unbind(EDU_SLOT_IRQ);

	if (!err)
		err = tacet_device_adopt(&dev, EDU_SLOT_BAR, EDU_SLOT_IRQ, (unsigned int)e.irq, 0);
	if (!err)
		err = tacet_service_open(service, tacet_service_name(), TACET_RIGHT_WRITE, &dev);
	if (err)
		return err;
	printf("edu_hold_own: instance %lu: edu %ld's line %lu bound alone; serving its "
	       "interrupts for %d ms\n", tacet_instance(), e.index, e.irq, HEALTHY_MS);
	deadline = tacet_time() + tacet_ns_to_ticks(HEALTHY_MS * 1000000ull);
	raised = 1;
	e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	return 0;
}

/* edu_hold_own's start: the line bound alone; the first instance raises one interrupt and
 * never takes it, the next serve theirs. 0 or the error. */
static long own_start(struct tacet_service *service)
{
	long err = edu_open_alone(&e, IRQ_BADGE);

	if (err || tacet_instance())
		return err ? err : own_healthy(service);
	err = tacet_service_open(service, tacet_service_name(), TACET_RIGHT_WRITE, NULL);
	if (err)
		return err;
	printf("edu_hold_own: edu %ld's line %lu bound alone; its interrupt is never taken nor "
	       "acknowledged\n", e.index, e.irq);
	e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	return 0;
}

int main(void)
{
	struct tacet_service service;
	long err;

	if (!strcmp(tacet_service_name(), "edu_hold_own")) {
		err = own_start(&service);
	} else {
		err = edu_open(&e, 1);
		if (!err)
			err = tacet_service_open(&service, "edu_hold", TACET_RIGHT_WRITE, NULL);
		if (!err)
			printf("edu_hold: edu %ld's line %lu bound shared; its interrupts are never "
			       "acknowledged\n", e.index, e.irq);
	}
	if (!err)
		err = tacet_service_run(&service, call, own_event);
	printf("%s: FAIL: %s\n", tacet_service_name(), tacet_strerror(err));
	return 1;
}
