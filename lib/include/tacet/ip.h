/* ip.h: lib's client of the IP stack's service "ip" (<tacet/ip_proto.h>). The first call looks
 * the service up (into a slot of lib's, waiting up to a second for it to be published); a call
 * that finds the server gone (TACET_EDEAD) looks it up again, waiting for init to restart it.
 * Not thread-safe. */
#ifndef TACET_IP_H
#define TACET_IP_H

#include <stdint.h>

struct tacet_ip_info {
	uint32_t addr, mask, gw; /* host order; 0 before the lease */
};

/* The interface's address, netmask and gateway. 0 or a TACET_E* code. */
long tacet_ip_info(struct tacet_ip_info *info);

struct tacet_ip_ping {
	int answered;    /* 0: no reply within the timeout */
	uint64_t rtt_ns; /* the round trip, when answered */
	unsigned int ttl;
};

/* One ICMP echo request to addr (host order) with sequence number seq, waiting up to
 * timeout_ms for its reply. 0 (see r->answered) or a TACET_E* code. */
long tacet_ip_ping(uint32_t addr, unsigned int seq, unsigned int timeout_ms,
		   struct tacet_ip_ping *r);

#endif
