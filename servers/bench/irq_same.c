/* irq_same.c: the bench_irq_same server: irq_raise_to_trap, irq_top_half and
 * irq_raise_to_server_same_hart (start it at priority IRQ_PRIO_MAIN: ^bench_irq_same@1/200). */
#include "irq.h"

int main(void)
{
	return bench_irq("irq_raise_to_server_same_hart", 1, 1, 1, 0);
}
