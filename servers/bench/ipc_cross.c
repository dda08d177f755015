/* ipc_cross.c: the bench_ipc_cross server: ipc_call_reply_cross_hart (start it on another hart
 * than bench_ipc_srv). */
#include "ipc.h"

int main(void)
{
	return bench_ipc_client("ipc_call_reply_cross_hart");
}
