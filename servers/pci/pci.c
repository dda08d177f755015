/* pci: the PCI bus server: enumerates bus 0, assigns memory BARs and hands each function to one
 * driver at a time, serving <tacet/pci_proto.h> on "pci" (generated dispatch, lib/proto/pci.proto;
 * clients WRITE|GRANT, badged by init). Owns bus 0's configuration space (ECAM), the 32-bit memory
 * window (with TACET_RIGHT_RELEASE: the authority over its functions' DMA quarantine) and the
 * bridge's INTx lines, all from init (`pci:pci-host-ecam-generic+pci-mmio32+pci-intx`).
 *
 * Enumeration: every function of bus 0; BARs sized, memory BARs placed in the window at their
 * natural alignment, a page at least (no two devices share a page); the INTx line is the one
 * whose pci_routes bit (the kernel's reading of interrupt-map) covers (device % 4, pin). Not
 * handled: I/O BARs (left disabled), buses behind bridges, prefetchable or 64-bit windows
 * (64-bit BARs go in the 32-bit window, upper half 0). Prints per function
 *   pci: 00:SS.F VVVV:DDDD class CCCCCC bar0 0xADDR size 0xSIZE [barI 0xADDR size 0xSIZE] irq N
 * (bar0 none when it is not a placed memory BAR; each other placed BAR after it). A driver that
 * claimed a function reads its configuration space (PCI_CONFIG: virtio-pci's capabilities) and
 * gets each memory BAR's frame (PCI_BAR); it never writes the configuration space.
 *
 * Rule: a function nobody has claimed is quiet (bus mastering and INTx off, command bit 10),
 * at enumeration and at every release. A claim (a driver's session, ended with its process:
 * <tacet/session.h>) turns memory decoding on; INTx comes only with PCI_IRQ and bus mastering
 * only with PCI_MASTER, after the driver has quieted what the device itself holds (this server
 * knows no device register). The server never holds a capability that could change a driver.
 *
 * Release, when a claim's driver ends (release): quiet at once, reset where the function can
 * be (reset_start), then the DMA frames its drivers pinned back from the window's quarantine
 * (kernel/object/frame.c); the waits between are deadlines on a timer (release_step), so that
 * the loop answers meanwhile (init's liveness question among its calls); a restarted instance
 * releases the whole window (release_window).
 * Each step prints a line (`pci: 00:SS.F ...`) the tests match; docs/drivers.md, "DMA and a
 * driver's death", has the devices tested.
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_server.h>

#define BUS_PAGES    256 /* 1 MiB of configuration space per bus */

/* configuration space registers (offsets in bytes) */
#define CFG_ID       0x00
#define CFG_COMMAND  0x04
#define CFG_CLASS    0x08
#define CFG_HEADER   0x0c
#define CFG_BAR0     0x10
#define CFG_INTR     0x3c /* line (byte 0), pin (byte 1) */
#define CMD_MEMORY   (1u << 1)
#define CMD_MASTER   (1u << 2)
#define CMD_INTX_OFF (1u << 10) /* Interrupt Disable: the function does not assert INTx */
#define STATUS_CAPS  (1u << 20) /* the status register's Capabilities List, as CFG_COMMAND reads */
#define CFG_CAPS     0x34       /* the first capability's offset */
#define CFG_SIZE     4096       /* a function's ECAM page: PCI_CONFIG reads inside it */
#define MAX_CAPS     48         /* (256 - 64) / 4: a list that loops ends here */
/* function-level reset (PCI Express Base Specification, 6.6.2), from one of two capabilities */
#define CAP_EXP      0x10       /* PCI Express */
#define EXP_DEVCAP   0x04
#define EXP_DEVCAP_FLR (1u << 28)   /* Function Level Reset Capability */
#define EXP_DEVCTL   0x08           /* Device Control, Device Status the high half */
#define EXP_DEVCTL_FLR (1u << 15)   /* Initiate Function Level Reset */
#define EXP_DEVSTA_TP  (1u << 21)   /* Transactions Pending (Device Status bit 5) */
#define CAP_AF       0x13       /* Advanced Features: capabilities in byte 3 */
#define AF_CAP_FLR   (1u << 25)     /* FLR Capability (byte 3, bit 1) */
#define AF_CTL       0x04           /* AF Control (byte 0), AF Status (byte 1) */
#define AF_CTL_FLR   (1u << 0)      /* Initiate FLR */
#define AF_STA_TP    (1u << 8)      /* Transactions Pending */
#define NS_PER_MS    1000000ull
#define FLR_PENDING_MS 100  /* at most this long for transactions pending before an FLR */
#define FLR_WAIT_MS  100    /* no access to the function this long after initiating one */
#define FLR_READY_MS 1000   /* then up to this long for it to answer (its vendor ID) */
/* message-signalled interrupts (PCI Local Bus 3.0, 6.8) */
#define CAP_MSI      0x05
#define MSI_ENABLE   (1u << 16)     /* Message Control (the capability's high half), bit 0 */
#define MSI_64       (1u << 23)     /* 64-bit address capable */
#define MSI_MME      (7u << 20)     /* Multiple Message Enable: 0, one message */
#define CAP_MSIX     0x11
#define MSIX_ENABLE  (1u << 31)
#define MSIX_FMASK   (1u << 30)     /* Function Mask */
#define MSIX_SIZE(c) ((((c) >> 16) & 0x7ff) + 1)
#define MSIX_TABLE   0x04           /* its BAR (bits 2:0) and offset in it */
#define MSIX_ENTRY   16             /* address low, high, data, vector control */
#define MSIX_MASKED  1u             /* vector control's Mask Bit */
#define MAX_VECTORS  8              /* message-signalled lines a function may hold */
#define BAR_IO       (1u << 0)
#define BAR_TYPE_64  (2u << 1)
#define BAR_TYPE_MASK (3u << 1)

