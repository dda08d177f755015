/* notify_same.c: the bench_ntfn_same server: notify_wake_same_hart (start it at priority
 * NOTIFY_PRIO_MAIN: bench_ntfn_same@1/200). */
#include "notify.h"

int main(void)
{
	return bench_notify("notify_wake_same_hart", 1, 1);
}
