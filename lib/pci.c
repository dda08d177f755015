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
		     unsigned long index, unsigned long frame_slot, unsigned long irq_slot,
		     struct tacet_pci_device *dev)
{
	/* the watch-only capability travels from irq_slot, which is empty until the second call */
	struct tacet_msg msg = { .tag = TACET_TAG_CAP(PCI_CLAIM, 3, irq_slot),
				 .w = { vendor, device, index } };
	long err = tacet_cap_copy(TACET_CHILD_SELF, irq_slot, 0, 0);

	if (err)
		return err;
	err = call_for_cap(pci, &msg, frame_slot);
	tacet_cap_delete(irq_slot);
	if (err)
		return err;
	dev->irq = msg.w[1];
	dev->bar0_size = msg.w[2];
	dev->bus_slot = msg.w[3];
	msg = (struct tacet_msg){ .tag = TACET_TAG(PCI_IRQ, 3), .w = { vendor, device, index } };
	err = call_for_cap(pci, &msg, irq_slot);
	if (err)
		tacet_cap_delete(frame_slot);
	return err;
}
