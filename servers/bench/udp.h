/* udp.h: the addresses of the UDP echo benchmark (bench_udp, servers/bench/udp.c): ip_static's
 * (servers/bench/ipstatic.c) and the benchmark client's own, host order. */
#ifndef BENCH_UDP_H
#define BENCH_UDP_H

#define UDP_BENCH_IP_ADDR     0x0a000901u /* 10.0.9.1: ip_static on net0 */
#define UDP_BENCH_CLIENT_ADDR 0x0a000902u /* 10.0.9.2: bench_udp on net1 */
#define UDP_BENCH_ECHO_PORT   7
#define UDP_BENCH_CLIENT_PORT 40007

#endif
