/* loader.c: a server's start: its process, its ELF image loaded page by page through init's
 * scratch mapping (kernel/lib/elf.c checks it), its stack, devices, endpoint to init and first
 * thread. The supervisor's (its slots from its own pool, supervisor.c). */
#include <string.h>
#include <stdio.h>
#include "init.h"
#include "lib/elf.h" /* the kernel's ELF reader (servers/servers.mk) */

/* One fresh page for the child at va: filled through init's scratch mapping, then moved. */
static long child_page(unsigned long child, unsigned long va, unsigned int rights,
		       const uint8_t *src, unsigned long off, unsigned long len)
{
	unsigned long slot = (unsigned long)tacet_slot_alloc();
	long err = tacet_frame_new(slot, 1);

	if (!err && len) {
		err = tacet_map(TACET_SLOT_SELF_PROCESS, slot, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
		if (!err) {
			memcpy((uint8_t *)SCRATCH_VA + off, src, len);
			err = tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
		}
	}
	if (!err)
		err = tacet_map(child, slot, va, rights);
	/* the child's mapping keeps the frame; init needs no capability to it */
	tacet_slot_free(slot);
	return err;
}

static unsigned int map_rights(uint32_t flags)
{
	return (flags & ELF_SEG_R ? TACET_RIGHT_READ : 0) |
	       (flags & ELF_SEG_W ? TACET_RIGHT_WRITE : 0) | (flags & ELF_SEG_X ? TACET_MAP_EXEC : 0);
}

static long load_segment(unsigned long child, const uint8_t *image, const struct elf_segment *s)
{
	for (unsigned long va = s->vaddr & ~(TACET_PAGE_SIZE - 1); va < s->vaddr + s->memsz;
	     va += TACET_PAGE_SIZE) {
		unsigned long from = va < s->vaddr ? s->vaddr : va;
		unsigned long to = va + TACET_PAGE_SIZE < s->vaddr + s->filesz
				       ? va + TACET_PAGE_SIZE
				       : s->vaddr + s->filesz;
		unsigned long len = to > from ? to - from : 0;
		long err = child_page(child, va, map_rights(s->flags), image + s->offset + (from - s->vaddr),
				      from - va, len);

		if (err)
			return err;
	}
	return 0;
}

/* Start (or start again) server id as init.run= described it: a new process in its process
 * slot, loaded, with its devices and a badged endpoint to init, watched, its thread started. */
long start_server(unsigned int id)
{
	struct server *s = &servers[id];
	const struct tacet_module *m =
		tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, s->name);
	struct elf_segment segs[8];
	unsigned long entry, child, fault_ep, ep, old;
	const char *why;
	int n;
	long err;

	if (!m) {
		printf("init: no module \"%s\"\n", s->name);
		return -TACET_ENOENT;
	}
	n = elf_parse((const uint8_t *)bi->modules_vaddr + m->offset, m->size, TACET_CHILD_STACK_TOP,
		      segs, 8, &entry, &why);
	if (n < 0) {
		printf("init: %s: bad executable: %s\n", s->name, why);
		return -TACET_EINVAL;
	}
	/* A restart is charged to the instance before's account (ended, its capability kept until
	 * now): what the dead instances made and gave away still counts against the one budget,
	 * so restarts cannot launder memory. */
	old = s->process_slot;
	child = (unsigned long)tacet_slot_alloc();
	fault_ep = (unsigned long)tacet_slot_alloc();
	ep = (unsigned long)tacet_slot_alloc();
	err = tacet_cap_copy(TACET_SLOT_FAULT_EP, fault_ep, TACET_RIGHT_WRITE, id + 1);
	if (!err)
		err = old ? tacet_process_new_same_account(child, fault_ep, s->name, old)
			  : tacet_process_new(child, fault_ep, s->name, budget);
	if (old) {
		tacet_cap_delete(old);
		tacet_slot_free(old);
	}
	s->process_slot = child;
	for (int i = 0; !err && i < n; i++)
		err = load_segment(child, (const uint8_t *)bi->modules_vaddr + m->offset, &segs[i]);
	for (unsigned long p = 0; !err && p < TACET_CHILD_STACK_PAGES; p++)
		err = child_page(child, TACET_CHILD_STACK_TOP - (p + 1) * TACET_PAGE_SIZE,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE, NULL, 0, 0);
	if (!err)
		err = give_devices(id, child, s->devices);
	if (!err)
		err = tacet_cap_copy(service_ep, ep, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT, id + 1);
	if (!err)
		err = tacet_cap_give(child, ep, TACET_CHILD_INIT, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!err && s->trace)
		err = tacet_cap_give(child, TACET_SLOT_TRACE, TACET_CHILD_TRACE, TACET_RIGHTS_ALL);
	if (!err)
		err = tacet_process_watch(child, exits_slot, 1ul << id);
	/* Its capability to itself comes last: a process without threads that holds one outlives
	 * init's (the kernel ends it with init), so a start that fails before this step leaves
	 * nothing behind. */
	if (!err)
		err = tacet_cap_give(child, child, TACET_CHILD_SELF, TACET_RIGHTS_ALL);
	if (!err)
		err = tacet_thread_new(child, 0, entry, TACET_CHILD_STACK_TOP, id,
				       TACET_SCHED(s->prio, s->hart));
	tacet_slot_free(ep);
	tacet_slot_free(fault_ep);
	if (err < 0) {
		printf("init: cannot start %s: %s\n", s->name, tacet_strerror(err));
		tacet_cap_delete(child); /* whatever was made of it goes */
		release_devices(id);
		return err;
	}
	s->state = SERVER_RUNNING;
	s->status = -TACET_EDEAD;
	s->started_at = tacet_time();
	return 0;
}
