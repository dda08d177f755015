/* edu_hold.c: the edu_hold server, a driver that takes its calls but not its interrupt: it
 * claims an edu device, binds the device's INTx line shared (edu_open), publishes "edu_hold"
 * and answers in lib's service loop (init's liveness question among the calls), but never
 * waits on the line's notification, so it never acknowledges an interrupt of the line. On a
 * line it shares, the first interrupt of another driver's device then stays masked for all
 * of them (oneshot: a shared line goes on once every binder has acknowledged). Its `~MS`
 * entry must end it: a question its server answers while it holds a shared line's interrupt
 * it held when asked stands (servers/init/liveness.c). With edu_shared (the case
 * liveness-shared-line-holder, tests/qemu/cases_pci.py). */
#include <stdio.h>
#include <tacet.h>
#include "edu_dev.h"

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	(void)s;
	(void)msg;
	reply->w[0] = 0;
}

int main(void)
{
	struct edu e;
	struct tacet_service service;
	long err = edu_open(&e, 1);

	if (!err)
		err = tacet_service_open(&service, "edu_hold", TACET_RIGHT_WRITE, NULL);
	if (!err) {
		printf("edu_hold: edu %ld's line %lu bound shared; its interrupts are never "
		       "acknowledged\n", e.index, e.irq);
		err = tacet_service_run(&service, call, NULL);
	}
	printf("edu_hold: FAIL: %s\n", tacet_strerror(err));
	return 1;
}
