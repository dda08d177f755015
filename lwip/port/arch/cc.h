/* arch/cc.h: lwIP's compiler and platform definitions for Tacet's port (riscv64 with picolibc,
 * and the host, where tests/host/test_lwip.c builds the same sources with glibc).
 *
 * lwIP's arch.h includes this first and takes its integer types from <stdint.h>, which both C
 * libraries have. Diagnostics go to printf (lib/stdio.c's console on Tacet); a failed lwIP
 * assertion is a bug in the stack or the port: it prints and traps (ebreak: a fault, which init
 * reports, restarting the server by its policy; abort() would need signals picolibc cannot
 * give). LWIP_RAND feeds DHCP's transaction ids, TCP's initial
 * ports and sequence numbers: lwip_port_rand() is the port's (lwip/port/sys_tacet.c) or the
 * host test's. No locking: lwIP runs NO_SYS, one thread per stack. */
#ifndef TACET_LWIP_ARCH_CC_H
#define TACET_LWIP_ARCH_CC_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LWIP_PLATFORM_DIAG(x) \
	do { \
		printf x; \
	} while (0)

#define LWIP_PLATFORM_ASSERT(x) \
	do { \
		printf("lwip: assertion \"%s\" failed at %s:%d\n", x, __FILE__, __LINE__); \
		__builtin_trap(); \
	} while (0)

/* Byte order swapped inline, where lwIP's def.c would make each a call (about 140
 * instructions an echoed datagram through ip): both targets are little-endian. 32 bits by
 * shifts: rv64imac has no byte-swap instruction, and gcc makes __builtin_bswap32 a call into
 * libgcc there (its 16-bit swap it expands inline). */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "lwIP's port assumes a little-endian machine"
#endif
static inline uint32_t lwip_port_bswap32(uint32_t x)
{
	return x >> 24 | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | x << 24;
}
#define lwip_htons(x) ((u16_t)__builtin_bswap16((u16_t)(x)))
#define lwip_htonl(x) ((u32_t)lwip_port_bswap32((u32_t)(x)))

/* lwIP's protocol headers (lwip/prot/) as plain structs, not packed: their natural layout is
 * the wire's (lwIP lays them out so; lwip/port/layout.c checks each size and offset), and gcc
 * then reads and writes their 16- and 32-bit fields with one load or store each, where packed
 * took each a byte at a time. What that needs, each header at its alignment (ip_hdr and tcp_hdr
 * 4 bytes, eth_hdr and udp_hdr 2; reassembly lays a pointer over a fragment's IP header: 8), is
 * where frames lie: lwIP's own pbufs put the IP header at 4 or 8, and a received frame's is put
 * at 8 (servers/ip/netif.c, the host test's link likewise). */
#define PACK_STRUCT_STRUCT
#define LWIP_SKIP_PACKING_CHECK

uint32_t lwip_port_rand(void);
#define LWIP_RAND() lwip_port_rand()

/* The checksum's sum four bytes a load (lwip/port/chksum.c), where lwIP's own takes two. */
uint16_t lwip_port_chksum(const void *data, int len);
#define LWIP_CHKSUM lwip_port_chksum

#endif
