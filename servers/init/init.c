/* init: the root server. Starts the servers named by the boot argument `init.run=a,b,...`
 * from the boot module archive, each in its own process with only the capabilities listed in
 * <tacet/init_proto.h>, then supervises them: it reports every fault (and ends the faulting
 * server, every thread of it), restarts a server that failed (a fault, an exit with a non-zero status, or an end
 * without INIT_EXIT) if its entry allows (`*N`: up to N times; the pause before each restart
 * doubles from 1 ms to 100 ms while it keeps failing within a second of its start), and powers
 * the machine off once every server it started has finished for good. A restarted server gets
 * the same number (badge), devices, hart, priority and names; the names its last instance
 * published are withdrawn when it ends, so its clients' lookups wait for the new instance's.
 *
 * The authority init enforces (may_publish, may_power_off: the rule in one place):
 *  - Names. init.run= grants each server the names it may publish: `uart=console`, or without
 *    `=`, its module's name (rng: "rng"). At most NAMES_PER_SERVER a server, MAX_NAMES in all,
 *    each to one server: a second entry given a name is not started. The name table is made of
 *    the grants before any request is served, so a publish never needs room and no server can
 *    fill it. A publish of a name not granted to the publisher is refused (-TACET_EPERM), said
 *    once (refuse(): at most a line a second per server, the rest counted and said at its end).
 *    When a server ends, what it published is withdrawn (init's capability and slot freed;
 *    lookups: -TACET_ENOENT) and the name waits for its restarted instance: nobody else ever
 *    publishes it.
 *  - Power-off. Only a server whose entry starts with `^` (`^uart=console:ns16550a`) may ask
 *    for it (INIT_POWEROFF); anyone else's request is refused (-TACET_EPERM) and the machine
 *    runs on. A run whose servers have all finished for good powers off without asking.
 *  - Tracing. Only a server whose entry has `%` before its name (`^%uart=console`) is given
 *    the kernel's trace authority (init's TACET_SLOT_TRACE, at its TACET_CHILD_TRACE): start,
 *    stop and read the event trace, and every interrupt line's timing. The kernel checks it.
 *
 * Two threads, both on init's hart, so that no server's request runs at init's priority:
 *  - the supervisor (main; priority 200, INIT_PRIORITY in the kernel): the fault endpoint
 *    (TACET_SLOT_FAULT_EP, each server's faults badged with its number + 1) and, bound to it,
 *    the exits notification (server n's end: bit n; the restart timer; a power-off the service
 *    thread passes on). It starts and restarts the servers (a server's thread may be as urgent
 *    as init itself, and no thread can make one more urgent than itself), reports faults and
 *    powers off. It is blocked almost always: a fault or an end it takes at once.
 *  - the service thread (service_main; init.service_priority=, default SERVICE_PRIORITY 90,
 *    below the servers' default 100): the servers' requests (<tacet/init_proto.h>: INIT_EXIT,
 *    INIT_PUBLISH, INIT_LOOKUP, INIT_POWEROFF), on its own endpoint, service_ep (TACET_CHILD_INIT
 *    of each server, badged the same). A client's lookup runs at this priority, whatever the
 *    client's: a storm of them from anywhere never delays a driver above it (issue 16).
 * The rule: each piece of state has one owner thread, and only it writes it. The supervisor owns
 *    servers[] (but `status`, below), nservers, device_owner, virtio_ids, the scratch and probe
 *    pages, super_slots, and names[] until SERVICE_GO (it writes the grants); the service thread
 *    owns names[] from then on, refusals[], recv_slot, service_slots. No lock: the service thread
 *    reads servers[i].process_slot only while server i's caller is blocked in its call to it (so
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
 * `init.run=^%name=names@hart/priority:devices*restarts[grants],...`: all but the name optional
 * (no power-off, no trace authority, the module's name, hart 0, priority 100, no devices, no
 * restarts, no grants).
 * Names: `name+name...` (up to 23 bytes each; `=` alone: none). Grants:
 * `service=arg;service=arg...`, what the entry's server may use of each service (the block
 * service's sector range: `[blk=0-63]`): init keeps the text and tells it only to the server
 * that published the service's name, which asks with INIT_GRANT and the client's badge. An
 * entry's grants are written when init.run= is read and never after, so the service thread
 * reads them once SERVICE_GO has come without a word with the supervisor. Devices: `compat+compat...`, each a
 * device-tree compatible (whole, or without its vendor) or a virtio device name (`virtio-rng`:
 * the virtio-mmio transports whose DeviceID register says that device). A device goes to one
 * server only: a second server asking for it is not started. A comma inside the device part
 * belongs to the compatible (`virtio,mmio`) unless the name of a module follows it.
 * `init.budget=PAGES`: the kernel memory each server may use (its account, reserved from
 * init's; default SERVER_BUDGET): frames, page tables, mappings, threads and objects. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/bootinfo.h>
#include <tacet/init_proto.h>
#include <tacet/modules.h>
#include <tacet/virtio.h>
#include "lib/elf.h" /* the kernel's ELF reader (servers/servers.mk) */

#define MAX_SERVERS 16
#define MAX_NAMES 16       /* names init.run= grants, in all (each holds a slot while published) */
#define NAMES_PER_SERVER 4 /* names one server may be granted: its quota */
#define NAME_BYTES (TACET_NAME_WORDS * sizeof(unsigned long)) /* a name, its NUL included */
#define SCRATCH_VA 0x0000002000000000ul /* where init maps a page it fills for a child */
#define PROBE_VA   (SCRATCH_VA + TACET_PAGE_SIZE) /* where init maps a device to read its ID */
#define SERVER_PRIORITY 100
#define SERVICE_PRIORITY 90 /* the service thread's, unless init.service_priority= */
#define SERVICE_STACK_PAGES 2
/* the service thread's stack (and TLS block), with an unmapped page below as a guard */
#define SERVICE_STACK_VA (SCRATCH_VA + 4 * TACET_PAGE_SIZE)
#define INIT_SLOTS 128         /* init's capability table */
#define SERVICE_FIRST_SLOT 108 /* 108..127: the service thread's (names, recv_slot, a mint) */
#define SERVER_BUDGET 2048 /* pages of kernel memory per server (8 MiB), unless init.budget= */
/* In init.run=, the characters that end a server's name (and a module name after a comma), and
 * a name it is granted. */
