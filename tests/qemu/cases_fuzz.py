"""cases_fuzz.py: the system call fuzzer (servers/fuzz): unprivileged processes, one per hart
(two sharing the one hart of a single-hart machine), make 100,000 random system calls each; the
kernel must survive them, a call/reply round trip through init must still work afterwards, and
init's leak check must find every page and kernel object back. On 1, 4 and 8 harts: one hart
has no cross-hart wake-ups at all, eight contend hardest for the big kernel lock."""


def fuzz_case(name, harts, instances):
    n = len(instances)
    return case(name,
                [rf"(?s)(fuzz: seed 0x[0-9a-f]+ \(instance \d\).*){{{n}}}",
                 rf"(?s)(fuzz \d: 100000 calls made.*){{{n}}}",
                 rf"(?s)(fuzz: sanity round trip through init: PASS.*){{{n}}}",
                 r"init: leak check: .*: PASS", rf"init: all {n} servers done; powering off"],
                smp=harts, bootargs="init.run=" + ",".join(f"fuzz@{h}" for h in instances),
                timeout=90)


CASES = [
    fuzz_case("syscall-fuzzer-smp1", 1, [0, 0]),
    fuzz_case("syscall-fuzzer", 4, range(4)),
    fuzz_case("syscall-fuzzer-smp8", 8, range(8)),
]
