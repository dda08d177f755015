/* tacet/net_defs.h: Ethernet's constants, for a network driver, a stack and a test alike
 * (IEEE 802.3 framing as a NIC hands it over: no preamble, no FCS). Constants only. */
#ifndef TACET_NET_DEFS_H
#define TACET_NET_DEFS_H

#define ETH_ALEN      6    /* bytes of a MAC address */
#define ETH_HLEN      14   /* destination, source, EtherType */
#define ETH_MTU       1500 /* payload bytes after the header */
#define ETH_ZLEN      60   /* the shortest frame on the wire, without FCS (shorter: padded) */
#define ETH_FRAME_MAX (ETH_HLEN + ETH_MTU) /* 1514: the longest frame without a VLAN tag */

#define ETH_P_IPV4 0x0800
#define ETH_P_ARP  0x0806
#define ETH_P_IPV6 0x86dd

/* A frame a network service passes: at least a header, at most a full frame. */
#define NET_FRAME_MIN ETH_HLEN
#define NET_FRAME_MAX ETH_FRAME_MAX

#endif
