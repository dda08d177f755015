/* imsic_id.c: one IMSIC file's identities, taken and free (see imsic_id.h). Called by aia.c
 * at boot for every hart's file, under whatever lock its caller holds; no hardware access. */
#include "imsic_id.h"
#include <tacet/abi.h>

static bool in_file(const struct imsic_ids *ids, uint32_t id)
{
	return id >= 1 && id <= ids->nids;
}

int imsic_ids_init(struct imsic_ids *ids, uint32_t nids)
{
	if (nids < 63 || nids > IMSIC_IDS_MAX || (nids + 1) % 64)
		return -TACET_EINVAL;
	ids->nids = nids;
	for (uint32_t w = 0; w < sizeof(ids->taken) / sizeof(ids->taken[0]); w++)
		ids->taken[w] = 0;
	return 0;
}

bool imsic_ids_taken(const struct imsic_ids *ids, uint32_t id)
{
	return in_file(ids, id) && (ids->taken[id / 64] >> (id % 64) & 1);
}

int imsic_ids_reserve(struct imsic_ids *ids, uint32_t id)
{
	if (!in_file(ids, id))
		return -TACET_EINVAL;
	if (imsic_ids_taken(ids, id))
		return -TACET_EBUSY;
	ids->taken[id / 64] |= 1ULL << (id % 64);
	return 0;
}

int imsic_ids_alloc(struct imsic_ids *ids, uint32_t floor)
{
	if (floor >= ids->nids)
		return -TACET_ENOMEM;
	for (uint32_t id = floor + 1; id <= ids->nids; id++) {
		uint64_t word = ids->taken[id / 64] >> (id % 64);

		if (word == ~0ULL >> (id % 64)) { /* the rest of this word is taken */
			id |= 63;
			continue;
		}
		if (!(word & 1)) {
			ids->taken[id / 64] |= 1ULL << (id % 64);
			return (int)id;
		}
	}
	return -TACET_ENOMEM;
}

int imsic_ids_free(struct imsic_ids *ids, uint32_t id)
{
	if (!imsic_ids_taken(ids, id))
		return -TACET_EINVAL;
	ids->taken[id / 64] &= ~(1ULL << (id % 64));
	return 0;
}