#define MAX_FUNCS    32
#define MAX_BARS     6
#define MAX_INTX     4

/* Where f's function-level reset is asked: the register (its dword), the bits of it to keep
 * when writing it, the Initiate bit and the Transactions Pending bit. */
struct flr {
	unsigned int off;
	uint32_t keep, initiate, pending;
};

/* A release's steps (release, release_step): each wait of a reset (reset_start) is a deadline
 * on the server's timer (RELEASE_TIMER), so that its loop answers its calls meanwhile. */
enum release_step {
	RELEASE_NONE,    /* not being released */
	RELEASE_PENDING, /* with an FLR: its pending transactions waited for, until step_end */
	RELEASE_SETTLE,  /* FLR_WAIT_MS after the reset began, or after the quieting without one */
	RELEASE_READY,   /* with an FLR: its vendor ID waited for, until step_end */
};

struct pci_func {
	unsigned int dev, fn;
	uint16_t vendor, device;
	uint32_t class;
	unsigned long bar[MAX_BARS];  /* assigned bus address, 0 if none */
	unsigned long size[MAX_BARS]; /* 0 if the BAR is not implemented or not placed */
	unsigned int pin;             /* 1..4 for INTA..INTD, 0 for none */
	unsigned int intx;            /* index into intx[] when pin != 0 */
	int claimed;
	unsigned long owner;          /* the claiming driver's badge (init's server number + 1) */
	long msi_slot[MAX_VECTORS];   /* this server's copy of each vector's line, 0: none */
	uint32_t msi_data[MAX_VECTORS]; /* and what the function writes for it */
	enum release_step step;       /* claimed stays 1 until the release's last step */
	uint64_t step_at, step_end;   /* timebase ticks: the next step's time, the wait's limit */
	int has_flr;                  /* and flr, its function-level reset (flr_of) */
	struct flr flr;
};

#define RELEASE_TIMER (1ul << 40) /* the ECAM's notification: a release's step is due */

/* Defined only by the test build pci_dying (servers/tests/pcidying.c): told that a claimed
 * function's driver ended, before the function is quieted, its first instance faults, so
 * that the next instance finds a function left running and its frames in the quarantine. */
void pci_driver_ended(void) __attribute__((weak));

static struct pci_func funcs[MAX_FUNCS];
static unsigned int nfuncs;

static struct tacet_device ecam; /* unmapped; its notification takes the drivers' ends */
static volatile uint8_t *bus0;   /* bus 0's configuration space */

/* tacet,pci-mmio32, with TACET_RIGHT_RELEASE: the frames a driver pinned to its function's
 * part are released from the window's DMA quarantine once that function is quiet */
static const struct tacet_bootinfo_device *window;
static long driver_window;                         /* a copy of it without RELEASE: drivers' */
static unsigned long window_next;                  /* the next free bus address in it */
static const struct tacet_bootinfo_device *intx[MAX_INTX];
static unsigned int nintx;

/* The index in intx[] of the line interrupt-map routes (device % 4, pin) to; 0 if none says so
 * (the bit is checked again when the line is used). */
static unsigned int intx_of(unsigned int dev, unsigned int pin)
{
	for (unsigned int i = 0; i < nintx; i++)
		if (intx[i]->pci_routes & (1u << (4 * (dev % 4) + pin - 1)))
			return i;
	return 0;
}

static uint32_t cfg_read(unsigned int dev, unsigned int fn, unsigned int off)
{
	return mmio_read32(bus0 + (dev << 15 | fn << 12 | off));
}

static void cfg_write(unsigned int dev, unsigned int fn, unsigned int off, uint32_t v)
{
	mmio_write32(bus0 + (dev << 15 | fn << 12 | off), v);
}

/* A block of size bytes (a power of two) in the window, aligned to its size; 0 if full. */
static unsigned long window_alloc(unsigned long size)
{
	unsigned long addr;

	if (size < TACET_PAGE_SIZE)
		size = TACET_PAGE_SIZE;
	addr = (window_next + size - 1) & ~(size - 1);
	if (addr < window_next || addr + size > window->paddr + window->size)
		return 0;
	window_next = addr + size;
	return addr;
}

