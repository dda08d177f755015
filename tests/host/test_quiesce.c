/* test_quiesce.c: host unit tests of the quiesce descriptions' interpreter (lib/quiesce.c) and of
 * the ELF reader's section lookup that init finds them with (kernel/lib/elf.c, elf_section),
 * against a fake device that logs every access. Cases: a record found by compatible in a
 * section at any alignment; malformed sections and records (cut short, bad magic, unknown
 * operations, offsets outside the registers or misaligned, too many operations, an unterminated
 * compatible) refused whole with their reason and no access at all; operations applied in order;
 * the guards and the poll; section lookups in synthetic ELF files with hostile headers; the real
 * server images' sections; and random corruption, which never reaches outside the registers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host_file.h"

#include <tacet/abi.h>
#include <tacet/quiesce.h>
#include "lib/elf.h"
#include "host_rng.h"

#define REGS 0x1000 /* the fake device's register bytes */

/* --- the fake device: registers that keep what is written, and a log of every access --- */

struct access {
	char what; /* 'r' read32, 'w' write32, 'b' write8 */
	uint32_t offset, value;
};

static struct {
	uint8_t regs[REGS];
	struct access log[2 * TACET_QUIESCE_POLLS];
	unsigned int n;
	uint32_t outside; /* accesses beyond the size the test passed (must stay 0) */
	unsigned long size;
	int stuck;        /* the register at stuck_at reads 1 whatever is written */
	uint32_t stuck_at;
} fake;

static void fake_reset(unsigned long size)
{
	memset(&fake, 0, sizeof(fake));
	fake.size = size;
}

static void note(char what, uint32_t offset, uint32_t width, uint32_t value)
{
	if (offset >= fake.size || width > fake.size - offset)
		fake.outside++;
	if (fake.n < sizeof(fake.log) / sizeof(fake.log[0]))
		fake.log[fake.n] = (struct access){ what, offset, value };
	fake.n++;
}

static uint32_t fake_read32(volatile uint8_t *regs, uint32_t offset)
{
	uint32_t v = 0;

	assert_ptr_equal(regs, fake.regs);
	note('r', offset, 4, 0);
	if (fake.stuck && offset == fake.stuck_at)
		return 1;
	if (offset <= REGS - 4)
		memcpy(&v, fake.regs + offset, 4);
	return v;
}

static void fake_write32(volatile uint8_t *regs, uint32_t offset, uint32_t value)
{
	assert_ptr_equal(regs, fake.regs);
	note('w', offset, 4, value);
	if (offset <= REGS - 4)
		memcpy(fake.regs + offset, &value, 4);
}

static void fake_write8(volatile uint8_t *regs, uint32_t offset, uint8_t value)
{
	assert_ptr_equal(regs, fake.regs);
	note('b', offset, 1, value);
	if (offset < REGS)
		fake.regs[offset] = value;
}

static const struct tacet_quiesce_io fake_io = { fake_read32, fake_write32, fake_write8 };

static long run(const struct tacet_quiesce *q, unsigned long size, const char **why)
{
	fake_reset(size);
	return tacet_quiesce_run(q, &fake_io, fake.regs, size, why);
}

/* --- descriptions as drivers declare them --- */

#define MAGIC_VALUE 0x000
#define DEVICE_ID   0x008
#define STATUS      0x070

TACET_QUIESCE(rtc_like, "google,goldfish-rtc", TACET_QUIESCE_W32(0x10, 0),
	      TACET_QUIESCE_W32(0x14, 1), TACET_QUIESCE_W32(0x1c, 1));
TACET_QUIESCE(virtio_like, "virtio,mmio", TACET_QUIESCE_ONLY_IF(MAGIC_VALUE, 0xffffffffu, 0x74726976),
	      TACET_QUIESCE_STOP_IF(DEVICE_ID, 0xffffffffu, 0), TACET_QUIESCE_W32(STATUS, 0),
	      TACET_QUIESCE_POLL(STATUS, 0xffffffffu, 0));
TACET_QUIESCE(uart_like, "ns16550a", TACET_QUIESCE_W8(1, 0), TACET_QUIESCE_R32(0));

/* A section of n records, as an image holds them (copied: the test may cut or shift it). */
static size_t section_of(uint8_t *buf, const struct tacet_quiesce *const *q, int n)
{
	for (int i = 0; i < n; i++)
		memcpy(buf + i * sizeof(**q), q[i], sizeof(**q));
	return n * sizeof(**q);
}

