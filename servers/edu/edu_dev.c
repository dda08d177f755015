/* edu_dev.c: claiming, mapping and binding an edu device (see edu_dev.h). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/pci_proto.h>
#include "edu_dev.h"

#define EDU_VENDOR    0x1234
#define EDU_DEVICE    0x11e8
#define EDU_MAX_INDEX 32
#define LOOKUP_TRIES  10000 /* 1 ms apart: 10 s */
#define CLAIM_TRIES   1000
#define CLAIM_PAUSE_NS 10000000ull /* 10 ms */
#define DMA_IDLE_MS   1000        /* a transfer runs 100 ms: one still running after this is lost */
/* Slot s (an enum edu_slot) of a device whose slots start at e->slot. */
#define SLOT(e, s) ((e)->slot + (s) - EDU_SLOT_PCI)

/* One pass over the edu devices: the index of the first one claimed, or a negative TACET_E*
 * code (-TACET_EBUSY: there are some, all claimed). */
static long claim_once(const struct edu *e, unsigned long *irq)
{
	long busy = 0;

	for (unsigned long index = 0; index < EDU_MAX_INDEX; index++) {
		struct tacet_pci_device dev;
		long err = tacet_pci_claim(SLOT(e, EDU_SLOT_PCI), EDU_VENDOR, EDU_DEVICE, index,
					   SLOT(e, EDU_SLOT_BAR), &dev);

		if (err == -TACET_EBUSY) {
			busy = 1;
			continue;
		}
		if (err == -TACET_ENOENT && busy)
			return -TACET_EBUSY;
		if (err)
			return err;
		*irq = dev.irq;
		return (long)index;
	}
	return -TACET_ENOENT;
}

/* Claims the first free edu device, waiting (up to CLAIM_TRIES x CLAIM_PAUSE_NS) for one to
 * be released when all are claimed: its index, or a negative TACET_E* code. */
static long claim(const struct edu *e, unsigned long *irq)
{
	long index = claim_once(e, irq);

	for (unsigned int i = 0; index == -TACET_EBUSY && i < CLAIM_TRIES; i++) {
		tacet_sleep_ns(CLAIM_PAUSE_NS);
		index = claim_once(e, irq);
	}
	return index;
}

/* How open_at gets the device's interrupt. */
enum { INTX_SHARED, INTX_ALONE, MSI };

/* The device's interrupt: with MSI, a message-signalled line on this driver's hart where the
 * machine has them (PCI_MSI), bound alone; else (or without it) its INTx line, bound shared
 * unless INTX_ALONE. e->msi says which. 0 or a negative TACET_E* code; *step names what
 * failed. */
static long get_interrupt(struct edu *e, unsigned long badge, int how, const char **step)
{
	struct tacet_self self = { 0 };
	long err = how == MSI ? 0 : -TACET_ENODEV;

	tacet_self(&self);
	e->msi = 0;
	if (!err && (*step = "get a message-signalled interrupt"))
		err = tacet_pci_msi(SLOT(e, EDU_SLOT_PCI), EDU_VENDOR, EDU_DEVICE,
				    (unsigned long)e->index, 0, self.hart, SLOT(e, EDU_SLOT_IRQ),
				    &e->irq);
	if (!err)
		e->msi = 1;
	else if (err == -TACET_ENODEV && (*step = "get its interrupt line"))
		err = tacet_pci_irq(SLOT(e, EDU_SLOT_PCI), EDU_VENDOR, EDU_DEVICE,
				    (unsigned long)e->index, SLOT(e, EDU_SLOT_IRQ));
	if (!err && (*step = "bind the interrupt"))
		err = tacet_irq_bind(SLOT(e, EDU_SLOT_IRQ), SLOT(e, EDU_SLOT_NTFN), badge,
				     e->msi || how == INTX_ALONE ? 0 : TACET_IRQ_SHARED);
	return err;
}

static long open_at(struct edu *e, unsigned long badge, unsigned long first_slot, int how);

long edu_open(struct edu *e, unsigned long badge)
{
	return open_at(e, badge, EDU_SLOT_PCI, INTX_SHARED);
}

long edu_open_alone(struct edu *e, unsigned long badge)
{
	return open_at(e, badge, EDU_SLOT_PCI, INTX_ALONE);
}

