/* supervisor.c: init, the root server, and its supervisor thread. init starts the servers named
 * by the boot argument `init.run=a,b,...` from the boot module archive, each in its own process
 * with only the capabilities listed in <tacet/init_proto.h>, then supervises them: it reports
 * every fault (and ends the faulting server, every thread of it), restarts a server that failed
 * (a fault, an exit with a non-zero status, or an end without INIT_EXIT) if its entry allows
 * (`*N`: up to N times; the pause before each restart
 * doubles from 1 ms to 100 ms while it keeps failing within a second of its start; the boot
 * argument init.restart_max_ms= sets that 100, and 0 restarts at once), and powers
 * the machine off once every server it started has finished for good. A restarted server gets
 * the same number (badge), devices, hart, priority and names; the names its last instance
 * published are withdrawn when it ends, so its clients' lookups wait for the new instance's.
 * Two threads, both on init's hart, so that no server's request runs at init's priority:
 *  - the supervisor (main; priority 200, INIT_PRIORITY in the kernel): the fault endpoint
 *    (TACET_SLOT_FAULT_EP, each server's faults badged with its number + 1) and, bound to it,
 *    the exits notification (server n's end: bit n; the restart timer; a power-off the service
 *    thread passes on). It starts and restarts the servers (a server's thread may be as urgent
 *    as init itself, and no thread can make one more urgent than itself), reports faults and
 *    powers off. It is blocked almost always: a fault or an end it takes at once.
 *  - the service thread (service_main; init.service_priority=, default SERVICE_PRIORITY 90,
 *    below the servers' default 100): the servers' requests (<tacet/init_proto.h>: INIT_EXIT,
 *    INIT_PUBLISH, INIT_LOOKUP, INIT_POWEROFF, INIT_GRANT), in lib's service loop on its own
 *    endpoint, service_ep (TACET_CHILD_INIT of each server, badged the same). A client's
 *    lookup runs at this priority, whatever the client's: a storm of them from anywhere never
 *    delays a driver above it.
 * The rule: each piece of state has one owner thread, and only it writes it. The supervisor owns
 *    servers[] (but `status`, below), nservers, device_owner, virtio_ids, the scratch and probe
 *    pages, super_slots, and names[] until SERVICE_GO (it writes the grants); the service thread
 *    owns names[] from then on, refusals[], service_slots (each thread takes its slots from
 *    a pool of its own, lib's tacet_slot_pool_use). No lock: the service thread reads
 *    servers[i].process_slot only while server i's caller is blocked in its call to it (so
 *    that instance lives, and the supervisor does not touch its entry: it restarts a server only
 *    after its end), and nservers and what init.run= says (name, power_off) only after
 *    SERVICE_GO, sent once every server of init.run= has started: none of these change after
 *    it. `status` is written by the supervisor (a fault, a start) and by the service thread
 *    (INIT_EXIT, before its reply), each while the instance lives, and read by the supervisor
 *    only after the instance's end. They talk only through the kernel: the supervisor signals
 *    service_ntfn with the servers that ended (the service thread withdraws their names before
 *    it takes another request: a bound notification's bits come before a queued call),
 *    SERVICE_GO and SERVICE_QUIT; the service thread signals exits_slot with POWEROFF_ASKED; at
 *    the end the supervisor calls service_ep (INIT_SERVICE_SYNC, unbadged) and runs its leak
 *    check once the service thread, having withdrawn every name, has answered. The service
 *    thread never prints through stdio (whose one line buffer is the supervisor's): say() writes
 *    whole lines with tacet_debug_write.
 * More threads, the asking threads (liveness.c, one per `~MS` entry), exist only in a boot whose
 *    init.run= has such entries: each asks its server whether it is alive, and the supervisor
 *    ends one that has not answered within MS ms although it ran since it was asked, or within
 *    ALIVE_WAIT_TIMES limits (its timer, RESTART_TIMER, serves both).
 * init's files, one concern each: supervisor.c (main, faults, ends, the restart policy,
 * power-off), loader.c (a server's process and image), bootargs.c (init.run=),
 * devices.c (devices matched, given, quieted), names.c (the name service and its grants, with
 * the authority rules), service.c (the service thread), liveness.c (the asking threads),
 * leak.c (the leak check at the end). */
#include <stdio.h>
#include <string.h>
#include <tacet/init_client.h>
#include "init.h"

#define RESTART_QUICK_MS 1000    /* a server that failed sooner than this after its start... */
#define RESTART_DELAY_MAX_MS 100 /* ...waits twice as long as last time, up to this (default) */

const struct tacet_bootinfo *bi;
struct server servers[MAX_SERVERS];
unsigned int nservers;
unsigned long exits_slot;
unsigned long budget = SERVER_BUDGET;
unsigned int start_failures;
static unsigned long restart_max_ms = RESTART_DELAY_MAX_MS; /* init.restart_max_ms=; 0: no pause */
static struct tacet_slot_pool super_slots; /* the supervisor's: below SERVICE_FIRST_SLOT */