#define NAME_STOP ", =@/:*+["
#define POWER_OFF_MARK '^' /* before an entry's name: the server may power the machine off */
#define TRACE_MARK '%'     /* before an entry's name: the server gets the trace authority */

#define NS_PER_MS 1000000ul
#define RESTART_TIMER (1ul << 62)   /* exits_slot's bit for the restart timer */
#define POWEROFF_ASKED (1ul << 61)  /* exits_slot: a server asked to power off (INIT_POWEROFF), */
#define POWEROFF_FAILED (1ul << 60) /* ...with a failure status */
#define SERVICE_GO (1ul << 62)      /* service_ntfn: every server of init.run= has started */
#define SERVICE_QUIT (1ul << 61)    /* service_ntfn: end with service_quit_status */
/* The supervisor's call on service_ep (unbadged: no server has such a capability): answered once
 * the service thread has taken every end signalled before it. */
#define INIT_SERVICE_SYNC 0x100
#define RESTART_QUICK_MS 1000    /* a server that failed sooner than this after its start... */
#define RESTART_DELAY_MAX_MS 100 /* ...waits twice as long as last time, up to this */
#define REFUSAL_QUIET_MS 1000    /* a server's refused requests are said at most this often */

enum server_state {
	SERVER_RUNNING,
	SERVER_WAITING, /* failed; restarted at restart_at */
	SERVER_DONE,    /* ended for good */
};

struct server {
	/* from init.run= */
	char name[TACET_MODULE_NAME_MAX];
	char names[128];   /* `=name+name...` as written: what it may publish (empty: no `=`) */
	char devices[128];
	unsigned int hart, prio;
	unsigned int restarts_max; /* `*N`: restart it up to N times after a failure */
	int power_off;             /* `^`: it may ask init to power the machine off */
	int trace;                 /* `%`: it is given the trace authority */
	char grants[64];           /* `[service=arg;...]`, without the brackets (INIT_GRANT) */
	int grants_cut;            /* ...were longer than that: INIT_GRANT answers ERANGE */
	/* the current instance */
	unsigned long process_slot;
	enum server_state state;
	long status; /* what it reported with INIT_EXIT, -TACET_EFAULT after a fault,
		      * -TACET_EDEAD if it ended without saying */
	unsigned long started_at, restart_at; /* timebase ticks */
	unsigned int restarts;      /* so far */
	unsigned int delay_ms;      /* before the last restart */
};

static const struct tacet_bootinfo *bi;
static struct server servers[MAX_SERVERS];
static unsigned int nservers;
static unsigned long exits_slot; /* notification: bit n = server n's process ended */
static unsigned long service_ep;   /* the servers' requests; TACET_CHILD_INIT of each */
static unsigned long service_ntfn; /* bound to the service thread: ends (bit n), GO, QUIT */
static unsigned int service_prio = SERVICE_PRIORITY; /* init.service_priority= */
static long service_quit_status;   /* set before SERVICE_QUIT */
static unsigned long recv_slot; /* the service thread's: where a published capability lands */
static unsigned long budget = SERVER_BUDGET; /* init.budget=PAGES */
static unsigned int start_failures; /* init.run= entries that could not start */
/* Who holds each device of bi->devices: its server number + 1, 0 if nobody. */
static unsigned char device_owner[TACET_BOOTINFO_MAX_DEVICES];
/* A virtio-mmio transport's DeviceID + 1 (0: not read yet; 1: none, or not virtio). */
static unsigned int virtio_ids[TACET_BOOTINFO_MAX_DEVICES];

/* A name init.run= grants, and what its server published under it. */
struct published {
	unsigned long name[TACET_NAME_WORDS];
	unsigned long slot;    /* 0: not published (yet, or withdrawn: its server ended) */
	unsigned long how;     /* the rights a client gets, | INIT_BADGE_CLIENTS */
	unsigned int server;   /* the server it is granted to: only it may publish it */
};

static struct published names[MAX_NAMES];
static unsigned int nnames;

/* The service thread's record of each server's refused requests (refuse()). */
struct refusals {
	unsigned long said_at; /* when the last was said (ticks) */
	unsigned long unsaid;  /* refused since, not said */
	int said;              /* one was said (since the server's last end) */
};

static struct refusals refusals[MAX_SERVERS];

/* Capability slots, a range for each thread: freed ones first (restarts and names come and go),
 * then fresh ones; past the range's end, INIT_SLOTS, which every call refuses. */
struct slot_pool {
	unsigned long next, end;
	unsigned long free[MAX_SERVERS + MAX_NAMES];
	unsigned int nfree;
};

static struct slot_pool super_slots = { .next = TACET_SLOT_FIRST_FREE, .end = SERVICE_FIRST_SLOT };
static struct slot_pool service_slots = { .next = SERVICE_FIRST_SLOT, .end = INIT_SLOTS };

static unsigned long alloc_slot(struct slot_pool *pool)
{
	if (pool->nfree)
		return pool->free[--pool->nfree];
	return pool->next < pool->end ? pool->next++ : INIT_SLOTS;
}

/* Empty slot (whatever it holds is deleted) and make it free for alloc_slot. */
static void free_slot(struct slot_pool *pool, unsigned long slot)
{
	tacet_cap_delete(slot);
	if (slot < pool->end && pool->nfree < sizeof(pool->free) / sizeof(pool->free[0]))
		pool->free[pool->nfree++] = slot;
}