/* Sizes and places the BARs of a function (memory decoding must be off). */
static void setup_bars(struct pci_func *f, unsigned int nbars)
{
	for (unsigned int i = 0; i < nbars; i++) {
		unsigned int off = CFG_BAR0 + 4 * i;
		uint32_t orig = cfg_read(f->dev, f->fn, off), lo, hi = 0xffffffff;
		int is64 = !(orig & BAR_IO) && (orig & BAR_TYPE_MASK) == BAR_TYPE_64;
		unsigned long mask, size;

		cfg_write(f->dev, f->fn, off, 0xffffffff);
		lo = cfg_read(f->dev, f->fn, off);
		if (is64 && i + 1 < nbars) {
			cfg_write(f->dev, f->fn, off + 4, 0xffffffff);
			hi = cfg_read(f->dev, f->fn, off + 4);
		}
		if (orig & BAR_IO) {
			cfg_write(f->dev, f->fn, off, orig); /* no I/O window: left unassigned */
			continue;
		}
		/* the address bits that stuck at 0 give the size; none stuck: not implemented */
		if (is64)
			mask = (unsigned long)hi << 32 | (lo & ~0xfu);
		else
			mask = (lo & ~0xfu) ? 0xffffffff00000000ul | (lo & ~0xfu) : 0;
		size = mask ? ~mask + 1 : 0;
		if (size && (f->bar[i] = window_alloc(size)) != 0)
			f->size[i] = size; /* written by program() */
		else
			cfg_write(f->dev, f->fn, off, orig);
		if (is64) {
			cfg_write(f->dev, f->fn, off + 4, 0);
			i++; /* the upper half is not a BAR of its own */
		}
	}
}

/* The placed BARs' addresses (a 64-bit BAR's upper half 0) and the INTx line, written into f's
 * configuration space: at enumeration, and again after a function-level reset. */
static void program(const struct pci_func *f)
{
	for (unsigned int i = 0; i < MAX_BARS; i++) {
		unsigned int off = CFG_BAR0 + 4 * i;
		uint32_t type = cfg_read(f->dev, f->fn, off) & 0xf; /* read-only bits */

		if (!f->size[i])
			continue;
		cfg_write(f->dev, f->fn, off, (uint32_t)f->bar[i] | type);
		if ((type & BAR_TYPE_MASK) == BAR_TYPE_64)
			cfg_write(f->dev, f->fn, off + 4, 0);
	}
	if (f->pin) {
		uint32_t intr = cfg_read(f->dev, f->fn, CFG_INTR);

		cfg_write(f->dev, f->fn, CFG_INTR, (intr & ~0xffu) | (intx[f->intx]->irq & 0xff));
	}
}

static void probe(unsigned int dev, unsigned int fn)
{
	uint32_t id = cfg_read(dev, fn, CFG_ID), cmd, intr;
	unsigned int header = (cfg_read(dev, fn, CFG_HEADER) >> 16) & 0x7f;
	struct pci_func *f;

	if (nfuncs == MAX_FUNCS) {
		printf("pci: 00:%02x.%u: more than %d functions; ignored\n", dev, fn, MAX_FUNCS);
		return;
	}
	f = &funcs[nfuncs++];
	f->dev = dev;
	f->fn = fn;
	f->vendor = id & 0xffff;
	f->device = id >> 16;
	f->class = cfg_read(dev, fn, CFG_CLASS) >> 8;
	cmd = cfg_read(dev, fn, CFG_COMMAND) & 0xffff;
	cfg_write(dev, fn, CFG_COMMAND, cmd & ~(CMD_MEMORY | 1u)); /* no decoding while sizing */
	setup_bars(f, header == 0 ? 6 : header == 1 ? 2 : 0);
	intr = cfg_read(dev, fn, CFG_INTR);
	f->pin = (intr >> 8) & 0xff;
	if (f->pin >= 1 && f->pin <= 4 && nintx == MAX_INTX)
		f->intx = intx_of(dev, f->pin);
	else
		f->pin = 0;
	program(f);
	/* decoding its BARs, but quiet (no DMA, no INTx) until a driver claims it */
	cfg_write(dev, fn, CFG_COMMAND, (cmd & ~(1u | CMD_MASTER)) | CMD_MEMORY | CMD_INTX_OFF);

	printf("pci: 00:%02x.%u %04x:%04x class %06x", dev, fn, f->vendor, f->device, f->class);
	if (f->size[0])
		printf(" bar0 %#lx size %#lx", f->bar[0], f->size[0]);
	else
		printf(" bar0 none");
	for (unsigned int i = 1; i < MAX_BARS; i++)
		if (f->size[i])
			printf(" bar%u %#lx size %#lx", i, f->bar[i], f->size[i]);
	if (f->pin)
		printf(" irq %u\n", intx[f->intx]->irq);
	else
		printf(" irq none\n");
}

/* The command register's low half with `set` set and `clear` cleared; what the function
 * reads back (the bits it implements). The high half (status, whose error bits clear when
 * written 1) is written 0: left alone. */
static uint32_t command_update(const struct pci_func *f, uint32_t set, uint32_t clear)
{
	uint32_t cmd = cfg_read(f->dev, f->fn, CFG_COMMAND) & 0xffff;

	cfg_write(f->dev, f->fn, CFG_COMMAND, (cmd & ~clear) | set);
	return cfg_read(f->dev, f->fn, CFG_COMMAND) & 0xffff;
}

/* Nobody drives f: no DMA, no interrupt (see the top). Returns the command register. */
static uint32_t func_quiesce(const struct pci_func *f)
{
	return command_update(f, CMD_INTX_OFF, CMD_MASTER);
}

