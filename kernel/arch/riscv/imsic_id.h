/* imsic_id.h: the interrupt identities of one hart's IMSIC file (AIA 1.0, chapter 3): which are
 * taken, and by whom is the caller's business. Identity 0 does not exist; a file has 1..nids
 * (63 to 2047, a multiple of 64 minus 1), a smaller number the higher priority. aia.c keeps one
 * per hart: the wired lines' identities (line N is identity N) and the IPI's are reserved on
 * every hart, and a message-signalled line's on every hart while it is lent (its identity, its
 * data, the same wherever it moves).
 * Pure bookkeeping, no hardware: the caller holds whatever lock guards its file's table (aia.c:
 * boot, or the BKL). */
#ifndef ARCH_RISCV_IMSIC_ID_H
#define ARCH_RISCV_IMSIC_ID_H

#include <stdbool.h>
#include <stdint.h>

#define IMSIC_IDS_MAX 2047

struct imsic_ids {
	uint32_t nids;				  /* identities 1..nids exist */
	uint64_t taken[(IMSIC_IDS_MAX + 1) / 64]; /* bit i of word i / 64: identity i */
};

/* A file of nids identities, none taken. -TACET_EINVAL for a count the AIA does not allow. */
int imsic_ids_init(struct imsic_ids *ids, uint32_t nids);
/* Take identity id: 0, -TACET_EINVAL outside 1..nids, -TACET_EBUSY if taken. */
int imsic_ids_reserve(struct imsic_ids *ids, uint32_t id);
/* Take the lowest free identity above floor: the identity, or -TACET_ENOMEM if none is left. */
int imsic_ids_alloc(struct imsic_ids *ids, uint32_t floor);
/* Give a taken identity back: 0, or -TACET_EINVAL if it is not taken (nothing changes). */
int imsic_ids_free(struct imsic_ids *ids, uint32_t id);
bool imsic_ids_taken(const struct imsic_ids *ids, uint32_t id);

#endif
