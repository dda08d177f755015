/* service.c: init's service thread (supervisor.c: init's threads), which answers the servers'
 * requests on service_ep (names.c serves them) below the servers' priority, and takes the ends
 * the supervisor signals before any request. It owns service_ep's receive side and prints only
 * through say(). */
#include <stdarg.h>
#include <stdio.h>
#include "init.h"

/* The service thread's printf: a line formatted here and written in one call, never through
 * stdio's line buffer, which is the supervisor's (lib/stdio.c is not thread-safe). */
void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		tacet_debug_write(line, (unsigned long)n < sizeof(line) ? (unsigned long)n
								: sizeof(line) - 1);
}

/* The service thread's notification: servers that ended (their names are withdrawn, their
 * refusals said), or the supervisor's QUIT. */
static void service_notified(unsigned long bits)
{
	if (bits & SERVICE_QUIT)
		tacet_exit(service_quit_status);
	for (unsigned int i = 0; i < MAX_SERVERS; i++) {
		if (!(bits & (1ul << i)))
			continue;
		names_ended(i);
	}
}

/* The service thread (see init's threads, supervisor.c): waits for SERVICE_GO, then answers the servers'
 * requests, taking the ends the supervisor signals first. Returns only on an error. */
static void service_main(void *unused)
{
	struct tacet_msg msg = { 0 }, reply = { 0 };
	unsigned long badge = 0, bits = 0;
	long err = 0;

	(void)unused;
	while (!err && !(bits & SERVICE_GO)) {
		long got = tacet_wait(service_ntfn);

		err = got < 0 ? got : 0;
		bits |= got < 0 ? 0 : (unsigned long)got;
		if (bits & SERVICE_QUIT)
			service_notified(bits);
	}
	recv_slot = alloc_slot(&service_slots);
	if (!err)
		err = tacet_ntfn_bind(service_ntfn);
	/* a capability that comes with a message (INIT_PUBLISH) lands in recv_slot */
	if (!err)
		err = tacet_recv(service_ep, recv_slot, &msg, &badge);
	while (!err) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			service_notified(msg.w[0]);
			err = tacet_recv(service_ep, recv_slot, &msg, &badge);
		} else if (serve(&msg, badge, &reply)) {
			err = tacet_reply_recv(service_ep, &reply, recv_slot, &msg, &badge);
		} else {
			err = tacet_recv(service_ep, recv_slot, &msg, &badge);
		}
	}
	say("init: the service thread stopped: %s\n", tacet_strerror(err));
}

/* The supervisor, at the start: service_ep, service_ntfn and the service thread, on init's hart
 * at service_prio, waiting for SERVICE_GO. Its stack (with its TLS block) is a frame of its own,
 * kept by the mapping. 0, or the error. */
long start_service(void)
{
	struct tacet_self self = { 0 };
	unsigned long stack = alloc_slot(&super_slots);
	long err;

	service_ep = alloc_slot(&super_slots);
	service_ntfn = alloc_slot(&super_slots);
	tacet_self(&self);
	err = tacet_endpoint_new(service_ep);
	if (!err)
		err = tacet_ntfn_new(service_ntfn);
	if (!err)
		err = tacet_frame_new(stack, SERVICE_STACK_PAGES);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, stack, SERVICE_STACK_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	free_slot(&super_slots, stack);
	if (!err)
		err = tacet_thread_start(service_main, NULL,
					 SERVICE_STACK_VA + SERVICE_STACK_PAGES * TACET_PAGE_SIZE,
					 TACET_SCHED(service_prio, self.hart));
	return err < 0 ? err : 0;
}
