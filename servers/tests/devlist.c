/* devlist: prints the devices init gave it, one line each, and for a virtio-mmio transport what
 * its registers say (MagicValue, Version, DeviceID), read through its own frame: the tests of
 * init's device matching and ownership (tests/qemu/cases_virtio.py) check these lines. Exits 0.
 * No IPC protocol. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/virtio.h>

#define DEVICE_VA 0x0000002000000000ul

/* A virtio-mmio transport's registers: magic, version and device ID. */
static void print_virtio(const struct tacet_bootinfo_device *d)
{
	const volatile uint8_t *regs = (const volatile uint8_t *)DEVICE_VA;
	long err = tacet_map(TACET_CHILD_SELF, d->slot, DEVICE_VA, TACET_RIGHT_READ);

	if (err) {
		printf(" (cannot map: %s)", tacet_strerror(err));
		return;
	}
	printf(", magic 0x%08x version %u virtio device %u",
	       (unsigned int)mmio_read32(regs + VIRTIO_MMIO_MAGIC_VALUE),
	       (unsigned int)mmio_read32(regs + VIRTIO_MMIO_VERSION),
	       (unsigned int)mmio_read32(regs + VIRTIO_MMIO_DEVICE_ID));
	tacet_unmap(TACET_CHILD_SELF, DEVICE_VA, 1);
}

int main(void)
{
	const struct tacet_child_devices *given = (const void *)TACET_CHILD_DEVICES_VADDR;

	printf("devlist: %lu devices\n", given->count);
	for (unsigned long i = 0; i < given->count; i++) {
		const struct tacet_bootinfo_device *d = &given->devices[i];

		printf("devlist: %s at 0x%lx irq %u", d->compatible, d->paddr, d->irq);
		if (!strcmp(d->compatible, VIRTIO_MMIO_COMPATIBLE))
			print_virtio(d);
		printf("\n");
	}
	return 0;
}
