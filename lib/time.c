/* time.c: the timebase's frequency and conversions, and sleeping
 * (<tacet/driver.h>); and the server's instance number, from the same page.
 *
 * The frequency is in the device tree; the kernel puts it in init's boot information and init
 * on every server's child information page. Both pages sit at the same address
 * (TACET_BOOTINFO_VADDR == TACET_CHILD_DEVICES_VADDR); the boot information starts with its
 * magic, which a device count never equals, so one read tells them apart. The value is read
 * once and kept. tacet_sleep_ns waits on a notification of lib's own, made at the first sleep. */
#include <tacet.h>
#include <tacet/bootinfo.h>
#include <tacet/init_proto.h>

#define NS_PER_S 1000000000ull

_Static_assert(TACET_BOOTINFO_VADDR == TACET_CHILD_DEVICES_VADDR, "one page, told apart by magic");

static unsigned long hz;
static long sleep_slot;

unsigned long tacet_timebase_hz(void)
{
	if (!hz) {
		const struct tacet_bootinfo *bi = (const void *)TACET_BOOTINFO_VADDR;
		const struct tacet_child_devices *child = (const void *)TACET_CHILD_DEVICES_VADDR;

		hz = bi->magic == TACET_BOOTINFO_MAGIC ? bi->timebase_hz : child->timebase_hz;
	}
	return hz;
}

unsigned long tacet_instance(void)
{
	const struct tacet_bootinfo *bi = (const void *)TACET_BOOTINFO_VADDR;
	const struct tacet_child_devices *child = (const void *)TACET_CHILD_DEVICES_VADDR;

	return bi->magic == TACET_BOOTINFO_MAGIC ? 0 : child->instance; /* init: one instance */
}

const char *tacet_service_name(void)
{
	const struct tacet_bootinfo *bi = (const void *)TACET_BOOTINFO_VADDR;
	const struct tacet_child_devices *child = (const void *)TACET_CHILD_DEVICES_VADDR;

	return bi->magic == TACET_BOOTINFO_MAGIC ? "init" : child->name;
}

/* whole seconds and the rest apart, so that nothing overflows for any 64-bit input */
uint64_t tacet_ticks_to_ns(uint64_t ticks)
{
	uint64_t f = tacet_timebase_hz();

	return ticks / f * NS_PER_S + ticks % f * NS_PER_S / f;
}

uint64_t tacet_ns_to_ticks(uint64_t ns)
{
	uint64_t f = tacet_timebase_hz();

	return ns / NS_PER_S * f + (ns % NS_PER_S * f + NS_PER_S - 1) / NS_PER_S;
}

uint64_t tacet_time_ns(void)
{
	return tacet_ticks_to_ns(tacet_time());
}

long tacet_sleep_ns(uint64_t ns)
{
	long err;

	if (!sleep_slot) {
		long slot = tacet_slot_alloc();

		if (slot < 0)
			return slot;
		err = tacet_ntfn_new((unsigned long)slot);
		if (err) {
			tacet_slot_free((unsigned long)slot);
			return err;
		}
		sleep_slot = slot;
	}
	if (!ns)
		return 0;
	err = tacet_timer_set((unsigned long)sleep_slot, 1, tacet_time() + tacet_ns_to_ticks(ns));
	if (!err)
		err = tacet_wait((unsigned long)sleep_slot);
	return err < 0 ? err : 0;
}
