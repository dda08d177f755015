/* device.c: opening one of the devices init gave the server, and the interrupt loop
 * (<tacet/driver.h>).
 *
 * The loop's one rule: a bit taken from the device's notification is never dropped. The word
 * is cleared by every wait and poll, so whatever a call takes but does not report goes into
 * dev->pending and is reported by the next call. The timeout is a timer on the same
 * notification (one per notification: arming it again replaces it). When something else comes
 * first the timer is left armed, not cancelled: a TACET_DEVICE_TIMEOUT bit ends a wait only if
 * that wait armed a timer and its deadline has passed, so a bit left by an earlier wait's timer
 * is recognised and dropped (it belongs to no call now).
 *
 * Acknowledging an interrupt tacet_device_wait reported is put off to the next wait, which
 * makes it in the same kernel entry (device_block: tacet_irq_ack_wait), so that a driver's loop
 * is one kernel entry per interrupt. Everything else acknowledges at once (tacet_irq_ack): an
 * interrupt from tacet_device_notified (an IPC loop cannot wait in the ack), a shared line's
 * (the other drivers on it wait for the last ack), and an ack still owed when the kit returns an
 * event without blocking or the device is closed.
 *
 * The bus watch (tacet_device_watch_bus, device_bus.c): its bit is taken like any other, and
 * ends the driver before any event is reported (take): a device whose bus instance has ended is
 * no longer the driver's, whatever else came with it. The ending itself is device_bus.c's,
 * reached through dev->bus_ended, so that a driver that watches no bus links none of it. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>

const struct tacet_bootinfo_device *tacet_device_find(const char *compatible, unsigned int index)
{
	const struct tacet_child_devices *given = (const void *)TACET_CHILD_DEVICES_VADDR;

	for (unsigned long i = 0; i < given->count && i < TACET_CHILD_MAX_DEVICES; i++)
		if (tacet_compatible_matches(given->devices[i].compatible, compatible) && !index--)
			return &given->devices[i];
	return NULL;
}

/* Map the device's frame at a fresh address: 0 or the error. */
static long map_registers(struct tacet_device *dev)
{
	unsigned long pa = 0, pages = 0, va;
	long err = tacet_frame_info(dev->frame_slot, &pa, &pages);

	if (err)
		return err;
	va = tacet_va_alloc(pages);
	if (!va)
		return -TACET_ENOMEM;
	err = tacet_map(TACET_CHILD_SELF, dev->frame_slot, va, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err) {
		tacet_va_free(va, pages);
		return err;
	}
	dev->regs = (volatile uint8_t *)(va + (dev->paddr - pa));
	dev->va_pages = pages;
	return 0;
}

/* The notification, and the line bound to it unless the caller polls. */
static long bind_interrupt(struct tacet_device *dev)
{
	long slot = tacet_slot_alloc(), err;

	if (slot < 0)
		return slot;
	dev->ntfn_slot = (unsigned long)slot;
	err = tacet_ntfn_new(dev->ntfn_slot);
	if (!err && dev->irq_slot && !(dev->flags & TACET_DEVICE_NO_IRQ))
		err = tacet_irq_bind(dev->irq_slot, dev->ntfn_slot, TACET_DEVICE_IRQ,
				     dev->flags & TACET_DEVICE_SHARED ? TACET_IRQ_SHARED : 0);
	return err;
}

long tacet_device_open(struct tacet_device *dev, const char *compatible, unsigned int index,
		       unsigned int flags)
{
	const struct tacet_bootinfo_device *d = tacet_device_find(compatible, index);
	long err;

	memset(dev, 0, sizeof(*dev));
	if (!d || !d->slot)
		return -TACET_ENOENT;
	dev->desc = d;
	dev->paddr = d->paddr;
	dev->size = d->size;
	dev->irq = d->irq;
	dev->frame_slot = d->slot;
	dev->irq_slot = d->irq_slot;
	dev->flags = flags;
	err = flags & TACET_DEVICE_NO_MAP ? 0 : map_registers(dev);
	if (!err)
		err = bind_interrupt(dev);
	if (err)
		tacet_device_close(dev);
	else if (!tacet_dma_device_slot())
		tacet_dma_device(dev->frame_slot); /* its DMA buffers are this device's */
	return err;
}

long tacet_device_adopt(struct tacet_device *dev, unsigned long frame_slot,
			unsigned long irq_slot, unsigned int irq, unsigned int flags)
{
	long err;

	memset(dev, 0, sizeof(*dev));
	dev->frame_slot = frame_slot;
	dev->irq_slot = irq_slot;
	dev->irq = irq;
	dev->flags = flags | TACET_DEVICE_NO_MAP;
	err = bind_interrupt(dev);
	if (err)
		tacet_device_close(dev);
	return err;
}

static long settle(struct tacet_device *dev);

void tacet_device_close(struct tacet_device *dev)
{
	unsigned long va = (unsigned long)dev->regs & ~(TACET_PAGE_SIZE - 1);

	if (dev->irq_slot && dev->ntfn_slot && !(dev->flags & TACET_DEVICE_NO_IRQ)) {
		settle(dev); /* handled or not as the driver said: unbinding would say not */
		tacet_irq_unbind(dev->irq_slot);
	}
	if (dev->ntfn_slot)
		tacet_slot_free(dev->ntfn_slot);
	if (dev->regs) {
		tacet_unmap(TACET_CHILD_SELF, va, dev->va_pages);
		tacet_va_free(va, dev->va_pages);
	}
	dev->regs = NULL;
	dev->ntfn_slot = 0;
}

