/* irq_cross_msi.c: the bench_irq_cross_msi server: irq_raise_to_server_cross_hart_msi, the
 * edu device's MSI into hart 0's file and its server on hart 1 (the AIA's machine; start it at
 * priority IRQ_PRIO_MAIN: ^bench_irq_cross_msi@1/200). */
#include "irq.h"

int main(void)
{
	bench_irq_msi = 1;
	return bench_irq("irq_raise_to_server_cross_hart_msi", 1, 0, 0, 0);
}
