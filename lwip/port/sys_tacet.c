/* sys_tacet.c: what lwIP (NO_SYS) asks of Tacet: sys_now, its millisecond clock, and
 * lwip_port_rand, the seed of DHCP transaction ids and TCP's ports and sequence numbers.
 *
 * Both read the timebase (lib/time.c); the generator keeps one word of its own. Called from
 * lwIP, inside the one thread that runs the stack (servers/ip's event loop): no locking. */
#include <stdint.h>

#include <tacet.h>
#include <tacet/driver.h>

#include "lwip/arch.h"
#include "lwip/sys.h"

u32_t sys_now(void)
{
	return (u32_t)(tacet_time_ns() / 1000000u);
}

/* Not cryptographic (lwIP asks for no more): the timebase's low bits, stirred by a
 * multiplicative step so that two calls in one tick differ. */
uint32_t lwip_port_rand(void)
{
	static uint64_t state;

	state = (state + tacet_time()) * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(state >> 32);
}
