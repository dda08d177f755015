/* blkmmio: a hostile client of the block service (a client cannot break a server).
 * It attacks the DMA path: a driver that holds an MMIO frame (init.run=
 * `blkmmio:goldfish-rtc`: the RTC's registers, whose frame init gives it read/write) attaches
 * that frame to "blk" as its data frame, whole and as a page derived from it, and submits a
 * read into it. Were the service to accept it, the device would be pointed at registers:
 * QEMU's virtio-blk says "virtio: bogus descriptor or out of resources", marks itself broken
 * and completes nothing again, for any client. The service must refuse the frame (-TACET_ETYPE:
 * not RAM, CAP_INFO's TACET_FRAME_DEVICE) and the read (no frame attached). Then it opens the
 * service as lib does and reads sector 0, and publishes "blkmmio" (an endpoint of its own, for
 * nothing but its name): blkvictim, another client, waits for that name before it reads and
 * writes, so the victim's requests come after the attack. One thread; raw calls (lib's client
 * would never send these). */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>
#include "blk_raw.h"
#include <tacet/init_proto.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("blkmmio: %s: %s\n", what, ok ? "PASS" : "FAIL");
	failures += !ok;
}

int main(void)
{
	long ep = tacet_slot_alloc(), ntfn = tacet_slot_alloc(), self = tacet_slot_alloc();
	long part = tacet_slot_alloc(), done = tacet_slot_alloc(), ram = tacet_slot_alloc();
	long whole, derived, read, ok;
	struct tacet_blk b;
	long err = ep < 0 || ntfn < 0 || self < 0 || part < 0 || done < 0 || ram < 0;

	err = err ? -TACET_ENOMEM : 0;
	if (!err)
		err = tacet_lookup("blk", (unsigned long)ep, 5000);
	if (!err)
		err = tacet_ntfn_new((unsigned long)ntfn);
	if (!err)
		err = tacet_cap_copy(TACET_CHILD_SELF, (unsigned long)self, 0, 0);
	if (!err)
		err = tacet_frame_derive(TACET_CHILD_DEVICE, (unsigned long)part, 0, 1);
	if (!err)
		err = tacet_frame_new((unsigned long)ram, 1);
	if (err) {
		printf("blkmmio: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	printf("blkmmio: the RTC's registers are a frame: is RAM %ld (a page of it %ld, a frame of "
	       "FRAME_NEW %ld)\n", tacet_frame_is_ram(TACET_CHILD_DEVICE),
	       tacet_frame_is_ram((unsigned long)part), tacet_frame_is_ram((unsigned long)ram));
	/* a session and a notification, as a client has; then the registers as its buffer */
	raw((unsigned long)ep, TACET_TAG_CAP(BLK_OPEN, 0, self), 0, 0, 0, 0);
	raw((unsigned long)ep, TACET_TAG_CAP(BLK_ATTACH, 1, ntfn), 0, 0, 0, 0);
	whole = raw((unsigned long)ep, TACET_TAG_CAP(BLK_ATTACH, 1, TACET_CHILD_DEVICE), 0, 0, 0, 0);
	derived = raw((unsigned long)ep, TACET_TAG_CAP(BLK_ATTACH, 1, part), 0, 0, 0, 0);
	printf("blkmmio: attaching the RTC's MMIO frame: %s; a page derived from it: %s\n",
	       tacet_strerror(whole), tacet_strerror(derived));
	check(whole == -TACET_ETYPE && derived == -TACET_ETYPE,
	      "an MMIO frame as the data frame, whole or derived: refused");
	read = raw((unsigned long)ep, TACET_TAG(BLK_READ, 4), 0, 1, 512, 0);
	printf("blkmmio: a read into it: %s\n", tacet_strerror(read));
	check(read == -TACET_EINVAL, "a read into the MMIO frame: refused (no frame attached)");
	if (read == 0) { /* it went to the device: does it come back? */
		tacet_timer_set((unsigned long)ntfn, 1ul << 40,
				tacet_time() + tacet_ns_to_ticks(1000000000ull));
		printf("blkmmio: the read into the registers %s\n",
		       tacet_wait((unsigned long)ntfn) & 1 ? "completed" : "never completed (1 s)");
	}
	/* the service still serves this client, which opens a session as lib does */
	err = tacet_blk_open(&b, 4096, 5000);
	ok = !err && tacet_blk_read(&b, 0, 1, 0) == 0 && ((uint8_t *)b.buf.va)[1] == 1;
	check(ok, "then a proper session of the same client reads sector 0");
	if (!err)
		tacet_blk_close(&b);
	err = tacet_endpoint_new((unsigned long)done);
	if (!err)
		err = tacet_publish("blkmmio", (unsigned long)done, TACET_RIGHT_WRITE);
	check(!err, "published \"blkmmio\" for blkvictim");
	printf("blkmmio: %s\n", failures ? "some checks failed" : "all checks passed");
	/* stays (its name with it) until the machine powers off */
	tacet_wait((unsigned long)ntfn);
	return failures != 0;
}
