/* ksyms.c: looks addresses up in the table tools/gensyms.sh generates from the first link
 * (sorted addresses, with offsets into one string blob). Read-only; any context. */
#include "lib/ksyms.h"

extern const uint64_t ksyms_count;
extern const uint64_t ksyms_addrs[];
extern const uint32_t ksyms_name_offsets[];
extern const char ksyms_names[];
extern const char _text_end[];

const char *ksyms_lookup(uintptr_t addr, uintptr_t *offset)
{
	uint64_t lo = 0, hi = ksyms_count;

	if (hi == 0 || addr < ksyms_addrs[0] || addr >= (uintptr_t)_text_end)
		return 0;
	while (hi - lo > 1) { /* the last symbol <= addr */
		uint64_t mid = lo + (hi - lo) / 2;

		if (ksyms_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksyms_addrs[lo];
	return &ksyms_names[ksyms_name_offsets[lo]];
}
