/* rng_proto.h: the entropy service's IPC protocol (servers/rng publishes it as "rng"; lib's
 * tacet_random() is its client, <tacet/random.h>).
 *
 *   RNG_READ (w0 = n, 1..RNG_READ_MAX): n bytes from the virtio entropy device, each handed
 *       out once. Reply label 0: the bytes packed in w0..w3; label RNG_ERROR: w0 a negative
 *       TACET_E* code (-TACET_EINVAL: n out of range; -TACET_EDEAD: the device failed).
 *   RNG_STATS (no words): reply w0 = requests the device has completed, w1 = requests it has
 *       now, w2 = interrupts the driver handled (InterruptStatus said it was the device's),
 *       w3 = interrupts the kernel counted on the device's line, less those the driver
 *       acknowledged as not the device's. w2 == w3: every interrupt the kernel counted reached
 *       the driver, and those it handled are the ones the kernel recorded as handled.
 */
#ifndef TACET_RNG_PROTO_H
#define TACET_RNG_PROTO_H

#define RNG_READ 0x20
#define RNG_STATS 0x21
#define RNG_ERROR 1      /* a reply's label when RNG_READ failed */
#define RNG_READ_MAX 32  /* 4 words of 8 bytes */

#endif
