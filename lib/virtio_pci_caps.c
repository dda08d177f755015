/* virtio_pci_caps.c: the capability walk of a virtio-pci function (<tacet/virtio.h>,
 * virtio_pci_find_caps): which BAR, offset and length hold its common configuration,
 * notifications, ISR and device configuration (virtio 1.x, "Virtio Structure PCI
 * Capabilities"). The configuration space is the device's to write, so every word read is
 * checked before it is used: the list is followed at most once per offset and never out of the
 * header's 256 bytes, each structure must lie inside its BAR. Pure (reads through the caller's
 * callback, no state): the host tests run it against hostile configuration spaces. */
#include <tacet.h>
#include <tacet/virtio.h>

#define CFG_COMMAND  0x04       /* the status register is its upper half */
#define STATUS_CAPS  (1u << 20) /* Capabilities List, as the word at CFG_COMMAND reads */
#define CFG_CAPS     0x34       /* the first capability's offset, in its low byte */
#define CFG_END      256        /* the header's configuration space; capabilities live in it */
#define CAP_FIRST    0x40       /* below this, the standard header */

struct walk {
	uint32_t (*read)(void *ctx, unsigned int offset);
	void *ctx;
	const uint64_t *bar_size;
	const char **why;
};

static long refuse(const struct walk *w, long err, const char *why)
{
	*w->why = why;
	return err;
}

/* A vendor capability at off, cap_len bytes, into *r; 1 if it names a region (a BAR that is
 * one of the six; the spec has the driver ignore the others), 0 if not, or an error. */
static long read_region(const struct walk *w, unsigned int off, unsigned int cap_len,
			struct virtio_pci_region *r)
{
	uint32_t bar = w->read(w->ctx, off + 4) & 0xff;
	uint64_t end;

	if (cap_len < VIRTIO_PCI_CAP_LEN || off + cap_len > CFG_END)
		return refuse(w, -TACET_EINVAL, "a virtio capability shorter than its fields, or "
				 "past the configuration header");
	if (bar >= VIRTIO_PCI_MAX_BARS)
		return 0;
	*r = (struct virtio_pci_region){ .bar = (uint8_t)bar, .offset = w->read(w->ctx, off + 8),
					 .length = w->read(w->ctx, off + 12) };
	end = (uint64_t)r->offset + r->length;
	if (!w->bar_size[bar] || end > w->bar_size[bar])
		return refuse(w, -TACET_ERANGE, "a virtio structure past the end of its BAR");
	return 1;
}

/* The first vendor capability of type `type` keeps its place; later ones are ignored. */
static long take(const struct walk *w, unsigned int off, uint32_t head,
		 struct virtio_pci_layout *l, uint32_t *seen)
{
	unsigned int cap_len = (head >> 16) & 0xff, type = head >> 24;
	struct virtio_pci_region r, *slot;
	long got;

	switch (type) {
	case VIRTIO_PCI_CAP_COMMON_CFG:
		slot = &l->common;
		break;
	case VIRTIO_PCI_CAP_NOTIFY_CFG:
		slot = &l->notify;
		break;
	case VIRTIO_PCI_CAP_ISR_CFG:
		slot = &l->isr;
		break;
	case VIRTIO_PCI_CAP_DEVICE_CFG:
		slot = &l->device;
		break;
	default:
		return 0; /* PCI configuration access, shared memory, vendor data: not used */
	}
	if (*seen & (1u << type))
		return 0;
	if (type == VIRTIO_PCI_CAP_NOTIFY_CFG && cap_len < VIRTIO_PCI_NOTIFY_CAP_LEN)
		return refuse(w, -TACET_EINVAL, "a notify capability without its multiplier");
	got = read_region(w, off, cap_len, &r);
	if (got <= 0)
		return got;
	if (type == VIRTIO_PCI_CAP_NOTIFY_CFG)
		l->notify_multiplier = w->read(w->ctx, off + 16);
	*slot = r;
	*seen |= 1u << type;
	return 0;
}

/* The structures must be big enough for their fields and aligned for their accesses. */
static long check_layout(const struct walk *w, const struct virtio_pci_layout *l, uint32_t seen)
{
	if (!(seen & (1u << VIRTIO_PCI_CAP_COMMON_CFG)))
		return refuse(w, -TACET_ENOENT, "no common configuration capability");
	if (!(seen & (1u << VIRTIO_PCI_CAP_NOTIFY_CFG)))
		return refuse(w, -TACET_ENOENT, "no notify capability");
	if (!(seen & (1u << VIRTIO_PCI_CAP_ISR_CFG)))
		return refuse(w, -TACET_ENOENT, "no ISR capability");
	if (l->common.length < VIRTIO_PCI_COMMON_LEN || l->common.offset % 4)
		return refuse(w, -TACET_EINVAL, "a common configuration too small or misaligned");
	if (l->notify.length < 2 || l->notify.offset % 2 || l->notify_multiplier % 2)
		return refuse(w, -TACET_EINVAL, "a notify structure too small, misaligned, or an odd "
				 "multiplier");
	if (!l->isr.length)
		return refuse(w, -TACET_EINVAL, "an empty ISR structure");
	if (l->device.offset % 4)
		return refuse(w, -TACET_EINVAL, "a device configuration misaligned");
	return 0;
}

long virtio_pci_find_caps(uint32_t (*read)(void *ctx, unsigned int offset), void *ctx,
			  const uint64_t bar_size[VIRTIO_PCI_MAX_BARS],
			  struct virtio_pci_layout *layout, const char **why)
{
	struct walk w = { read, ctx, bar_size, why };
	uint64_t visited = 0; /* one bit per 4-byte word of the header */
	uint32_t seen = 0;
	unsigned int off;

	*layout = (struct virtio_pci_layout){ 0 };
	if (!(read(ctx, CFG_COMMAND) & STATUS_CAPS))
		return refuse(&w, -TACET_ENOENT, "no capability list");
	for (off = read(ctx, CFG_CAPS) & 0xfc; off; ) {
		uint32_t head;
		long err;

		if (off < CAP_FIRST)
			return refuse(&w, -TACET_EINVAL, "a capability inside the standard header");
		if (visited & (1ull << (off / 4)))
			return refuse(&w, -TACET_EINVAL, "the capability list loops");
		visited |= 1ull << (off / 4);
		head = read(ctx, off);
		if ((head & 0xff) == VIRTIO_PCI_CAP_VENDOR && (err = take(&w, off, head, layout, &seen)))
			return err;
		off = (head >> 8) & 0xfc;
	}
	return check_layout(&w, layout, seen);
}

/* Transitional device IDs (0x1000 + n) of the device types that have one. */
unsigned int virtio_pci_transitional_id(uint32_t device_id)
{
	switch (device_id) {
	case VIRTIO_ID_NET:
		return 0x1000;
	case VIRTIO_ID_BLK:
		return 0x1001;
	case VIRTIO_ID_BALLOON:
		return 0x1002;
	case VIRTIO_ID_CONSOLE:
		return 0x1003;
	case VIRTIO_ID_SCSI:
		return 0x1004;
	case VIRTIO_ID_RNG:
		return 0x1005;
	case VIRTIO_ID_9P:
		return 0x1009;
	default:
		return 0;
	}
}
