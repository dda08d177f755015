# fuzz: the system call fuzzer (tests/qemu/cases_fuzz.py runs four, one per hart).
SERVERS += fuzz
SERVER_SRCS_fuzz := servers/fuzz/fuzz_main.c servers/fuzz/fuzz.c