/* --- finding a record --- */

static void test_find_by_compatible(void **state)
{
	const struct tacet_quiesce *two[] = { &virtio_like, &rtc_like };
	static uint8_t buf[1 + 2 * sizeof(struct tacet_quiesce)];
	struct tacet_quiesce q;
	const char *why = NULL;
	size_t len = section_of(buf + 1, two, 2); /* one byte in: any alignment */

	(void)state;
	assert_int_equal(tacet_quiesce_find(buf + 1, len, "google,goldfish-rtc", &q, &why), 1);
	assert_string_equal(q.compatible, "google,goldfish-rtc");
	assert_int_equal(tacet_quiesce_find(buf + 1, len, "virtio,mmio", &q, &why), 1);
	assert_int_equal(q.nops, 4);
	/* the record's compatible names the device as a driver does: a device without one */
	assert_int_equal(tacet_quiesce_find(buf + 1, len, "ns16550a", &q, &why), 0);
	assert_int_equal(tacet_quiesce_find(buf + 1, 0, "virtio,mmio", &q, &why), 0);
	/* a device's compatible with a vendor matches a record without it */
	section_of(buf, (const struct tacet_quiesce *[]){ &uart_like }, 1);
	assert_int_equal(tacet_quiesce_find(buf, sizeof(q), "acme,ns16550a", &q, &why), 1);
}

static void test_find_refuses_malformed_section(void **state)
{
	const struct tacet_quiesce *two[] = { &rtc_like, &uart_like };
	static uint8_t buf[2 * sizeof(struct tacet_quiesce)];
	struct tacet_quiesce q;
	const char *why = NULL;
	size_t len = section_of(buf, two, 2);

	(void)state;
	for (size_t cut = 1; cut < sizeof(q); cut += 7) {
		why = NULL;
		assert_int_equal(tacet_quiesce_find(buf, len - cut, "ns16550a", &q, &why),
				 -TACET_EINVAL);
		assert_string_equal(why, "the section is not a whole number of descriptions");
	}
	buf[sizeof(q)] ^= 1; /* the second record's magic */
	assert_int_equal(tacet_quiesce_find(buf, len, "ns16550a", &q, &why), -TACET_EINVAL);
	assert_string_equal(why, "a description in the section has a bad magic");
	/* an unterminated compatible never matches, not even by its prefix */
	section_of(buf, two, 2);
	memset(((struct tacet_quiesce *)buf)[1].compatible, 'a', TACET_QUIESCE_COMPAT_BYTES);
	assert_int_equal(tacet_quiesce_find(buf, len, "ns16550a", &q, &why), 0);
}

/* --- refusals: checked whole, nothing read or written --- */

struct bad {
	const char *name;
	void (*spoil)(struct tacet_quiesce *q);
	unsigned long size;
	const char *why;
};

static void kind_zero(struct tacet_quiesce *q) { q->ops[1].kind = 0; }
static void kind_seven(struct tacet_quiesce *q) { q->ops[2].kind = 7; }
static void kind_huge(struct tacet_quiesce *q) { q->ops[0].kind = 0xffffffffu; }
static void at_end(struct tacet_quiesce *q) { q->ops[2].offset = 0x100; }
static void across_end(struct tacet_quiesce *q) { q->ops[2].offset = 0xfc; }
static void wraps(struct tacet_quiesce *q) { q->ops[1].offset = 0xfffffffcu; }
static void next_page(struct tacet_quiesce *q) { q->ops[2].offset = 0x1000; }
static void misaligned(struct tacet_quiesce *q) { q->ops[1].offset = 0x12; }
static void wide_byte(struct tacet_quiesce *q) { q->ops[0] = (struct tacet_quiesce_op)TACET_QUIESCE_W8(1, 0x100); }
static void no_ops(struct tacet_quiesce *q) { q->nops = 0; }
static void too_many(struct tacet_quiesce *q) { q->nops = TACET_QUIESCE_MAX_OPS + 1; }
static void all_ones(struct tacet_quiesce *q) { q->nops = 0xffffffffu; }
static void unterminated(struct tacet_quiesce *q) { memset(q->compatible, 'x', sizeof(q->compatible)); }
static void empty(struct tacet_quiesce *q) { q->compatible[0] = 0; }
static void no_magic(struct tacet_quiesce *q) { q->magic = 0; }