/* A driver claimed f: its BARs on; INTx and bus mastering stay off until the driver asks
 * for them (after quieting what the device may still hold). Returns the command register. */
static uint32_t func_enable(const struct pci_func *f)
{
	return command_update(f, CMD_MEMORY, 0);
}

/* The driver asked for f's line: INTx on. Returns the command register. */
static uint32_t func_intx_on(const struct pci_func *f)
{
	return command_update(f, 0, CMD_INTX_OFF);
}

/* The offset of f's capability `id` (the list from CFG_CAPS, if the status says there is one;
 * at most MAX_CAPS entries), or 0. */
static unsigned int find_cap(const struct pci_func *f, unsigned int id)
{
	unsigned int off = 0;

	if (cfg_read(f->dev, f->fn, CFG_COMMAND) & STATUS_CAPS)
		off = cfg_read(f->dev, f->fn, CFG_CAPS) & 0xfc;
	for (unsigned int n = 0; off >= 0x40 && n < MAX_CAPS; n++) {
		uint32_t cap = cfg_read(f->dev, f->fn, off);

		if ((cap & 0xff) == id)
			return off;
		off = (cap >> 8) & 0xfc;
	}
	return 0;
}

/* f's function-level reset, from its PCI Express capability (Device Capabilities says FLR) or
 * its Advanced Features capability: 1 and *r, or 0 if it has none. */
static int flr_of(const struct pci_func *f, struct flr *r)
{
	unsigned int exp = find_cap(f, CAP_EXP), af = find_cap(f, CAP_AF);

	if (exp && (cfg_read(f->dev, f->fn, exp + EXP_DEVCAP) & EXP_DEVCAP_FLR))
		*r = (struct flr){ exp + EXP_DEVCTL, 0xffff, EXP_DEVCTL_FLR, EXP_DEVSTA_TP };
	else if (af && (cfg_read(f->dev, f->fn, af) & AF_CAP_FLR))
		*r = (struct flr){ af + AF_CTL, 0, AF_CTL_FLR, AF_STA_TP };
	else
		return 0;
	return 1;
}

static uint64_t ms_ticks(unsigned int ms)
{
	return tacet_ns_to_ticks(ms * NS_PER_MS);
}

/* f's release goes to step s in ms milliseconds. */
static void step_in(struct pci_func *f, enum release_step s, unsigned int ms)
{
	f->step = s;
	f->step_at = tacet_time() + ms_ticks(ms);
}

/* A function-level reset of f, bus mastering already off (func_quiesce), in steps on the timer
 * (release_step); a function without one is left FLR_WAIT_MS to finish what it had begun (a
 * second line for a next driver that asks for bus mastering before it has quieted the device).
 * With a reset: up to FLR_PENDING_MS for the transactions it has pending to end, the reset,
 * FLR_WAIT_MS without touching it, then up to FLR_READY_MS for its vendor ID to read back; then
 * its BARs and line again (a reset function forgets them), decoding on, quiet. (The Status half
 * of Device Control's dword is written 0: its error bits clear when written 1.) */
static void reset_start(struct pci_func *f)
{
	f->has_flr = flr_of(f, &f->flr);
	f->step_end = tacet_time() + ms_ticks(FLR_PENDING_MS);
	step_in(f, f->has_flr ? RELEASE_PENDING : RELEASE_SETTLE, f->has_flr ? 0 : FLR_WAIT_MS);
}

static void release_done(struct pci_func *f, int reset);

/* f's release, its step due: the next wait (step_in), or the end (release_done: 1 the
 * function answers after its reset, 0 it does not, -1 it has none). */
static void release_step(struct pci_func *f)
{
	uint64_t now = tacet_time();
	const struct flr *r = &f->flr;

	switch (f->step) {
	case RELEASE_PENDING:
		if (now < f->step_end && (cfg_read(f->dev, f->fn, r->off) & r->pending)) {
			step_in(f, RELEASE_PENDING, 1);
			return;
		}
		cfg_write(f->dev, f->fn, r->off,
			  (cfg_read(f->dev, f->fn, r->off) & r->keep) | r->initiate);
		step_in(f, RELEASE_SETTLE, FLR_WAIT_MS);
		return;
	case RELEASE_SETTLE:
		if (!f->has_flr) {
			release_done(f, -1);
			return;
		}
		f->step_end = now + ms_ticks(FLR_READY_MS);
		__attribute__((fallthrough)); /* the vendor ID read at once */
	case RELEASE_READY:
		if ((cfg_read(f->dev, f->fn, CFG_ID) & 0xffff) == f->vendor) {
			program(f);
			command_update(f, CMD_MEMORY | CMD_INTX_OFF, CMD_MASTER);
			release_done(f, 1);
		} else if (now >= f->step_end) {
			release_done(f, 0);
		} else {
			step_in(f, RELEASE_READY, 10);
		}
		return;
	case RELEASE_NONE:
		return;
	}
}