/* One fresh page for the child at va: filled through init's scratch mapping, then moved. */
static long child_page(unsigned long child, unsigned long va, unsigned int rights,
		       const uint8_t *src, unsigned long off, unsigned long len)
{
	unsigned long slot = alloc_slot(&super_slots);
	long err = tacet_frame_new(slot, 1);

	if (!err && len) {
		err = tacet_map(TACET_SLOT_SELF_PROCESS, slot, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
		if (!err) {
			memcpy((uint8_t *)SCRATCH_VA + off, src, len);
			err = tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
		}
	}
	if (!err)
		err = tacet_map(child, slot, va, rights);
	/* the child's mapping keeps the frame; init needs no capability to it */
	free_slot(&super_slots, slot);
	return err;
}

static unsigned int map_rights(uint32_t flags)
{
	return (flags & ELF_SEG_R ? TACET_RIGHT_READ : 0) |
	       (flags & ELF_SEG_W ? TACET_RIGHT_WRITE : 0) | (flags & ELF_SEG_X ? TACET_MAP_EXEC : 0);
}

static long load_segment(unsigned long child, const uint8_t *image, const struct elf_segment *s)
{
	for (unsigned long va = s->vaddr & ~(TACET_PAGE_SIZE - 1); va < s->vaddr + s->memsz;
	     va += TACET_PAGE_SIZE) {
		unsigned long from = va < s->vaddr ? s->vaddr : va;
		unsigned long to = va + TACET_PAGE_SIZE < s->vaddr + s->filesz
				       ? va + TACET_PAGE_SIZE
				       : s->vaddr + s->filesz;
		unsigned long len = to > from ? to - from : 0;
		long err = child_page(child, va, map_rights(s->flags), image + s->offset + (from - s->vaddr),
				      from - va, len);

		if (err)
			return err;
	}
	return 0;
}

/* virtio device names init.run may use for a virtio-mmio transport, and their device IDs. */
static const struct {
	const char *name;
	unsigned int id;
} virtio_names[] = {
	{ "virtio-net", VIRTIO_ID_NET },
	{ "virtio-blk", VIRTIO_ID_BLK },
	{ "virtio-console", VIRTIO_ID_CONSOLE },
	{ "virtio-rng", VIRTIO_ID_RNG },
	{ "virtio-balloon", VIRTIO_ID_BALLOON },
	{ "virtio-scsi", VIRTIO_ID_SCSI },
	{ "virtio-9p", VIRTIO_ID_9P },
	{ "virtio-gpu", VIRTIO_ID_GPU },
	{ "virtio-input", VIRTIO_ID_INPUT },
	{ "virtio-vsock", VIRTIO_ID_VSOCK },
};

/* The device ID wanted names, or 0 if it is no virtio device name. */
static unsigned int virtio_wanted(const char *wanted)
{
	for (unsigned int i = 0; i < sizeof(virtio_names) / sizeof(virtio_names[0]); i++)
		if (!strcmp(virtio_names[i].name, wanted))
			return virtio_names[i].id;
	return 0;
}

/* What sits behind virtio-mmio transport i: its DeviceID register (0: nothing attached, or no
 * virtio-mmio registers there). Read once, through init's own capability to the frame: QEMU's
 * virt has eight transports and attaches devices to them in an order of its own, so only init,
 * which holds them all, can tell a driver which one is its device. */
static unsigned int virtio_id(unsigned long i)
{
	const struct tacet_bootinfo_device *d = &bi->devices[i];
	const volatile uint8_t *regs = (const volatile uint8_t *)PROBE_VA;

	if (!virtio_ids[i]) {
		virtio_ids[i] = 1;
		if (d->slot && !(d->paddr & (TACET_PAGE_SIZE - 1)) &&
		    d->size >= VIRTIO_MMIO_CONFIG &&
		    tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, PROBE_VA, TACET_RIGHT_READ) == 0) {
			if (mmio_read32(regs + VIRTIO_MMIO_MAGIC_VALUE) == VIRTIO_MMIO_MAGIC)
				virtio_ids[i] = mmio_read32(regs + VIRTIO_MMIO_DEVICE_ID) + 1;
			tacet_unmap(TACET_SLOT_SELF_PROCESS, PROBE_VA, 1);
		}
	}
	return virtio_ids[i] - 1;
}

/* Does device i answer to `wanted` (a compatible, or a virtio device name)? */
static int device_matches(unsigned long i, const char *wanted)
{
	const char *compatible = bi->devices[i].compatible;
	unsigned int id = virtio_wanted(wanted);

	if (id)
		return !strcmp(compatible, VIRTIO_MMIO_COMPATIBLE) && virtio_id(i) == id;
	return tacet_compatible_matches(compatible, wanted);
}

_Static_assert(TACET_CHILD_DEVICE_IRQ == TACET_CHILD_DEVICE + 1, "a device's slots are a pair");

/* A PCI bus's memory window: its bus server's to quiet and release (give_one_device). */
static int bus_window(const struct tacet_bootinfo_device *d)
{
	return tacet_compatible_matches(d->compatible, "tacet,pci-mmio32");
}

/* Give device d to the child: frame and IRQ into the pair of slots at `slot`. */
/* A server gets its devices' frames to read and write. The PCI bus's memory window
 * (tacet,pci-mmio32) comes with TACET_RIGHT_RELEASE too: the bus server is the authority over
 * the functions in it, one root frame for all of them, and the only one that can quiet and
 * reset each: it releases the DMA quarantine of one function's part of the window once that
 * function's driver has ended and the function is quiet (servers/pci/pci.c), and the whole
 * window's when it starts again after an end (not init, which cannot quiet the functions).
 * No other server gets RELEASE: init quiets and releases the devices it gave
 * (quiet_devices). */
static long give_one_device(unsigned long child, const struct tacet_bootinfo_device *d,
			    unsigned long slot, struct tacet_bootinfo_device *desc)
{
	unsigned long rights = TACET_RIGHT_READ | TACET_RIGHT_WRITE;
	long err = 0;

	if (d->slot && (d->paddr & (TACET_PAGE_SIZE - 1)))
		return -TACET_EALIGN;
	*desc = *d;
	desc->slot = d->slot ? (unsigned int)slot : 0;
	desc->irq_slot = d->irq_slot ? (unsigned int)slot + 1 : 0;
	if (bus_window(d))
		rights |= TACET_RIGHT_RELEASE;
	if (d->slot)
		err = tacet_cap_give(child, d->slot, slot, rights);
	if (!err && d->irq_slot)
		err = tacet_cap_give(child, d->irq_slot, slot + 1, TACET_RIGHT_WRITE);
	return err;
}