static int all_done(void)
{
	for (unsigned int i = 0; i < nservers; i++)
		if (servers[i].state != SERVER_DONE)
			return 0;
	return 1;
}


static void power_off(int failed)
{
	fflush(stdout);
	tacet_log_sync(); /* the kernel's log on the wire before the machine stops */
	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];

		if (strcmp(d->compatible, "sifive,test1") && strcmp(d->compatible, "sifive,test0"))
			continue;
		if (tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, SCRATCH_VA,
			      TACET_RIGHT_READ | TACET_RIGHT_WRITE) == 0)
			*(volatile uint32_t *)SCRATCH_VA = failed ? (1u << 16) | 0x3333 : 0x5555;
	}
	/* No test device: the kernel powers off when init ends, with the status of its last
	 * thread to end; both end with this one. */
	service_quit_status = failed;
	tacet_signal(service_ntfn, SERVICE_QUIT);
	tacet_exit(failed);
}

/* The supervisor: a message on the fault endpoint (a server's fault: reported, the server's
 * process ended, every thread of it);
 * fills *reply. */
static void fault(const struct tacet_msg *msg, unsigned long badge, struct tacet_msg *reply)
{
	struct server *s = badge && badge <= nservers ? &servers[badge - 1] : NULL;

	if (TACET_TAG_LABEL(msg->tag) != TACET_LABEL_FAULT) { /* none but the kernel sends here */
		*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 1), .w = { -TACET_EINVAL } };
		return;
	}
	printf("init: server %s faulted: cause %lu at pc 0x%lx, address 0x%lx (thread %lu); "
	       "ending it\n", s ? s->name : "?", msg->w[0], msg->w[1], msg->w[2], msg->w[3]);
	if (s)
		s->status = -TACET_EFAULT;
	reply->tag = TACET_TAG(TACET_FAULT_END, 0); /* the whole server: its other threads too */
}

/* The supervisor's timer (RESTART_TIMER): the soonest restart due, or the soonest liveness
 * question to pass its limit, if any. */
static void arm_restart_timer(void)
{
	unsigned long soonest = liveness_deadline();

	for (unsigned int i = 0; i < nservers; i++)
		if (servers[i].state == SERVER_WAITING &&
		    (!soonest || servers[i].restart_at < soonest))
			soonest = servers[i].restart_at;
	tacet_timer_set(exits_slot, RESTART_TIMER, soonest); /* 0 cancels */
}

/* Server s's process ended: done for good, or (a failure, restarts left) due for a restart
 * after a pause that doubles while it keeps failing soon after its start. Any end of a `~`
 * server is a failure. */
static void server_ended(struct server *s)
{
	unsigned long now = tacet_time();

	if (s->status == 0 && s->alive_ms) {
		/* `~`: a service that answers as long as the system runs; whatever status it said,
		 * its end is a failure (a fault can make a driver leave its loop and exit) */
		printf("init: server %s ended, but its entry (~%u) says it answers for good: a "
		       "failure\n", s->name, s->alive_ms);
		s->status = -TACET_EDEAD;
	}
	if (s->status == 0 || s->restarts == s->restarts_max) {
		if (s->status && s->restarts_max)
			printf("init: server %s failed (status %ld) after %u restarts; giving up\n",
			       s->name, s->status, s->restarts);
		s->state = SERVER_DONE;
		return;
	}
	if (!restart_max_ms)
		s->delay_ms = 0;
	else if (now - s->started_at >= tacet_ns_to_ticks(RESTART_QUICK_MS * NS_PER_MS) ||
		 !s->delay_ms)
		s->delay_ms = 1;
	else if (s->delay_ms < restart_max_ms)
		s->delay_ms = 2 * s->delay_ms < restart_max_ms ? 2 * s->delay_ms
							       : (unsigned int)restart_max_ms;
	s->state = SERVER_WAITING;
	s->restart_at = now + tacet_ns_to_ticks(s->delay_ms * NS_PER_MS);
	printf("init: server %s failed (status %ld); restarting it in %u ms (restart %u of %u)\n",
	       s->name, s->status, s->delay_ms, s->restarts + 1, s->restarts_max);
}

/* Restart every server whose pause is over. The memory figures at each restart are those of
 * the system without the server: the same each time unless something leaks. */
static void restart_due(void)
{
	unsigned long now = tacet_time();

	for (unsigned int i = 0; i < nservers; i++) {
		struct server *s = &servers[i];
		struct tacet_mem_info mem = { 0 };

		if (s->state != SERVER_WAITING || s->restart_at > now)
			continue;
		s->restarts++;
		tacet_info(TACET_INFO_MEM, 0, &mem, sizeof(mem));
		printf("init: restarting %s (restart %u): free pages %lu, object caches %lu, kernel "
		       "objects %lu\n", s->name, s->restarts, mem.free_pages, mem.kernel_object_pages,
		       mem.kernel_objects);
		if (start_server(i) < 0)
			s->state = SERVER_DONE;
	}
}

