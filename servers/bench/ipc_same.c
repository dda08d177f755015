/* ipc_same.c: the bench_ipc_same server: ipc_call_reply_same_hart (start it on the hart of
 * bench_ipc_srv). */
#include "ipc.h"

int main(void)
{
	return bench_ipc_client("ipc_call_reply_same_hart");
}
