/* edu_dev.c: claiming, mapping and binding an edu device (see edu_dev.h). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/pci_proto.h>
#include "edu_dev.h"

#define EDU_VENDOR    0x1234
#define EDU_DEVICE    0x11e8
#define EDU_MAX_INDEX 32
#define LOOKUP_TRIES  10000 /* 1 ms apart: 10 s */

/* Claims the first free edu device: its index, or a negative TACET_E* code. */
static long claim(unsigned long *irq)
{
	for (unsigned long index = 0; index < EDU_MAX_INDEX; index++) {
		struct tacet_msg msg = {
			.tag = TACET_TAG_CAP(PCI_CLAIM, 4, TACET_CHILD_SELF),
			.w = { EDU_VENDOR, EDU_DEVICE, index, PCI_SLOTS(EDU_SLOT_BAR, EDU_SLOT_IRQ) },
		};
		long err = tacet_call(EDU_SLOT_PCI, &msg);

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

long edu_open(struct edu *e, unsigned long va, unsigned long badge)
{
	const char *step = "look up \"pci\"";
	long err = tacet_lookup("pci", EDU_SLOT_PCI, LOOKUP_TRIES);

	e->index = -1;
	if (!err && (step = "claim an edu device")) {
		e->index = claim(&e->irq);
		err = e->index < 0 ? e->index : 0;
	}
	if (!err && (step = "map its registers"))
		err = tacet_map(TACET_CHILD_SELF, EDU_SLOT_BAR, va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && (step = "create the notification"))
		err = tacet_ntfn_new(EDU_SLOT_NTFN);
	if (!err && (step = "bind the interrupt"))
		err = tacet_irq_bind(EDU_SLOT_IRQ, EDU_SLOT_NTFN, badge, TACET_IRQ_SHARED);
	if (err) {
		printf("edu: cannot %s: %s: FAIL\n", step, tacet_strerror(err));
		return err;
	}
	e->regs = (volatile uint32_t *)va;
	e->regs[EDU_LIVENESS] = 0x5a5a0f0f;
	if ((e->regs[EDU_ID] & 0xff) != 0xed || e->regs[EDU_LIVENESS] != ~0x5a5a0f0fu) {
		printf("edu %ld: not alive (id %#x): FAIL\n", e->index, e->regs[EDU_ID]);
		return -TACET_EINVAL;
	}
	return 0;
}
