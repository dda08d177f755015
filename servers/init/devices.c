/* devices.c: the devices of init.run= (`:compat+compat...`): matched against the boot
 * information's devices, given to a server (frame and line, and the child information page that
 * describes them), owned by it until its end; then made quiet and their DMA quarantine released
 * (quiet_devices). The supervisor's alone: no lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet/quiesce.h>
#include <tacet/virtio.h>
#include "init.h"
#include "lib/elf.h" /* the kernel's ELF reader (servers/servers.mk) */

/* Who holds each device of bi->devices: its server number + 1, 0 if nobody. */
static unsigned char device_owner[TACET_BOOTINFO_MAX_DEVICES];
/* A virtio-mmio transport's DeviceID + 1 (0: not read yet; 1: none, or not virtio). */
static unsigned int virtio_ids[TACET_BOOTINFO_MAX_DEVICES];

/* What sits behind virtio-mmio transport i: its DeviceID (lib's virtio kit reads it; 0: nothing
 * attached, or no virtio-mmio registers there). Read once, through init's own capability to the
 * frame: QEMU's virt has eight transports and attaches devices to them in an order of its own,
 * so only init, which holds them all, can tell a driver which one is its device. */
static unsigned int virtio_id(unsigned long i)
{
	const struct tacet_bootinfo_device *d = &bi->devices[i];

	if (!virtio_ids[i]) {
		virtio_ids[i] = 1;
		if (d->slot && !(d->paddr & (TACET_PAGE_SIZE - 1)) &&
		    tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, PROBE_VA, TACET_RIGHT_READ) == 0) {
			virtio_ids[i] = virtio_mmio_device_id((volatile void *)PROBE_VA, d->size) + 1;
			tacet_unmap(TACET_SLOT_SELF_PROCESS, PROBE_VA, 1);
		}
	}
	return virtio_ids[i] - 1;
}

/* Does device i answer to `wanted` (a compatible, or a virtio device name)? */
static int device_matches(unsigned long i, const char *wanted)
{
	const char *compatible = bi->devices[i].compatible;
	unsigned int id = virtio_id_named(wanted);

	if (id)
		return !strcmp(compatible, VIRTIO_MMIO_COMPATIBLE) && virtio_id(i) == id;
	return tacet_compatible_matches(compatible, wanted);
}

_Static_assert(TACET_CHILD_DEVICE_IRQ == TACET_CHILD_DEVICE + 1, "a device's slots are a pair");

/* A PCI bus's memory window: its bus server's to quiet and release (give_one_device). */
static int bus_window(const struct tacet_bootinfo_device *d)
{
	return tacet_compatible_matches(d->compatible, "tacet,pci-mmio32");
}

/* Give device d to the child: frame and IRQ into the pair of slots at `slot`. */
/* A server gets its devices' frames to read and write. The PCI bus's memory window
 * (tacet,pci-mmio32) comes with TACET_RIGHT_RELEASE too: the bus server is the authority over
 * the functions in it, one root frame for all of them, and the only one that can quiet and
 * reset each: it releases the DMA quarantine of one function's part of the window once that
 * function's driver has ended and the function is quiet (servers/pci/pci.c), and the whole
 * window's when it starts again after an end (not init, which cannot quiet the functions).
 * No other server gets RELEASE: init quiets and releases the devices it gave
 * (quiet_devices). */
static long give_one_device(unsigned long child, const struct tacet_bootinfo_device *d,
			    unsigned long slot, struct tacet_bootinfo_device *desc)
{
	unsigned long rights = TACET_RIGHT_READ | TACET_RIGHT_WRITE;
	long err = 0;

	if (d->slot && (d->paddr & (TACET_PAGE_SIZE - 1)))
		return -TACET_EALIGN;
	*desc = *d;
	desc->slot = d->slot ? (unsigned int)slot : 0;
	desc->irq_slot = d->irq_slot ? (unsigned int)slot + 1 : 0;
	if (bus_window(d))
		rights |= TACET_RIGHT_RELEASE;
	if (d->slot)
		err = tacet_cap_give(child, d->slot, slot, rights);
	if (!err && d->irq_slot)
		err = tacet_cap_give(child, d->irq_slot, slot + 1, TACET_RIGHT_WRITE);
	return err;
}

