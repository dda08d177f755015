/* netpair_granted.c: with netpair.c, the netpair_granted client: its init.run= entry grants it
 * `[net1=receive]`; it opens its sessions once netthief's has started on net1 (net1 has sent
 * netthief's frame), and every frame of the stream must still reach it (tests/qemu/
 * cases_net.py, net-receiver-grant). */
const int netpair_mode = 3; /* MODE_GRANTED */
