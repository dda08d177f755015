/* scale_irq.c: the bench_irq_scale server: an edu interrupt's raise to its driver on the same
 * hart (as irq_raise_to_server_same_hart, bench_irq_path) with 1, 4, 16 and 64 servers, each
 * bound to a line of its own while lines last, all but the measured driver asleep (the rule:
 * nothing on the path may walk all lines or all threads). Each sleeping server is a child of
 * its own on this hart (scale.h, SCALE_SLEEP: it waits for ever on a notification); this
 * process binds the line to that notification. The lines are the devices init gives it (start it
 * with `:virtio,mmio+goldfish-rtc+ns16550a`: the eight virtio-mmio transports, the RTC and the
 * UART, whose devices never raise them here) besides the edu's: 11 lines in all, every line
 * QEMU's virt machine has but the PCI host's other three, so from 16 servers on the rest sleep
 * unbound. (More lines would take more devices than the boot information page describes,
 * TACET_BOOTINFO_MAX_DEVICES.) Reports scale_irq_N for each N, and prints the lines bound.
 * Start it at IRQ_PRIO_MAIN with the PCI server and an edu device, with ^ (it powers off). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include "bench.h"
#include "irq.h"
#include "scale.h"

enum scale_irq_slot {
	SLOT_NTFN = IRQ_SLOT_FREE, /* a sleeper's notification, until its child holds it */
	SLOT_CHILD,
	SLOT_CODE,
	SLOT_KEEPER,
	SLOT_SPARE,
};

#define FILL_VA 0x0000002100000000ul
#define PRIO    50 /* the sleepers': below every thread of the measurement */

static const unsigned long points[] = { 1, 4, 16, 64 };
_Static_assert(sizeof(points) / sizeof(points[0]) <= IRQ_MAX_PATHS, "a path per point");
static struct bench_irq_path paths[sizeof(points) / sizeof(points[0])];

static unsigned long lines = 1; /* bound: the edu's, then the devices' */
static unsigned long next_device;

/* One more sleeping server; its notification bound to the next device's line, if one is left. */
static long sleeper_new(unsigned int hart)
{
	const struct tacet_child_devices *devs = (const void *)TACET_CHILD_DEVICES_VADDR;
	long err = tacet_ntfn_new(SLOT_NTFN);

	while (next_device < devs->count && !devs->devices[next_device].irq_slot)
		next_device++;
	if (!err && next_device < devs->count) {
		err = tacet_irq_bind(devs->devices[next_device++].irq_slot, SLOT_NTFN, 1, 0);
		lines += !err;
	}
	if (!err)
		err = scale_child_new(SLOT_CHILD, SLOT_NTFN, TACET_RIGHT_READ, SCALE_SLEEP, PRIO, hart);
	if (!err)
		err = scale_keep(SLOT_CHILD);
	return err ? err : tacet_cap_delete(SLOT_NTFN);
}

int main(void)
{
	struct tacet_self self;
	unsigned long servers = 1; /* the measured driver */
	long err;

	tacet_self(&self);
	err = scale_setup(SLOT_CODE, SLOT_KEEPER, SLOT_SPARE, FILL_VA);
	if (!err)
		err = bench_irq_open();
	for (unsigned int p = 0; !err && p < sizeof(points) / sizeof(points[0]); p++) {
		static char names[sizeof(points) / sizeof(points[0])][24];

		while (!err && servers < points[p]) {
			err = sleeper_new((unsigned int)self.hart);
			servers++;
		}
		if (!err)
			err = scale_settle(servers - 1);
		snprintf(names[p], sizeof(names[p]), "scale_irq_%lu", points[p]);
		paths[p] = (struct bench_irq_path){
			.name = names[p], .waiter_hart = (unsigned int)self.hart,
			.raiser_hart = (unsigned int)self.hart, .warmup = BENCH_WARMUP,
			.samples = BENCH_SAMPLES,
		};
		if (!err)
			err = bench_irq_path(&paths[p]);
		if (!err) {
			printf("bench_irq_scale: %lu servers, %lu lines bound\n", servers, lines);
			bench_report(names[p], bench_irq_to_server, BENCH_SAMPLES);
		}
	}
	if (err) {
		printf("bench_irq_scale: %s (%lu servers, %lu lines bound)\n", tacet_strerror(err),
		       servers, lines);
		return 1;
	}
	bench_power_off();
	return 0;
}