/* The devices `want` names, into chosen[] (after the *n already there, skipping those
 * already chosen), for server id. 0, or a negative TACET_E* code after saying why: nothing
 * matched, too many devices, or a device another server holds. */
static long choose_devices(unsigned int id, char *want, unsigned long *chosen,
			   unsigned int *n)
{
	unsigned int matched = 0, seen = 0;
	char *hash = strchr(want, '#');
	long only = -1; /* `compat#K`: only the K-th device it matches (0 the first) */

	if (hash) {
		only = strtol(hash + 1, NULL, 10);
		*hash = 0;
	}
	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];
		unsigned int k = 0, owner = device_owner[i];

		if (!device_matches(i, want) || (only >= 0 && seen++ != (unsigned long)only))
			continue;
		matched++;
		while (k < *n && chosen[k] != i)
			k++;
		if (k < *n)
			continue; /* named twice */
		if (owner && owner != id + 1) {
			printf("init: %s: device %s at 0x%lx belongs to %s; not starting %s\n",
			       servers[id].name, d->compatible, d->paddr, servers[owner - 1].name,
			       servers[id].name);
			return -TACET_EBUSY;
		}
		if (*n == TACET_CHILD_MAX_DEVICES) {
			printf("init: %s: more than %u devices\n", servers[id].name,
			       TACET_CHILD_MAX_DEVICES);
			return -TACET_ERANGE;
		}
		chosen[(*n)++] = i;
	}
	if (matched)
		return 0;
	if (virtio_id_named(want))
		printf("init: %s: no device matches \"%s\" (no virtio-mmio transport has device ID "
		       "%u)\n", servers[id].name, want, virtio_id_named(want));
	else
		printf("init: %s: no device matches \"%s\"%s\n", servers[id].name, want,
		       strchr(want, ',') ? " (a comma in the device part continues the compatible "
					   "unless a module's name follows it)" : "");
	return -TACET_ENOENT;
}

/* Into name (NAME_BYTES): the first name server id's entry grants it (`=name+...`; its
 * module's without `=`; empty with `=` alone), which a server that may run as several instances
 * of one module publishes (tacet_service_name). */
_Static_assert(NAME_BYTES == sizeof(((struct tacet_child_devices *)0)->name), "a name fits");

static void first_name(unsigned int id, char *name)
{
	const char *spec = servers[id].names;
	unsigned int len = 0;

	memset(name, 0, NAME_BYTES);
	if (*spec++ != '=') {
		strncpy(name, servers[id].name, NAME_BYTES - 1);
		return;
	}
	while (spec[len] && spec[len] != '+' && len < NAME_BYTES - 1)
		len++;
	memcpy(name, spec, len);
}

/* The child information page (every server gets one): the timebase frequency, and the devices
 * server id's `compat+compat...` names (none if spec is empty): each into the child's device
 * slots, the first also into TACET_CHILD_DEVICE / TACET_CHILD_DEVICE_IRQ, all described on the
 * read-only page; then they are the server's (device_owner), until release_devices. */
long give_devices(unsigned int id, unsigned long child, const char *spec)
{
	struct tacet_child_devices *list = (struct tacet_child_devices *)SCRATCH_VA;
	unsigned long chosen[TACET_CHILD_MAX_DEVICES], page;
	unsigned int n = 0;
	long err = 0;

	while (!err && *spec) {
		char want[sizeof(bi->devices[0].compatible)] = { 0 };
		unsigned int len = 0;

		while (*spec && *spec != '+' && len < sizeof(want) - 1)
			want[len++] = *spec++;
		if (*spec == '+')
			spec++;
		err = choose_devices(id, want, chosen, &n);
	}
	if (err)
		return err;
	page = (unsigned long)tacet_slot_alloc();
	err = tacet_frame_new(page, 1);
	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, page, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err) {
		list->timebase_hz = bi->timebase_hz;
		list->instance = servers[id].restarts;
		first_name(id, list->name);
	}
	for (unsigned int k = 0; !err && k < n; k++) {
		const struct tacet_bootinfo_device *d = &bi->devices[chosen[k]];

		err = give_one_device(child, d, TACET_CHILD_DEVICE_SLOTS + 2 * k, &list->devices[k]);
		if (!err && k == 0)
			err = give_one_device(child, d, TACET_CHILD_DEVICE,
					      &(struct tacet_bootinfo_device){ 0 });
		list->count += !err;
	}
	tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	if (!err)
		err = tacet_map(child, page, TACET_CHILD_DEVICES_VADDR, TACET_RIGHT_READ);
	tacet_slot_free(page);
	for (unsigned int k = 0; !err && k < n; k++)
		device_owner[chosen[k]] = (unsigned char)(id + 1);
	return err;
}

