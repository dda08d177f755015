/* irq_svc_same.c: the bench_irq_svc_same server: irq_raise_to_service_same_hart, the raise to a
 * driver that waits as a service loop does (a receive, as its notification's bound thread), on
 * the line's hart (start it at priority IRQ_PRIO_MAIN: ^bench_irq_svc_same@1/200). */
#include "irq.h"

int main(void)
{
	return bench_irq("irq_raise_to_service_same_hart", 1, 1, 0, 1);
}
