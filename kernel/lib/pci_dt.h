/* pci_dt.h: a PCI host bridge's device-tree node as the PCI bus binding lays it out: `ranges`
 * (its address windows) and `interrupt-map` with `interrupt-map-mask` (the controller line each
 * device's INTx pin reaches). Read by the root server's set-up (rootserver.c) and the test
 * kernel's edu tests (kernel/test/ktest_edu.c); boot hart, no state, no locking. */
#ifndef KERNEL_PCI_DT_H
#define KERNEL_PCI_DT_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/fdt.h"

enum pci_space { PCI_SPACE_CONFIG, PCI_SPACE_IO, PCI_SPACE_MMIO32, PCI_SPACE_MMIO64 };

struct pci_range {
	enum pci_space space;
	uint64_t cpu_addr; /* where the window is in the CPU's physical address space */
	uint64_t size;
};

struct pci_imap_entry {
	uint32_t dev;      /* the device-number bits the mask keeps (usually device % 4) */
	uint32_t dev_mask; /* those bits: dev of device d is (d << 11 & dev_mask) >> 11 */
	uint32_t pin;      /* 1..4: INTA..INTD */
	uint32_t irq;      /* the controller line */
};

/* Range i of node; false past the last. */
bool pci_dt_range(const struct fdt *fdt, int node, uint32_t i, struct pci_range *out);
/* Entry i of node's interrupt-map, masked by its interrupt-map-mask; false past the last. */
bool pci_dt_imap(const struct fdt *fdt, int node, uint32_t i, struct pci_imap_entry *out);
/* The same with the two properties looked up once (each lookup walks the node's properties):
 * pci_dt_imap_open finds them (false: no interrupt-map), pci_dt_imap_at reads entry i. */
struct pci_imap {
	const uint8_t *map;
	uint32_t len, dev_mask, pin_mask;
	uint32_t cells; /* one entry's cells: the child's 5 and the controller's #interrupt-cells */
};
bool pci_dt_imap_open(const struct fdt *fdt, int node, struct pci_imap *im);
bool pci_dt_imap_at(const struct pci_imap *im, uint32_t i, struct pci_imap_entry *out);
/* Whether entry e is the one for bus 0's device dev. */
static inline bool pci_dt_imap_is_for(const struct pci_imap_entry *e, uint32_t dev)
{
	return e->dev == ((dev << 11) & e->dev_mask) >> 11;
}

#endif
