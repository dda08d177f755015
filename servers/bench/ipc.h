/* ipc.h: the IPC round-trip benchmark's protocol between bench_ipc_srv and its clients.
 *
 * The server publishes an endpoint under BENCH_IPC_NAME and answers every call on it with an
 * empty message, in a tacet_reply_recv() loop; a call labelled BENCH_IPC_QUIT ends it (it
 * replies, then exits). Calls carry no words: the round trip is the IPC path itself.
 */
#ifndef BENCH_IPC_H
#define BENCH_IPC_H

#define BENCH_IPC_NAME "bench.ipc"
#define BENCH_IPC_PING 1
#define BENCH_IPC_QUIT 2

/* The client side (ipc_client.c): look the server up, time BENCH_SAMPLES calls, report them
 * as benchmark `name`, stop the server. Returns main()'s status. */
int bench_ipc_client(const char *name);

#endif
