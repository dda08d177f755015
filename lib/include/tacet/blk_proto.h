/* blk_proto.h: the block service's IPC protocol (servers/blk, the virtio-blk driver, publishes
 * it as "blk"; clients' capabilities are badged so the server tells them apart).
 *
 * Data goes through a frame the client grants once: the device reads and writes it directly
 * (DMA), so no data is copied. Sectors are 512 bytes.
 *
 *   BLK_INFO (no words): reply w0 = capacity in sectors, w1 = sector size, w2 = 1 if the
 *       device is read-only.
 *   BLK_ATTACH (no words) + a frame capability (TACET_TAG_CAP): the client's buffer from now
 *       on (a later ATTACH replaces it). Reply w0: 0, or -TACET_ETYPE (not a frame),
 *       -TACET_ENOMEM (too many clients).
 *   BLK_READ / BLK_WRITE (w0 = first sector, w1 = sectors, w2 = byte offset in the frame, a
 *       multiple of 512): between the device and the attached frame. Reply w0: 0, or
 *       -TACET_EINVAL (no frame attached, a count of 0, or an offset not a multiple of 512),
 *       -TACET_ERANGE (past the end of the disk or of the frame), -TACET_EPERM (write to a
 *       read-only device), -TACET_EFAULT (the device reported an I/O error).
 *   BLK_FLUSH (no words): what was written is on the disk. Reply w0: 0 or an error as above.
 */
#ifndef TACET_BLK_PROTO_H
#define TACET_BLK_PROTO_H

#define BLK_INFO 0x30
#define BLK_ATTACH 0x31
#define BLK_READ 0x32
#define BLK_WRITE 0x33
#define BLK_FLUSH 0x34
#define BLK_SECTOR 512

#endif
