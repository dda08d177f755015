/* quiesce.c: the one interpreter of quiesce descriptions (<tacet/quiesce.h>): finding a device's
 * record in a section, checking it, applying it through an io table. Decode, then invoke: a
 * record is checked whole before its first access, so a malformed one (a hostile module's)
 * touches nothing. Pure but for the io calls; no state, no lock. Called by init (a dead server's
 * devices, from its module image) and by the kit (quiesce_mmio.c: a driver at its start); built
 * on the host too (tests/host/test_quiesce.c). */
#include <string.h>
#include <tacet/abi.h>
#include <tacet/quiesce.h>

int tacet_compatible_matches(const char *compatible, const char *wanted); /* lib/compatible.c */

static long refuse(const char **why, const char *msg)
{
	*why = msg;
	return -TACET_EINVAL;
}

/* The bytes op reaches: 1 or 4. */
static uint32_t op_width(uint32_t kind)
{
	return kind == TACET_QUIESCE_WRITE8 ? 1 : 4;
}

static long check_op(const struct tacet_quiesce_op *op, unsigned long size, const char **why)
{
	uint32_t width = op_width(op->kind);

	if (op->kind < TACET_QUIESCE_WRITE8 || op->kind > TACET_QUIESCE_STOP_IF32)
		return refuse(why, "an unknown operation");
	if (op->offset % width)
		return refuse(why, "an offset not aligned to its access");
	if (op->offset >= size || width > size - op->offset)
		return refuse(why, "an offset outside the device's registers");
	if (op->kind == TACET_QUIESCE_WRITE8 && op->value > 0xff)
		return refuse(why, "an 8-bit write of a wider value");
	return 0;
}

long tacet_quiesce_check(const struct tacet_quiesce *q, unsigned long size, const char **why)
{
	if (q->magic != TACET_QUIESCE_MAGIC)
		return refuse(why, "no description (bad magic)");
	if (!memchr(q->compatible, 0, sizeof(q->compatible)) || !q->compatible[0])
		return refuse(why, "its compatible is empty or not terminated");
	if (q->nops == 0 || q->nops > TACET_QUIESCE_MAX_OPS)
		return refuse(why, "no operations, or more than a description holds");
	for (uint32_t i = 0; i < q->nops; i++)
		if (check_op(&q->ops[i], size, why))
			return -TACET_EINVAL;
	return 0;
}

long tacet_quiesce_find(const void *section, size_t len, const char *compatible,
			struct tacet_quiesce *q, const char **why)
{
	const unsigned char *p = section;

	if (len % sizeof(*q))
		return refuse(why, "the section is not a whole number of descriptions");
	for (size_t off = 0; off < len; off += sizeof(*q)) {
		memcpy(q, p + off, sizeof(*q)); /* the section may lie at any alignment */
		if (q->magic != TACET_QUIESCE_MAGIC)
			return refuse(why, "a description in the section has a bad magic");
		if (memchr(q->compatible, 0, sizeof(q->compatible)) &&
		    tacet_compatible_matches(compatible, q->compatible))
			return 1;
	}
	return 0;
}

/* Run one checked operation: 1 go on, 0 a guard says stop, -TACET_EBUSY a poll ran out. */
static long run_op(const struct tacet_quiesce_op *op, const struct tacet_quiesce_io *io,
		   volatile uint8_t *regs)
{
	switch (op->kind) {
	case TACET_QUIESCE_WRITE8:
		io->write8(regs, op->offset, (uint8_t)op->value);
		return 1;
	case TACET_QUIESCE_WRITE32:
		io->write32(regs, op->offset, op->value);
		return 1;
	case TACET_QUIESCE_READ32:
		io->read32(regs, op->offset);
		return 1;
	case TACET_QUIESCE_POLL32:
		for (int i = 0; i < TACET_QUIESCE_POLLS; i++)
			if ((io->read32(regs, op->offset) & op->mask) == op->value)
				return 1;
		return -TACET_EBUSY;
	case TACET_QUIESCE_ONLY_IF32:
		return (io->read32(regs, op->offset) & op->mask) == op->value;
	default: /* TACET_QUIESCE_STOP_IF32: the check admits nothing else */
		return (io->read32(regs, op->offset) & op->mask) != op->value;
	}
}

long tacet_quiesce_run(const struct tacet_quiesce *q, const struct tacet_quiesce_io *io,
		       volatile uint8_t *regs, unsigned long size, const char **why)
{
	long err = tacet_quiesce_check(q, size, why);

	for (uint32_t i = 0; !err && i < q->nops; i++) {
		long r = run_op(&q->ops[i], io, regs);

		if (r <= 0) {
			*why = r ? "a register never read back the value it waited for" : NULL;
			return r;
		}
	}
	return err ? err : 1;
}
