/* irq_same_msi.c: the bench_irq_same_msi server: irq_raise_to_trap_msi, irq_top_half_msi and
 * irq_raise_to_server_same_hart_msi, the edu device's interrupt by MSI into hart 1's IMSIC file
 * (the AIA's machine; start it at priority IRQ_PRIO_MAIN: ^bench_irq_same_msi@1/200). */
#include "irq.h"

int main(void)
{
	bench_irq_msi = 1;
	return bench_irq("irq_raise_to_server_same_hart_msi", 1, 1, 1, 0);
}
