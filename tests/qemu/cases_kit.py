"""cases_kit.py: the driver kit: multi-page contiguous frames, the kit's lib calls, the goldfish
RTC driver and its clients (docs/drivers.md)."""

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
