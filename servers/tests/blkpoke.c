/* blkpoke: blkwaitdie's partner (blk-end-while-waiting): once blkwaitdie has its writes in
 * flight (its name published), it submits one-sector writes until the device holds 16 and
 * blk_dying faults (lib then reaches the next instance for it too), and ends. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/blk.h>
#include <tacet/init_proto.h>

int main(void)
{
	static struct tacet_blk b;
	long peer = tacet_slot_alloc(), err = peer < 0 ? peer : 0;

	if (!err)
		err = tacet_lookup("blkwaitdie", (unsigned long)peer, 60000);
	if (!err)
		err = tacet_blk_open(&b, BLK_SECTOR, 5000);
	for (unsigned int w = 0; !err && w < 16 && !b.reconnects; w++) {
		long id = tacet_blk_submit(&b, BLK_WRITE, b.first + w, 1, 0);

		err = id < 0 ? id : 0;
	}
	printf("blkpoke: %s after %lu reconnects\n", tacet_strerror(err), b.reconnects);
	return err ? 1 : 0;
}
