/* ipc_test.h: the protocol between ipc_server and ipc_client, the two sides of the IPC tests.
 *
 * ipc_server publishes an endpoint as "ipc" and answers every call on it, by label:
 *   IPC_ECHO (w0..wN-1, N <= 4): reply N words, each the word sent + 1.
 *   IPC_BADGE (): reply w0 = the badge of the capability the caller called through.
 *   IPC_TAKE_CAP () + a capability (TACET_TAG_CAP): reply w0 = the type tacet_cap_info gives
 *       for what arrived in the server's recv_slot (-TACET_EEMPTY if nothing did); a
 *       notification is first signalled with IPC_TAKE_CAP_BITS through the received copy.
 *   IPC_NTFN_WAIT (): reply w0 = 0 once a notification of the server's is published as
 *       IPC_NTFN_NAME (or the error that kept it from being), then block on it until some
 *       bits are set, print them (`ipc_server: notification bits 0x..`) and serve again.
 *   IPC_STATS (): reply w0 = the messages received before this one, w1 = the capabilities
 *       received with them, w2 = the bits the last IPC_NTFN_WAIT woke with.
 *   IPC_QUIT (IPC_QUIT_MAGIC): reply w0 = 0, then exit 0 (or 1 if a check of the server's
 *       own failed); with any other w0, reply w0 = -TACET_EINVAL and go on serving.
 * Any other label: reply w0 = -TACET_EINVAL. A capability sent with any message other than
 * IPC_TAKE_CAP is counted and deleted. Replies carry the label of the call.
 */
#ifndef IPC_TEST_H
#define IPC_TEST_H

#define IPC_NAME      "ipc"
#define IPC_NTFN_NAME "ipc.ntfn"

enum ipc_test_label {
	IPC_ECHO = 1,
	IPC_BADGE = 2,
	IPC_TAKE_CAP = 3,
	IPC_NTFN_WAIT = 4,
	IPC_STATS = 5,
	IPC_QUIT = 6,
};

#define IPC_TAKE_CAP_BITS 0x5ul
/* Not a value a stray or corrupted call is likely to carry. */
#define IPC_QUIT_MAGIC 0x7ac37ul

#endif
