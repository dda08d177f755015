/* dma.c: lib's DMA buffers for a host test of lib (in a test's HOST_SRCS_NAME, tests/host):
 * zeroed page-aligned heap memory, physical address 0, slot 77. One thread. */
#include <stdlib.h>
#include <string.h>
#include <tacet.h>

long tacet_dma_alloc(unsigned long size, struct tacet_dma *dma)
{
	size = (size + 4095) & ~4095ul;
	dma->va = aligned_alloc(4096, size);
	if (!dma->va)
		return -TACET_ENOMEM;
	memset(dma->va, 0, size);
	dma->size = size;
	dma->pa = 0;
	dma->slot = 77;
	return 0;
}

void tacet_dma_free(struct tacet_dma *dma)
{
	free(dma->va);
	dma->va = NULL;
}
