/* pcitest: lists the devices on PCI bus 0 through the host bridge's ECAM registers, to test the
 * kernel's frame derivation (a 1 MiB part of the 256 MiB ECAM frame) and the PCI resources in
 * the boot information, delegated by init. Started as
 * `pcitest:pci-host-ecam-generic+pci-mmio32+pci-intx`. No IPC protocol. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define ECAM_VA      0x0000002000000000ul
#define BUS_PAGES    256 /* 1 MiB of configuration space per bus */
#define SLOT_BUS0    (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_BAD     (TACET_CHILD_FIRST_FREE + 1)
#define ECAM_DEVFN(dev, fn) (((dev) << 15) | ((fn) << 12))

int main(void)
{
	unsigned long rights = 0;
	long err = tacet_frame_derive(TACET_CHILD_DEVICE, SLOT_BUS0, 0, BUS_PAGES);
	int found = 0;

	if (!err)
		err = tacet_map(TACET_CHILD_SELF, SLOT_BUS0, ECAM_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err) {
		printf("pcitest: FAIL: cannot map bus 0: %s\n", tacet_strerror(err));
		return 1;
	}
	for (unsigned int dev = 0; dev < 32; dev++) {
		volatile uint32_t *cfg = (volatile uint32_t *)(ECAM_VA + ECAM_DEVFN(dev, 0));
		uint32_t id = cfg[0], class = cfg[2] >> 8;

		if ((id & 0xffff) == 0xffff)
			continue;
		printf("pci: 00:%02x.0 vendor %04x device %04x class %06x\n", dev, id & 0xffff,
		       id >> 16, class);
		found++;
	}
	/* part of a frame beyond its end, and no more rights than the whole */
	err = tacet_frame_derive(TACET_CHILD_DEVICE, SLOT_BAD, 65536, 1);
	if (err != -TACET_ERANGE) {
		printf("pcitest: FAIL: deriving past the end gave %ld\n", err);
		return 1;
	}
	if (tacet_cap_info(SLOT_BUS0, &rights, NULL) != TACET_CAP_FRAME ||
	    rights != (TACET_RIGHT_READ | TACET_RIGHT_WRITE)) {
		printf("pcitest: FAIL: derived frame rights %#lx\n", rights);
		return 1;
	}
	{
		const struct tacet_child_devices *given = (const void *)TACET_CHILD_DEVICES_VADDR;
		unsigned long intx = 0;

		printf("pcitest: given %lu devices:", given->count);
		for (unsigned long i = 0; i < given->count; i++) {
			const struct tacet_bootinfo_device *d = &given->devices[i];

			printf(" %s", d->compatible);
			if (d->irq_slot && tacet_cap_info(d->irq_slot, NULL, NULL) == TACET_CAP_IRQ) {
				printf("(irq %u)", d->irq);
				intx++;
			}
		}
		printf("\n");
		if (intx != 4) {
			printf("pcitest: FAIL: %lu INTx lines, want 4\n", intx);
			return 1;
		}
	}
	printf("pcitest: %d devices on bus 0: %s\n", found, found ? "PASS" : "FAIL");
	return found ? 0 : 1;
}
