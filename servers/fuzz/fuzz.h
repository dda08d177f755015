/* fuzz.h: the system call fuzzer (fuzz.c), as its own server runs it (fuzz_main.c) and as the
 * stress benchmarks' stress_fuzz stressor does (servers/bench/stress_fuzz.c). */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

/* Seeds the calls from id (printed), then drops the fuzzer's privileges (init's endpoint moved
 * out of reach, its own process capability deleted). 0 or -TACET_E* (printed). */
long fuzz_start(unsigned long id);
/* Slots no call may name (kept as they are), besides the fuzzer's own; before fuzz(). */
void fuzz_keep(const unsigned long *slots, unsigned long n);
/* Makes n random system calls, counting what they return. */
void fuzz(unsigned long n);
/* Puts init's endpoint back, prints the report of the calls made (calls in all) and checks a
 * round trip through init: 0 when it worked, else -TACET_E*. */
long fuzz_finish(unsigned long id, unsigned long calls);

#endif
