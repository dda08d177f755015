/* irq_svc_cross.c: the bench_irq_svc_cross server: irq_raise_to_service_cross_hart, the line
 * taken on hart 0 and its service-loop driver (a receive, as its notification's bound thread)
 * on hart 1 (start it at priority IRQ_PRIO_MAIN: ^bench_irq_svc_cross@1/200). */
#include "irq.h"

int main(void)
{
	return bench_irq("irq_raise_to_service_cross_hart", 1, 0, 0, 1);
}
