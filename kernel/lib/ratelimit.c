/* ratelimit.c: a log line's rate limit (ratelimit.h). The caller holds the BKL. */
#include "lib/ratelimit.h"

bool ratelimit_take(struct ratelimit *r, uint64_t now, uint64_t *missed)
{
	*missed = 0;
	if (!r->printed || now - r->window_start >= r->interval) {
		r->window_start = now; /* a window starts with the first line in it */
		r->printed = 0;
	}
	if (r->printed >= r->burst) {
		r->suppressed++;
		return false;
	}
	r->printed++;
	*missed = r->suppressed;
	r->suppressed = 0;
	return true;
}

uint64_t ratelimit_flush(struct ratelimit *r)
{
	uint64_t missed = r->suppressed;

	r->suppressed = 0;
	return missed;
}