static void enumerate(void)
{
	for (unsigned int dev = 0; dev < 32; dev++) {
		unsigned int nfn = 1;

		if ((cfg_read(dev, 0, CFG_ID) & 0xffff) == 0xffff)
			continue;
		if (cfg_read(dev, 0, CFG_HEADER) & (0x80u << 16))
			nfn = 8;
		for (unsigned int fn = 0; fn < nfn; fn++)
			if ((cfg_read(dev, fn, CFG_ID) & 0xffff) != 0xffff)
				probe(dev, fn);
	}
}

static struct tacet_service service;
/* a session a driver (badge) that claimed something; no state: its claims are funcs[].owner */
static struct tacet_sessions drivers;

/* The index-th function with that vendor and device ID, or NULL. */
static struct pci_func *find_func(uint64_t vendor, uint64_t device, uint64_t index)
{
	for (unsigned int i = 0; i < nfuncs; i++)
		if (funcs[i].vendor == vendor && funcs[i].device == device && index-- == 0)
			return &funcs[i];
	return NULL;
}

/* BAR i of f as a frame in slot, derived from the window's capability in `from` (with its
 * rights: RELEASE or not). */
static long bar_derive(const struct pci_func *f, unsigned int i, unsigned long from,
		       unsigned long slot)
{
	return tacet_frame_derive(from, slot, (f->bar[i] - window->paddr) / TACET_PAGE_SIZE,
				  (f->size[i] + TACET_PAGE_SIZE - 1) / TACET_PAGE_SIZE);
}

/* Has f a memory BAR the window holds? */
static int has_memory_bar(const struct pci_func *f)
{
	for (unsigned int i = 0; i < MAX_BARS; i++)
		if (f->size[i])
			return 1;
	return 0;
}

/* PCI_CLAIM: decode everything first, then the driver's session (its process watched: a claim
 * is always released when its driver ends), then BAR0's frame in the reply. */
long pci_serve_claim(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index,
		     unsigned long process, uint64_t *irq, uint64_t *bar0_size, uint64_t *bus_slot,
		     unsigned long *bar0)
{
	struct pci_func *f = find_func(vendor, device, index);
	unsigned long rights = 1;
	long bar, err;

	if (tacet_cap_info(process, &rights, NULL) != TACET_CAP_PROCESS || rights)
		return -TACET_EPERM; /* a capability that could change the driver: not wanted */
	if (!f)
		return -TACET_ENOENT;
	if (f->claimed)
		return -TACET_EBUSY;
	if (!has_memory_bar(f) || !f->pin)
		return -TACET_EINVAL;
	if (!tacet_session_is_open(&drivers, s->badge) &&
	    (err = tacet_session_open(&drivers, s->badge, process)))
		return err;
	bar = f->size[0] ? tacet_service_reply_slot(s) : 0; /* freed once the reply has gone */
	if (bar < 0)
		return bar;
	err = bar ? bar_derive(f, 0, (unsigned long)driver_window, (unsigned long)bar) : 0;
	if (err)
		return err;
	f->claimed = 1;
	f->owner = s->badge;
	printf("pci: 00:%02x.%x claimed, command %#06x\n", f->dev, f->fn, func_enable(f));
	*bar0 = (unsigned long)bar;
	*irq = intx[f->intx]->irq;
	*bar0_size = f->size[0];
	*bus_slot = f->dev;
	return 0;
}

/* The function a call names, if client is the driver that claimed it; else NULL and *err
 * (-TACET_ENOENT: no such function; -TACET_EPERM: not claimed, or by another, or its release
 * under way: its driver ended, and a next instance, with the same badge, claims it again). */
static struct pci_func *claimed_by(uint64_t vendor, uint64_t device, uint64_t index,
				   unsigned long client, long *err)
{
	struct pci_func *f = find_func(vendor, device, index);

	*err = !f ? -TACET_ENOENT : !f->claimed || f->owner != client || f->step ? -TACET_EPERM
									   : 0;
	return *err ? NULL : f;
}

/* PCI_IRQ: the line's IRQ handler capability, for the driver that claimed the device. */
long pci_serve_irq(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index,
		   unsigned long *line)
{
	long err;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);

	if (!f)
		return err;
	printf("pci: 00:%02x.%x INTx on, command %#06x\n", f->dev, f->fn, func_intx_on(f));
	*line = intx[f->intx]->irq_slot;
	return 0;
}

/* PCI_MASTER: bus mastering on, for the driver that claimed the device. */
long pci_serve_master(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index)
{
	long err;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);

	if (!f)
		return err;
	printf("pci: 00:%02x.%x bus mastering on, command %#06x\n", f->dev, f->fn,
	       command_update(f, CMD_MASTER, 0));
	return 0;
}

/* PCI_BAR: memory BAR `bar`'s frame (without RELEASE), for the driver that claimed the device. */
long pci_serve_bar(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index,
		   uint64_t bar, uint64_t *size, unsigned long *frame)
{
	long err, slot;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);

	if (!f)
		return err;
	if (bar >= MAX_BARS)
		return -TACET_EINVAL;
	if (!f->size[bar])
		return -TACET_ENOENT;
	slot = tacet_service_reply_slot(s); /* freed once the reply has gone */
	if (slot < 0)
		return slot;
	err = bar_derive(f, (unsigned int)bar, (unsigned long)driver_window, (unsigned long)slot);
	if (err)
		return err;
	*frame = (unsigned long)slot;
	*size = f->size[bar];
	return 0;
}

