/* virtio_probe.c: finding a driver's virtio device and opening it over the transport it sits
 * behind (<tacet/virtio.h>, virtio_probe): a virtio-mmio transport init gave the server, else a
 * virtio-pci function claimed from the "pci" server (servers/pci), whose BARs, configuration
 * reads, bus mastering and interrupt (MSI-X vector 0 where the machine has MSIs, else INTx)
 * come through that server's protocol (<tacet/pci_proto.h>); so do a driver's further MSI-X
 * vectors (virtio_msix_new).
 * A claim lives no longer than the instance of the PCI server that granted it: the kit watches
 * that instance's endpoint on the device's notification and ends the driver when it ends
 * (tacet_device_watch_bus), so that init restarts it and its next instance claims from the
 * server's next instance (docs/drivers.md, "When the bus server ends").
 * Called once, at a driver's start, from the thread that will wait on the device (and
 * virtio_msix_new from one thread at a time, as lib's slots are). No state of its own; the
 * slots it takes stay the driver's for its life. */
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>
#include <tacet/virtio.h>

#define LOOKUP_TRIES 10000 /* 1 ms apart: the PCI server has 10 s to publish "pci" */
#define MAX_INDEX    32    /* functions of one vendor:device ID tried, in bus order */
#define CLAIM_TRIES  1000  /* all claimed: tried again this often, */
#define CLAIM_PAUSE_NS 10000000ull /* 10 ms apart */
#define RECLAIM_TRIES 10   /* lookups past an ended instance of the PCI server */

/* A claimed virtio-pci function, for the configuration reads of the walk. */
struct pci_fn {
	unsigned long pci; /* the "pci" endpoint's slot */
	unsigned long device, index;
	unsigned long bar[VIRTIO_PCI_MAX_BARS]; /* frame slots; 0: no such BAR */
	uint64_t bar_size[VIRTIO_PCI_MAX_BARS];
	void *bar_va[VIRTIO_PCI_MAX_BARS];
};

static uint32_t config_read(void *ctx, unsigned int offset)
{
	struct pci_fn *f = ctx;
	uint64_t v = 0;

	/* a failed read is all ones, as a function that does not answer reads */
	if (tacet_pci_config(f->pci, VIRTIO_PCI_VENDOR, f->device, f->index, offset, &v))
		return 0xffffffffu;
	return (uint32_t)v;
}

/* One pass over the functions of the modern device ID, then of the transitional one: 0 and
 * f->device, f->index for the first the server lets this driver claim; -TACET_EBUSY if there are
 * some but all are claimed; else the last claim's error. */
static long claim_once(struct pci_fn *f, uint32_t device_id, unsigned long bar0,
		       struct tacet_pci_device *info)
{
	unsigned long ids[2] = { VIRTIO_PCI_DEVICE_MODERN + device_id,
				 virtio_pci_transitional_id(device_id) };
	long err = -TACET_ENOENT, busy = 0;

	for (unsigned int k = 0; k < 2 && ids[k]; k++)
		for (unsigned long i = 0; i < MAX_INDEX; i++) {
			err = tacet_pci_claim(f->pci, VIRTIO_PCI_VENDOR, ids[k], i, bar0, info);
			busy |= err == -TACET_EBUSY;
			if (err == -TACET_EBUSY)
				continue;
			if (err)
				break;
			f->device = ids[k], f->index = i;
			return 0;
		}
	return busy && err == -TACET_ENOENT ? -TACET_EBUSY : err;
}

/* claim_once until a function is free: a restarted driver's previous instance may still hold
 * its function while the server quiets it (up to CLAIM_TRIES x CLAIM_PAUSE_NS). */
static long claim(struct pci_fn *f, uint32_t device_id, unsigned long bar0,
		  struct tacet_pci_device *info)
{
	long err = claim_once(f, device_id, bar0, info);

	for (unsigned int i = 0; err == -TACET_EBUSY && i < CLAIM_TRIES; i++) {
		tacet_sleep_ns(CLAIM_PAUSE_NS);
		err = claim_once(f, device_id, bar0, info);
	}
	return err;
}

/* claim from the "pci" server's current instance: a lookup that still reached an ended one
 * (init has not yet taken its end) is made again, past it, up to RECLAIM_TRIES times. */
