/* init_proto.h: what init gives every server it starts, and init's IPC protocol.
 *
 * A server starts with: slot TACET_CHILD_SELF, its own process (to map memory into itself);
 * slot TACET_CHILD_INIT, an endpoint to init badged with the server's number; and, if its
 * init.run= entry names devices (`name:compatible+compatible...`, each matching every device
 * with that compatible string, whole or without its vendor, or a virtio device name such as
 * `virtio-rng` matching the virtio-mmio transports with that device ID; a device goes to one
 * server only), the first one's MMIO frame in
 * TACET_CHILD_DEVICE (page aligned) and IRQ handler capability in TACET_CHILD_DEVICE_IRQ, and
 * all of them described in a read-only struct tacet_child_devices at TACET_CHILD_DEVICES_VADDR,
 * device i's frame in slot TACET_CHILD_DEVICE_SLOTS + 2i and its IRQ in the slot after (the
 * descriptions' slot and irq_slot name these; 0 when the device has none). That page, the
 * child information page, is there for every server, with or without devices: it also gives
 * the timebase frequency (lib's tacet_timebase_hz() reads it). Slots from
 * TACET_CHILD_LIB_SLOTS up are lib's (tacet_slot_alloc, <tacet/driver.h>).
 * Its stack is
 * TACET_CHILD_STACK_PAGES pages below TACET_CHILD_STACK_TOP; a0 holds its number.
 *
 * Calls on TACET_CHILD_INIT (label, words):
 *   INIT_EXIT (status): the server is done; init records the status and replies; the server
 *       then exits. When every server started has exited or faulted, init powers off with
 *       status 0 if all were 0 (the QEMU tests end this way).
 *   INIT_PUBLISH (name0, name1, name2, how) + a capability (TACET_TAG_CAP; the INIT endpoint
 *       capability has GRANT): init keeps the capability under the name (up to 23 bytes, in
 *       the three words), if the name is the caller's: the server's init.run= entry grants it
 *       its names (`uart=console`, `ipc_server=ipc+ipc.ntfn`; without `=`, its module's name;
 *       at most 4 a server, each to one server). `how` is what a client gets: the rights
 *       (TACET_RIGHT_WRITE, plus TACET_RIGHT_GRANT where the protocol sends capabilities; never
 *       READ: no client may receive on, or wait on, someone else's object), or-ed with
 *       INIT_BADGE_CLIENTS to have each client's copy badged with the client's server number +
 *       1 (the capability published must then be unbadged), so that the publisher knows who
 *       calls.
 *       Reply w0: 0, or -TACET_EPERM (the name is not granted to the caller: init says so, at
 *       most a line a second per server), -TACET_EEXIST (the caller has published it already)
 *       or -TACET_EINVAL (READ or an unknown bit in `how`, or INIT_BADGE_CLIENTS on a badged
 *       capability). When a server ends, what it published is withdrawn (lookups say
 *       -TACET_ENOENT) and its names wait for its restarted instance: nobody else may publish
 *       them, ever.
 *   INIT_LOOKUP (name0, name1, name2, dst): init puts a capability to what was published under
 *       the name, with the rights (and badge) its publisher chose, into the caller's slot dst.
 *       Reply w0: 0, -TACET_ENOENT (not published yet), or the error of the copy (e.g.
 *       -TACET_EEXIST if dst is in use); w1: the publisher's instance (0 its first start, k
 *       after k restarts), so that a client that reconnects knows it reached a new one.
 *   INIT_POWEROFF (status): power the machine off now (the shell's `poweroff`), with status 0
 *       (success) or not (status may be left out: 0). Only a server whose init.run= entry
 *       starts with `^` may (`^uart=console:ns16550a`): then there is no reply. Anyone else's
 *       is refused: reply w0 -TACET_EPERM, and the machine runs on. (A run whose servers have
 *       all finished powers off by itself, as above.)
 *   INIT_GRANT (badge, name0, name1, name2): what the init.run= entry of the client whose
 *       badge (INIT_BADGE_CLIENTS: its server number + 1) a client's call carried grants for
 *       the service the caller published under the name: the entry's `[name=arg;...]`. Reply
 *       w0: 0 and the arg in w1..w3 (up to 23 bytes, NUL-padded), -TACET_ENOENT (the entry
 *       grants nothing for it: the service gives that client nothing it must be granted),
 *       -TACET_EPERM (the caller is not serving that name), -TACET_EINVAL (no such badge),
 *       -TACET_ERANGE (the arg, or the entry's grants, too long: what they say is unknown).
 *       lib: tacet_grant(). E.g. `blkwriter@1[blk=0-199]`: blk gives it sectors 0 to 199.
 *   INIT_STUCK (name0, name1, name2, instance): a client of the service published under the
 *       name says that instance `instance` of it has left a request unanswered past the
 *       client's timeout while it still takes calls (its service loop answers, its requests
 *       are lost). If the caller's entry is granted that service (`[name=...]`) and the
 *       publisher's entry says `~MS` (the liveness question), init ends that instance (if it
 *       is still the one running) and restarts it as if it had not answered; the client's
 *       wait then sees the end and reconnects. Reply w0: 0, -TACET_EPERM (no grant, or no
 *       `~`), -TACET_ENOENT (no such name published), -TACET_EDEAD (another instance runs
 *       now). lib: tacet_report_stuck().
 * A call of another shape (its words' count, a capability where none is expected or none with
 * INIT_PUBLISH) or label is refused with -TACET_EINVAL before init looks at it. The description
 * is lib/proto/init.proto: the client stubs (<tacet/init_client.h>) and init's dispatch come
 * from it. lib/ wraps these as tacet_publish(), tacet_lookup(), tacet_poweroff() and
 * tacet_grant().
 * init answers them all with a thread at priority 90 on its hart (init.service_priority=),
 * below the drivers, whoever calls: they are not urgent; look up what a server uses at its
 * start (docs/userspace.md, "init's two threads"; who may publish what, and power off:
 * "init's authority").
 */
