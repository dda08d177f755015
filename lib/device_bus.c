/* device_bus.c: a device granted by a bus server lives no longer than the bus server's instance
 * (<tacet/driver.h>, tacet_device_watch_bus): the watch on its endpoint, and the driver's end
 * when that instance ends, which device.c's take reaches through dev->bus_ended. Called by
 * lib's virtio_probe (a virtio-pci function claimed from "pci") from the thread that waits on
 * the device; no state of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>

_Static_assert(!(TACET_DEVICE_BUS_ENDED & (TACET_SESSION_BITS | TACET_NTFN_BIT_RESERVED)),
	       "the bus watch's bit is none of the session table's, nor the kernel's");

/* The bus instance that granted the device ended: the driver ends, named as the kernel's
 * thread list names its process. */
static void __attribute__((noreturn)) bus_ended(const struct tacet_device *dev)
{
	struct tacet_thread_info ti;
	struct tacet_self self = { 0 };
	char name[sizeof(ti.process)] = "driver";

	tacet_self(&self);
	for (unsigned long i = 0; tacet_info(TACET_INFO_THREAD, i, &ti, sizeof(ti)) > 0; i++)
		if (ti.tid == self.tid)
			memcpy(name, ti.process, sizeof(name) - 1);
	printf("%s: the %s instance that granted its device ended; ending\n", name, dev->bus);
	exit(TACET_DEVICE_BUS_ENDED_STATUS);
}

long tacet_device_watch_bus(struct tacet_device *dev, unsigned long bus_ep, const char *bus)
{
	long err = dev->ntfn_slot ? tacet_endpoint_watch(bus_ep, dev->ntfn_slot,
							 TACET_DEVICE_BUS_ENDED) : -TACET_EINVAL;

	if (!err) {
		dev->bus = bus;
		dev->bus_ended = bus_ended;
	}
	return err;
}
