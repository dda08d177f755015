/* pci_proto.h: the PCI server's IPC protocol, on the endpoint it publishes as "pci" (each
 * client's copy badged by init, so the server knows which driver calls; WRITE and GRANT only).
 *
 *   PCI_CLAIM (vendor, device, index) + a capability to the caller's own process WITHOUT
 *       rights (TACET_TAG_CAP; made with tacet_cap_copy(self, slot, 0, 0)): it can do nothing
 *       but be watched, which is all the server needs to learn of the driver's end. Claims the
 *       index-th device (counting from 0 in bus order) with that vendor and device ID for the
 *       caller; the reply carries a frame capability for the device's BAR0 (read/write) into
 *       the caller's reply slot (tacet_call_cap). Reply w0: 0, or -TACET_ENOENT (no such
 *       device), -TACET_EBUSY (already claimed, or the driver's process has 4 watchers
 *       already), -TACET_EPERM (no process capability came, or one with rights),
 *       -TACET_EINVAL (the device has no memory BAR at all, or no interrupt pin).
 *       w1: the IRQ number, w2: BAR0's size in bytes, w3: the device's slot on bus 0. A device
 *       whose BAR0 is not a memory BAR the server placed (virtio-pci's modern functions have
 *       their structures in BAR4) is claimed too: w2 is 0 and no capability comes.
 *   PCI_IRQ (vendor, device, index): the reply carries the IRQ handler capability of the
 *       device's INTx line, and the function's INTx is turned on; only for the driver that
 *       claimed it (else -TACET_EPERM).
 *   PCI_MASTER (vendor, device, index): the function's bus mastering is turned on (it may do
 *       DMA from now on); only for the driver that claimed it (else -TACET_EPERM).
 *   PCI_BAR (vendor, device, index, bar): the reply carries a frame capability for memory BAR
 *       `bar` (read/write; pinning DMA buffers to it puts them in the function's quarantine, as
 *       BAR0's), w1 its size in bytes; only for the driver that claimed it (else -TACET_EPERM).
 *       -TACET_EINVAL: bar is not 0..5; -TACET_ENOENT: the function has no memory BAR there
 *       (none, an I/O BAR, the upper half of a 64-bit one, or one the window could not place).
 *   PCI_CONFIG (vendor, device, index, offset): w1 the function's 32-bit configuration word at
 *       offset (4-aligned, below 4096: the function's ECAM page), read only: the command
 *       register and everything else stay the server's to write. Only for the driver that
 *       claimed it (else -TACET_EPERM); -TACET_EINVAL for another offset.
 *   PCI_MSI (vendor, device, index, where): a message-signalled interrupt for the claimed
 *       function, on the AIA's machine: a line the kernel lends (tacet_irq_msi_new) on hart
 *       PCI_WHERE_HART(where)'s interrupt file, the function programmed to write it: vector
 *       PCI_WHERE_VECTOR(where) of its MSI-X table, or, a function without MSI-X, its MSI
 *       capability (vector 0 only, one message). The reply carries the line's IRQ handler
 *       capability; w1 = its number. The driver binds it (not shared), acknowledges it as any
 *       line. A message is a write by the function: it needs bus mastering (PCI_MASTER).
 *       -TACET_ENODEV: no MSI controller (the PLIC's machine: use PCI_IRQ), or a function
 *       with neither capability; -TACET_ERANGE: no such vector; -TACET_EBUSY: the vector has
 *       its line already; -TACET_EPERM as for PCI_IRQ.
 *   PCI_MSI_MOVE (vendor, device, index, where): the vector's line to another hart
 *       (tacet_irq_msi_move) and the function reprogrammed to write there; a message sent
 *       before lands in the old hart's file, which sends it on: none is lost.
 *   At the driver's end, before the function's DMA quarantine is released, its messages are
 *   masked (MSI enable off, each MSI-X vector masked) and each line goes back to the kernel
 *   (tacet_irq_msi_free: disabled in every file, a pending message dropped).
 *
 * A claim turns on memory decoding only. Before PCI_IRQ and PCI_MASTER a driver quiets its
 * device (clears an interrupt status, waits for or stops a transfer the previous driver may
 * have left): until PCI_IRQ the function cannot assert its line, and until PCI_MASTER a
 * transfer its previous driver started writes nothing when it ends (the previous driver's
 * pages may be back in the pool, another process's by then). A claim lasts until the driver's
 * process ends; then the device is quiet again (bus mastering and INTx off) and may be claimed
 * again.
 * lib/ wraps them as tacet_pci_claim(), tacet_pci_irq(), tacet_pci_master(), tacet_pci_bar(),
 * tacet_pci_config(), tacet_pci_msi() and tacet_pci_msi_move().
 */