#ifndef TACET_INIT_PROTO_H
#define TACET_INIT_PROTO_H

#include <tacet/bootinfo.h>

enum tacet_child_slot {
	TACET_CHILD_SELF = 1,
	TACET_CHILD_INIT = 2,
	TACET_CHILD_DEVICE = 3,
	TACET_CHILD_DEVICE_IRQ = 4,
	TACET_CHILD_CONSOLE = 5, /* where tacet_console_attach() puts the console endpoint */
	TACET_CHILD_RNG = 6,     /* where tacet_random() puts the entropy service's endpoint */
	TACET_CHILD_TRACE = 7,   /* the trace authority, if its init.run= entry has `%` */
	TACET_CHILD_LIB_SCRATCH = 15, /* lib's, for a moment inside one call: keep it empty */
	TACET_CHILD_FIRST_FREE = 16,
	TACET_CHILD_DEVICE_SLOTS = 64, /* 64..95: the devices' frames and IRQs, in pairs */
	TACET_CHILD_LIB_SLOTS = 96, /* 96..127: handed out by lib's tacet_slot_alloc() */
};

#define TACET_CHILD_MAX_DEVICES 16
#define TACET_CHILD_DEVICES_VADDR 0x0000000000001000ul

struct tacet_child_devices {
	unsigned long count;
	struct tacet_bootinfo_device devices[TACET_CHILD_MAX_DEVICES];
	unsigned long timebase_hz; /* rdtime's frequency (the device tree's timebase-frequency) */
	unsigned long instance;    /* which start of this server this is: 0 the first, then the
				    * restarts' count (tacet_instance(): a driver that finds its
				    * device in use knows why) */
	char name[24];             /* the first name its init.run= entry grants it (its module's
				    * without `=`): tacet_service_name() */
};

#define TACET_CHILD_STACK_TOP   0x0000003fff000000ul
#define TACET_CHILD_STACK_PAGES 16

enum tacet_init_label {
	INIT_EXIT = 1,
	INIT_PUBLISH = 2,
	INIT_LOOKUP = 3,
	INIT_POWEROFF = 4,
	INIT_GRANT = 5,
	INIT_STUCK = 6,
	INIT_SERVICE_SYNC = 0x100, /* init's own: its supervisor's call, unbadged (any server's is
				    * refused); answered once every end signalled before it is taken */
};

#define TACET_NAME_WORDS 3 /* a published name: up to 23 bytes and a NUL in three words */
#define INIT_BADGE_CLIENTS (1ul << 8) /* INIT_PUBLISH: badge each client's copy (above) */

#endif
