/* netpair_hostile.c: with netpair.c, the netpair_hostile client: the stream runs beside
 * nethostile's lying sessions on net1 and goes on for 1,000 frames once net1 has stopped them
 * all, none lost (tests/qemu/cases_net.py, net-hostile). */
const int netpair_mode = 1; /* MODE_HOSTILE */
