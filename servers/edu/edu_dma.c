/* edu_dma.c: the edu_dma server: the edu server's test plus a DMA round trip (edu.c). Start it
 * only for a device whose DMA reaches RAM (-device edu,dma_mask=0xffffffffffffffff): with
 * QEMU's default mask the device would write at the address cut to 28 bits. */
#include "edu.h"

int main(void)
{
	return edu_test(1000, 0, EDU_TEST_FACTORIAL | EDU_TEST_DMA | EDU_TEST_MSI);
}
