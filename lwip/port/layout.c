/* layout.c: the check that lwIP's protocol headers, built unpacked (arch/cc.h), lie as on the
 * wire: each size, and the offset of each field that follows a narrower one. Compile-time only;
 * built with lwIP for ip (lwip/lwip.mk) and for the host test of the port. */
#include <stddef.h>

#include "lwip/opt.h"
#include "lwip/prot/dhcp.h"
#include "lwip/prot/etharp.h"
#include "lwip/prot/ethernet.h"
#include "lwip/prot/icmp.h"
#include "lwip/prot/ip4.h"
#include "lwip/prot/tcp.h"
#include "lwip/prot/udp.h"

_Static_assert(sizeof(struct eth_addr) == ETH_HWADDR_LEN, "eth_addr: 6 bytes");
_Static_assert(sizeof(struct eth_hdr) == SIZEOF_ETH_HDR && offsetof(struct eth_hdr, type) == 12 +
	       ETH_PAD_SIZE, "eth_hdr: 14 bytes, the type last");
_Static_assert(sizeof(struct eth_vlan_hdr) == SIZEOF_VLAN_HDR, "eth_vlan_hdr: 4 bytes");
_Static_assert(sizeof(struct etharp_hdr) == SIZEOF_ETHARP_HDR &&
	       offsetof(struct etharp_hdr, sipaddr) == 14 &&
	       offsetof(struct etharp_hdr, dipaddr) == 24, "etharp_hdr: 28 bytes, RFC 826's order");
_Static_assert(sizeof(struct ip_hdr) == IP_HLEN && offsetof(struct ip_hdr, src) == 12 &&
	       offsetof(struct ip_hdr, dest) == 16, "ip_hdr: 20 bytes");
_Static_assert(sizeof(struct udp_hdr) == UDP_HLEN, "udp_hdr: 8 bytes");
_Static_assert(sizeof(struct tcp_hdr) == TCP_HLEN && offsetof(struct tcp_hdr, seqno) == 4 &&
	       offsetof(struct tcp_hdr, urgp) == 18, "tcp_hdr: 20 bytes");
_Static_assert(sizeof(struct icmp_echo_hdr) == 8 && offsetof(struct icmp_echo_hdr, seqno) == 6,
	       "icmp_echo_hdr: 8 bytes");
_Static_assert(offsetof(struct dhcp_msg, xid) == 4 && offsetof(struct dhcp_msg, ciaddr) == 12 &&
	       offsetof(struct dhcp_msg, chaddr) == 28 &&
	       offsetof(struct dhcp_msg, cookie) == 236 &&
	       offsetof(struct dhcp_msg, options) == DHCP_OPTIONS_OFS,
	       "dhcp_msg: RFC 2131's layout");
