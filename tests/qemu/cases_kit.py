"""cases_kit.py: the driver kit: multi-page contiguous frames, the kit's lib calls, the goldfish
RTC driver and its clients (docs/drivers.md)."""

import re

CASES = [
    # FRAME_NEW with pages > 1: two 16-page frames zeroed, disjoint runs, each page its own,
    # charged and given back whole; 0 / 257 / ~0 pages ERANGE; 256-page frames until the
    # 2048-page budget says ENOMEM (7 fit beside the process's own pages).
    case("frame-contiguous",
         [r"framerun: 16 pages, all zero: PASS(.|\n)*framerun: 16 pages, all zero: PASS",
          r"framerun: two 16-page runs, disjoint: PASS",
          r"framerun: every page its own: PASS",
          r"framerun: 32 pages charged: PASS",
          r"framerun: 32 pages given back: PASS",
          r"framerun: 0 pages -> ERANGE: PASS",
          r"framerun: 257 pages -> ERANGE: PASS",
          r"framerun: ~0 pages -> ERANGE: PASS",
          r"framerun: 7 frames of 256 pages, then out of memory",
          r"framerun: 256-page frames until the budget is spent -> ENOMEM: PASS",
          r"framerun: one back, one more fits: PASS",
          r"framerun: all checks passed",
          r"init: server framerun finished with status 0"],
         bootargs="init.run=framerun"),
]

KIT = ["slots from lib's range", "a slot freed is handed out again",
       "timebase from the information page",
       "conversions round up to a tick, a second of ticks is 1e9 ns", "sleep 20 ms",
       "sleep lasted at least 20 ms", "addresses apart, with a guard page",
       "a range given back is used again", "DMA buffer of 4 pages",
       "zeroed, whole pages, its physical address", "freed and allocated again, zeroed",
       "0 bytes and more than 256 pages -> ERANGE", "a device not given -> ENOENT",
       "open goldfish-rtc", "the RTC reads the time of day", "no interrupt: timeout",
       "alarm: interrupt before timeout", "cleared, then acknowledged", "the driver's own bit",
       "a cancelled timeout never fires",
       "interrupt and own bit together: the interrupt first", "then the own bit, kept",
       "then nothing", "bits from a NOTIFY message, one event at a time",
       "closed and opened again"]

CASES += [
    # The kit's calls on the goldfish RTC: each check prints PASS or FAIL; every one must pass.
    case("driver-kit",
         [r"kittest: timebase 10000000 Hz"] +
         [r"kittest: " + re.escape(c) + r": PASS" for c in KIT] +
         [r"kittest: all checks passed", r"init: server kittest finished with status 0"],
         bootargs="init.run=kittest:goldfish-rtc"),
]
