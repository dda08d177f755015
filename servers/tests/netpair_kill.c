/* netpair_kill.c: with netpair.c, the netpair_kill client: net1 (net_dying) dies mid-stream;
 * lib reaches its next instance and the stream goes on (tests/qemu/cases_net.py, net-kill). */
const int netpair_mode = 2; /* MODE_KILL */
