/* edu: a driver for QEMU's edu PCI device (1234:11e8) that tests interrupt delivery on a PCI
 * INTx line, possibly shared with other devices.
 *
 * Device: claimed from the PCI server (looked up as "pci"; <pci_proto.h>): the first edu device
 * not yet claimed by another edu server, counting from index 0, so that several edu servers
 * started together take one device each. Its BAR0 registers (hw/misc/edu.c): 0x00 identification
 * (low byte 0xed), 0x04 liveness (reads back what was written, inverted), 0x24 interrupt status,
 * 0x60 raise (the written bits are or-ed into the status and the interrupt asserted), 0x64
 * acknowledge (the written bits are cleared; the interrupt is deasserted when none are left).
 *
 * Test: binds the line with TACET_IRQ_SHARED, then raises EDU_ROUNDS interrupts one at a time.
 * Every notification is acknowledged to the kernel (tacet_irq_ack) with handled = whether this
 * device's status had bits set, since a shared line is unmasked only once every binder has
 * acknowledged; a notification with status 0 was another device's. A timer catches a lost
 * interrupt. Prints `edu N: raised R, handled H (O for other devices): PASS` (N the device's
 * index among the edu devices) and exits 0 if every interrupt raised was handled exactly once.
 *
 * IPC: none served; calls PCI_CLAIM on "pci".
 */
#include <stdio.h>
#include <tacet.h>
#include <tacet/init_proto.h>
#include <tacet/pci_proto.h>

#define EDU_VENDOR    0x1234
#define EDU_DEVICE    0x11e8
#define EDU_ROUNDS    1000
#define EDU_MAX_INDEX 32

#define EDU_VA        0x0000002000000000ul
#define EDU_ID        (0x00 / 4)
#define EDU_LIVENESS  (0x04 / 4)
#define EDU_IRQ_STATUS (0x24 / 4)
#define EDU_IRQ_RAISE (0x60 / 4)
#define EDU_IRQ_ACK   (0x64 / 4)
#define EDU_IRQ_BIT   0x1u

#define SLOT_PCI      (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_BAR      (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_IRQ      (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_NTFN     (TACET_CHILD_FIRST_FREE + 3)
#define IRQ_BADGE     1
#define TIMER_BADGE   2
#define LOST_TICKS    10000000ul /* 1 s of the 10 MHz timebase: the interrupt was lost */

static volatile uint32_t *const edu = (volatile uint32_t *)EDU_VA;

/* Claims the first free edu device: its index, or a negative TACET_E* code. */
static long claim(unsigned long *irq)
{
	for (unsigned long index = 0; index < EDU_MAX_INDEX; index++) {
		struct tacet_msg msg = {
			.tag = TACET_TAG_CAP(PCI_CLAIM, 4, TACET_CHILD_SELF),
			.w = { EDU_VENDOR, EDU_DEVICE, index, PCI_SLOTS(SLOT_BAR, SLOT_IRQ) },
		};
		long err = tacet_call(SLOT_PCI, &msg);

		if (!err)
			err = (long)msg.w[0];
		if (err == -TACET_EBUSY)
			continue;
		if (err)
			return err;
		*irq = msg.w[1];
		return (long)index;
	}
	return -TACET_ENOENT;
}

int main(void)
{
	unsigned long irq = 0, raised = 0, handled = 0, others = 0;
	const char *step = "look up \"pci\"";
	long index = -1, err;
	uint32_t id;

	err = tacet_lookup("pci", SLOT_PCI, 10000);
	if (!err && (step = "claim an edu device")) {
		index = claim(&irq);
		err = index < 0 ? index : 0;
	}
	if (!err && (step = "map its registers"))
		err = tacet_map(TACET_CHILD_SELF, SLOT_BAR, EDU_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && (step = "create the notification"))
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err && (step = "bind the interrupt"))
		err = tacet_irq_bind(SLOT_IRQ, SLOT_NTFN, IRQ_BADGE, TACET_IRQ_SHARED);
	if (err) {
		printf("edu: cannot %s: %s: FAIL\n", step, tacet_strerror(err));
		return 1;
	}
	id = edu[EDU_ID];
	edu[EDU_LIVENESS] = 0x5a5a0f0f;
	if ((id & 0xff) != 0xed || edu[EDU_LIVENESS] != ~0x5a5a0f0fu) {
		printf("edu %ld: not alive (id %#x): FAIL\n", index, id);
		return 1;
	}
	printf("edu %ld: id %#x, irq %lu\n", index, id, irq);

	while (raised < EDU_ROUNDS) {
		int ours = 0;

		edu[EDU_IRQ_RAISE] = EDU_IRQ_BIT;
		raised++;
		tacet_timer_set(SLOT_NTFN, TIMER_BADGE, tacet_time() + LOST_TICKS);
		while (!ours) {
			long bits = tacet_wait(SLOT_NTFN);
			uint32_t status;

			if (bits < 0) {
				printf("edu %ld: wait failed: %s: FAIL\n", index, tacet_strerror(bits));
				return 1;
			}
			if (bits & IRQ_BADGE) {
				status = edu[EDU_IRQ_STATUS];
				ours = status != 0;
				if (ours) {
					edu[EDU_IRQ_ACK] = status; /* deasserts our part of the line */
					handled++;
				} else {
					others++;
				}
				tacet_irq_ack(SLOT_IRQ, ours);
			}
			if (!ours && (bits & TIMER_BADGE)) {
				printf("edu %ld: interrupt %lu lost (status %#x): FAIL\n", index,
				       raised, edu[EDU_IRQ_STATUS]);
				return 1;
			}
		}
	}
	tacet_timer_set(SLOT_NTFN, TIMER_BADGE, 0);
	printf("edu %ld: raised %lu, handled %lu (%lu for other devices): %s\n", index, raised,
	       handled, others, raised == handled ? "PASS" : "FAIL");
	return raised == handled ? 0 : 1;
}
