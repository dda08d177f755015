/* spinstart: a `~` server whose first instance spins before it publishes anything (a driver hung
 * in its set-up: the fault campaign threw an endless loop into rng while it opened its device,
 * and no liveness question could reach it); its later instances publish "spinstart" and answer
 * in lib's service loop. With livestart (tests/qemu/cases_faults.py: liveness-start-spinner).
 * Protocol: lib's loop answers init's TACET_LABEL_ALIVE itself; any other call is answered
 * with one word, the instance (tacet_instance()). */
#include <stdio.h>
#include <tacet.h>

static void call(struct tacet_service *s, const struct tacet_msg *msg, struct tacet_msg *reply)
{
	(void)s;
	(void)msg;
	reply->w[0] = tacet_instance();
}

int main(void)
{
	struct tacet_service service;
	long err;

	if (!tacet_instance())
		for (;;)
			__asm__ volatile(""); /* wants its hart, publishes nothing */
	err = tacet_service_open(&service, "spinstart", TACET_RIGHT_WRITE, NULL);
	if (!err)
		err = tacet_service_run(&service, call, NULL);
	printf("spinstart: FAIL: %s\n", tacet_strerror(err));
	return 1;
}
