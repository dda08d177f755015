/* lwip_echo.h: an echo service (RFC 862) on lwIP's raw API, UDP and TCP port 7, the host test's
 * peer (test_lwip.c). Runs inside the thread that runs lwIP, no locking. */
#ifndef TEST_LWIP_ECHO_H
#define TEST_LWIP_ECHO_H

#include "lwip/ip_addr.h"

#define ECHO_PORT 7

/* Listen on `addr` (IP_ADDR_ANY: every address) port ECHO_PORT, UDP and TCP. 0, or an lwIP
 * err_t (no PCB left, port taken): then nothing is left listening. */
int echo_start(const ip_addr_t *addr);

/* Counts since echo_start: datagrams echoed, TCP connections accepted, TCP bytes echoed. */
struct echo_stats {
	unsigned long datagrams, connections, tcp_bytes;
};
extern struct echo_stats echo_stats;

#endif