static const struct bad bads[] = {
	{ "kind 0", kind_zero, 0x100, "an unknown operation" },
	{ "kind 7", kind_seven, 0x100, "an unknown operation" },
	{ "kind ~0", kind_huge, 0x100, "an unknown operation" },
	{ "offset at the end", at_end, 0x100, "an offset outside the device's registers" },
	{ "32-bit across the end", across_end, 0xfe, "an offset outside the device's registers" },
	{ "offset that wraps", wraps, 0x100, "an offset outside the device's registers" },
	{ "the next page", next_page, 0x1000, "an offset outside the device's registers" },
	{ "misaligned", misaligned, 0x100, "an offset not aligned to its access" },
	{ "8-bit write of 0x100", wide_byte, 0x100, "an 8-bit write of a wider value" },
	{ "no operations", no_ops, 0x100, "no operations, or more than a description holds" },
	{ "too many", too_many, 0x100, "no operations, or more than a description holds" },
	{ "nops ~0", all_ones, 0x100, "no operations, or more than a description holds" },
	{ "unterminated", unterminated, 0x100, "its compatible is empty or not terminated" },
	{ "empty", empty, 0x100, "its compatible is empty or not terminated" },
	{ "magic", no_magic, 0x100, "no description (bad magic)" },
};

static void test_refused_whole(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct tacet_quiesce q = rtc_like; /* valid for 0x100 bytes: its last op is at 0x1c */
		const char *why = NULL;

		bads[i].spoil(&q);
		print_message("%s\n", bads[i].name);
		assert_int_equal(run(&q, bads[i].size, &why), -TACET_EINVAL);
		assert_non_null(why);
		assert_string_equal(why, bads[i].why);
		assert_int_equal(fake.n, 0); /* not even the valid operations before the bad one */
	}
}

/* A register exactly at the end of the registers is in; one byte further is out. */
static void test_bounds_exact(void **state)
{
	struct tacet_quiesce q = uart_like;
	const char *why = NULL;

	(void)state;
	q.ops[0].offset = 0xff;
	q.ops[1].offset = 0xfc;
	assert_int_equal(run(&q, 0x100, &why), 1);
	assert_int_equal(fake.outside, 0);
	assert_int_equal(run(&q, 0xff, &why), -TACET_EINVAL);
	assert_int_equal(fake.n, 0);
}

/* --- applying --- */

static void test_applied_in_order(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_int_equal(run(&rtc_like, REGS, &why), 1);
	assert_int_equal(fake.n, 3);
	assert_int_equal(fake.log[0].what, 'w');
	assert_int_equal(fake.log[0].offset, 0x10);
	assert_int_equal(fake.log[0].value, 0);
	assert_int_equal(fake.log[1].offset, 0x14);
	assert_int_equal(fake.log[1].value, 1);
	assert_int_equal(fake.log[2].offset, 0x1c);
	assert_int_equal(run(&uart_like, 0x100, &why), 1);
	assert_int_equal(fake.n, 2);
	assert_int_equal(fake.log[0].what, 'b');
	assert_int_equal(fake.log[1].what, 'r'); /* the read-back, last */
}

static void put32(uint32_t offset, uint32_t v)
{
	memcpy(fake.regs + offset, &v, 4);
}

static void test_guards(void **state)
{
	const char *why = "unchanged";

	(void)state;
	/* no virtio-mmio registers there: nothing to do, nothing written */
	assert_int_equal(run(&virtio_like, 0x200, &why), 0);
	assert_int_equal(fake.n, 1);
	/* a transport with nothing attached (DeviceID 0) */
	fake_reset(0x200);
	put32(MAGIC_VALUE, 0x74726976);
	put32(STATUS, 0xf);
	assert_int_equal(tacet_quiesce_run(&virtio_like, &fake_io, fake.regs, 0x200, &why), 0);
	assert_int_equal(fake.n, 2);
	/* a device: Status 0, read back */
	fake_reset(0x200);
	put32(MAGIC_VALUE, 0x74726976);
	put32(DEVICE_ID, 4);
	put32(STATUS, 0xf);
	assert_int_equal(tacet_quiesce_run(&virtio_like, &fake_io, fake.regs, 0x200, &why), 1);
	assert_int_equal(fake.log[2].what, 'w');
	assert_int_equal(fake.log[2].offset, STATUS);
	assert_int_equal(fake.n, 4);
}