/* The devices `want` names, into chosen[] (after the *n already there, skipping those
 * already chosen), for server id. 0, or a negative TACET_E* code after saying why: nothing
 * matched, too many devices, or a device another server holds. */
static long choose_devices(unsigned int id, const char *want, unsigned long *chosen,
			   unsigned int *n)
{
	unsigned int matched = 0;

	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];
		unsigned int k = 0, owner = device_owner[i];

		if (!device_matches(i, want))
			continue;
		matched++;
		while (k < *n && chosen[k] != i)
			k++;
		if (k < *n)
			continue; /* named twice */
		if (owner && owner != id + 1) {
			printf("init: %s: device %s at 0x%lx belongs to %s; not starting %s\n",
			       servers[id].name, d->compatible, d->paddr, servers[owner - 1].name,
			       servers[id].name);
			return -TACET_EBUSY;
		}
		if (*n == TACET_CHILD_MAX_DEVICES) {
			printf("init: %s: more than %u devices\n", servers[id].name,
			       TACET_CHILD_MAX_DEVICES);
			return -TACET_ERANGE;
		}
		chosen[(*n)++] = i;
	}
	if (matched)
		return 0;
	if (virtio_wanted(want))
		printf("init: %s: no device matches \"%s\" (no virtio-mmio transport has device ID "
		       "%u)\n", servers[id].name, want, virtio_wanted(want));
	else
		printf("init: %s: no device matches \"%s\"%s\n", servers[id].name, want,
		       strchr(want, ',') ? " (a comma in the device part continues the compatible "
					   "unless a module's name follows it)" : "");
	return -TACET_ENOENT;
}

/* The child information page (every server gets one): the timebase frequency, and the devices
 * server id's `compat+compat...` names (none if spec is empty): each into the child's device
 * slots, the first also into TACET_CHILD_DEVICE / TACET_CHILD_DEVICE_IRQ, all described on the
 * read-only page; then they are the server's (device_owner), until release_devices. */
static long give_devices(unsigned int id, unsigned long child, const char *spec)
{
	struct tacet_child_devices *list = (struct tacet_child_devices *)SCRATCH_VA;
	unsigned long chosen[TACET_CHILD_MAX_DEVICES], page;
	unsigned int n = 0;
	long err = 0;

	while (!err && *spec) {
		char want[sizeof(bi->devices[0].compatible)] = { 0 };
		unsigned int len = 0;

		while (*spec && *spec != '+' && len < sizeof(want) - 1)
			want[len++] = *spec++;
		if (*spec == '+')
			spec++;
		err = choose_devices(id, want, chosen, &n);
	}
	if (err)
		return err;
	page = alloc_slot(&super_slots);
	err = tacet_frame_new(page, 1);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, page, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) {
		list->timebase_hz = bi->timebase_hz;
		list->instance = servers[id].restarts;
	}
	for (unsigned int k = 0; !err && k < n; k++) {
		const struct tacet_bootinfo_device *d = &bi->devices[chosen[k]];

		err = give_one_device(child, d, TACET_CHILD_DEVICE_SLOTS + 2 * k, &list->devices[k]);
		if (!err && k == 0)
			err = give_one_device(child, d, TACET_CHILD_DEVICE,
					      &(struct tacet_bootinfo_device){ 0 });
		list->count += !err;
	}
	tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	if (!err)
		err = tacet_map(child, page, TACET_CHILD_DEVICES_VADDR, TACET_RIGHT_READ);
	free_slot(&super_slots, page);
	for (unsigned int k = 0; !err && k < n; k++)
		device_owner[chosen[k]] = (unsigned char)(id + 1);
	return err;
}

/* Make device i quiet, mapped at regs: 1 if it was a kind init knows how to, else 0. A
 * virtio-mmio transport is reset (lib's virtio_reset: Status 0, read back; it has forgotten its
 * queues and writes no buffer of the dead instance); the goldfish RTC's alarm is cleared and its
 * interrupt disabled; a 16550's interrupts are all disabled (IER 0). Neither of the last two
 * does DMA: they are quieted so that the next instance, or nobody, gets no interrupt the dead
 * one asked for. */
#define GOLDFISH_RTC_IRQ_ENABLED  0x10
#define GOLDFISH_RTC_CLEAR_ALARM  0x14
#define GOLDFISH_RTC_CLEAR_INT    0x1c
#define NS16550_IER               0x01

static unsigned int quiet_one(unsigned long i, volatile uint8_t *regs, int virtio)
{
	const char *compat = bi->devices[i].compatible;

	if (virtio) /* (a transport with a device behind it: virtio_id, read before the mapping) */
		return virtio_reset(regs) == 0;
	if (tacet_compatible_matches(compat, "goldfish-rtc")) {
		mmio_write32(regs + GOLDFISH_RTC_IRQ_ENABLED, 0);
		mmio_write32(regs + GOLDFISH_RTC_CLEAR_ALARM, 1);
		mmio_write32(regs + GOLDFISH_RTC_CLEAR_INT, 1);
		return 1;
	}
	if (tacet_compatible_matches(compat, "ns16550a")) {
		mmio_write8(regs + NS16550_IER, 0);
		return 1;
	}
	return 0;
}

/* Server s (number id) ended: each device it held is made quiet (quiet_one), then the DMA
 * quarantine of its frames goes back to the pool (tacet_device_release: init holds the devices
 * with TACET_RIGHT_RELEASE, its servers do not, but the PCI server, for its window). PCI
 * functions are the PCI server's to quiet, reset and release, one at a time, as their drivers
 * end (give_one_device). */
static void quiet_devices(unsigned int id)
{
	volatile uint8_t *regs = (volatile uint8_t *)PROBE_VA;
	unsigned long start = tacet_cycles();
	unsigned int reset = 0;
	long back = 0;

	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];
		int virtio;
		long n;

		if (device_owner[i] != id + 1 || !d->slot || bus_window(d))
			continue; /* a bus window: the bus server's next start releases it */
		virtio = !strcmp(d->compatible, VIRTIO_MMIO_COMPATIBLE) && virtio_id(i);
		if (!(d->paddr & (TACET_PAGE_SIZE - 1)) &&
		    tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, PROBE_VA,
			      TACET_RIGHT_READ | TACET_RIGHT_WRITE) == 0) {
			reset += quiet_one(i, regs, virtio);
			tacet_unmap(TACET_SLOT_SELF_PROCESS, PROBE_VA, 1);
		}
		n = tacet_device_release(d->slot);
		back += n > 0 ? n : 0;
	}
	if (reset || back)
		printf("init: %s's devices: %u reset, %ld pages back from their DMA quarantine "
		       "(%lu cycles)\n", servers[id].name, reset, back, tacet_cycles() - start);
}