long edu_open_msi(struct edu *e, unsigned long badge)
{
	return open_at(e, badge, EDU_SLOT_PCI, MSI);
}

long edu_open_at(struct edu *e, unsigned long badge, unsigned long first_slot)
{
	return open_at(e, badge, first_slot, INTX_SHARED);
}

static long open_at(struct edu *e, unsigned long badge, unsigned long first_slot, int how)
{
	const char *step = "look up \"pci\"";
	long err;
	unsigned long va = 0, pa, pages = 0;

	e->slot = first_slot;
	e->index = -1;
	err = tacet_lookup("pci", SLOT(e, EDU_SLOT_PCI), LOOKUP_TRIES);
	if (!err && (step = "create the notification"))
		err = tacet_ntfn_new(SLOT(e, EDU_SLOT_NTFN));
	if (!err && (step = "claim an edu device")) {
		e->index = claim(e, &e->irq);
		err = e->index < 0 ? e->index : 0;
	}
	if (!err && (step = "map its registers"))
		err = tacet_frame_info(SLOT(e, EDU_SLOT_BAR), &pa, &pages);
	if (!err)
		err = (va = tacet_va_alloc(pages)) ? tacet_map(TACET_CHILD_SELF, SLOT(e, EDU_SLOT_BAR),
							       va, TACET_RIGHT_READ | TACET_RIGHT_WRITE)
						   : -TACET_ENOMEM;
	if (!err && (step = "wait for the DMA transfer a previous driver left")) {
		/* A previous driver may have ended with a DMA transfer running (pci turned bus
		 * mastering off: the device writes nothing, but goes on counting): until it ends,
		 * the DMA registers ignore writes, and its end raises an interrupt. Bus mastering
		 * comes on only after it (PCI_MASTER, below): on before, the transfer's end would
		 * write into its dead driver's page, back in the pool. */
		volatile uint32_t *regs = (volatile uint32_t *)va;
		unsigned int ms = 0;

		while ((mmio_read32(&regs[EDU_DMA_CMD32]) & EDU_DMA_RUN) && ms++ < DMA_IDLE_MS)
			tacet_sleep_ns(1000000);
		if (ms > DMA_IDLE_MS)
			err = -TACET_EBUSY;
	}
	if (!err) {
		/* A previous driver may have ended with an interrupt raised and not acknowledged:
		 * its status bits would assert the line as soon as INTx is on, and that interrupt,
		 * not ours, would be delivered to us (or, the line already up, our first raise would
		 * make no new edge). pci cannot clear it: it is the device's own register. So clear
		 * every bit while INTx is still off (pci turns it on with PCI_IRQ), then ask for
		 * the line. */
		e->regs = (volatile uint32_t *)va;
		mmio_write32(&e->regs[EDU_IRQ_ACK], ~0u);
	}
	if (!err && (step = "turn its bus mastering on")) /* quiet now: no transfer left running */
		err = tacet_pci_master(SLOT(e, EDU_SLOT_PCI), EDU_VENDOR, EDU_DEVICE,
				       (unsigned long)e->index);
	if (!err)
		err = get_interrupt(e, badge, how, &step);
	if (err) {
		printf("edu: cannot %s: %s: FAIL\n", step, tacet_strerror(err));
		return err;
	}
	mmio_write32(&e->regs[EDU_LIVENESS], 0x5a5a0f0f);
	if ((mmio_read32(&e->regs[EDU_ID]) & 0xff) != 0xed ||
	    mmio_read32(&e->regs[EDU_LIVENESS]) != ~0x5a5a0f0fu) {
		printf("edu %ld: not alive (id %#x): FAIL\n", e->index, mmio_read32(&e->regs[EDU_ID]));
		return -TACET_EINVAL;
	}
	return 0;
}

long edu_move(struct edu *e, unsigned long hart)
{
	if (!e->msi)
		return tacet_irq_set_affinity(SLOT(e, EDU_SLOT_IRQ), hart);
	return tacet_pci_msi_move(SLOT(e, EDU_SLOT_PCI), EDU_VENDOR, EDU_DEVICE,
				  (unsigned long)e->index, 0, hart);
}
