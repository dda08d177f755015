"""cases_kit.py: the driver kit: multi-page contiguous frames, the kit's lib calls, the goldfish
RTC driver and its clients (docs/drivers.md)."""

import datetime
import os
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
          r"framerun: an unknown FRAME_NEW flag -> EINVAL: PASS",
          r"framerun: a frame not made for DMA: no pin, no address \(EINVAL\): PASS",
          r"framerun: a frame made for DMA: CAP_INFO says so, and it is pinned: PASS",
          r"framerun: DMA frames above the kernel's pages and every other frame: PASS",
          r"framerun: 7 frames of 256 pages, then out of memory",
          r"framerun: 256-page frames until the budget is spent -> ENOMEM: PASS",
          r"framerun: one back, one more fits: PASS",
          r"framerun: all checks passed",
          r"init: server framerun finished with status 0"],
         bootargs="init.run=framerun:goldfish-rtc"),
    # FRAME_NEW zeroes a 256-page frame between preemption points (kernel/object/frame.c), MAP
    # maps one likewise (process.c): with another hart filling the frames' slot, spending the
    # budget or ending the process making them, each FRAME_NEW still makes a whole zeroed frame
    # or fails with the error the window caused, never over the budget, and an end inside a
    # call leaks nothing; with it mapping a page into the range or ending the process mapped
    # into, each MAP is whole or EEXIST, or 0, EDEAD or EEMPTY, memory back. Without -icount,
    # so that both harts run at once.
    case("frame-preempt",
         [r"framerace: slot: \d+ frames made, \d+ EEXIST",
          r"framerace: slot: 256-page frames zeroed or EEXIST, nothing else: PASS",
          r"framerace: budget: \d+ frames made, \d+ ENOMEM",
          r"framerace: budget: 256-page frames zeroed or ENOMEM, never over the limit, usage "
          r"back: PASS",
          r"framerace: kill: 20 children ended, \d+ of them while charged for a 1 MiB frame",
          r"framerace: kill: children ended while making 256-page frames, memory back each "
          r"time: PASS",
          r"framerace: map: \d+ whole, \d+ EEXIST",
          r"framerace: map: 256-page MAPs whole \(every page its own\) or EEXIST, usage back: "
          r"PASS",
          r"framerace: map-end: 20 children, MAP into them 0 \d+, EDEAD \d+, EEMPTY \d+ times",
          r"framerace: map-end: MAPs into a child ended meanwhile: 0, EDEAD or EEMPTY, memory "
          r"back each time: PASS",
          r"framerace: all checks passed",
          r"init: server framerace finished with status 0",
          r"init: leak check: .*: PASS"],
         smp=2, bootargs="init.run=framerace", timeout=90),
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
       "an earlier wait's timeout ends no later wait",
       "interrupt and own bit together: the interrupt first", "then the own bit, kept",
       "then nothing", "interrupts back to back, each acknowledged by the next wait",
       "bits from a NOTIFY message, one event at a time",
       "closed and opened again"]

CASES += [
    # The kit's calls on the goldfish RTC: each check prints PASS or FAIL; every one must pass.
    case("driver-kit",
         [r"kittest: timebase 10000000 Hz"] +
         [r"kittest: " + re.escape(c) + r": PASS" for c in KIT] +
         [r"kittest: all checks passed", r"init: server kittest finished with status 0"],
         bootargs="init.run=kittest:goldfish-rtc", variants=CONTROLLERS),
]


def date_matches_host(out):
    """The shell's `date` line against the host's clock: within a minute."""
    m = re.search(r"tacet> date\n+(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d) UTC\n", out)
    if not m:
        return ["no date line after `date`"]
    guest = datetime.datetime(*map(int, m.groups()), tzinfo=datetime.timezone.utc)
    host = datetime.datetime.now(datetime.timezone.utc)
    off = abs((host - guest).total_seconds())
    return [] if off <= 60 else [f"date says {guest}, the host {host}: {off:.0f} s apart"]


# The goldfish RTC's line on QEMU virt (hw/riscv/virt.h RTC_IRQ) and its PLIC priority register,
# which the kernel's top half writes 0 to mask the line and tacet_irq_ack writes back to 1.
# The RTC line's (11) word that masks and unmasks it, with the values: the PLIC's priority
# (0, then 1), the APLIC's sourcecfg (0: inactive, then 6: level high; aia.c).
RTC_LINE_WORDS = (("addr 0xc00002c", "value 0x0 ", "value 0x1 "),
                  ("addr 0xd00002c", "value 0x0 ", "value 0x6 "))
RTC_CLEAR_INTERRUPT = "addr 0x10101c"
# QEMU appends to a trace file: one of this run's own, read and removed by the check.
RTC_TRACE = f"build/test-logs/qemu-rtc-alarm.{os.getpid()}.trace"


