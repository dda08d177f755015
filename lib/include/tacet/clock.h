/* tacet/clock.h: the kernel's cycle counter against the timebase (TACET_INFO_CLOCK), for turning
 * the kernel's statistics (kept in cycles) into time. Pure arithmetic on a struct the caller
 * read (lib/clock.c; no system call, so host tests link it as it is). */
#ifndef TACET_CLOCK_H
#define TACET_CLOCK_H

#include <stdint.h>
#include <tacet/abi.h>

/* The cycle counter (the kernel's statistics, tacet_cycles) counts at no rate the device tree
 * gives: QEMU without -icount runs it at the host's rate. This turns cycles into ns at the rate
 * it ran since boot against the timebase, from ci (tacet_info(TACET_INFO_CLOCK, 0, ...): read
 * it once for many values); 0 if no time has passed. Under -icount shift=0 that rate is one
 * cycle a ns, and a cycle an instruction (ci->flags has TACET_CLOCK_INSTRUCTIONS when the boot
 * arguments say so). */
uint64_t tacet_cycles_to_ns(const struct tacet_clock_info *ci, uint64_t cycles);

/* That rate in cycles a second (the same measure), or 0 if no time has passed. */
uint64_t tacet_cycles_hz(const struct tacet_clock_info *ci);

#endif