/* Server id could not start: its devices are free for another. */
static void release_devices(unsigned int id)
{
	for (unsigned long i = 0; i < TACET_BOOTINFO_MAX_DEVICES; i++)
		if (device_owner[i] == id + 1)
			device_owner[i] = 0;
}

/* The entry of names[] for the name in w (its words, as a message carries them), or NULL. */
static struct published *find_name(const unsigned long *w)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (!memcmp(names[i].name, w, sizeof(names[i].name)))
			return &names[i];
	return NULL;
}

/* Grant `name` to server id: a new entry of names[], not published yet. 0, or a negative code
 * after saying why: too long, another server's already, or no room. The module's own name, the
 * grant of an entry without `=` (implicit), is only skipped where another has it. */
static long grant(unsigned int id, const char *name, int implicit)
{
	const char *who = servers[id].name;
	unsigned long w[TACET_NAME_WORDS] = { 0 };
	struct published *n;

	if (strlen(name) >= NAME_BYTES) {
		if (implicit)
			return 0;
		printf("init: %s: the name \"%s\" is longer than %lu bytes; not starting %s\n", who,
		       name, NAME_BYTES - 1, who);
		return -TACET_ERANGE;
	}
	memcpy(w, name, strlen(name));
	n = find_name(w);
	if (n && (n->server == id || implicit))
		return 0; /* named twice; or a module started twice, whose first entry has its name */
	if (n) {
		printf("init: %s: the name \"%s\" is granted to %s; not starting %s\n", who, name,
		       servers[n->server].name, who);
		return -TACET_EBUSY;
	}
	if (nnames == MAX_NAMES) {
		printf("init: %s: no room for the name \"%s\" (%u names in all)%s\n", who, name,
		       MAX_NAMES, implicit ? "" : "; not starting it");
		return implicit ? 0 : -TACET_ENOMEM;
	}
	names[nnames] = (struct published){ .server = id };
	memcpy(names[nnames++].name, w, sizeof(w));
	return 0;
}

/* The names server id may publish, into names[] (before SERVICE_GO): its entry's `=name+name...`
 * (up to NAMES_PER_SERVER; `=` alone: none), or without `=` its module's name. 0, or a negative
 * code after saying why: the server is then not started (release_names). */
static long grant_names(unsigned int id)
{
	const char *spec = servers[id].names;
	unsigned int count = 0;
	long err = 0;

	if (*spec++ != '=')
		return grant(id, servers[id].name, 1);
	while (!err && *spec) {
		char name[NAME_BYTES + 1] = { 0 };
		unsigned int len = 0;

		for (; *spec && *spec != '+'; spec++)
			if (len < NAME_BYTES)
				name[len++] = *spec; /* past NAME_BYTES - 1: too long, grant() says */
		spec += *spec == '+';
		if (len && ++count > NAMES_PER_SERVER) {
			printf("init: %s: more than %u names; not starting %s\n", servers[id].name,
			       NAMES_PER_SERVER, servers[id].name);
			return -TACET_ERANGE;
		}
		if (len)
			err = grant(id, name, 0);
	}
	return err;
}

/* Server id could not start: the names granted to it are free for another entry. */
static void release_names(unsigned int id)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < nnames; i++)
		if (names[i].server != id)
			names[kept++] = names[i];
	nnames = kept;
}

/* Start (or start again) server id as init.run= described it: a new process in its process
 * slot, loaded, with its devices and a badged endpoint to init, watched, its thread started. */
static long start_server(unsigned int id)
{
	struct server *s = &servers[id];
	const struct tacet_module *m =
		tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, s->name);
	struct elf_segment segs[8];
	unsigned long entry, child, fault_ep, ep, old;
	const char *why;
	int n;
	long err;

	if (!m) {
		printf("init: no module \"%s\"\n", s->name);
		return -TACET_ENOENT;
	}
	n = elf_parse((const uint8_t *)bi->modules_vaddr + m->offset, m->size, TACET_CHILD_STACK_TOP,
		      segs, 8, &entry, &why);
	if (n < 0) {
		printf("init: %s: bad executable: %s\n", s->name, why);
		return -TACET_EINVAL;
	}
	/* A restart is charged to the instance before's account (ended, its capability kept until
	 * now): what the dead instances made and gave away still counts against the one budget,
	 * so restarts cannot launder memory (issue 17). */
	old = s->process_slot;
	child = alloc_slot(&super_slots);
	fault_ep = alloc_slot(&super_slots);
	ep = alloc_slot(&super_slots);
	err = tacet_cap_copy(TACET_SLOT_FAULT_EP, fault_ep, TACET_RIGHT_WRITE, id + 1);
	if (!err)
		err = old ? tacet_process_new_same_account(child, fault_ep, s->name, old)
			  : tacet_process_new(child, fault_ep, s->name, budget);
	if (old) {
		tacet_cap_delete(old);
		free_slot(&super_slots, old);
	}
	s->process_slot = child;
	for (int i = 0; !err && i < n; i++)
		err = load_segment(child, (const uint8_t *)bi->modules_vaddr + m->offset, &segs[i]);
	for (unsigned long p = 0; !err && p < TACET_CHILD_STACK_PAGES; p++)
		err = child_page(child, TACET_CHILD_STACK_TOP - (p + 1) * TACET_PAGE_SIZE,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE, NULL, 0, 0);
	if (!err)
		err = give_devices(id, child, s->devices);
	if (!err)
		err = tacet_cap_copy(service_ep, ep, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT, id + 1);
	if (!err)
		err = tacet_cap_give(child, ep, TACET_CHILD_INIT, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!err && s->trace)
		err = tacet_cap_give(child, TACET_SLOT_TRACE, TACET_CHILD_TRACE, TACET_RIGHTS_ALL);
	if (!err)
		err = tacet_process_watch(child, exits_slot, 1ul << id);
	/* Its capability to itself comes last: a process without threads that holds one outlives
	 * init's (the kernel ends it with init), so a start that fails before this step leaves
	 * nothing behind. */
	if (!err)
		err = tacet_cap_give(child, child, TACET_CHILD_SELF, TACET_RIGHTS_ALL);
	if (!err)
		err = tacet_thread_new(child, 0, entry, TACET_CHILD_STACK_TOP, id,
				       TACET_SCHED(s->prio, s->hart));
	free_slot(&super_slots, ep);
	free_slot(&super_slots, fault_ep);
	if (err < 0) {
		printf("init: cannot start %s: %s\n", s->name, tacet_strerror(err));
		tacet_cap_delete(child); /* whatever was made of it goes */
		release_devices(id);
		return err;
	}
	s->state = SERVER_RUNNING;
	s->status = -TACET_EDEAD;
	s->started_at = tacet_time();
	return 0;
}