/* PCI_CONFIG: a configuration word of the device, for the driver that claimed it. */
long pci_serve_config(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index,
		      uint64_t offset, uint64_t *value)
{
	long err;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);

	if (!f)
		return err;
	if (offset % 4 || offset >= CFG_SIZE)
		return -TACET_EINVAL;
	*value = cfg_read(f->dev, f->fn, (unsigned int)offset);
	return 0;
}

/* f's MSI-X table entry `vector` mapped (a page of the BAR that holds it, at a new address):
 * its four words, or NULL after setting *err (-TACET_ERANGE: no such vector). *slot and
 * *va for msix_unmap. */
static volatile uint32_t *msix_map(const struct pci_func *f, unsigned int cap, unsigned long vector,
				   long *slot, unsigned long *va, long *err)
{
	uint32_t ctl = cfg_read(f->dev, f->fn, cap), table = cfg_read(f->dev, f->fn, cap + MSIX_TABLE);
	unsigned int bir = table & 7;
	unsigned long off = (table & ~7u) + MSIX_ENTRY * vector;

	*slot = 0;
	*va = 0;
	*err = vector >= MSIX_SIZE(ctl) ? -TACET_ERANGE
	       : bir >= MAX_BARS || off + MSIX_ENTRY > f->size[bir] ? -TACET_ENODEV : 0;
	if (!*err)
		*err = (*slot = tacet_slot_alloc()) < 0 ? *slot
		       : !(*va = tacet_va_alloc(1)) ? -TACET_ENOMEM : 0;
	if (!*err)
		*err = tacet_frame_derive(window->slot, (unsigned long)*slot,
					  (f->bar[bir] + off - window->paddr) / TACET_PAGE_SIZE, 1);
	if (!*err)
		*err = tacet_map(TACET_CHILD_SELF, (unsigned long)*slot, *va,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	return *err ? NULL : (volatile uint32_t *)(*va + off % TACET_PAGE_SIZE);
}

static void msix_unmap(long slot, unsigned long va)
{
	if (va) {
		tacet_unmap(TACET_CHILD_SELF, va, 1);
		tacet_va_free(va, 1);
	}
	if (slot > 0) {
		tacet_cap_delete((unsigned long)slot);
		tacet_slot_free((unsigned long)slot);
	}
}

/* f's MSI capability writes to addr from its next message: the address words only, MSI left
 * on (a 32-bit store each; the kernel's files are below 4 GiB, so a move rewrites one word):
 * turned off meanwhile, a message the function raised would be lost (edu sends it once). */
static void msi_address(const struct pci_func *f, unsigned int msi, uint64_t addr)
{
	cfg_write(f->dev, f->fn, msi + 4, (uint32_t)addr);
	if (cfg_read(f->dev, f->fn, msi) & MSI_64)
		cfg_write(f->dev, f->fn, msi + 8, (uint32_t)(addr >> 32));
}

/* f writes data to addr for vector, or, addr 0, not at all. MSI-X: its entry masked, written,
 * then unmasked (a message raised while masked waits in the function's pending bits: none is
 * lost) and the capability on. MSI (vector 0 only, one message): turned on with the address
 * and data, or off; a function already on (a move) gets the new address alone (msi_address).
 * Returns 0 or a negative TACET_E* code (-TACET_ENODEV: neither capability). */
static long msi_program(const struct pci_func *f, unsigned long vector, uint64_t addr,
			uint32_t data)
{
	unsigned int msix = find_cap(f, CAP_MSIX), msi = find_cap(f, CAP_MSI);
	uint32_t ctl;

	if (msix) {
		long slot, err;
		unsigned long va;
		volatile uint32_t *e = msix_map(f, msix, vector, &slot, &va, &err);

		ctl = cfg_read(f->dev, f->fn, msix);
		if (e) {
			mmio_write32(&e[3], MSIX_MASKED);
			if (addr) {
				mmio_write32(&e[0], (uint32_t)addr);
				mmio_write32(&e[1], (uint32_t)(addr >> 32));
				mmio_write32(&e[2], data);
				mmio_write32(&e[3], 0);
				cfg_write(f->dev, f->fn, msix, (ctl | MSIX_ENABLE) & ~MSIX_FMASK);
			}
		}
		msix_unmap(slot, va);
		return err;
	}
	if (!msi)
		return -TACET_ENODEV;
	if (vector)
		return -TACET_ERANGE; /* one message only */
	ctl = cfg_read(f->dev, f->fn, msi);
	if (addr && (ctl & MSI_ENABLE)) {
		msi_address(f, msi, addr);
		return 0;
	}
	ctl &= ~(MSI_ENABLE | MSI_MME);
	cfg_write(f->dev, f->fn, msi, ctl);
	if (!addr)
		return 0;
	msi_address(f, msi, addr);
	cfg_write(f->dev, f->fn, msi + (ctl & MSI_64 ? 12 : 8), data);
	cfg_write(f->dev, f->fn, msi, ctl | MSI_ENABLE);
	return 0;
}

/* PCI_MSI: a line the kernel lends on the hart asked for, the function programmed to write
 * it; the reply carries the line. This server keeps a copy, to move and to free it. */
long pci_serve_msi(struct tacet_service *s, uint64_t vendor, uint64_t device, uint64_t index,
		   uint64_t where, uint64_t *line, unsigned long *irq)
{
	long err, mine = 0, reply;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);
	unsigned long vector = PCI_WHERE_VECTOR(where), number = 0;
	uint64_t addr = 0;
	uint32_t data = 0;

	if (!f)
		return err;
	if (vector >= MAX_VECTORS)
		return -TACET_ERANGE;
	if (f->msi_slot[vector])
		return -TACET_EBUSY;
	if ((reply = tacet_service_reply_slot(s)) < 0)
		return reply;
	err = (mine = tacet_slot_alloc()) < 0 ? mine : 0;
	if (!err)
		err = tacet_irq_msi_new(window->slot, PCI_WHERE_HART(where), (unsigned long)mine,
					&addr, &data, &number);
	if (!err && (err = msi_program(f, vector, addr, data)) != 0)
		tacet_irq_msi_free(window->slot, (unsigned long)mine);
	if (!err)
		err = tacet_cap_copy((unsigned long)mine, (unsigned long)reply,
				     TACET_RIGHT_READ | TACET_RIGHT_WRITE, 0);
	if (err) {
		if (mine > 0) {
			tacet_cap_delete((unsigned long)mine);
			tacet_slot_free((unsigned long)mine);
		}
		return err;
	}
	f->msi_slot[vector] = mine;
	f->msi_data[vector] = data;
	printf("pci: 00:%02x.%x vector %lu: line %lu, hart %lu\n", f->dev, f->fn, vector, number,
	       (unsigned long)PCI_WHERE_HART(where));
	*line = number;
	*irq = (unsigned long)reply;
	return 0;
}

