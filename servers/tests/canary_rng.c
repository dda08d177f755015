/* canary_rng.c: with servers/tests/canary.c, canary_rng: the canary of the entropy service's
 * driver. Its calls are reads of 32 bytes; one that must wait for the device is where
 * rng_dying dies. */
#include <tacet/rng_proto.h>

const char canary_service[] = "rng";
const unsigned long canary_label = RNG_READ, canary_w0 = 32;
const int canary_powers_off = 1;
const int canary_sole_client = 1;
