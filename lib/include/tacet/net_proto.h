/* net_proto.h: the network device service's IPC protocol (servers/net, the virtio-net driver,
 * publishes it under the name its init.run= entry grants: `net=net0:virtio-net` publishes "net0";
 * clients' capabilities are badged so the server tells them apart). lib's client is
 * <tacet/netdev.h>; docs/net.md explains the design.
 *
 * IPC sets a session up; it carries no frame. Frames move through four rings (<tacet/ring.h>)
 * and two data areas, all in frames the client allocates and grants:
 *
 *   rx_free   client -> net: empty receive buffers in the rx area (offset, len = its size)
 *   rx_used   net -> client: received frames (offset, len = the frame's length, Ethernet
 *             header first, no FCS); len 0: the buffer given back without a frame (the
 *             session is not the receiver, or the frame that filled it was malformed)
 *   tx_ready  client -> net: frames to send, in the tx area (offset, len = the frame's length)
 *   tx_done   net -> client: sent buffers given back (the descriptor as it was put)
 *
 * The rings' frame holds the four one after the other, each ring_bytes(capacity) long, in that
 * order (NET_RING_RX_FREE..NET_RING_TX_DONE); the client formats them (ring_format) before
 * attaching. A buffer's descriptor names its frame (its offset: where the Ethernet header
 * starts); the NET_HEADROOM bytes before the offset belong to the buffer too: the device's
 * virtio-net header goes there, so no frame is ever copied (the client zeroes a transmit
 * buffer's: no offload; net maps neither area, it only hands the device their addresses). So a
 * descriptor's offset is at least NET_HEADROOM, an rx_free buffer's len at least NET_FRAME_MAX,
 * a tx_ready frame's len between NET_FRAME_MIN and NET_FRAME_MAX. The client must not touch a
 * buffer (headroom included) from the moment it puts it in rx_free or tx_ready until it comes
 * back in rx_used or tx_done.
 *
 * Wake-ups: the client gives a notification and the bits net signals on it; net answers with a
 * capability to its own notification, badged for the session. Each side signals only when
 * ring_publish / ring_release say the other sleeps (<tacet/ring.h>, "Wake-ups").
 *
 * Receiving: one session at a time stocks the device's receive queue, the receiver: of the live
 * sessions, one whose client's init.run= entry grants it `[NAME=receive]` (`ip[net0=receive]`;
 * the earliest started of them), else the earliest started; every frame from the wire goes to
 * it. Other sessions send. A granted session that starts while another receives takes the
 * device's receive queue over at once (a device reset; the other's buffers come back to it
 * empty). A frame that comes while rx_used is full (the client does not consume) goes back to
 * the device's queue, dropped and counted.
 *
 * Bad input: a session whose rings lie (an index the ring refuses, a descriptor outside its
 * area, an offset without headroom, a length out of bounds) is stopped: net takes nothing more
 * from it and counts it (NET_ERRORS' refused); the client closes or opens again. The device
 * and other sessions go on.
 *
 * A session: a client (a badge) opens one with NET_OPEN and a rights-less capability to its own
 * process, which the server watches: when it ends, the session ends and the server gives back
 * what it holds (the data frames once the device is done with the buffers it has). Then three
 * NET_ATTACHes and NET_START. One session per badge: NET_OPEN again (or NET_CLOSE) ends the
 * one before.
 *
 *   NET_INFO (no words): reply w0 = the MAC address (its six bytes, the first in bits 0..7),
 *       w1 = 1 if the link is up, w2 = the MTU (bytes of payload after the Ethernet header).
 *   NET_OPEN + a process capability without rights (the client's own): open the session.
 *       Reply w0: 0, or -TACET_EPERM (not a rights-less process capability, unbadged caller),
 *       -TACET_EINVAL (no capability), -TACET_EBUSY (the process has four watchers already),
 *       -TACET_EDEAD (it has ended), -TACET_ENOMEM (too many sessions).
 *   NET_CLOSE (no words): end the session. Reply w0: 0, -TACET_EINVAL (none open).
 *   NET_ATTACH + a frame capability (read and write rights; RAM), w0 = what, w1 = arg:
 *       NET_AREA_RINGS, arg = the rings' capacity (a power of two, 2..NET_CAPACITY_MAX): the
 *       frame holds the four rings (4 * ring_bytes(capacity) bytes at least);
 *       NET_AREA_RX / NET_AREA_TX, arg = the area's size in bytes (at most the frame's).
 *       Reply w0: 0, or -TACET_ETYPE (not a RAM frame), -TACET_EPERM (rights missing),
 *       -TACET_ERANGE (a capacity or size out of bounds, a frame too small), -TACET_EINVAL
 *       (no session, an unknown what), -TACET_EBUSY (the session is started),
 *       -TACET_ENOMEM (the server has no capability slot left).
 *   NET_START + a notification capability (write right), w0 = the bits net signals on it:
 *       start moving frames. Reply w0: 0 with a capability to net's notification (signal it
 *       with any bits; its badge says the session), or -TACET_EINVAL (no session, an area
 *       missing, bits 0 or with bit 63), -TACET_ETYPE, -TACET_EPERM, -TACET_EBUSY (started
 *       already), -TACET_ENOMEM.
 *   NET_STATS (no words): reply w0 = frames received (handed to a client), w1 = frames sent,
 *       w2 = interrupts the driver took (one that found nothing to do too), w3 = frames
 *       dropped (received with no room in the receiver's rx_used, or malformed from the
 *       wire: shorter than an Ethernet header).
 *       Interrupts per packet: w2 / (w0 + w1).
 *   NET_ERRORS (no words): reply w0 = sessions stopped for lying in their rings, w1 =
 *       received frames too short (of w3 above), w2 = polls (passes of the driver's loop over
 *       the queues), w3 = the most frames at the device at once.
 *   NET_USAGE (no words): what the server holds for clients: reply w0 = sessions open, w1 =
 *       sessions ended whose buffers the device still holds, w2 = capability slots kept for
 *       clients, w3 = device resets so far. Answered after every process end signalled before
 *       the call.
 *   NET_QUEUE (index): the device's queue `index` (receive queue of pair k: 2k, its transmit
 *       queue: 2k + 1): reply w0 = the interrupt line its completions are signalled on (its
 *       own MSI-X vector's, else the device's one line, which every queue then shares), w1 =
 *       the hart of the driver thread that serves that line, w2 = interrupts taken on it
 *       (every interrupt the line delivered), w3 = completions taken from the
 *       queue. -TACET_ENOENT past the last queue the driver uses.
 */
#ifndef TACET_NET_PROTO_H
#define TACET_NET_PROTO_H

#include <tacet/net_defs.h>

#define NET_INFO   0x50
#define NET_OPEN   0x51
#define NET_CLOSE  0x52
#define NET_ATTACH 0x53
#define NET_START  0x54
#define NET_STATS  0x55
#define NET_ERRORS 0x56
#define NET_USAGE  0x57
#define NET_QUEUE  0x58

/* NET_ATTACH's what */
#define NET_AREA_RINGS 0
#define NET_AREA_RX    1
#define NET_AREA_TX    2

/* The rings in the rings' frame, in order, each ring_bytes(capacity) bytes. */
#define NET_RING_RX_FREE  0
#define NET_RING_RX_USED  1
#define NET_RING_TX_READY 2
#define NET_RING_TX_DONE  3
#define NET_RINGS         4

#define NET_CAPACITY_MAX 1024 /* descriptors a ring, at most */
#define NET_HEADROOM     12   /* bytes before each buffer's offset: the virtio-net header */

#endif
