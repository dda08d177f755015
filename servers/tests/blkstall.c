/* blkstall: a client of a block device that does not answer (tests/qemu/
 * cases_virtio.py, blk-stalled-device: QEMU's null-co backend holds every request 7 s). The
 * service must not leave its clients waiting on a stuck device: its watchdog resets the device
 * once a request has been in flight 5 s, and answers every request in flight. It submits a
 * read of sector 0 and waits (lib's timeout, 10 s, is longer): the read must be answered
 * before lib gives up, and the service must count one reset. The answer is the device's if it
 * wrote the status byte before the reset took (QEMU's reset waits for the backend's request,
 * so here it does: success after 7 s), else an I/O error (the byte as the client left it).
 * Then it powers off (status 0 if both held). One thread. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

int main(void)
{
	struct tacet_blk b;
	struct tacet_msg usage = { .tag = TACET_TAG(BLK_USAGE, 0) };
	uint64_t start, ms;
	long err = tacet_blk_open(&b, 4096, 5000), r;
	int ok;

	if (err) {
		printf("blkstall: FAIL: %s\n", tacet_strerror(err));
		return 1;
	}
	start = tacet_time_ns();
	r = tacet_blk_read(&b, 0, 1, 0);
	ms = (tacet_time_ns() - start) / 1000000;
	err = tacet_call(b.ep, &usage);
	ok = (r == 0 || r == -TACET_EFAULT) && ms >= 5000 && ms < 10000 && !err && usage.w[3] == 1;
	printf("blkstall: a read the device held: answered (%s) after %llu ms; the service reset "
	       "the device %ld times: %s\n", tacet_strerror(r), (unsigned long long)ms,
	       err ? -1l : (long)usage.w[3], ok ? "PASS" : "FAIL");
	tacet_poweroff(!ok);
	return !ok;
}