#ifndef PCI_PROTO_H
#define PCI_PROTO_H

#include <stdint.h>

enum pci_label {
	PCI_CLAIM = 1,
	PCI_IRQ = 2,
	PCI_MASTER = 3,
	PCI_MSI = 4,
	PCI_MSI_MOVE = 5,
	PCI_BAR = 6,
	PCI_CONFIG = 7,
};

/* PCI_MSI's and PCI_MSI_MOVE's `where`: an MSI-X vector (0 for MSI) and a hart. */
#define PCI_WHERE(vector, hart) ((unsigned long)(vector) << 16 | (hart))
#define PCI_WHERE_VECTOR(where) ((where) >> 16)
#define PCI_WHERE_HART(where)   ((where) & 0xffff)

/* What tacet_pci_claim() learns about the device. */
struct tacet_pci_device {
	unsigned long irq;       /* the INTx line's number */
	unsigned long bar0_size; /* bytes */
	unsigned long bus_slot;  /* the device's slot on bus 0 */
};

/* Claims the index-th vendor:device function from the PCI server (endpoint in slot pci): its
 * BAR0 frame lands in frame_slot (empty before; it stays empty, and dev->bar0_size 0, for a
 * function without a memory BAR0). Sends only a rights-less capability to the
 * caller's process (made in TACET_CHILD_LIB_SCRATCH for the call). Returns 0 (and fills *dev)
 * or a negative TACET_E* code, the server's or the call's. */
long tacet_pci_claim(unsigned long pci, unsigned long vendor, unsigned long device,
		     unsigned long index, unsigned long frame_slot, struct tacet_pci_device *dev);
/* The claimed function's line: its IRQ handler capability into irq_slot (empty before), INTx
 * on. Quiet the device first. 0 or a negative TACET_E* code. */
long tacet_pci_irq(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long irq_slot);
/* The claimed function may do DMA: bus mastering on. Quiet the device first (no transfer of
 * its previous driver's still running). 0 or a negative TACET_E* code. */
long tacet_pci_master(unsigned long pci, unsigned long vendor, unsigned long device,
		      unsigned long index);
/* The claimed function's memory BAR `bar`: its frame into frame_slot (empty before), *size
 * its bytes. 0 or a negative TACET_E* code (-TACET_ENOENT: no memory BAR there). */
long tacet_pci_bar(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long bar, unsigned long frame_slot, uint64_t *size);
/* The claimed function's configuration word at offset (4-aligned, below 4096) into *value.
 * 0 or a negative TACET_E* code. */
long tacet_pci_config(unsigned long pci, unsigned long vendor, unsigned long device,
		      unsigned long index, unsigned long offset, uint64_t *value);
/* The claimed function's vector (an MSI-X table entry; 0 for MSI) as a message-signalled line
 * on hart's interrupt file: its IRQ handler capability into irq_slot (empty before), *line its
 * number. Bind it without TACET_IRQ_SHARED. -TACET_ENODEV on a machine without MSIs (then
 * tacet_pci_irq), or a negative TACET_E* code (PCI_MSI above). */
long tacet_pci_msi(unsigned long pci, unsigned long vendor, unsigned long device,
		   unsigned long index, unsigned long vector, unsigned long hart,
		   unsigned long irq_slot, unsigned long *line);
/* The vector's line to hart, the function reprogrammed (none lost in the move). */
long tacet_pci_msi_move(unsigned long pci, unsigned long vendor, unsigned long device,
			unsigned long index, unsigned long vector, unsigned long hart);

#endif