static void test_poll_gives_up(void **state)
{
	const char *why = NULL;

	(void)state;
	fake_reset(0x200);
	put32(MAGIC_VALUE, 0x74726976);
	put32(DEVICE_ID, 4);
	fake.stuck = 1;
	fake.stuck_at = STATUS; /* a device that never finishes its reset */
	assert_int_equal(tacet_quiesce_run(&virtio_like, &fake_io, fake.regs, 0x200, &why),
			 -TACET_EBUSY);
	assert_non_null(why);
	assert_int_equal(fake.n, 3 + TACET_QUIESCE_POLLS);
}

/* Random corruption of a valid section: whatever the interpreter accepts stays inside the
 * registers, and whatever it refuses it does not touch. */
static void test_fuzz_never_outside(void **state)
{
	const struct tacet_quiesce *three[] = { &rtc_like, &virtio_like, &uart_like };
	static uint8_t buf[3 * sizeof(struct tacet_quiesce)];
	static const char *const compats[] = { "goldfish-rtc", "virtio,mmio", "ns16550a" };
	(void)state;
	rng_state = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20000; round++) {
		size_t len = section_of(buf, three, 3);
		struct tacet_quiesce q;
		const char *why = NULL;
		unsigned long size = 1 + rng_next() % 0x400;
		long r;

		for (int flips = 1 + rng_next() % 4; flips; flips--)
			buf[rng_next() % len] ^= (uint8_t)(1u << rng_next() % 8);
		len -= rng_next() % 4 == 0 ? rng_next() % len : 0;
		r = tacet_quiesce_find(buf, len, compats[round % 3], &q, &why);
		if (r <= 0)
			continue;
		r = run(&q, size, &why);
		assert_int_equal(fake.outside, 0);
		if (r == -TACET_EINVAL)
			assert_int_equal(fake.n, 0);
	}
}

/* --- the section in an ELF file (elf_section) --- */

#define EH_SHOFF     40
#define EH_SHENTSIZE 58
#define EH_SHNUM     60
#define EH_SHSTRNDX  62
#define SH_NAME      0
#define SH_TYPE      4
#define SH_OFFSET    24
#define SH_SIZE      32
#define SHDR         64
#define SHT_PROGBITS 1
#define SHT_STRTAB   3
#define SHT_NOBITS   8

static void put_le(uint8_t *p, int bytes, uint64_t v)
{
	for (int i = 0; i < bytes; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* An ELF header, names at 0x100, the quiesce data at 0x200 (0x88 bytes), three section
 * headers at 0x300: null, the quiesce section, the names. */
#define NAMES_AT 0x100
#define DATA_AT  0x200
#define SHDRS_AT 0x300
#define FILE_SIZE (SHDRS_AT + 3 * SHDR)
static const char names[] = "\0" TACET_QUIESCE_SECTION "\0.shstrtab";

static void shdr(uint8_t *f, int i, uint32_t name, uint32_t type, uint64_t off, uint64_t size)
{
	uint8_t *h = f + SHDRS_AT + i * SHDR;

	put_le(h + SH_NAME, 4, name);
	put_le(h + SH_TYPE, 4, type);
	put_le(h + SH_OFFSET, 8, off);
	put_le(h + SH_SIZE, 8, size);
}

static void make_file(uint8_t *f)
{
	memset(f, 0, FILE_SIZE);
	memcpy(f, "\177ELF", 4);
	put_le(f + EH_SHOFF, 8, SHDRS_AT);
	put_le(f + EH_SHENTSIZE, 2, SHDR);
	put_le(f + EH_SHNUM, 2, 3);
	put_le(f + EH_SHSTRNDX, 2, 2);
	memcpy(f + NAMES_AT, names, sizeof(names));
	shdr(f, 1, 1, SHT_PROGBITS, DATA_AT, 0x88);
	shdr(f, 2, 1 + sizeof(TACET_QUIESCE_SECTION), SHT_STRTAB, NAMES_AT, sizeof(names));
}

static int lookup(const uint8_t *f, size_t size, uint64_t *off, uint64_t *len, const char **why)
{
	*why = NULL;
	return elf_section(f, size, TACET_QUIESCE_SECTION, off, len, why);
}

static void test_elf_section(void **state)
{
	static uint8_t f[FILE_SIZE];
	uint64_t off = 0, len = 0;
	const char *why;

	(void)state;
	make_file(f);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), 1);
	assert_int_equal(off, DATA_AT);
	assert_int_equal(len, 0x88);
	assert_int_equal(elf_section(f, FILE_SIZE, ".data", &off, &len, &why), 0);
	assert_int_equal(elf_section(f, FILE_SIZE, ".tacet", &off, &len, &why), 0); /* a prefix */
	shdr(f, 1, 1, SHT_NOBITS, 0xffffffff, 0x88); /* no file data: empty, wherever it says */
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), 1);
	assert_int_equal(len, 0);
	put_le(f + EH_SHNUM, 2, 0);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), 0); /* no sections at all */
	assert_int_equal(lookup(f, 10, &off, &len, &why), -1);
	assert_string_equal(why, "shorter than an ELF header");
}

