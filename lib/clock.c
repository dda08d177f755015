/* clock.c: the cycle counter's rate against the timebase (<tacet/clock.h>). No state; called
 * from any thread. */
#include <tacet/clock.h>

#define NS_PER_S 1000000000ull

/* cycles * (time ticks / cycles) * (ns / tick), in 128 bits: exact for any count of a day's
 * cycles at any rate */
uint64_t tacet_cycles_to_ns(const struct tacet_clock_info *ci, uint64_t cycles)
{
	unsigned __int128 dc = ci->cycles - ci->boot_cycles, dt = ci->time - ci->boot_time;

	if (!dc || !ci->timebase_hz)
		return 0;
	return (uint64_t)((unsigned __int128)cycles * dt * NS_PER_S / (dc * ci->timebase_hz));
}

uint64_t tacet_cycles_hz(const struct tacet_clock_info *ci)
{
	unsigned __int128 dc = ci->cycles - ci->boot_cycles, dt = ci->time - ci->boot_time;

	if (!dt)
		return 0;
	return (uint64_t)(dc * ci->timebase_hz / dt);
}
