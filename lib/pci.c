/* pci.c: the client side of the PCI server's protocol (<tacet/pci_proto.h>). */
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>

/* One call whose reply carries a capability into slot; the server's w0 or the call's error. */
static long call_for_cap(unsigned long pci, struct tacet_msg *msg, unsigned long slot)
{
	long err = tacet_call_cap(pci, msg, slot);

	if (!err)
		err = (long)msg->w[0];
	if (!err && !TACET_TAG_HAS_CAP(msg->tag))
		err = -TACET_EEMPTY; /* the server said yes but sent nothing */
	return err;
}

long tacet_pci_claim(unsigned long pci, unsigned long vendor, unsigned long device,
		     unsigned long index, unsigned long frame_slot, struct tacet_pci_device *dev)
{
	/* the watch-only capability travels from the scratch slot, emptied right after */
	struct tacet_msg msg = { .tag = TACET_TAG_CAP(PCI_CLAIM, 3, TACET_CHILD_LIB_SCRATCH),
				 .w = { vendor, device, index } };
	long err = tacet_cap_copy(TACET_CHILD_SELF, TACET_CHILD_LIB_SCRATCH, 0, 0);

	if (err)
		return err;
	err = call_for_cap(pci, &msg, frame_slot);
	tacet_cap_delete(TACET_CHILD_LIB_SCRATCH);
	if (err)
		return err;
	dev->irq = msg.w[1];
	dev->bar0_size = msg.w[2];
	dev->bus_slot = msg.w[3];
	return 0;
}

long tacet_pci_irq(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long irq_slot)
{
	struct tacet_msg msg = { .tag = TACET_TAG(PCI_IRQ, 3), .w = { vendor, device, index } };

	return call_for_cap(pci, &msg, irq_slot);
}

long tacet_pci_master(unsigned long pci, unsigned long vendor, unsigned long device,
		      unsigned long index)
{
	struct tacet_msg msg = { .tag = TACET_TAG(PCI_MASTER, 3), .w = { vendor, device, index } };
	long err = tacet_call(pci, &msg);

	return err ? err : (long)msg.w[0];
}