static void test_elf_section_hostile(void **state)
{
	static uint8_t f[FILE_SIZE];
	uint64_t off, len;
	const char *why;

	(void)state;
	make_file(f);
	put_le(f + EH_SHOFF, 8, SHDRS_AT + 1);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	assert_string_equal(why, "section headers outside the file");
	make_file(f);
	put_le(f + EH_SHOFF, 8, UINT64_MAX - 8);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	make_file(f);
	put_le(f + EH_SHNUM, 2, 0xffff);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	make_file(f);
	put_le(f + EH_SHENTSIZE, 2, 40);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	make_file(f);
	put_le(f + EH_SHSTRNDX, 2, 3);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	assert_string_equal(why, "no section names");
	make_file(f);
	shdr(f, 2, 1, SHT_STRTAB, NAMES_AT, UINT64_MAX);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	assert_string_equal(why, "section names outside the file");
	make_file(f);
	shdr(f, 1, 1, SHT_PROGBITS, DATA_AT, FILE_SIZE);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	assert_string_equal(why, "section data outside the file");
	make_file(f);
	shdr(f, 1, 1, SHT_PROGBITS, UINT64_MAX, 2);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), -1);
	/* a name beyond the names, or running off their end, names nothing */
	make_file(f);
	shdr(f, 1, 0xfffffff0u, SHT_PROGBITS, DATA_AT, 0x88);
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), 0);
	make_file(f);
	shdr(f, 2, 1 + sizeof(TACET_QUIESCE_SECTION), SHT_STRTAB, NAMES_AT,
	     sizeof(TACET_QUIESCE_SECTION)); /* the names end inside ".tacet.quiesce" */
	assert_int_equal(lookup(f, FILE_SIZE, &off, &len, &why), 0);
}

/* --- the real images, as the build makes them --- */

/* The record `compat` finds in the image's section, checked against size: the check's result. */
static long image_record(const char *path, const char *compat, unsigned long size, int *found)
{
	struct file f = read_file(path, "built by make userspace");
	struct tacet_quiesce q;
	uint64_t off = 0, len = 0;
	const char *why = NULL;
	long r;

	assert_int_equal(elf_section(f.data, f.size, TACET_QUIESCE_SECTION, &off, &len, &why), 1);
	*found = (int)tacet_quiesce_find(f.data + off, len, compat, &q, &why);
	r = *found > 0 ? tacet_quiesce_check(&q, size, &why) : 0;
	free(f.data);
	return r;
}

static void test_real_images(void **state)
{
	int found;

	(void)state;
	/* rtc's comes from <tacet/goldfish_rtc.h>, rng's from lib's virtio kit, uart's its own */
	assert_int_equal(image_record("build/servers/rtc.elf", "google,goldfish-rtc", 0x1000, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(image_record("build/servers/rng.elf", "virtio,mmio", 0x200, &found), 0);
	assert_int_equal(found, 1);
	assert_int_equal(image_record("build/servers/rng.elf", "ns16550a", 0x100, &found), 0);
	assert_int_equal(found, 0);
	assert_int_equal(image_record("build/servers/uart.elf", "ns16550a", 0x100, &found), 0);
	assert_int_equal(found, 1);
	/* the hostile test module's: found, and refused */
	assert_int_equal(image_record("build/servers/quietbad.elf", "ns16550a", 0x100, &found),
			 -TACET_EINVAL);
	assert_int_equal(found, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_by_compatible),
		cmocka_unit_test(test_find_refuses_malformed_section),
		cmocka_unit_test(test_refused_whole),
		cmocka_unit_test(test_bounds_exact),
		cmocka_unit_test(test_applied_in_order),
		cmocka_unit_test(test_guards),
		cmocka_unit_test(test_poll_gives_up),
		cmocka_unit_test(test_fuzz_never_outside),
		cmocka_unit_test(test_elf_section),
		cmocka_unit_test(test_elf_section_hostile),
		cmocka_unit_test(test_real_images),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