/* Does the text at p (just after a comma) start with the name of a module in the archive? */
static int module_follows(const char *p)
{
	char name[TACET_MODULE_NAME_MAX] = { 0 };
	unsigned int n = 0;

	while (*p == POWER_OFF_MARK || *p == TRACE_MARK)
		p++;
	while (p[n] && !strchr(NAME_STOP, p[n]) && n < sizeof(name) - 1) {
		name[n] = p[n];
		n++;
	}
	return tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, name) != NULL;
}

/* One entry of `init.run=`:
 * `[^][%]name[=names][@hart][/priority][:compat+compat...][*restarts][[grants]]`, into s; returns
 * where the next entry starts (after the comma) or the end of the list. A comma in the device
 * part ends the entry only if a module's name follows it: every entry starts with one, and a
 * compatible may hold a comma (`virtio,mmio`). */
static const char *parse_server(const char *p, struct server *s)
{
	unsigned int n = 0;

	*s = (struct server){ .prio = SERVER_PRIORITY };
	for (;; p++) { /* the marks, in either order */
		if (*p == POWER_OFF_MARK)
			s->power_off = 1;
		else if (*p == TRACE_MARK)
			s->trace = 1;
		else
			break;
	}
	while (*p && !strchr(NAME_STOP, *p) && n < sizeof(s->name) - 1)
		s->name[n++] = *p++;
	if (*p == '=') /* kept with its `=`: grant_names reads it */
		for (n = 0; *p && (n == 0 || *p == '+' || !strchr(NAME_STOP, *p)) &&
			    n < sizeof(s->names) - 1;)
			s->names[n++] = *p++;
	if (*p == '@')
		s->hart = (unsigned int)strtoul(p + 1, (char **)&p, 10);
	if (*p == '/')
		s->prio = (unsigned int)strtoul(p + 1, (char **)&p, 10);
	if (*p == ':')
		for (p++, n = 0; *p && *p != ' ' && *p != '*' && *p != '[' &&
				 !(*p == ',' && module_follows(p + 1)) && n < sizeof(s->devices) - 1;)
			s->devices[n++] = *p++;
	for (;;) { /* `*N` and `[grants]`, in either order */
		if (*p == '*') {
			s->restarts_max = (unsigned int)strtoul(p + 1, (char **)&p, 10);
		} else if (*p == '[') {
			for (p++, n = 0; *p && *p != ']' && *p != ' '; p++) {
				s->grants_cut |= n == sizeof(s->grants) - 1;
				if (n < sizeof(s->grants) - 1)
					s->grants[n++] = *p;
			}
			p += *p == ']';
		} else {
			break;
		}
	}
	if (s->hart >= bi->nharts)
		s->hart = 0;
	while (*p && *p != ',' && *p != ' ')
		p++; /* anything else in this entry is not understood */
	return *p == ',' ? p + 1 : p;
}

/* `init.run=a,b@2/150,^c=console:ns16550a*3`: module names, each optionally allowed to power
 * off, with the names it may publish, on a hart, at a priority, with devices, restarted up to N
 * times after a failure. */
static void start_servers(void)
{
	const char *p = strstr(bi->bootargs, "init.run=");

	if (!p) {
		printf("init: no init.run= in the boot arguments; nothing to start\n");
		return;
	}
	p += strlen("init.run=");
	while (*p && *p != ' ' && nservers < MAX_SERVERS) {
		p = parse_server(p, &servers[nservers]);
		if (grant_names(nservers) == 0 && start_server(nservers) == 0) {
			nservers++;
			continue;
		}
		release_names(nservers);
		start_failures++;
		if (servers[nservers].process_slot)
			free_slot(&super_slots, servers[nservers].process_slot);
	}
}

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

/* The service thread's printf: a line formatted here and written in one call, never through
 * stdio's line buffer, which is the supervisor's (lib/stdio.c is not thread-safe). */
static void say(const char *fmt, ...)
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

/* The rule, in one place: may server s publish under the name whose entry is n (NULL: a name
 * init.run= grants nobody)? Only the server it is granted to, any instance of it. */
static int may_publish(const struct server *s, const struct published *n)
{
	return n && n->server == (unsigned int)(s - servers);
}

/* ...and may server s power the machine off? Only if its init.run= entry starts with `^`. */
static int may_power_off(const struct server *s)
{
	return s->power_off;
}

/* Server s asked for what it may not (`what`, formatted): refused, and said, but at most once in
 * REFUSAL_QUIET_MS for each server (a hostile one may ask in a loop); the refusals in between
 * are counted, and said with the next line or at the server's end (refusals_end). */
static void refuse(const struct server *s, const char *fmt, ...)
{
	struct refusals *r = &refusals[s - servers];
	unsigned long now = tacet_time();
	char what[128], more[48] = "";
	va_list ap;

	if (r->said && now - r->said_at < tacet_ns_to_ticks(REFUSAL_QUIET_MS * NS_PER_MS)) {
		r->unsaid++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->unsaid)
		snprintf(more, sizeof(more), " (and %lu more refused since)", r->unsaid);
	say("init: refused: %s may not %s%s\n", s->name, what, more);
	*r = (struct refusals){ .said_at = now, .said = 1 };
}

