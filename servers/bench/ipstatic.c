/* ipstatic.c: with servers/ip's sources, the ip_static server: the IP stack at a fixed address,
 * UDP_BENCH_IP_ADDR/24 (servers/bench/udp.h), for a boot with no DHCP server (two NICs on one
 * QEMU hub: bench_udp). Called once by ip's stack_start; no state. */
#include <stdint.h>

#include "udp.h"

int ip_static_address(uint32_t *addr, uint32_t *mask);

int ip_static_address(uint32_t *addr, uint32_t *mask)
{
	*addr = UDP_BENCH_IP_ADDR;
	*mask = 0xffffff00u;
	return 1;
}
