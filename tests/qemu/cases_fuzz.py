"""cases_fuzz.py: the system call fuzzer (servers/fuzz): four unprivileged processes, one per
hart, make 100,000 random system calls each; the kernel must survive them and a call/reply
round trip through init must still work afterwards."""

CASES = [
    case("syscall-fuzzer",
         [r"(?s)(fuzz: seed 0x[0-9a-f]+ \(instance \d\).*){4}",
          r"(?s)(fuzz \d: 100000 calls made.*){4}",
          r"(?s)(fuzz: sanity round trip through init: PASS.*){4}",
          r"init: leak check: .*: PASS", r"init: all 4 servers done; powering off"],
         smp=4, bootargs="init.run=fuzz@0,fuzz@1,fuzz@2,fuzz@3", timeout=90),
]
