/* host_rng.h: the host tests' random numbers: xorshift64, the same sequence on every host
 * (unlike rand()), so a failing seed can be replayed. One state per test file. */
#ifndef TESTS_HOST_RNG_H
#define TESTS_HOST_RNG_H

#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t rng_next(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static inline uint64_t rng_below(uint64_t n)
{
	return rng_next() % n;
}

#endif