/* PCI_MSI_MOVE: the vector's line to another hart, then the function told the new address. */
long pci_serve_msi_move(struct tacet_service *s, uint64_t vendor, uint64_t device,
			uint64_t index, uint64_t where)
{
	long err;
	struct pci_func *f = claimed_by(vendor, device, index, s->badge, &err);
	unsigned long vector = PCI_WHERE_VECTOR(where);
	uint64_t addr;

	if (!f)
		return err;
	if (vector >= MAX_VECTORS || !f->msi_slot[vector])
		return -TACET_ERANGE;
	err = tacet_irq_msi_move((unsigned long)f->msi_slot[vector], PCI_WHERE_HART(where), &addr);
	return err ? err : msi_program(f, vector, addr, f->msi_data[vector]);
}

/* At f's release (quiet: bus mastering off): its messages masked, then each line back to the
 * kernel, disabled in every file. */
static void msi_release(struct pci_func *f)
{
	msi_program(f, 0, 0, 0); /* MSI off, or MSI-X vector 0 masked */
	for (unsigned long v = 0; v < MAX_VECTORS; v++) {
		long err;

		if (!f->msi_slot[v])
			continue;
		if (v)
			msi_program(f, v, 0, 0);
		err = tacet_irq_msi_free(window->slot, (unsigned long)f->msi_slot[v]);
		printf("pci: 00:%02x.%x vector %lu masked, its line freed%s%s\n", f->dev, f->fn, v,
		       err ? ": " : "", err ? tacet_strerror(err) : "");
		tacet_cap_delete((unsigned long)f->msi_slot[v]);
		tacet_slot_free((unsigned long)f->msi_slot[v]);
		f->msi_slot[v] = 0;
	}
}

/* f is quiet: the frames its drivers pinned to its BARs (to a part of the window in each)
 * back from the window's DMA quarantine. Returns the pages, or a negative TACET_E* code. */
static long func_release_dma(const struct pci_func *f)
{
	long back = 0;

	for (unsigned int i = 0; i < MAX_BARS; i++) {
		long slot = f->size[i] ? tacet_slot_alloc() : 0, n;

		if (!f->size[i])
			continue;
		n = slot < 0 ? slot : bar_derive(f, i, window->slot, (unsigned long)slot);
		if (!n)
			n = tacet_device_release((unsigned long)slot);
		if (slot > 0)
			tacet_slot_free((unsigned long)slot);
		if (n < 0)
			return n;
		back += n;
	}
	return back;
}

/* The release timer at the soonest step due (none: cancelled). */
static void arm_release_timer(void)
{
	uint64_t soonest = 0;

	for (unsigned int i = 0; i < nfuncs; i++)
		if (funcs[i].step && (!soonest || funcs[i].step_at < soonest))
			soonest = funcs[i].step_at;
	tacet_timer_set(ecam.ntfn_slot, RELEASE_TIMER, soonest);
}

/* The last step of f's release: its driver's frames released from the DMA quarantine (f is
 * quiet, its reset done or waited for), and the function free again. */
static void release_done(struct pci_func *f, int reset)
{
	static const char *const resets[] = { "no function-level reset (it has none)",
					      "function-level reset: it does not answer",
					      "function-level reset: it answers again" };
	long back = func_release_dma(f);

	if (back < 0)
		printf("pci: 00:%02x.%x %s; its DMA quarantine not released: %s\n", f->dev, f->fn,
		       resets[reset + 1], tacet_strerror(back));
	else
		printf("pci: 00:%02x.%x %s; %ld pages back from its DMA quarantine\n", f->dev, f->fn,
		       resets[reset + 1], back);
	f->step = RELEASE_NONE;
	f->claimed = 0;
}