/* Server id has ended: the refusals not said yet are, and its next instance's first is said. */
static void refusals_end(unsigned int id)
{
	if (refusals[id].unsaid)
		say("init: refused: %lu more requests of %s, not said one by one\n",
		    refusals[id].unsaid, servers[id].name);
	refusals[id] = (struct refusals){ 0 };
}

/* The name in a message's words, printable (a hostile server chooses the bytes), into text. */
static const char *name_text(const unsigned long *w, char text[NAME_BYTES + 1])
{
	const char *c = (const char *)w;
	unsigned int i;

	for (i = 0; i < NAME_BYTES && c[i]; i++)
		text[i] = c[i] >= ' ' && c[i] <= '~' && c[i] != '"' ? c[i] : '?';
	text[i] = 0;
	return text;
}

/* What a publisher may let its clients have: calling and sending capabilities, never
 * receiving (READ); optionally a badge per client. The name is its own (may_publish), and
 * published once at a time (n: its entry). */
static long publish_check(const struct tacet_msg *msg, const struct published *n)
{
	unsigned long how = msg->w[TACET_NAME_WORDS], badge = 0;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EINVAL;
	if (how & ~(TACET_RIGHT_WRITE | TACET_RIGHT_GRANT | INIT_BADGE_CLIENTS))
		return -TACET_EINVAL;
	if ((how & INIT_BADGE_CLIENTS) && (tacet_cap_info(recv_slot, NULL, &badge) < 0 || badge))
		return -TACET_EINVAL;
	return n->slot ? -TACET_EEXIST : 0;
}

/* INIT_PUBLISH by server s: the capability arrived in recv_slot (the tag says whether it
 * did); kept, it takes that slot, and the next capability lands in a new one. */
static long publish(const struct tacet_msg *msg, struct server *s)
{
	struct published *n = find_name(msg->w);
	char text[NAME_BYTES + 1];
	long err = -TACET_EPERM;

	if (s && !may_publish(s, n))
		refuse(s, "publish \"%s\" (init.run= grants it to %s)", name_text(msg->w, text),
		       n ? servers[n->server].name : "no server");
	else if (s)
		err = publish_check(msg, n);
	if (err) {
		tacet_cap_delete(recv_slot); /* empty if none came */
		return err;
	}
	n->how = msg->w[TACET_NAME_WORDS];
	n->slot = recv_slot;
	recv_slot = alloc_slot(&service_slots);
	return 0;
}

/* Server id has ended: what it published is withdrawn (its endpoints ended with it), the names
 * kept for it: a restarted instance publishes its own under them, and nobody else may. */
static void withdraw_names(unsigned int id)
{
	for (unsigned int i = 0; i < nnames; i++) {
		if (names[i].server != id || !names[i].slot)
			continue;
		free_slot(&service_slots, names[i].slot);
		names[i].slot = 0;
	}
}

/* INIT_LOOKUP by server s: a copy with the rights the publisher chose, badged with s's number
 * + 1 if it asked for that (minted in a slot of init's, then given). */
static long lookup(const struct tacet_msg *msg, struct server *s, unsigned long *instance)
{
	struct published *n = find_name(msg->w);
	unsigned long rights, mint, dst = msg->w[TACET_NAME_WORDS];
	long err;

	if (!s)
		return -TACET_EPERM;
	if (!n || !n->slot)
		return -TACET_ENOENT; /* not yet, or its server is being restarted */
	*instance = servers[n->server].restarts; /* which start of its server published it */
	rights = n->how & (TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!(n->how & INIT_BADGE_CLIENTS))
		return tacet_cap_give(s->process_slot, n->slot, dst, rights);
	mint = alloc_slot(&service_slots);
	err = tacet_cap_copy(n->slot, mint, rights, (unsigned long)(s - servers) + 1);
	if (!err)
		err = tacet_cap_give(s->process_slot, mint, dst, rights);
	free_slot(&service_slots, mint);
	return err;
}

/* INIT_GRANT by server s: what the entry of server badge - 1 grants for the service s
 * published under the name in w[1..3] (`name=arg` among its grants), into reply w[1..3]. Only
 * that name's publisher may ask, while it serves: a grant says what a client may do, which is
 * the service's business alone. Read after SERVICE_GO: grants are never written after that. */
static long answer_grant(const struct tacet_msg *msg, struct server *s, struct tacet_msg *reply)
{
	struct published *n = find_name(&msg->w[1]);
	unsigned long badge = msg->w[0];
	char name[TACET_NAME_WORDS * sizeof(unsigned long) + 1] = { 0 };
	const char *g;
	size_t len;

	if (!s || !n || !n->slot || n->server != (unsigned int)(s - servers))
		return -TACET_EPERM;
	if (!badge || badge > nservers)
		return -TACET_EINVAL;
	if (servers[badge - 1].grants_cut)
		return -TACET_ERANGE; /* a grant cut short could say less, or more, than it meant */
	memcpy(name, &msg->w[1], TACET_NAME_WORDS * sizeof(unsigned long));
	len = strlen(name);
	for (g = servers[badge - 1].grants; *g; g += strcspn(g, ";"), g += *g == ';')
		if (!strncmp(g, name, len) && g[len] == '=')
			break;
	if (!*g)
		return -TACET_ENOENT;
	g += len + 1;
	len = strcspn(g, ";");
	if (len >= TACET_NAME_WORDS * sizeof(unsigned long))
		return -TACET_ERANGE;
	memset(&reply->w[1], 0, TACET_NAME_WORDS * sizeof(unsigned long));
	memcpy(&reply->w[1], g, len);
	reply->tag = TACET_TAG(0, 1 + TACET_NAME_WORDS);
	return 0;
}

