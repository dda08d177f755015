/* edu_dmadie.c: the edu_dmadie server, a driver that dies with DMA in flight (the DMA quarantine):
 * its first two instances (`edu_dmadie*2`) take one interrupt, start a DMA transfer from the device
 * into a page of RAM pinned to the device and fault before the device has made it; the third makes
 * a DMA round trip (edu.c). Each says the machine's memory once it has claimed the device, by which
 * time pci has quieted the function and released its DMA quarantine: the restarts find the same
 * figures. Needs -device edu,dma_mask=0xffffffffffffffff (edu_dma.c). */
#include <tacet.h>
#include "edu.h"

int main(void)
{
	return edu_test(1, 0, EDU_TEST_MEMORY | (tacet_instance() < 2 ? EDU_TEST_DMA_DIE
								    : EDU_TEST_DMA));
}
