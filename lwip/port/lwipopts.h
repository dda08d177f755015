/* lwipopts.h: Tacet's lwIP configuration, for servers/ip and the host test of the port
 * (tests/host/test_lwip.c), which build the same lwIP sources with it.
 *
 * NO_SYS with the raw API: one thread runs the whole stack from its event loop (frames from the
 * driver's rings, lwIP's timers through sys_check_timeouts), so lwIP needs no locks, threads,
 * mailboxes or semaphores from the port, only sys_now (lwip/port/sys_tacet.c). IPv4 with ARP,
 * ICMP, DHCP, UDP, TCP and raw PCBs (ping); no IPv6, sockets or netconn. Memory is lwIP's own
 * fixed heap and pools, sized here: nothing comes from malloc. */
#ifndef TACET_LWIPOPTS_H
#define TACET_LWIPOPTS_H

#define NO_SYS 1
#define SYS_LIGHTWEIGHT_PROT 0
#define LWIP_SOCKET 0
#define LWIP_NETCONN 0
#define LWIP_TIMERS 1

/* --- protocols --- */
#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define LWIP_ARP 1
#define LWIP_ETHERNET 1
#define LWIP_ICMP 1
#define LWIP_RAW 1
#define LWIP_UDP 1
#define LWIP_TCP 1
#define LWIP_DHCP 1
/* QEMU's user network hands out one lease on a network of its own: probing the offered address
 * with ARP first would only delay the lease by a second. */
#define DHCP_DOES_ARP_CHECK 0
/* Packets to an address ARP has not resolved yet wait for it (up to ARP_QUEUE_LEN of them an
 * address), not only the last: a burst of echo replies to a new peer loses none. */
#define ARP_QUEUEING 1
#define ARP_QUEUE_LEN 32
#define MEMP_NUM_ARP_QUEUE 64
#define LWIP_AUTOIP 0
#define LWIP_IGMP 0
#define LWIP_DNS 0
#define IP_REASSEMBLY 1
#define IP_FRAG 1

/* --- netif --- */
#define LWIP_NETIF_STATUS_CALLBACK 1
#define LWIP_NETIF_LINK_CALLBACK 1
#define LWIP_NETIF_HOSTNAME 1
#define LWIP_SINGLE_NETIF 0
#define ETH_PAD_SIZE 0

/* --- memory: lwIP's heap for outgoing data, pools for the rest --- */
#define MEM_ALIGNMENT 8
#define MEM_SIZE (256 * 1024)
#define MEMP_NUM_PBUF 64
#define PBUF_POOL_SIZE 384 /* frames received: a UDP socket may hold 256 (servers/ip/sock.c) */
#define MEMP_NUM_RAW_PCB 4
#define MEMP_NUM_UDP_PCB 8
#define MEMP_NUM_TCP_PCB 16
#define MEMP_NUM_TCP_PCB_LISTEN 8
#define MEMP_NUM_TCP_SEG 256
#define MEMP_NUM_REASSDATA 8
#define MEMP_NUM_SYS_TIMEOUT 16

/* --- TCP: a window of 16 full segments each way --- */
#define TCP_MSS 1460
#define TCP_WND (16 * TCP_MSS)
#define TCP_SND_BUF (16 * TCP_MSS)
#define TCP_SND_QUEUELEN (4 * TCP_SND_BUF / TCP_MSS)
#define LWIP_TCP_SACK_OUT 0
#define TCP_QUEUE_OOSEQ 1

/* --- counters: every drop (bad checksum, short frame, no pcb, no memory) is counted --- */
#define LWIP_STATS 1
#define LWIP_STATS_LARGE 1 /* 32-bit counters: 16 bits wrap within seconds of traffic */
#define LWIP_STATS_DISPLAY 0
#define LINK_STATS 1
#define ETHARP_STATS 1
#define IP_STATS 1
#define ICMP_STATS 1
#define UDP_STATS 1
#define TCP_STATS 1
#define MEM_STATS 1
#define MEMP_STATS 1

/* --- apps built into the library for the servers that will use them --- */
#define LWIP_HTTPD_CGI 0
#define LWIP_HTTPD_SSI 0
#define LWIP_HTTPD_DYNAMIC_HEADERS 1

#endif
