/* pci_dt.c: reading a PCI host bridge's `ranges` and `interrupt-map` (see pci_dt.h). */
#include "lib/pci_dt.h"

#define RANGE_CELLS 7      /* child address (3) + parent address (2) + size (2) */
/* An interrupt-map entry: child unit (3) + child pin (1) + parent phandle (1), then the
 * parent's #interrupt-cells, the line first (1 on the PLIC, 2 on the APLIC: line, sense). */
#define IMAP_CHILD  5
#define DEV_SHIFT   11     /* the device number in a child address's phys.hi */
#define DEV_MASK    0x1800 /* what the usual interrupt-map-mask keeps of it (device % 4) */
#define PIN_MASK    7

bool pci_dt_range(const struct fdt *fdt, int node, uint32_t i, struct pci_range *out)
{
	uint32_t len;
	const uint8_t *r = fdt_getprop(fdt, node, "ranges", &len);
	uint32_t off = i * RANGE_CELLS * 4;

	if (!r || off + RANGE_CELLS * 4 > len)
		return false;
	out->space = (enum pci_space)((fdt_be32(r + off) >> 24) & 3);
	out->cpu_addr = fdt_cells_read(r + off + 12, 2);
	out->size = fdt_cells_read(r + off + 20, 2);
	return true;
}

/* The cells of the controller's part of each entry (its #interrupt-cells: 1 on the PLIC, 2 on
 * the APLIC), read from the map itself: the one count from 1 to 3 that cuts the map into whole
 * entries all naming the first entry's controller. Looking the controller up by its phandle
 * would walk the whole tree (~80,000 instructions on QEMU's, in one hold of the root server's
 * set-up). 0: no such count (a malformed map: no entry is read). */
static uint32_t imap_parent_cells(const uint8_t *map, uint32_t len)
{
	for (uint32_t cells = 1; cells <= 3; cells++) {
		uint32_t stride = (IMAP_CHILD + cells) * 4, off;

		if (!map || !len || len % stride)
			continue;
		for (off = stride; off < len; off += stride)
			if (fdt_be32(map + off + (IMAP_CHILD - 1) * 4) !=
			    fdt_be32(map + (IMAP_CHILD - 1) * 4))
				break;
		if (off >= len)
			return cells;
	}
	return 0;
}

bool pci_dt_imap_open(const struct fdt *fdt, int node, struct pci_imap *im)
{
	uint32_t mlen;
	const uint8_t *m = fdt_getprop(fdt, node, "interrupt-map-mask", &mlen);

	im->map = fdt_getprop(fdt, node, "interrupt-map", &im->len);
	im->cells = imap_parent_cells(im->map, im->len);
	if (im->cells)
		im->cells += IMAP_CHILD;
	im->dev_mask = DEV_MASK;
	im->pin_mask = PIN_MASK;
	if (m && mlen >= 16) {
		im->dev_mask = fdt_be32(m);
		im->pin_mask = fdt_be32(m + 12);
	}
	return im->map != NULL;
}

bool pci_dt_imap_at(const struct pci_imap *im, uint32_t i, struct pci_imap_entry *out)
{
	uint32_t off = i * im->cells * 4;
	const uint8_t *r = im->map;

	if (!r || !im->cells || off + im->cells * 4 > im->len)
		return false;
	out->dev = (fdt_be32(r + off) & im->dev_mask) >> DEV_SHIFT;
	out->dev_mask = im->dev_mask;
	out->pin = fdt_be32(r + off + 12) & im->pin_mask;
	out->irq = fdt_be32(r + off + 20);
	return true;
}

bool pci_dt_imap(const struct fdt *fdt, int node, uint32_t i, struct pci_imap_entry *out)
{
	struct pci_imap im;

	return pci_dt_imap_open(fdt, node, &im) && pci_dt_imap_at(&im, i, out);
}
