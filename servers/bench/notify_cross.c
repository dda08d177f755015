/* notify_cross.c: the bench_ntfn_cross server: notify_wake_cross_hart, the waiter on hart 1
 * and the signaller on hart 0 (start it at priority NOTIFY_PRIO_MAIN: bench_ntfn_cross@1/200). */
#include "notify.h"

int main(void)
{
	return bench_notify("notify_wake_cross_hart", 1, 0);
}