/* The service thread: one request on service_ep; fills *reply, returns whether to reply. */
static int serve(const struct tacet_msg *msg, unsigned long badge, struct tacet_msg *reply)
{
	struct server *s = badge && badge <= nservers ? &servers[badge - 1] : NULL;
	const char *name = s ? s->name : "?";

	reply->tag = TACET_TAG(0, 1);
	reply->w[0] = 0;
	switch (TACET_TAG_LABEL(msg->tag)) {
	case INIT_EXIT:
		if (s) {
			s->status = (long)msg->w[0];
			say("init: server %s finished with status %ld\n", name, s->status);
		}
		break;
	case INIT_PUBLISH:
		reply->w[0] = (unsigned long)publish(msg, s);
		break;
	case INIT_LOOKUP:
		reply->w[0] = (unsigned long)lookup(msg, s, &reply->w[1]);
		reply->tag = TACET_TAG(0, 2);
		break;
	case INIT_GRANT:
		reply->w[0] = (unsigned long)answer_grant(msg, s, reply);
		break;
	case INIT_POWEROFF:
		if (!s || !may_power_off(s)) {
			if (s)
				refuse(s, "power the machine off (its init.run= entry has no %c)",
				       POWER_OFF_MARK);
			reply->w[0] = (unsigned long)-TACET_EPERM;
			break;
		}
		/* the supervisor's to do: it preempts this thread at the signal, and never answers */
		say("init: power off requested by %s\n", name);
		tacet_signal(exits_slot, POWEROFF_ASKED | (msg->w[0] ? POWEROFF_FAILED : 0));
		return 0;
	case INIT_SERVICE_SYNC: /* the supervisor's alone: every end signalled before it is taken */
		reply->w[0] = badge ? (unsigned long)-TACET_EINVAL : 0;
		break;
	default:
		reply->w[0] = (unsigned long)-TACET_EINVAL;
	}
	return 1;
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
		withdraw_names(i);
		refusals_end(i);
	}
}

/* The service thread (see the top of this file): waits for SERVICE_GO, then answers the servers'
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
static long start_service(void)
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

/* Every server's process has ended, and the service thread has withdrawn every name: drop what
 * init held for them; then every page and kernel object must be back (the object caches keep
 * their pages, so those count as free). The kernel signals the end after it has released the
 * process, so one look is enough. */
static void leak_check(const struct tacet_mem_info *before)
{
	struct tacet_mem_info after;
	int same;

	for (unsigned int i = 0; i < nservers; i++)
		tacet_cap_delete(servers[i].process_slot);
	if (tacet_info(TACET_INFO_MEM, 0, &after, sizeof(after)) < 0)
		return;
	same = before->free_pages + before->kernel_object_pages ==
		       after.free_pages + after.kernel_object_pages &&
	       before->kernel_objects == after.kernel_objects;
	printf("init: leak check: free pages %lu -> %lu (object caches %lu -> %lu), kernel objects "
	       "%lu -> %lu: %s\n", before->free_pages, after.free_pages, before->kernel_object_pages,
	       after.kernel_object_pages, before->kernel_objects, after.kernel_objects,
	       same ? "PASS" : "FAIL");
}

/* The restart timer: the soonest restart due, if any. */
static void arm_restart_timer(void)
{
	unsigned long soonest = 0;

	for (unsigned int i = 0; i < nservers; i++)
		if (servers[i].state == SERVER_WAITING &&
		    (!soonest || servers[i].restart_at < soonest))
			soonest = servers[i].restart_at;
	tacet_timer_set(exits_slot, RESTART_TIMER, soonest); /* 0 cancels */
}

/* Server s's process ended: done for good, or (a failure, restarts left) due for a restart
 * after a pause that doubles while it keeps failing soon after its start. */
static void server_ended(struct server *s)
{
	unsigned long now = tacet_time();

	if (s->status == 0 || s->restarts == s->restarts_max) {
		if (s->status && s->restarts_max)
			printf("init: server %s failed (status %ld) after %u restarts; giving up\n",
			       s->name, s->status, s->restarts);
		s->state = SERVER_DONE;
		return;
	}
	if (now - s->started_at >= tacet_ns_to_ticks(RESTART_QUICK_MS * NS_PER_MS) || !s->delay_ms)
		s->delay_ms = 1;
	else if (s->delay_ms < RESTART_DELAY_MAX_MS)
		s->delay_ms = 2 * s->delay_ms < RESTART_DELAY_MAX_MS ? 2 * s->delay_ms
								     : RESTART_DELAY_MAX_MS;
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
	if (bits & RESTART_TIMER)
		restart_due();
	arm_restart_timer();
}

/* The supervisor: a number after `arg=` in the boot arguments, or dflt. */
static unsigned long boot_number(const char *arg, unsigned long dflt)
{
	const char *p = strstr(bi->bootargs, arg);

	return p ? strtoul(p + strlen(arg), NULL, 0) : dflt;
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
	budget = boot_number("init.budget=", SERVER_BUDGET);
	tacet_self(&self);
	service_prio = (unsigned int)boot_number("init.service_priority=", SERVICE_PRIORITY);
	if (service_prio > self.prio)
		service_prio = (unsigned int)self.prio; /* no thread may be more urgent than init */
	printf("init: %lu harts, %lu devices, boot arguments \"%s\"; each server's budget %lu "
	       "pages; requests served at priority %u\n", bi->nharts, bi->ndevices, bi->bootargs,
	       budget, service_prio);
	/* init's own page tables for the scratch page are made once, before the baseline */
	slot = alloc_slot(&super_slots);
	if (tacet_frame_new(slot, 1) == 0 &&
	    tacet_map(TACET_SLOT_SELF_PROCESS, slot, SCRATCH_VA, TACET_RIGHT_READ) == 0)
		tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	free_slot(&super_slots, slot);
	exits_slot = alloc_slot(&super_slots);
	err = tacet_ntfn_new(exits_slot);
	if (!err)
		err = tacet_ntfn_bind(exits_slot); /* ends come in through the receive loop */
	if (err)
		printf("init: cannot watch servers: %s\n", tacet_strerror(err));
	err = start_service(); /* before the baseline: it lives as long as init */
	if (err) {
		printf("init: cannot start the service thread: %s; powering off\n",
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
		msg = (struct tacet_msg){ .tag = TACET_TAG(INIT_SERVICE_SYNC, 0) };
		tacet_call(service_ep, &msg);
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
