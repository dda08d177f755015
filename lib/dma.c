/* dma.c: DMA buffers (<tacet/driver.h>): a contiguous frame made for DMA (FRAME_NEW's
 * TACET_FRAME_DMA: the top of memory), mapped
 * at an address from tacet_va_alloc, pinned to the DMA device for its physical address (the
 * kernel's DMA quarantine: kernel/object/frame.c). */
#include <string.h>
#include <tacet.h>
#include <tacet/init_proto.h>

static unsigned long dma_device; /* the device's frame slot; 0: none */

void tacet_dma_device(unsigned long device_slot)
{
	dma_device = device_slot;
}

unsigned long tacet_dma_device_slot(void)
{
	return dma_device;
}

long tacet_dma_alloc(unsigned long size, struct tacet_dma *dma)
{
	unsigned long pages = (size + TACET_PAGE_SIZE - 1) / TACET_PAGE_SIZE, got = 0, va;
	long slot, err;

	if (!size || size > TACET_FRAME_MAX_PAGES * TACET_PAGE_SIZE)
		return -TACET_ERANGE;
	slot = tacet_slot_alloc();
	if (slot < 0)
		return slot;
	va = tacet_va_alloc(pages);
	err = va ? tacet_frame_new_dma((unsigned long)slot, pages) : -TACET_ENOMEM;
	dma->pa = 0;
	if (!err && dma_device)
		err = tacet_frame_pin((unsigned long)slot, dma_device, &dma->pa, &got);
	if (!err)
		err = tacet_map(TACET_CHILD_SELF, (unsigned long)slot, va,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (err) {
		tacet_slot_free((unsigned long)slot);
		tacet_va_free(va, pages);
		return err;
	}
	dma->va = (void *)va;
	dma->size = pages * TACET_PAGE_SIZE;
	dma->slot = (unsigned long)slot;
	return 0;
}

void tacet_dma_free(struct tacet_dma *dma)
{
	if (!dma->va)
		return;
	tacet_unmap(TACET_CHILD_SELF, (unsigned long)dma->va, dma->size / TACET_PAGE_SIZE);
	tacet_frame_unpin(dma->slot, dma_device); /* the caller says the device is done with it */
	tacet_slot_free(dma->slot); /* the frame goes with its last capability */
	tacet_va_free((unsigned long)dma->va, dma->size / TACET_PAGE_SIZE);
	memset(dma, 0, sizeof(*dma));
}