static long claim_current(struct pci_fn *f, uint32_t device_id, unsigned long bar0,
			  struct tacet_pci_device *info)
{
	unsigned long instance = 0;
	long err = tacet_lookup_instance("pci", f->pci, LOOKUP_TRIES, &instance);

	for (unsigned int i = 0; !err; i++) {
		err = claim(f, device_id, bar0, info);
		if (err != -TACET_EDEAD || i == RECLAIM_TRIES)
			break;
		err = tacet_reconnect_next("pci", f->pci, LOOKUP_TRIES, &instance);
	}
	return err;
}

/* Each other BAR's frame (the claim brought BAR0's into f->bar[0] if it has one). */
static long get_bars(struct pci_fn *f)
{
	for (unsigned int i = 1; i < VIRTIO_PCI_MAX_BARS; i++) {
		long slot = tacet_slot_alloc(), err;
		uint64_t size = 0;

		if (slot < 0)
			return slot;
		err = tacet_pci_bar(f->pci, VIRTIO_PCI_VENDOR, f->device, f->index, i,
				    (unsigned long)slot, &size);
		if (err == -TACET_ENOENT) {
			tacet_slot_free((unsigned long)slot);
			continue;
		}
		if (err)
			return err;
		f->bar[i] = (unsigned long)slot;
		f->bar_size[i] = size;
	}
	return 0;
}

/* BAR i mapped (once); its address, or NULL. */
static volatile uint8_t *map_bar(struct pci_fn *f, unsigned int i)
{
	unsigned long pages = (f->bar_size[i] + TACET_PAGE_SIZE - 1) / TACET_PAGE_SIZE, va;

	if (f->bar_va[i])
		return f->bar_va[i];
	va = tacet_va_alloc(pages);
	if (!va || tacet_map(TACET_CHILD_SELF, f->bar[i], va, TACET_RIGHT_READ | TACET_RIGHT_WRITE))
		return NULL;
	f->bar_va[i] = (void *)va;
	return f->bar_va[i];
}

static volatile uint8_t *map_region(struct pci_fn *f, const struct virtio_pci_region *r)
{
	volatile uint8_t *bar = map_bar(f, r->bar);

	return bar ? bar + r->offset : NULL;
}

/* The layout's structures mapped into m; 0 or -TACET_ENOMEM. */
static long map_layout(struct pci_fn *f, const struct virtio_pci_layout *l,
		       struct virtio_pci_mapped *m)
{
	*m = (struct virtio_pci_mapped){ .notify_length = l->notify.length,
					 .notify_multiplier = l->notify_multiplier,
					 .device_length = l->device.length };
	m->common = map_region(f, &l->common);
	m->notify = map_region(f, &l->notify);
	m->isr = map_region(f, &l->isr);
	m->device = l->device.length ? map_region(f, &l->device) : NULL;
	return m->common && m->notify && m->isr && (m->device || !l->device.length)
		       ? 0 : -TACET_ENOMEM;
}

/* The device's interrupt into irq_slot: MSI-X vector 0 on this thread's hart where the machine
 * has message-signalled interrupts (PCI_MSI; queue 0 signals it), else its INTx line. *irq
 * becomes the line's number; 1 for an MSI-X vector, 0 for INTx, or a negative TACET_E* code. */
static long get_interrupt(struct pci_fn *f, unsigned long irq_slot, unsigned int *irq)
{
	struct tacet_self self = { 0 };
	unsigned long line = 0;
	long err;

	tacet_self(&self);
	err = tacet_pci_msi(f->pci, VIRTIO_PCI_VENDOR, f->device, f->index, 0, self.hart, irq_slot,
			    &line);
	if (!err) {
		*irq = (unsigned int)line;
		return 1;
	}
	if (err != -TACET_ENODEV)
		return err;
	return tacet_pci_irq(f->pci, VIRTIO_PCI_VENDOR, f->device, f->index, irq_slot);
}

/* The device quiet (reset: it forgets the queues a previous driver gave it) before bus
 * mastering and its line come on; then negotiated. dev->found is the Status before that reset. */
