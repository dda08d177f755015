/* platform.c: reads the board out of the flattened device tree into `struct platform`; owns
 * the power-off device. Boot hart only, before the other harts start; read-only after. */
#include "core/platform.h"
#include "arch.h"
#include "core/console.h"
#include "core/hart.h"
#include "lib/kstring.h"
#include "core/sched.h"

#define TEST_FINISHER_PASS 0x5555
#define TEST_FINISHER_FAIL 0x3333
#define TEST_FINISHER_CODE_SHIFT 16
/* A DTB larger than this is not a QEMU virt tree; refuse rather than map it. */
#define DTB_MAX_SIZE (2u << 20)

struct platform platform;
static volatile uint32_t *test_finisher;

static _Noreturn void bad_tree(const char *what, const char *detail)
{
	kprintf("tacet: bad device tree: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	kprintf("tacet: cannot boot without a valid device tree; powering off\n");
	arch_firmware_poweroff();
}

static void add_resv(uint64_t start, uint64_t size)
{
	if (platform.nresv == PLATFORM_MAX_RESV)
		bad_tree("too many reserved memory regions", NULL);
	platform.resv[platform.nresv++] = (struct phys_range){ start, start + size };
}

static void read_memory(const struct fdt *fdt)
{
	for (int n = fdt_next_node(fdt, fdt_root(fdt)); n >= 0; n = fdt_next_node(fdt, n)) {
		const char *type = fdt_prop_string(fdt, n, "device_type");
		uint64_t base, size;
		int err;

		if (!type || strcmp(type, "memory") || !fdt_node_is_enabled(fdt, n))
			continue;
		for (int i = 0; (err = fdt_reg(fdt, n, i, &base, &size)) == 0; i++) {
			if (platform.nram == PLATFORM_MAX_RAM)
				bad_tree("too many memory ranges", NULL);
			if (base + size < base)
				bad_tree("memory range wraps around", fdt_node_name(fdt, n));
			platform.ram[platform.nram++] = (struct phys_range){ base, base + size };
		}
		if (err != FDT_ERR_NOTFOUND)
			bad_tree("malformed reg in memory node", fdt_node_name(fdt, n));
	}
	if (platform.nram == 0)
		bad_tree("no memory node", NULL);
}

static void read_reserved(const struct fdt *fdt)
{
	int resv = fdt_path(fdt, "/reserved-memory");
	uint64_t base, size;

	for (int i = 0; i < fdt_num_memreserve(fdt); i++) {
		fdt_memreserve(fdt, i, &base, &size);
		add_resv(base, size);
	}
	if (resv < 0)
		return;
	for (int n = fdt_first_child(fdt, resv); n >= 0; n = fdt_next_sibling(fdt, n)) {
		int err;

		for (int i = 0; (err = fdt_reg(fdt, n, i, &base, &size)) == 0; i++)
			add_resv(base, size);
		if (err != FDT_ERR_NOTFOUND)
			bad_tree("malformed reg in reserved-memory", fdt_node_name(fdt, n));
	}
}

/* Harts: every enabled cpu node; the boot hart becomes logical hart 0. */
static void read_harts(const struct fdt *fdt, unsigned long boot_hwid)
{
	int cpus = fdt_path(fdt, "/cpus");
	uint32_t tb;
	unsigned int next = 1;
	int found_boot = 0;

	if (cpus < 0)
		bad_tree("no /cpus node", NULL);
	if (!fdt_prop_u32(fdt, cpus, "timebase-frequency", &tb) || tb == 0)
		bad_tree("/cpus has no timebase-frequency", NULL);
	platform.timebase_hz = tb;
	for (int n = fdt_first_child(fdt, cpus); n >= 0; n = fdt_next_sibling(fdt, n)) {
		const char *type = fdt_prop_string(fdt, n, "device_type");
		uint64_t hwid, unused;
		struct hart *h;

		if (!type || strcmp(type, "cpu") || !fdt_node_is_enabled(fdt, n))
			continue;
		if (fdt_reg(fdt, n, 0, &hwid, &unused) < 0)
			bad_tree("cpu node without reg", fdt_node_name(fdt, n));
		if (hwid == boot_hwid) {
			h = &harts[0];
			found_boot = 1;
		} else if (next < MAX_HARTS) {
			h = &harts[next++];
		} else {
			kprintf("tacet: more than %d harts; ignoring hart %lu\n", MAX_HARTS,
				(unsigned long)hwid);
			continue;
		}
		h->hwid = hwid;
	}
	if (!found_boot)
		bad_tree("the boot hart is not in /cpus", NULL);
	nharts = next;
	for (unsigned int i = 0; i < nharts; i++) {
		harts[i].id = i;
		harts[i].bkl_token = i + 1;
		harts[i].rq = &runqueues[i];
		harts[i].timer_deadline = UINT64_MAX; /* no timers yet */
		harts[i].ntfn_timer_next = UINT64_MAX;
	}
}

/* /chosen linux,initrd-start/-end: one or two cells each. */
static void read_initrd(const struct fdt *fdt)
{
	int chosen = fdt_path(fdt, "/chosen");
	uint32_t ls, le;
	const void *s = fdt_getprop(fdt, chosen, "linux,initrd-start", &ls);
	const void *e = fdt_getprop(fdt, chosen, "linux,initrd-end", &le);

	if (!s || !e)
		return;
	if ((ls != 4 && ls != 8) || (le != 4 && le != 8))
		bad_tree("malformed linux,initrd-start/end", NULL);
	platform.initrd_start = fdt_cells_read(s, ls / 4);
	platform.initrd_end = fdt_cells_read(e, le / 4);
	if (platform.initrd_end < platform.initrd_start)
		bad_tree("linux,initrd-end before linux,initrd-start", NULL);
	add_resv(platform.initrd_start, platform.initrd_end - platform.initrd_start);
}

void platform_init(uint64_t dtb_pa)
{
	const char *why;
	uint32_t size;
	int err;

	platform.dtb_pa = dtb_pa;
	arch_boot_map_direct(dtb_pa, 8);
	size = fdt_header_size((const void *)arch_phys_to_virt(dtb_pa));
	if (size == 0)
		bad_tree("no device tree at the address the firmware passed", "bad magic");
	if (size > DTB_MAX_SIZE)
		bad_tree("device tree larger than 2 MiB", NULL);
	arch_boot_map_direct(dtb_pa, size);
	err = fdt_init(&platform.fdt, (const void *)arch_phys_to_virt(dtb_pa), size, &why);
	if (err < 0)
		bad_tree(why, NULL);
	add_resv(dtb_pa, size);
	read_memory(&platform.fdt);
	read_reserved(&platform.fdt);
	read_initrd(&platform.fdt);
	read_harts(&platform.fdt, this_hart()->hwid);
	platform.bootargs = fdt_prop_string(&platform.fdt, fdt_path(&platform.fdt, "/chosen"),
					    "bootargs");
	if (!platform.bootargs)
		platform.bootargs = "";
	platform.soc = fdt_path(&platform.fdt, "/soc"); /* a walk of the tree: not under the BKL */
}

void platform_init_devices(void)
{
	const struct fdt *fdt = &platform.fdt;
	int n = fdt_find_compatible(fdt, -1, "sifive,test0");
	uint64_t pa, len;

	if (n >= 0 && fdt_reg(fdt, n, 0, &pa, &len) == 0)
		test_finisher = arch_map_device(pa, len);
}

void platform_print_devices(void)
{
	const struct fdt *fdt = &platform.fdt;
	int soc = platform.soc;

	if (soc < 0)
		return;
	for (int n = fdt_first_child(fdt, soc); n >= 0; n = fdt_next_sibling(fdt, n)) {
		const char *compat = fdt_prop_string(fdt, n, "compatible");
		uint32_t irq;
		uint64_t pa, len;

		if (!compat || fdt_reg(fdt, n, 0, &pa, &len) < 0)
			continue;
		kprintf("  %-22s %-22s %#10lx +%#-9lx", fdt_node_name(fdt, n), compat,
			(unsigned long)pa, (unsigned long)len);
		if (fdt_irq(fdt, n, &irq))
			kprintf(" irq %u", irq);
		kprintf("\n");
	}
}

const char *platform_bootarg(const char *key, char *buf, int size)
{
	size_t klen = strlen(key);
	const char *p = platform.bootargs;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			int n = 0;

			p += klen + 1;
			while (p[n] && p[n] != ' ' && n < size - 1) {
				buf[n] = p[n];
				n++;
			}
			buf[n] = '\0';
			return buf;
		}
		while (*p && *p != ' ')
			p++;
	}
	return NULL;
}

void platform_poweroff(int code)
{
	console_flush(); /* the log's last lines, before the machine stops */
	if (test_finisher) {
		uint32_t v = code == 0 ? TEST_FINISHER_PASS
				       : ((uint32_t)code << TEST_FINISHER_CODE_SHIFT) |
						 TEST_FINISHER_FAIL;
		*test_finisher = v;
	}
	arch_firmware_poweroff();
}