/* dev->ack_owed: the interrupt tacet_device_wait reported, acknowledged by the driver but not
 * yet to the kernel (DEFERRED_*); or reported and not yet acknowledged at all (REPORTED). */
enum { ACK_NONE, ACK_REPORTED, ACK_DEFERRED_UNHANDLED, ACK_DEFERRED_HANDLED };

/* The next event in dev->pending, taken out of it: the interrupt first, then the driver's own
 * bits together; 0 if neither. A TACET_DEVICE_TIMEOUT bit is never left there. */
static long next_event(struct tacet_device *dev)
{
	unsigned long own = dev->pending & TACET_DEVICE_OWN_BITS;

	if (dev->pending & TACET_DEVICE_IRQ) {
		dev->pending &= ~TACET_DEVICE_IRQ;
		return (long)TACET_DEVICE_IRQ;
	}
	dev->pending &= ~own;
	return (long)own;
}

/* An acknowledgement put off, made now: 0 or tacet_irq_ack's error. */
static long settle(struct tacet_device *dev)
{
	int handled = dev->ack_owed == ACK_DEFERRED_HANDLED;

	if (dev->ack_owed < ACK_DEFERRED_UNHANDLED)
		return 0;
	dev->ack_owed = ACK_NONE;
	return tacet_irq_ack(dev->irq_slot, handled);
}

/* Block until the notification has bits; the one place that waits. An acknowledgement put off
 * is made in the same kernel entry (the kernel's fast path switches straight to the next
 * thread). Either way it is made once: an error (-TACET_EDISABLED: the line is off) is the
 * caller's. */
static long device_block(struct tacet_device *dev)
{
	int handled = dev->ack_owed == ACK_DEFERRED_HANDLED;

	if (dev->ack_owed < ACK_DEFERRED_UNHANDLED)
		return tacet_wait(dev->ntfn_slot);
	dev->ack_owed = ACK_NONE;
	return tacet_irq_ack_wait(dev->irq_slot, handled, dev->ntfn_slot, NULL);
}

/* An event from dev->pending for tacet_device_wait: an interrupt is then owed an ack. */
static long report(struct tacet_device *dev, long ev)
{
	if (ev == (long)TACET_DEVICE_IRQ)
		dev->ack_owed = ACK_REPORTED;
	return ev;
}

/* Bits taken from dev's notification into dev->pending (a timeout's never: see the top); the
 * bus's end ends the driver here, before any event is reported. */
static void take(struct tacet_device *dev, unsigned long bits)
{
	if ((bits & TACET_DEVICE_BUS_ENDED) && dev->bus_ended)
		dev->bus_ended(dev); /* does not return */
	dev->pending |= bits & ~TACET_DEVICE_TIMEOUT;
}

long tacet_device_wait(struct tacet_device *dev, uint64_t timeout_ns)
{
	uint64_t deadline = 0;
	long bits, err;

	if (dev->pending & (TACET_DEVICE_IRQ | TACET_DEVICE_OWN_BITS)) {
		err = settle(dev); /* not blocking: nothing to make it part of */
		return err ? err : report(dev, next_event(dev));
	}
	if (timeout_ns) {
		deadline = tacet_time() + tacet_ns_to_ticks(timeout_ns);
		err = tacet_timer_set(dev->ntfn_slot, TACET_DEVICE_TIMEOUT, deadline);
		if (err)
			return err;
	}
	for (;;) {
		bits = device_block(dev);
		if (bits < 0)
			return bits;
		take(dev, (unsigned long)bits);
		if (dev->pending & (TACET_DEVICE_IRQ | TACET_DEVICE_OWN_BITS))
			return report(dev, next_event(dev));
		/* a timeout bit before this wait's deadline is an earlier wait's: not this one's */
		if (deadline && (bits & TACET_DEVICE_TIMEOUT) && tacet_time() >= deadline)
			return (long)TACET_DEVICE_TIMEOUT;
	}
}

/* tacet_device_notified's rare case, out of its line (a call there would cost every call its
 * saved registers): the bus watch's bit, which ends the driver. */
static long __attribute__((noinline)) notified_bus(struct tacet_device *dev, unsigned long bits)
{
	take(dev, bits);
	return tacet_device_notified(dev, bits & ~TACET_DEVICE_BUS_ENDED);
}

long tacet_device_notified(struct tacet_device *dev, unsigned long bits)
{
	if (bits & TACET_DEVICE_BUS_ENDED)
		return notified_bus(dev, bits);
	settle(dev); /* a driver that waited before its IPC loop; an error shows at its next ack */
	dev->pending |= bits & ~TACET_DEVICE_TIMEOUT;
	return next_event(dev);
}

long tacet_device_ack(struct tacet_device *dev, int handled)
{
	if (dev->ack_owed == ACK_REPORTED && !(dev->flags & TACET_DEVICE_SHARED)) {
		dev->ack_owed = handled ? ACK_DEFERRED_HANDLED : ACK_DEFERRED_UNHANDLED;
		return 0; /* the next tacet_device_wait makes it */
	}
	dev->ack_owed = ACK_NONE;
	return tacet_irq_ack(dev->irq_slot, handled);
}