static long pci_start(struct tacet_device *io, struct virtio_device *dev, struct pci_fn *f,
		      const struct virtio_pci_mapped *m, uint32_t device_id, uint64_t features)
{
	long irq_slot = tacet_slot_alloc(), err, msix;
	unsigned int irq = io->irq;
	uint32_t found;

	*dev = (struct virtio_device){ .transport = &virtio_pci_transport, .pci = *m };
	found = virtio_status(dev);
	if (dev->transport->reset(dev)) {
		dev->why = "the device did not finish its reset";
		return -TACET_EBUSY;
	}
	err = irq_slot < 0 ? irq_slot
			   : tacet_pci_master(f->pci, VIRTIO_PCI_VENDOR, f->device, f->index);
	msix = err ? err : get_interrupt(f, (unsigned long)irq_slot, &irq);
	err = msix < 0 ? msix : 0;
	if (!err) /* an MSI-X line is the driver's alone; INTx lines are shared by slot */
		err = tacet_device_adopt(io, tacet_dma_device_slot(), (unsigned long)irq_slot, irq,
					 msix ? 0 : TACET_DEVICE_SHARED);
	if (!err) /* the claim lives no longer than the instance that granted it */
		err = tacet_device_watch_bus(io, f->pci, "pci");
	if (!err)
		err = virtio_pci_open(dev, m, device_id, features);
	dev->pci.msix_held = msix > 0 ? 1 : 0;
	dev->pci.pci_ep = f->pci, dev->pci.pci_device = f->device, dev->pci.pci_index = f->index;
	dev->found = found;
	return err;
}

/* The PCI half of virtio_probe. */
static long probe_pci(struct tacet_device *io, struct virtio_device *dev, uint32_t device_id,
		      uint64_t features)
{
	struct pci_fn f = { 0 };
	struct tacet_pci_device info = { 0 };
	struct virtio_pci_layout l;
	struct virtio_pci_mapped m;
	long pci = tacet_slot_alloc(), bar0 = tacet_slot_alloc(), err;

	*io = (struct tacet_device){ 0 };
	if (pci < 0 || bar0 < 0)
		return pci < 0 ? pci : bar0;
	f.pci = (unsigned long)pci;
	/* the notification claim's pauses sleep on, made whether it pauses or not: every
	 * instance holds the same kernel objects (the fault campaign's leak check counts them) */
	err = tacet_sleep_ns(0);
	if (!err)
		err = claim_current(&f, device_id, (unsigned long)bar0, &info);
	if (err)
		return err;
	if (info.bar0_size)
		f.bar[0] = (unsigned long)bar0, f.bar_size[0] = info.bar0_size;
	io->irq = (unsigned int)info.irq;
	err = get_bars(&f);
	if (!err)
		err = virtio_pci_find_caps(config_read, &f, f.bar_size, &l, &dev->why);
	if (!err)
		err = map_layout(&f, &l, &m);
	if (err)
		return err;
	tacet_dma_device(f.bar[l.common.bar]); /* buffers pinned to the function's frame */
	return pci_start(io, dev, &f, &m, device_id, features);
}

long virtio_msix_new(struct virtio_device *dev, unsigned int vector, unsigned int hart,
		     unsigned long ntfn, unsigned long bits, unsigned long *irq_slot,
		     unsigned int *line)
{
	long slot, err = virtio_msix_decode(dev, vector);
	unsigned long number = 0;

	if (!err && (dev->pci.msix_held & (1u << vector)))
		err = -TACET_EBUSY;
	if (err)
		return err;
	slot = tacet_slot_alloc();
	if (slot < 0)
		return slot;
	err = tacet_pci_msi(dev->pci.pci_ep, VIRTIO_PCI_VENDOR, dev->pci.pci_device,
			    dev->pci.pci_index, vector, hart, (unsigned long)slot, &number);
	if (!err)
		err = tacet_irq_bind((unsigned long)slot, ntfn, bits, 0);
	if (err) {
		tacet_slot_free((unsigned long)slot); /* PCI_MSI's line stays the function's */
		return err;
	}
	dev->pci.msix_held |= 1u << vector;
	*irq_slot = (unsigned long)slot;
	*line = (unsigned int)number;
	return 0;
}

long virtio_probe(struct tacet_device *io, struct virtio_device *dev, uint32_t device_id,
		  uint64_t features)
{
	long err;

	*dev = (struct virtio_device){ 0 };
	if (!tacet_device_find(VIRTIO_MMIO_COMPATIBLE, 0))
		return probe_pci(io, dev, device_id, features);
	err = tacet_device_open(io, VIRTIO_MMIO_COMPATIBLE, 0, 0);
	return err ? err : virtio_open(dev, io->regs, device_id, features);
}
