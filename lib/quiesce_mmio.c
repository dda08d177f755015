/* quiesce_mmio.c: quiesce descriptions (<tacet/quiesce.h>) applied to a mapped device through
 * MMIO: for init (a dead server's devices) and for the device kit (tacet_device_quiesce: a
 * driver's own description, at its start). The interpreter is quiesce.c's; this file is only
 * its io. No state. */
#include <tacet.h>
#include <tacet/quiesce.h>

static uint32_t io_read32(volatile uint8_t *regs, uint32_t offset)
{
	return mmio_read32(regs + offset);
}

static void io_write32(volatile uint8_t *regs, uint32_t offset, uint32_t value)
{
	mmio_write32(regs + offset, value);
}

static void io_write8(volatile uint8_t *regs, uint32_t offset, uint8_t value)
{
	mmio_write8(regs + offset, value);
}

static const struct tacet_quiesce_io mmio_io = { io_read32, io_write32, io_write8 };

long tacet_quiesce_apply(const struct tacet_quiesce *q, volatile uint8_t *regs,
			 unsigned long size, const char **why)
{
	return tacet_quiesce_run(q, &mmio_io, regs, size, why);
}

long tacet_device_quiesce(struct tacet_device *dev)
{
	struct tacet_quiesce q;
	const char *why = NULL;
	long found;

	if (!dev->regs || !dev->desc)
		return -TACET_EINVAL;
	found = tacet_quiesce_find(__tacet_quiesce_start,
				   (size_t)((const char *)__tacet_quiesce_end -
					    (const char *)__tacet_quiesce_start),
				   dev->desc->compatible, &q, &why);
	if (found <= 0)
		return found;
	return tacet_quiesce_apply(&q, dev->regs, dev->size, &why);
}
