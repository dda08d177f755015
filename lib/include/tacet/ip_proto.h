/* ip_proto.h: the IP stack's IPC protocol (servers/ip publishes it as "ip", with GRANT and a
 * badge a client). lib/proto/ip.proto describes the messages, from which the stubs and the
 * server's dispatch are generated; lib's clients: tacet_ip_info, tacet_ip_ping (<tacet/ip.h>),
 * the sockets of <tacet/net.h>. Addresses and ports are in host order (10.0.2.2 is 0x0a000202).
 * A message with another word count, or a capability where none is expected (none where one
 * is), gets -TACET_EINVAL.
 *
 *   IP_INFO (0 words): reply (addr, mask, gw): the interface's address, netmask and gateway;
 *       all 0 until DHCP has a lease.
 *   IP_PING (addr, seq, timeout_ms): send one ICMP echo request (56 bytes of data, sequence
 *       number seq, low 16 bits) to addr and wait for its reply up to timeout_ms (1 to
 *       IP_PING_TIMEOUT_MAX). Reply (answered, rtt_ns, ttl): answered 1 with the round trip
 *       and the reply's TTL, or 0 if none came in time. -TACET_EINVAL: addr 0 or a broadcast,
 *       timeout out of range; -TACET_EBUSY: no lease yet, or no route to addr. The server
 *       keeps moving packets while it waits, but answers no other call until then.
 *   IP_COUNTS (0 words): reply (received, malformed, dropped, fragments), counts since ip
 *       started: frames taken from net; of those, the malformed (a checksum or a length wrong at
 *       any layer, a frame too short for its header); every packet dropped (the malformed, no
 *       memory, no socket or PCB for it, a socket's receive queue full); IP fragments
 *       received (lwIP holds at most IP_REASS_MAX_PBUFS of them, the oldest datagram's going
 *       first, and frees an incomplete datagram's after IP_REASS_MAXAGE seconds).
 *   IP_BUFFERS (0 words): reply (held, rx_stale, tx_stale, reattached): net's buffers ip holds
 *       now (receive buffers kept as datagrams in sockets' queues, transmit buffers lent to a
 *       datagram being written); since ip started, the datagrams dropped because net ended
 *       while ip held their buffer (received ones held in a socket's queue, not read: the next
 *       instance may have written the buffer; sent ones written into a buffer lent before, not
 *       sent; both among IP_COUNTS' dropped), and the times ip reached a new instance of net.
 *
 * Sockets: a client's session carries its sockets' data through four lib/ring.c rings in one
 * frame the client allocates and grants (never an IPC a packet); the calls only set up.
 *   IP_OPEN + a capability to the caller's own process without rights: opens the caller's
 *       session (ending the one it had, with its sockets); its process's end ends it too: every
 *       socket closed (TCP connections aborted), the frame unmapped. -TACET_EPERM, -TACET_EBUSY,
 *       -TACET_ENOMEM as <tacet/session.h> says; -TACET_ENOMEM also when IP_CLIENTS_MAX are open.
 *   IP_ATTACH (capacity, buf_size) + the frame (READ|WRITE, RAM): capacity (2..IP_CAPACITY_MAX,
 *       a power of two) descriptors a ring, buffers of buf_size bytes (IP_BUF_MIN..IP_BUF_MAX, a
 *       multiple of 8). The frame holds, in order: the four rings (IP_RING_*, ring_bytes(capacity)
 *       each), the transmit area and the receive area (capacity buffers each). -TACET_ERANGE: a
 *       frame too small or sizes out of range; -TACET_EBUSY once started.
 *   IP_START (bits) + the client's notification (WRITE): ip signals bits on it when it should
 *       look at its rings (only when the client said it sleeps). Reply: a capability to ip's
 *       notification, badged for the session, which the client signals likewise.
 *   IP_SOCKET (type): a new socket, IP_SOCK_UDP or IP_SOCK_TCP; reply its id (1..
 *       IP_SOCKETS_MAX). -TACET_ENOMEM: the client's IP_SOCKETS_MAX are in use (its quota), or
 *       lwIP has no PCB left.
 *   IP_BIND (id, addr, port): addr 0 for any. IP_LISTEN (id): a TCP socket accepts
 *       connections, each announced by an IP_MSG_ACCEPTED message with the new socket's id.
 *   IP_CONNECT (id, addr, port): TCP: the connection starts; IP_MSG_CONNECTED (or IP_MSG_CLOSED
 *       with why) follows. UDP: the peer every IP_MSG_DATA without an address goes to.
 *   IP_CLOSE (id): TCP: the connection closes once what was sent is out; the id is free.
 *   Errors: -TACET_EINVAL (no such socket, wrong type or state), -TACET_EEXIST (address in
 *   use), -TACET_EBUSY (no session started, or no route).
 *
 * The rings (client's view): IP_RING_TX_READY (client -> ip: a message in a transmit buffer),
 * IP_RING_TX_DONE (ip -> client: the buffer back), IP_RING_RX_FREE (client -> ip: an empty
 * receive buffer), IP_RING_RX_USED (ip -> client: a message in a receive buffer). A descriptor's
 * offset is a buffer's start in its area, its length the message's: a struct ip_msg, then `len`
 * bytes. ip refuses (drops and counts) a message whose descriptor, header or socket is wrong; a
 * TCP send waits in its ring until lwIP takes it (flow control: the client's transmit buffers
 * run out), a UDP datagram that finds no receive buffer waits in ip's queue for its socket (256
 * datagrams), and is dropped and counted when that is full.
 */
#ifndef TACET_IP_PROTO_H
#define TACET_IP_PROTO_H

#include <stdint.h>

#define IP_INFO    0x60
#define IP_PING    0x61
#define IP_OPEN    0x62
#define IP_ATTACH  0x63
#define IP_START   0x64
#define IP_SOCKET  0x65
#define IP_BIND    0x66
#define IP_LISTEN  0x67
#define IP_CONNECT 0x68
#define IP_CLOSE   0x69
#define IP_COUNTS  0x6a
#define IP_BUFFERS 0x6b

#define IP_PING_TIMEOUT_MAX 10000 /* ms */
#define IP_CLIENTS_MAX      8
#define IP_SOCKETS_MAX      8     /* a client's */
#define IP_CAPACITY_MAX     64
#define IP_BUF_MIN          256
#define IP_BUF_MAX          4096

#define IP_SOCK_UDP 1
#define IP_SOCK_TCP 2

#define IP_RING_TX_READY 0
#define IP_RING_TX_DONE  1
#define IP_RING_RX_FREE  2
#define IP_RING_RX_USED  3
#define IP_RINGS         4

/* The header of every message in a buffer. */
struct ip_msg {
	uint32_t sock; /* the socket's id */
	uint16_t kind; /* IP_MSG_* */
	uint16_t port; /* IP_MSG_DATA on UDP: the peer's port (to ip: 0 = the connected peer) */
	uint32_t addr; /* IP_MSG_DATA on UDP: the peer's address; ACCEPTED: the new socket's id;
			* CLOSED: lwIP's reason (0: the peer closed) */
	uint32_t len;  /* bytes after the header */
};

#define IP_MSG_DATA      1 /* both ways: bytes (TCP) or one datagram (UDP) */
#define IP_MSG_ACCEPTED  2 /* to the client: a listening socket's new connection */
#define IP_MSG_CONNECTED 3 /* to the client: IP_CONNECT's connection is up */
#define IP_MSG_CLOSED    4 /* to the client: no more data (the peer closed, or an error) */

#endif