def clear_then_ack(out, trace=RTC_TRACE, at_least=5):
    """In QEMU's trace of every MMIO write: after the top half masks the RTC's line, the driver
    writes CLEAR_INTERRUPT before the ack unmasks it, every time. (QEMU's PLIC would not show
    the other order: it latches a level once, so a driver that acks first still works here.)
    The line's mask and unmask are its PLIC priority's or APLIC sourcecfg's (RTC_LINE_WORDS)."""
    try:
        with open(trace) as f:
            lines = [line for line in f if "memory_region_ops_write" in line]
        os.remove(trace)
    except OSError as e:
        return [f"no trace: {e}"]
    unmasked = masked = cleared = False
    good, bad = 0, 0
    for line in lines:
        word = next((w for w in RTC_LINE_WORDS if w[0] in line), None)
        if word and word[1] in line and unmasked:
            masked, cleared = True, False
        elif RTC_CLEAR_INTERRUPT in line and "goldfish_rtc" in line:
            cleared = True
        elif word and word[2] in line:
            if masked:
                good, bad = good + cleared, bad + (not cleared)
            unmasked, masked = True, False
    problems = [f"{bad} of {good + bad} acks came before the device's interrupt was cleared"] \
        if bad else []
    if good < at_least:
        problems.append(f"only {good} cleared-then-acked interrupts in the trace, "
                        f"expected at least {at_least}")
    return problems


CASES += [
    # `make qemu`'s own boot arguments (the overlay's, the rtc among them): `date`, typed once
    # the boot is quiet, prints the host's UTC time, give or take a minute.
    case("rtc-date",
         [r"tacet> date\n+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\n",
          r"init: power off requested by uart"],
         qemu_args=DEFAULT_DEVICES, needs=DEFAULT_NEEDS,
         console_input=default_boot_input("date\rpoweroff\r"), check=date_matches_host,
         variants=CONTROLLERS),
    # The rtc service's alarms, through lib's client; QEMU traces every MMIO write so that the
    # check can see the driver clear the device's interrupt before it acknowledges the line.
    case("rtc-alarm",
         [r"rtcalarm: the time of day, past 2020: PASS",
          r"rtcalarm: alarm 50 ms ahead set: PASS",
          r"rtcalarm: the alarm fired once: PASS",
          r"rtcalarm: not before its time: PASS",
          r"rtcalarm: three alarms set out of order: PASS",
          r"rtcalarm: each fired once, at or after its time: PASS",
          r"rtcalarm: in the order of their times: PASS",
          r"rtcalarm: three alarms due at once, each seen in the order of its time: PASS",
          r"rtcalarm: alarm in the past: PASS",
          r"rtcalarm: fired at once, once: PASS",
          r"rtcalarm: no bits -> EINVAL: PASS",
          r"rtcalarm: RTC_ALARM without a notification -> EINVAL: PASS",
          r"rtcalarm: an unknown label -> EINVAL: PASS",
          r"rtcalarm: 8 alarms an hour ahead, then the table is full",
          r"rtcalarm: more than RTC_ALARMS_MAX pending -> EBUSY: PASS",
          r"rtcalarm: all checks passed",
          r"init: power off requested by rtcalarm"],
         bootargs="init.run=uart=console:ns16550a,rtc:goldfish-rtc,^rtcalarm",
         qemu_args=("-trace", f"enable=memory_region_ops_write,file={RTC_TRACE}"),
         check=clear_then_ack, variants=CONTROLLERS),
    # A client's death frees what rtc held for it: rtcleak's instance 0 fills the alarm table
    # an hour ahead and faults; its session ends with its process, and the restarted instance
    # sets as many alarms again (the table stayed full, EBUSY, while a session never ended).
    case("rtc-dead-client-alarms",
         [r"rtcleak: instance 0: 8 alarms an hour ahead, the table full; faulting",
          r"init: restarting rtcleak \(restart 1\)",
          r"rtcleak: instance 1: 8 alarms set after instance 0's end: PASS",
          r"init: power off requested by uart"],
         bootargs="init.run=^uart=console:ns16550a,rtc:goldfish-rtc,rtcleak*1",
         console_input=(r"rtcleak: instance 1: .*(PASS|FAIL)", "poweroff\r")),
    # The same client on the deterministic machine (icount): the RTC must follow guest time, or
    # the guest's 50 ms wait for the alarm ends in a moment of the host's, before the alarm.
    # Nothing types (under sleep=off QEMU would not deliver it): rtcalarm powers off.
    case("rtc-alarm-icount",
         [r"rtcalarm: the alarm fired once: PASS", r"rtcalarm: not before its time: PASS",
          r"rtcalarm: each fired once, at or after its time: PASS",
          r"rtcalarm: three alarms due at once, each seen in the order of its time: PASS",
          r"rtcalarm: more than RTC_ALARMS_MAX pending -> EBUSY: PASS",
          r"rtcalarm: all checks passed", r"init: power off requested by rtcalarm"],
         smp=2, bootargs="init.run=rtc:goldfish-rtc,^rtcalarm", icount=True),
]
