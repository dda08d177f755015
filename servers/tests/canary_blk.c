/* canary_blk.c: with servers/tests/canary.c, canary_blk: the canary of the block service's
 * driver. Its calls are BLK_INFO, which any client may make; the driver dies of another
 * client's requests (blk_dying). */
#include <tacet/blk_proto.h>

const char canary_service[] = "blk";
const unsigned long canary_label = BLK_INFO, canary_w0 = 0;
const int canary_powers_off = 0;
const int canary_sole_client = 0; /* blkinflight reconnects meanwhile */
