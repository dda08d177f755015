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
 *    Its next instance (tacet_instance() > 0) is healthy: it binds the notification to its
 *    thread and, in the same loop that answers its calls, raises OWN_ROUNDS interrupts one at
 *    a time, each cleared and acknowledged as it comes (the case liveness-own-line-holder).
 * One thread; nothing locked. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include "edu_dev.h"

#define OWN_ROUNDS 1000
#define IRQ_BADGE  1

static struct edu e;
static unsigned long raised, handled;

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	(void)s;
	(void)msg;
	reply->w[0] = 0;
}

/* The healthy instance's interrupt (the bound notification's bits): the device's status
 * cleared, the line acknowledged, the next raised until OWN_ROUNDS. */
static void own_interrupt(struct tacet_service *s, unsigned long bits)
{
	(void)s;
	if (!(bits & IRQ_BADGE))
		return;
	if (e.regs[EDU_IRQ_STATUS] & EDU_IRQ_BIT)
		handled++;
	e.regs[EDU_IRQ_ACK] = EDU_IRQ_BIT;
	tacet_irq_ack(EDU_SLOT_IRQ, 1);
	if (raised < OWN_ROUNDS) {
		raised++;
		e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		return;
	}
	printf("edu_hold_own: instance %lu: raised %lu, handled %lu on its own line: %s\n",
	       tacet_instance(), raised, handled, handled == OWN_ROUNDS ? "PASS" : "FAIL");
}

/* edu_hold_own's start: the line bound alone; the first instance raises one interrupt and
 * never takes it, the next serve theirs. 0 or the error. */
static long own_start(struct tacet_service *service)
{
	long err = edu_open_alone(&e, IRQ_BADGE);

	if (!err)
		err = tacet_service_open(service, tacet_service_name(), TACET_RIGHT_WRITE, NULL);
	if (err)
		return err;
	if (tacet_instance()) {
		printf("edu_hold_own: instance %lu: edu %ld's line %lu bound alone; serving its "
		       "interrupts\n", tacet_instance(), e.index, e.irq);
		service->notified = own_interrupt;
		err = tacet_ntfn_bind(EDU_SLOT_NTFN);
		raised = 1;
	} else {
		printf("edu_hold_own: edu %ld's line %lu bound alone; its interrupt is never taken "
		       "nor acknowledged\n", e.index, e.irq);
	}
	e.regs[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
	return err;
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
		err = tacet_service_run(&service, call, NULL);
	printf("%s: FAIL: %s\n", tacet_service_name(), tacet_strerror(err));
	return 1;
}
