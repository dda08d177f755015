/* device.c: opening one of the devices init gave the server, and the interrupt loop
 * (<tacet/driver.h>).
 *
 * The loop's one rule: a bit taken from the device's notification is never dropped. The word
 * is cleared by every wait and poll, so whatever a call takes but does not report goes into
 * dev->pending and is reported by the next call. The timeout is a timer on the same
 * notification: when something else comes first the timer is cancelled and the word polled
 * once more (the timer may have fired meanwhile: that bit alone is dropped, as it belongs to
 * this call; anything else the poll finds is kept).
 *
 * Acknowledging is immediate (tacet_irq_ack). device_block() is the one place that blocks, so
 * that an "acknowledge and wait" system call can take over both there. */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>

#define PAGE 4096ul

static int compatible_matches(const char *compatible, const char *wanted)
{
	const char *comma = strchr(compatible, ',');

	return !wanted || !strcmp(compatible, wanted) || (comma && !strcmp(comma + 1, wanted));
}

static const struct tacet_bootinfo_device *find_device(const char *compatible, unsigned int index)
{
	const struct tacet_child_devices *given = (const void *)TACET_CHILD_DEVICES_VADDR;

	for (unsigned long i = 0; i < given->count && i < TACET_CHILD_MAX_DEVICES; i++)
		if (compatible_matches(given->devices[i].compatible, compatible) && !index--)
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
	const struct tacet_bootinfo_device *d = find_device(compatible, index);
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
	err = map_registers(dev);
	if (!err)
		err = bind_interrupt(dev);
	if (err)
		tacet_device_close(dev);
	return err;
}

void tacet_device_close(struct tacet_device *dev)
{
	unsigned long va = (unsigned long)dev->regs & ~(PAGE - 1);

	if (dev->irq_slot && dev->ntfn_slot && !(dev->flags & TACET_DEVICE_NO_IRQ))
		tacet_irq_unbind(dev->irq_slot);
	if (dev->ntfn_slot)
		tacet_slot_free(dev->ntfn_slot);
	if (dev->regs) {
		tacet_unmap(TACET_CHILD_SELF, va, dev->va_pages);
		tacet_va_free(va, dev->va_pages);
	}
	dev->regs = NULL;
	dev->ntfn_slot = 0;
}

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

/* Block until the notification has bits; the one place that waits. */
static long device_block(struct tacet_device *dev)
{
	return tacet_wait(dev->ntfn_slot);
}

/* The timeout did not come first: cancel it and keep what the word holds, but its bit. */
static void disarm(struct tacet_device *dev)
{
	long bits;

	tacet_timer_set(dev->ntfn_slot, TACET_DEVICE_TIMEOUT, 0);
	bits = tacet_poll(dev->ntfn_slot);
	if (bits > 0)
		dev->pending |= (unsigned long)bits & ~TACET_DEVICE_TIMEOUT;
}

long tacet_device_wait(struct tacet_device *dev, uint64_t timeout_ns)
{
	long ev = next_event(dev), bits, err;
	int armed = 0;

	if (ev)
		return ev;
	if (timeout_ns) {
		err = tacet_timer_set(dev->ntfn_slot, TACET_DEVICE_TIMEOUT,
				      tacet_time() + tacet_ns_to_ticks(timeout_ns));
		if (err)
			return err;
		armed = 1;
	}
	for (;;) {
		bits = device_block(dev);
		if (bits < 0) {
			if (armed)
				disarm(dev);
			return bits;
		}
		dev->pending |= (unsigned long)bits & ~TACET_DEVICE_TIMEOUT;
		ev = next_event(dev);
		if (ev) {
			if (armed)
				disarm(dev);
			return ev;
		}
		/* a timeout bit when none is armed is an old one's: it does not end this wait */
		if (armed && (bits & TACET_DEVICE_TIMEOUT))
			return (long)TACET_DEVICE_TIMEOUT;
	}
}

long tacet_device_notified(struct tacet_device *dev, unsigned long bits)
{
	dev->pending |= bits & ~TACET_DEVICE_TIMEOUT;
	return next_event(dev);
}

long tacet_device_ack(struct tacet_device *dev, int handled)
{
	return tacet_irq_ack(dev->irq_slot, handled);
}
