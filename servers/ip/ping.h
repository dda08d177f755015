/* ping.h: ICMP echo requests from lwIP's raw API, one outstanding at a time, each answered by
 * a callback: the reply's round trip, or a timeout. Runs inside the thread that runs lwIP. */
#ifndef IP_PING_H
#define IP_PING_H

#include <stdint.h>
#include "lwip/ip_addr.h"

#define PING_PAYLOAD 56 /* data bytes after the ICMP header, as ping(8) sends */

/* The outcome of one request: rtt_ns the round trip (when ok), ttl the reply's. */
typedef void (*ping_done_fn)(void *arg, int ok, uint64_t rtt_ns, unsigned int ttl);

/* Open the raw PCB on `local` (IP_ADDR_ANY: any), with clock_ns as the time source of round
 * trips. 0, or ERR_MEM. */
int ping_init(const ip_addr_t *local, uint64_t (*clock_ns)(void));

/* Send one echo request (sequence number seq) to dst; done is called once, with the reply or
 * after timeout_ms. 0; ERR_INPROGRESS (one is outstanding), ERR_MEM, ERR_RTE (no route): then
 * done is not called. */
int ping_send(const ip_addr_t *dst, uint16_t seq, uint32_t timeout_ms, ping_done_fn done,
	      void *arg);

#endif
