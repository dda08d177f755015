/* irq_cross.c: the bench_irq_cross server: irq_raise_to_server_cross_hart, the line taken on
 * hart 0 and its server on hart 1 (start it at priority IRQ_PRIO_MAIN: ^bench_irq_cross@1/200). */
#include "irq.h"

int main(void)
{
	return bench_irq("irq_raise_to_server_cross_hart", 1, 0, 0, 0);
}
