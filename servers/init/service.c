/* service.c: init's service thread (supervisor.c: init's threads), which answers the servers'
 * requests on service_ep (names.c serves them) below the servers' priority, and takes the ends
 * the supervisor signals before any request. It owns service_ep's receive side and its own slot
 * pool, and prints only through say(). */
#include <stdarg.h>
#include <stdio.h>
#include <tacet/init_server.h>
#include "init.h"

static struct tacet_slot_pool service_slots; /* the service thread's: SERVICE_FIRST_SLOT up */

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
static void service_notified(struct tacet_service *svc, unsigned long bits)
{
	(void)svc;
	if (bits & SERVICE_QUIT)
		tacet_exit(service_quit_status);
	for (unsigned int i = 0; i < MAX_SERVERS; i++)
		if (bits & (1ul << i))
			names_ended(i);
}

/* The service thread (see init's threads, supervisor.c): waits for SERVICE_GO, then answers the
 * servers' requests in lib's service loop (init_dispatch, generated from lib/proto/init.proto),
 * taking the ends the supervisor signals first: service_ntfn is bound to it. Its slots are its
 * own pool's, apart from the supervisor's. Returns only on an error. */
static void service_main(void *unused)
{
	struct tacet_service svc = { .ep = service_ep, .notified = service_notified };
	unsigned long bits = 0;
	long err = 0, recv;

	(void)unused;
	while (!err && !(bits & SERVICE_GO)) {
		long got = tacet_wait(service_ntfn);

		err = got < 0 ? got : 0;
		bits |= got < 0 ? 0 : (unsigned long)got;
		if (bits & SERVICE_QUIT)
			service_notified(&svc, bits);
	}
	tacet_slot_pool_use(&service_slots);
	tacet_slot_pool_add(SERVICE_FIRST_SLOT, INIT_SLOTS - SERVICE_FIRST_SLOT);
	recv = tacet_slot_alloc(); /* where a published capability lands */
	svc.recv = (unsigned long)recv;
	if (!err)
		err = recv < 0 ? recv : tacet_ntfn_bind(service_ntfn);
	if (!err)
		err = tacet_service_run(&svc, init_dispatch, NULL);
	say("init: the service thread stopped: %s\n", tacet_strerror(err));
}

/* The supervisor, at the start: service_ep, service_ntfn and the service thread, on init's hart
 * at service_prio, waiting for SERVICE_GO. Its stack (with its TLS block) is a frame of its own,
 * kept by the mapping. 0, or the error. */
long start_service(void)
{
	struct tacet_self self = { 0 };
	unsigned long stack = (unsigned long)tacet_slot_alloc();
	long err;

	service_ep = (unsigned long)tacet_slot_alloc();
	service_ntfn = (unsigned long)tacet_slot_alloc();
	tacet_self(&self);
	err = tacet_endpoint_new(service_ep);
	if (!err)
		err = tacet_ntfn_new(service_ntfn);
	if (!err)
		err = tacet_frame_new(stack, SERVICE_STACK_PAGES);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, stack, SERVICE_STACK_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	tacet_slot_free(stack);
	if (!err)
		err = tacet_thread_start(service_main, NULL,
					 SERVICE_STACK_VA + SERVICE_STACK_PAGES * TACET_PAGE_SIZE,
					 TACET_SCHED(service_prio, self.hart));
	return err < 0 ? err : 0;
}