/* The quiesce descriptions server id's module image declares (TACET_QUIESCE_SECTION of its
 * ELF file, <tacet/quiesce.h>), into *len bytes; NULL if none. A section whose headers lie
 * outside the image is said and ignored: nothing of it is applied. */
static const void *quiesce_section(unsigned int id, size_t *len)
{
	const struct tacet_module *m =
		tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, servers[id].name);
	const uint8_t *image = m ? (const uint8_t *)bi->modules_vaddr + m->offset : NULL;
	uint64_t off = 0, size = 0;
	const char *why = NULL;
	int found = m ? elf_section(image, m->size, TACET_QUIESCE_SECTION, &off, &size, &why) : 0;

	if (found < 0)
		printf("init: %s: its quiesce descriptions are unreadable (%s); none applied\n",
		       servers[id].name, why);
	*len = found > 0 ? size : 0;
	return found > 0 ? image + off : NULL;
}

/* Make device i quiet as server id's own description for it says (section: its image's,
 * len bytes), the device mapped at PROBE_VA: 1 done, 0 nothing to do (no description, or its
 * guard said so), negative if refused or failed (said; a refused description wrote nothing).
 * The description is checked against the device's registers, and never beyond the one page
 * init maps: a malformed one touches nothing. */
static long quiet_one(unsigned int id, unsigned long i, const void *section, size_t len)
{
	const struct tacet_bootinfo_device *d = &bi->devices[i];
	unsigned long size = d->size < TACET_PAGE_SIZE ? d->size : TACET_PAGE_SIZE;
	struct tacet_quiesce q;
	const char *why = NULL;
	long r = tacet_quiesce_find(section, len, d->compatible, &q, &why);

	if (r > 0 && ((d->paddr & (TACET_PAGE_SIZE - 1)) ||
		      tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, PROBE_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE)))
		return 0; /* a device not mappable on its own: left as it is */
	if (r > 0) {
		r = tacet_quiesce_apply(&q, (volatile uint8_t *)PROBE_VA, size, &why);
		tacet_unmap(TACET_SLOT_SELF_PROCESS, PROBE_VA, 1);
	}
	if (r < 0)
		printf("init: %s: %s at 0x%lx not quieted: its description %s: %s\n",
		       servers[id].name, d->compatible, d->paddr,
		       r == -TACET_EINVAL ? "refused, nothing written" : "failed", why);
	return r;
}

/* Server s (number id) ended: each device it held is made quiet as the server's own image says
 * (quiet_one: nothing is written to a device it declares no description for), then the DMA
 * quarantine of its frames goes back to the pool (tacet_device_release: init holds the devices
 * with TACET_RIGHT_RELEASE, its servers do not, but the PCI server, for its window). PCI
 * functions are the PCI server's to quiet, reset and release, one at a time, as their drivers
 * end (give_one_device). */
void quiet_devices(unsigned int id)
{
	unsigned long start = tacet_cycles();
	unsigned int reset = 0;
	size_t len = 0;
	const void *section = quiesce_section(id, &len);
	long back = 0;

	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];
		long n;

		if (device_owner[i] != id + 1 || !d->slot || bus_window(d))
			continue; /* a bus window: the bus server's next start releases it */
		reset += quiet_one(id, i, section, len) > 0;
		n = tacet_device_release(d->slot);
		back += n > 0 ? n : 0;
	}
	if (reset || back)
		printf("init: %s's devices: %u reset, %ld pages back from their DMA quarantine "
		       "(%lu cycles)\n", servers[id].name, reset, back, tacet_cycles() - start);
}

/* Server id could not start: its devices are free for another. */
void release_devices(unsigned int id)
{
	for (unsigned long i = 0; i < TACET_BOOTINFO_MAX_DEVICES; i++)
		if (device_owner[i] == id + 1)
			device_owner[i] = 0;
}
