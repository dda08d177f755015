/* pci.c: the client side of the PCI server's protocol (<tacet/pci_proto.h>, the stubs
 * generated from lib/proto/pci.proto). */
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_client.h>

long tacet_pci_claim(unsigned long pci, unsigned long vendor, unsigned long device,
		     unsigned long index, unsigned long frame_slot, struct tacet_pci_device *dev)
{
	/* the watch-only capability travels from the scratch slot, emptied right after */
	uint64_t irq = 0, size = 0, slot = 0;
	long err = tacet_cap_copy(TACET_CHILD_SELF, TACET_CHILD_LIB_SCRATCH, 0, 0);

	if (err)
		return err;
	err = pci_call_claim(pci, vendor, device, index, TACET_CHILD_LIB_SCRATCH, &irq, &size, &slot,
			     frame_slot);
	tacet_cap_delete(TACET_CHILD_LIB_SCRATCH);
	if (err)
		return err;
	dev->irq = irq;
	dev->bar0_size = size;
	dev->bus_slot = slot;
	return 0;
}

long tacet_pci_irq(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long irq_slot)
{
	return pci_call_irq(pci, vendor, device, index, irq_slot);
}

long tacet_pci_master(unsigned long pci, unsigned long vendor, unsigned long device,
		      unsigned long index)
{
	return pci_call_master(pci, vendor, device, index);
}

long tacet_pci_bar(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long bar, unsigned long frame_slot, uint64_t *size)
{
	return pci_call_bar(pci, vendor, device, index, bar, size, frame_slot);
}

long tacet_pci_config(unsigned long pci, unsigned long vendor, unsigned long device,
		      unsigned long index, unsigned long offset, uint64_t *value)
{
	return pci_call_config(pci, vendor, device, index, offset, value);
}

long tacet_pci_msi(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long vector, unsigned long hart,
		   unsigned long irq_slot, unsigned long *line)
{
	uint64_t number = 0;
	long err = pci_call_msi(pci, vendor, device, index, PCI_WHERE(vector, hart), &number,
				irq_slot);

	if (!err)
		*line = number;
	return err;
}

long tacet_pci_msi_move(unsigned long pci, unsigned long vendor, unsigned long device,
			unsigned long index, unsigned long vector, unsigned long hart)
{
	return pci_call_msi_move(pci, vendor, device, index, PCI_WHERE(vector, hart));
}
