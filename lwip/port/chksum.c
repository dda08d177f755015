/* chksum.c: the Internet checksum's sum for lwIP (lwipopts.h's LWIP_CHKSUM): RFC 1071's
 * ones'-complement sum of 16-bit words, four bytes a load into a 64-bit accumulator and folded
 * at the end (2^16 is 1 modulo 0xffff, so the sum of 32-bit words folds to the sum of 16-bit
 * ones). The result is what lwIP's own routine returns: the sum of the words as they lie in
 * memory, read as native (little-endian, cc.h checks) words, not inverted; a buffer starting at
 * an odd address is summed from its second byte, the first put in the high byte, and the result's
 * bytes swapped, as lwIP's algorithm 2 does. Pure; called from lwIP in ip's one thread (and
 * the host test's). */
#include <stdint.h>

#include "lwip/arch.h"
#include "lwip/opt.h"

typedef uint32_t __attribute__((may_alias)) word32_t;
typedef uint16_t __attribute__((may_alias)) word16_t;

u16_t lwip_port_chksum(const void *data, int len)
{
	const uint8_t *p = data, *end;
	uint64_t sum = 0;
	int odd = (uintptr_t)p & 1;

	if (len <= 0)
		return 0;
	if (odd) {
		sum = (uint64_t)*p++ << 8;
		len--;
	}
	if (((uintptr_t)p & 2) && len >= 2) {
		sum += *(const word16_t *)p;
		p += 2, len -= 2;
	}
	/* 4-aligned: 16 bytes a round, then what is left by its binary digits (len < 16) */
	for (end = p + (len & ~15); p != end; p += 16) {
		const word32_t *w = (const word32_t *)p;

		sum += ((uint64_t)w[0] + w[1]) + ((uint64_t)w[2] + w[3]);
	}
	if (len & 8) {
		sum += (uint64_t)((const word32_t *)p)[0] + ((const word32_t *)p)[1];
		p += 8;
	}
	if (len & 4) {
		sum += *(const word32_t *)p;
		p += 4;
	}
	if (len & 2) {
		sum += *(const word16_t *)p;
		p += 2;
	}
	if (len & 1)
		sum += *p;
	/* below 2^47 (at most 2^14 words of 32 bits): three folds bring it to 16 bits */
	sum = (sum & 0xffffffffu) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return odd ? (u16_t)((sum << 8 | sum >> 8) & 0xffff) : (u16_t)sum;
}