/* The supervisor's notification: servers that ended (the service thread is told, to withdraw
 * their names), the restart timer, a power-off a server asked the service thread for. */
static void note_exits(unsigned long bits)
{
	if (bits & POWEROFF_ASKED)
		power_off((bits & POWEROFF_FAILED) != 0);
	if (bits & ((1ul << nservers) - 1))
		tacet_signal(service_ntfn, bits & ((1ul << nservers) - 1));
	for (unsigned int i = 0; i < nservers; i++)
		if ((bits & (1ul << i)) && servers[i].state == SERVER_RUNNING) {
			quiet_devices(i);
			server_ended(&servers[i]);
		}
	liveness_noted(bits);
	if (bits & RESTART_TIMER) {
		restart_due();
		liveness_check();
	}
	arm_restart_timer();
}

int main(void)
{
	struct tacet_mem_info mem_before;
	struct tacet_msg msg = { 0 }, reply = { 0 };
	struct tacet_self self = { 0 };
	unsigned long badge = 0, slot;
	long err;

	bi = (const struct tacet_bootinfo *)tacet_start_arg;
	if (bi->magic != TACET_BOOTINFO_MAGIC) {
		printf("init: bad boot information\n");
		return 1;
	}
	tacet_slot_pool_use(&super_slots);
	tacet_slot_pool_add(TACET_SLOT_FIRST_FREE, SERVICE_FIRST_SLOT - TACET_SLOT_FIRST_FREE);
	budget = boot_number("init.budget=", SERVER_BUDGET);
	restart_max_ms = boot_number("init.restart_max_ms=", RESTART_DELAY_MAX_MS);
	tacet_self(&self);
	service_prio = (unsigned int)boot_number("init.service_priority=", SERVICE_PRIORITY);
	if (service_prio > self.prio)
		service_prio = (unsigned int)self.prio; /* no thread may be more urgent than init */
	printf("init: %lu harts, %lu devices, boot arguments \"%s\"; each server's budget %lu "
	       "pages; requests served at priority %u\n", bi->nharts, bi->ndevices, bi->bootargs,
	       budget, service_prio);
	/* init's own page tables for the scratch page are made once, before the baseline */
	slot = (unsigned long)tacet_slot_alloc();
	if (tacet_frame_new(slot, 1) == 0 &&
	    tacet_map(TACET_SLOT_SELF_PROCESS, slot, SCRATCH_VA, TACET_RIGHT_READ) == 0)
		tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	tacet_slot_free(slot);
	exits_slot = (unsigned long)tacet_slot_alloc();
	err = tacet_ntfn_new(exits_slot);
	if (!err)
		err = tacet_ntfn_bind(exits_slot); /* ends come in through the receive loop */
	if (err)
		printf("init: cannot watch servers: %s\n", tacet_strerror(err));
	err = start_service(); /* before the baseline: it lives as long as init */
	if (!err)
		err = start_liveness(); /* likewise, if init.run= has a `~` */
	if (err) {
		printf("init: cannot start the service or asking threads: %s; powering off\n",
		       tacet_strerror(err));
		power_off(1);
	}
	tacet_info(TACET_INFO_MEM, 0, &mem_before, sizeof(mem_before));
	start_servers();
	if (!nservers) {
		/* nothing would ever end the receive below: say so and stop the machine */
		printf("init: no server could start (%u failed); powering off\n", start_failures);
		power_off(1);
	}
	tacet_signal(service_ntfn, SERVICE_GO);
	liveness_go();
	err = tacet_recv(TACET_SLOT_FAULT_EP, 0, &msg, &badge);
	while (err == 0) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			note_exits(msg.w[0]);
			if (all_done())
				break;
			err = tacet_recv(TACET_SLOT_FAULT_EP, 0, &msg, &badge);
			continue;
		}
		fault(&msg, badge, &reply);
		err = tacet_reply_recv(TACET_SLOT_FAULT_EP, &reply, 0, &msg, &badge);
	}
	if (err)
		printf("init: receive failed: %s\n", tacet_strerror(err));
	if (all_done()) {
		/* the service thread has withdrawn every name once it answers */
		init_call_sync(service_ep);
		leak_check(&mem_before);
	}
	{
		int failed = start_failures != 0;

		for (unsigned int i = 0; i < nservers; i++)
			failed |= servers[i].status != 0;
		if (start_failures)
			printf("init: %u of the servers in init.run= could not start\n", start_failures);
		printf("init: all %u servers done%s; powering off\n", nservers,
		       failed ? " (some failed)" : "");
		power_off(failed);
	}
	return 0;
}
