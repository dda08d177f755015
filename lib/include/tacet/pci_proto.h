/* pci_proto.h: the PCI server's IPC protocol, on the endpoint it publishes as "pci".
 *
 *   PCI_CLAIM (vendor, device, index, slots) + the caller's own process capability
 *       (TACET_TAG_CAP with slot TACET_CHILD_SELF): claims the index-th device (counting from
 *       0 in bus order) with that vendor and device ID. The server puts a frame capability for
 *       the device's BAR0 (read/write) into the caller's slot PCI_SLOTS_FRAME(slots) and its
 *       INTx line's IRQ handler capability into slot PCI_SLOTS_IRQ(slots), then drops the
 *       process capability. Build slots with PCI_SLOTS(frame, irq).
 *       Reply w0: 0, or -TACET_ENOENT (no such device), -TACET_EBUSY (already claimed),
 *       -TACET_EPERM (no process capability came with the message), -TACET_EINVAL (the device
 *       has no memory BAR0 or no interrupt pin), -TACET_EBUSY also when the driver's process
 *       has 4 watchers already (PROCESS_WATCH), or the error of the capability transfer.
 *       w1: the IRQ number, w2: BAR0's size in bytes, w3: the device's slot on bus 0.
 *
 * A claim lasts until the driver's process ends; then the device may be claimed again.
 */
#ifndef PCI_PROTO_H
#define PCI_PROTO_H

enum pci_label {
	PCI_CLAIM = 1,
};

#define PCI_SLOTS(frame, irq)  ((unsigned long)(frame) | (unsigned long)(irq) << 32)
#define PCI_SLOTS_FRAME(s)     ((s) & 0xffffffff)
#define PCI_SLOTS_IRQ(s)       ((s) >> 32)

#endif
