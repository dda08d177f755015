/* blk_proto.h: the block service's IPC protocol (servers/blk, the virtio-blk driver, publishes
 * it as "blk"; clients' capabilities are badged so the server tells them apart). lib's client
 * is <tacet/blk.h>; docs/virtio.md explains the protocol.
 *
 * Asynchronous: a request is submitted with a call that the server answers at once (queued, or
 * refused), and its completion comes later, as a bit on a notification the client gave. Data
 * goes through a frame the client grants: the device reads and writes it directly (DMA), no
 * data is copied, and it writes each request's status byte into the frame too, so the client
 * collects the result there. Sectors are 512 bytes.
 *
 * A client has BLK_IDS request ids, 0..BLK_IDS-1, and chooses the id of each request itself
 * from those it has not got in flight: the server refuses an id it still holds, and releases
 * it just before it signals its completion, so a client that frees an id only once it has seen
 * the id's bit never confuses an old completion with a new request.
 *
 *   BLK_INFO (no words): reply w0 = capacity in sectors, w1 = sector size, w2 = 1 if the
 *       device is read-only.
 *   BLK_ATTACH + a frame capability (read and write rights), w0 = the offset of the status
 *       area in it (BLK_IDS bytes; request id i's status byte at w0 + i): the client's buffer
 *       from now on.
 *   BLK_ATTACH + a notification capability (write right), w0 = shift: the completion of
 *       request id i sets bit (shift + i); shift + BLK_IDS <= 63.
 *       Reply w0 to either: 0, or -TACET_ETYPE (neither a frame nor a notification),
 *       -TACET_EPERM (rights missing), -TACET_ERANGE (status area past the frame, shift too
 *       large), -TACET_EBUSY (requests of this client are in flight), -TACET_ENOMEM (too many
 *       clients), -TACET_EINVAL (no capability).
 *   BLK_READ / BLK_WRITE (w0 = first sector, w1 = sectors, w2 = byte offset in the frame, a
 *       multiple of 512, w3 = id), BLK_FLUSH (w3 = id): queue the request. Reply w0: 0 (queued:
 *       its bit comes when it is done), BLK_DONE (flush only: nothing to do, the device writes
 *       through; no bit comes), or -TACET_EINVAL (no frame or notification attached, a count
 *       of 0, an offset not a multiple of 512, an id out of range), -TACET_ERANGE (past the
 *       end of the disk or of the frame), -TACET_EPERM (write to a read-only device),
 *       -TACET_EBUSY (the id is in flight, or the device's queue is full: try again after a
 *       completion).
 *   Completion: the status byte is BLK_S_OK, BLK_S_IOERR or BLK_S_UNSUPP (the device's own
 *       values); the client sets it to something else before submitting.
 *   BLK_STATS (no words): reply w0 = requests completed (all clients), w1 = interrupts the
 *       driver handled, w2 = the kernel's count of interrupts on the device's line less those
 *       the driver acknowledged as not the device's, w3 = the most requests in flight at once.
 */
#ifndef TACET_BLK_PROTO_H
#define TACET_BLK_PROTO_H

#define BLK_INFO 0x30
#define BLK_ATTACH 0x31
#define BLK_READ 0x32
#define BLK_WRITE 0x33
#define BLK_FLUSH 0x34
#define BLK_STATS 0x35
#define BLK_SECTOR 512
#define BLK_IDS 16
#define BLK_DONE 1

#define BLK_S_OK 0
#define BLK_S_IOERR 1
#define BLK_S_UNSUPP 2

#endif
