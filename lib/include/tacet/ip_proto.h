/* ip_proto.h: the IP stack's IPC protocol (servers/ip publishes it as "ip"). lib/proto/ip.proto
 * describes the messages, from which the stubs and the server's dispatch are generated; lib's
 * client: tacet_ip_info, tacet_ip_ping (<tacet/ip.h>). Addresses are IPv4 in host order
 * (10.0.2.2 is 0x0a000202). A message with another word count, or with a capability, gets
 * -TACET_EINVAL. Data never goes through these calls: they set up and ask.
 *
 *   IP_INFO (0 words): reply (addr, mask, gw): the interface's address, netmask and gateway;
 *       all 0 until DHCP has a lease.
 *   IP_PING (addr, seq, timeout_ms): send one ICMP echo request (56 bytes of data, sequence
 *       number seq, low 16 bits) to addr and wait for its reply up to timeout_ms (1 to
 *       IP_PING_TIMEOUT_MAX). Reply (answered, rtt_ns, ttl): answered 1 with the round trip
 *       and the reply's TTL, or 0 if none came in time. -TACET_EINVAL: addr 0 or a broadcast,
 *       timeout out of range; -TACET_EBUSY: no lease yet, or no route to addr. The server
 *       keeps moving packets (and its other services) while it waits, but answers no other
 *       call until the reply or the timeout.
 */
#ifndef TACET_IP_PROTO_H
#define TACET_IP_PROTO_H

#define IP_INFO 0x60
#define IP_PING 0x61
#define IP_PING_TIMEOUT_MAX 10000 /* ms */

#endif
