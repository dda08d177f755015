/* irq_msi.c: message-signalled interrupt lines (PCI MSI and MSI-X): IRQ_MSI_NEW lends a line
 * of the controller's pool (irqchip.h: nr_msi lines after the wired ones) to a device and
 * answers the address/data pair its device must write; IRQ_MSI_FREE takes it back. A lent line
 * is a line like any other from then on: bound, acknowledged, moved and counted by irq.c and
 * irq_bind.c under the same protocol; it is only never shared, and its hart is the one its
 * device's address names (hart_chosen stays set: a binder does not move it). The authority is
 * the PCI bus's: a device frame with TACET_RIGHT_RELEASE (init gives the bus window so to the
 * bus server alone), which hands the line's capability to the function's driver as it hands
 * an INTx line. A free ends every capability the lending made, wherever copies went: each
 * carries the lending's number as its badge, and a call through one of an ended lending fails
 * (irq_cap_live), also once the line is lent again. The lender's end frees what it lent
 * (irq_release_owner): a bus server that is restarted lends afresh, and the pool never drains
 * into lendings nobody can free. BKL held (system calls). */
#include "irq/irq.h"
#include "irq/irqchip.h"
#include "object/cap.h"
#include "object/frame.h"
#include "object/process.h"
#include "core/panic.h"
#include "core/syscall.h"
#include <tacet/abi.h>

static uint64_t lendings; /* IRQ_MSI_NEW's so far: each lending's number (irq_cap_live) */

/* The bus authority in argument 0: a device frame with TACET_RIGHT_RELEASE; 0 or the error. */
static long decode_bus(struct thread *t)
{
	long err;
	struct cap *c = cap_lookup(t->proc->cspace, syscall_arg(t, 0), TACET_CAP_FRAME,
				   TACET_RIGHT_RELEASE, &err);

	if (!c)
		return err;
	if (!((struct frame *)c->obj)->device)
		return TACET_EPERM; /* RAM: no bus behind it */
	return irq_chip && irq_chip->msi_alloc ? 0 : TACET_ENODEV;
}

/* (bus, hart, dst) -> 0; a1 = address, a2 = data, a3 = the line's number */
void sys_irq_msi_new(struct thread *t)
{
	unsigned long hart = syscall_arg(t, 1);
	long err = decode_bus(t), line;
	struct cap *dst = NULL;
	uint64_t addr;
	uint32_t data;
	struct irq_desc *d;

	if (!err && (hart >= nharts || !harts[hart].online))
		err = TACET_EINVAL;
	if (!err)
		dst = cap_empty_slot(t->proc->cspace, syscall_arg(t, 2), &err);
	if (err) {
		syscall_ret(t, -err);
		return;
	}
	line = irq_chip->msi_alloc((unsigned int)hart, &addr, &data);
	if (line < 0) {
		syscall_ret(t, line); /* -TACET_ENOMEM: every identity is lent */
		return;
	}
	d = irq_desc_get((unsigned int)line);
	KASSERT(d && d->msi && !d->lent && d->state == IRQ_UNBOUND,
		"irq_msi_new: the controller lent line %ld, not one of its pool", line);
	d->lent = true;
	d->lending = ++lendings;
	d->lender = t->proc;
	t->proc->irq_refs++;
	d->hart = (unsigned int)hart;
	cap_install(dst, &d->obj, TACET_RIGHT_READ | TACET_RIGHT_WRITE | TACET_RIGHT_GRANT,
		    d->lending);
	syscall_ret(t, 0);
	arch_ctx_set_ret(&t->ctx, 1, addr);
	arch_ctx_set_ret(&t->ctx, 2, data);
	arch_ctx_set_ret(&t->ctx, 3, (unsigned long)line);
}

/* (bus, irq) -> 0 */
void sys_irq_msi_free(struct thread *t)
{
	long err = decode_bus(t);
	struct cap *c = err ? NULL : cap_lookup(t->proc->cspace, syscall_arg(t, 1), TACET_CAP_IRQ,
						TACET_RIGHT_WRITE, &err);
	struct irq_desc *d = c ? (struct irq_desc *)c->obj : NULL;

	if (d && (!d->msi || !irq_cap_live(d, c->badge)))
		err = TACET_EINVAL; /* a wired line, or one freed since this capability was made */
	if (err) {
		syscall_ret(t, -err);
		return;
	}
	irq_msi_end(d);
	syscall_ret(t, 0);
}

void irq_msi_end(struct irq_desc *d)
{
	while (d->nbinders)
		irq_unbind(d, &d->binders[0]); /* masked, UNBOUND once the last has left */
	irq_chip->msi_free(d->irq);
	irq_detect_reset(d); /* the next device's driver is not blamed for this one's record */
	d->lent = false;
	d->lender->irq_refs--;
	d->lender = NULL;
}