/* A driver's session ended (its process ended): each function it claimed is made quiet (bus
 * mastering and INTx off) at once, then reset where it can be (reset_start), and only then are
 * the frames its driver pinned released from the DMA quarantine (release_done); the waits
 * between are the timer's (release_event): the function stays claimed, its calls refused,
 * until its release is done. */
static void release(struct tacet_sessions *t, unsigned long badge, void *state)
{
	(void)t, (void)state;
	for (unsigned int i = 0; i < nfuncs; i++) {
		struct pci_func *f = &funcs[i];

		if (!f->claimed || f->owner != badge || f->step)
			continue;
		if (pci_driver_ended)
			pci_driver_ended();
		printf("pci: 00:%02x.%x released (its driver ended), command %#06x\n", f->dev, f->fn,
		       func_quiesce(f));
		msi_release(f);
		reset_start(f);
	}
	arm_release_timer();
}

/* The service loop's events: the release timer (the ECAM's notification has no line), each
 * release's steps that are due. */
static void release_event(struct tacet_device *dev, long ev)
{
	uint64_t now = tacet_time();

	(void)dev;
	if (!(ev & RELEASE_TIMER))
		return;
	for (unsigned int i = 0; i < nfuncs; i++)
		if (funcs[i].step && funcs[i].step_at <= now)
			release_step(&funcs[i]);
	arm_release_timer();
}

/* A restart: the previous instance ended, perhaps with functions its drivers left running and
 * their frames in the window's DMA quarantine (init does not release a bus window: it cannot
 * quiet the functions). Every function is quiet now (enumerate: bus mastering off), so after
 * the wait a function without a reset gets (reset_start), the whole window's quarantine goes. */
static void release_window(void)
{
	long back;

	tacet_sleep_ns(FLR_WAIT_MS * NS_PER_MS);
	back = tacet_device_release(window->slot);
	if (back < 0)
		printf("pci: instance %lu: the window's DMA quarantine not released: %s\n",
		       tacet_instance(), tacet_strerror(back));
	else
		printf("pci: instance %lu: every function quiet; %ld pages back from the window's "
		       "DMA quarantine\n", tacet_instance(), back);
}

/* The ECAM (unmapped), the 32-bit window and the INTx lines init gave. */
static long find_devices(void)
{
	const struct tacet_bootinfo_device *d;
	long err;

	window = tacet_device_find("tacet,pci-mmio32", 0);
	for (unsigned int i = 0; (d = tacet_device_find("tacet,pci-intx", i)) != NULL; i++)
		if (d->irq_slot && nintx < MAX_INTX)
			intx[nintx++] = d;
	if (!window)
		return -TACET_ENOENT;
	driver_window = tacet_slot_alloc();
	if (driver_window < 0)
		return driver_window;
	err = tacet_cap_copy(window->slot, (unsigned long)driver_window,
			     TACET_RIGHT_READ | TACET_RIGHT_WRITE, 0);
	if (err)
		return err;
	return tacet_device_open(&ecam, "pci-host-ecam-generic", 0,
				 TACET_DEVICE_NO_MAP | TACET_DEVICE_NO_IRQ);
}

/* Bus 0's part of the ECAM, mapped at an address lib chooses. */
static long map_bus0(void)
{
	long slot = tacet_slot_alloc(), err;
	unsigned long va = tacet_va_alloc(BUS_PAGES);

	err = slot < 0 ? slot : !va ? -TACET_ENOMEM :
	      tacet_frame_derive(ecam.frame_slot, (unsigned long)slot, 0, BUS_PAGES);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, (unsigned long)slot, va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err)
		bus0 = (volatile uint8_t *)va;
	return err; /* on failure the server ends: nothing to give back */
}

int main(void)
{
	const char *step = "find the ECAM and the 32-bit window";
	long err = find_devices();

	if (!err && (step = "map bus 0"))
		err = map_bus0();
	/* lib's sleep notification, made at every start: a restarted instance's window release
	 * sleeps on it, and each instance must hold what the first held (the fault campaign's
	 * leak check counts kernel objects) */
	if (!err && (step = "make its sleep notification"))
		err = tacet_sleep_ns(0);
	if (err) {
		printf("pci: cannot %s: %s\n", step, tacet_strerror(err));
		return 1;
	}
	if (nintx != MAX_INTX)
		printf("pci: %u INTx lines, not %d: devices get no interrupt\n", nintx, MAX_INTX);
	window_next = window->paddr;
	enumerate();
	printf("pci: %u functions on bus 0\n", nfuncs);
	if (tacet_instance())
		release_window();

	err = tacet_service_open(&service, "pci",
				 TACET_RIGHT_WRITE | TACET_RIGHT_GRANT | INIT_BADGE_CLIENTS, &ecam);
	if (!err)
		err = tacet_service_sessions(&service, &drivers, NULL, 0, release);
	if (err) {
		printf("pci: cannot publish \"pci\": %s\n", tacet_strerror(err));
		return 1;
	}
	err = tacet_service_run(&service, pci_dispatch, release_event);
	printf("pci: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
