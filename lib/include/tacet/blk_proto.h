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
 * A session: a client (a badge) opens one with BLK_OPEN and a rights-less capability to its
 * own process, which the server watches (PROCESS_WATCH): when that process ends, the server
 * ends the session and gives back everything it holds for it (its frame once the device is
 * done with the requests still in flight, its notification, its capability slots). Then the
 * client attaches its frame and notification. One session per badge: BLK_OPEN again (or
 * BLK_CLOSE) ends the one before, whatever it has in flight (those complete into nothing: no
 * bit comes for them, and the old frame is held until the device is done with it).
 * A client that gives another process than its own only hurts itself: its session then ends
 * with that process, not with it (a server restarted under the same badge takes the session
 * over with its own BLK_OPEN).
 *
 * Sectors: a client reads and writes only the range its init.run= entry grants it
 * (`client[blk=FIRST-LAST]`, inclusive, or `FIRST-` to the end of the disk; init's INIT_GRANT);
 * without a grant, none (a flush needs none). BLK_OPEN's reply says the range.
 *
 * A client has BLK_IDS request ids, 0..BLK_IDS-1, and chooses the id of each request itself
 * from those it has not got in flight: the server refuses an id it still holds, and releases
 * it just before it signals its completion, so a client that frees an id only once it has seen
 * the id's bit never confuses an old completion with a new request.
 *
 * Fair shares: the server has BLK_MAX_REQS requests at the device at most, from all clients.
 * With n sessions open, a client may have BLK_MAX_REQS / n of them at once (and never more
 * than BLK_IDS), and a client with none in flight always gets one: a slot is kept for every
 * open session that has nothing in flight. A submission past that is refused with
 * -TACET_EBUSY, and the client tries again after one of its own completions; if it had none in
 * flight (a share just shrunk by a new session), the server sets BLK_RETRY_BIT on its
 * notification as soon as a request completes.
 *
 *   BLK_INFO (no words): reply w0 = capacity in sectors, w1 = sector size, w2 = 1 if the
 *       device is read-only.
 *   BLK_OPEN + a process capability without rights (the client's own): open the session.
 *       Reply w0: 0, w1 = the first sector granted, w2 = sectors granted (0: none); or
 *       -TACET_EPERM (not a rights-less process capability, or an unbadged caller),
 *       -TACET_EINVAL (no capability), -TACET_EBUSY (the process has four watchers already),
 *       -TACET_EDEAD (it has ended), -TACET_ENOMEM (too many sessions).
 *   BLK_CLOSE (no words): end the session (as above). Reply w0: 0, -TACET_EINVAL (none open).
 *   BLK_ATTACH + a frame capability (read and write rights; RAM: a device's MMIO or boot
 *       memory is never a DMA buffer), w0 = the offset of the status area in it (BLK_IDS
 *       bytes; request id i's status byte at w0 + i): the session's buffer from now on.
 *   BLK_ATTACH + a notification capability (write right), w0 = shift: the completion of
 *       request id i sets bit (shift + i), BLK_RETRY_BIT is bit shift + BLK_IDS;
 *       shift + BLK_IDS <= 62.
 *       Reply w0 to either: 0, or -TACET_ETYPE (neither a frame nor a notification, or a frame
 *       that is not RAM), -TACET_EPERM (rights missing), -TACET_ERANGE (status area past the
 *       frame, shift too large), -TACET_EBUSY (requests of this session are in flight),
 *       -TACET_EINVAL (no capability, or no session open), -TACET_ENOMEM (the server has no
 *       capability slot left).
 *   BLK_READ / BLK_WRITE (w0 = first sector, w1 = sectors, w2 = byte offset in the frame, a
 *       multiple of 512, w3 = id), BLK_FLUSH (w3 = id): queue the request. Reply w0: 0 (queued:
 *       its bit comes when it is done), BLK_DONE (flush only: nothing to do, the device writes
 *       through; no bit comes), or -TACET_EINVAL (no session, frame or notification, a count
 *       of 0, an offset not a multiple of 512, an id out of range), -TACET_ERANGE (past the
 *       end of the disk or of the frame), -TACET_EPERM (outside the range granted, or a write
 *       to a read-only device), -TACET_EBUSY (the id is in flight, or the client's share is
 *       used: see "Fair shares").
 *   Completion: the status byte is BLK_S_OK, BLK_S_IOERR or BLK_S_UNSUPP (the device's own
 *       values); the client sets it to something else before submitting. A request the
 *       server ends itself (the device failed and was reset: see docs/virtio.md) completes
 *       with the byte as the client left it, which reads as an I/O error.
 *   BLK_STATS (no words): reply w0 = requests completed (all clients), w1 = interrupts the
 *       driver handled, w2 = the kernel's count of interrupts on the device's line less those
 *       the driver acknowledged as not the device's, w3 = the most requests in flight at once.
 *   BLK_USAGE (no words): what the server holds for clients: reply w0 = sessions open, w1 =
 *       sessions ended whose requests the device still holds, w2 = capability slots kept for
 *       clients (frames and notifications), w3 = device resets so far. Answered after every
 *       process end signalled before the call (the server takes its watches first).
 */
#ifndef TACET_BLK_PROTO_H
#define TACET_BLK_PROTO_H

#define BLK_INFO 0x30
#define BLK_ATTACH 0x31
#define BLK_READ 0x32
#define BLK_WRITE 0x33
#define BLK_FLUSH 0x34
#define BLK_STATS 0x35
#define BLK_OPEN 0x36
#define BLK_CLOSE 0x37
#define BLK_USAGE 0x38
#define BLK_SECTOR 512
#define BLK_IDS 16
#define BLK_MAX_REQS 40 /* at the device at once, all clients */
#define BLK_DONE 1
#define BLK_RETRY_BIT(shift) (1ul << ((shift) + BLK_IDS))

#define BLK_S_OK 0
#define BLK_S_IOERR 1
#define BLK_S_UNSUPP 2

#endif
