/* va.c: lib's virtual-address allocator: ranges of [TACET_VA_BASE, TACET_VA_END) for the kit and
 * the drivers to map things at. A bump pointer, plus a short list of ranges given back that a
 * request of the same size or less reuses (first fit, the rest of the range stays listed): a
 * driver maps a handful of things, mostly once. Each range is followed by an unmapped guard
 * page, so that running off its end faults instead of landing in the next one. Not thread-safe
 * (see <tacet/driver.h>). */
#include <tacet.h>

#define FREE_MAX   32

struct va_range {
	unsigned long va, pages; /* guard page included */
};

static unsigned long next = TACET_VA_BASE;
static struct va_range freed[FREE_MAX];
static unsigned int nfreed;

static unsigned long reuse(unsigned long pages)
{
	for (unsigned int i = 0; i < nfreed; i++) {
		unsigned long va = freed[i].va;

		if (freed[i].pages < pages)
			continue;
		freed[i].va += pages * TACET_PAGE_SIZE;
		freed[i].pages -= pages;
		if (!freed[i].pages)
			freed[i] = freed[--nfreed];
		return va;
	}
	return 0;
}

unsigned long tacet_va_alloc(unsigned long pages)
{
	unsigned long va;

	if (!pages || pages > (TACET_VA_END - TACET_VA_BASE) / TACET_PAGE_SIZE - 1)
		return 0;
	pages++; /* the guard page */
	va = reuse(pages);
	if (va)
		return va;
	if (pages > (TACET_VA_END - next) / TACET_PAGE_SIZE)
		return 0;
	va = next;
	next += pages * TACET_PAGE_SIZE;
	return va;
}

void tacet_va_free(unsigned long va, unsigned long pages)
{
	if (!va || !pages)
		return;
	pages++;
	if (va + pages * TACET_PAGE_SIZE == next) {
		next = va; /* the last one handed out: the bump pointer takes it back */
		return;
	}
	if (nfreed < FREE_MAX)
		freed[nfreed++] = (struct va_range){ va, pages };
	/* else the range is lost to reuse: the region is 60 GiB */
}
