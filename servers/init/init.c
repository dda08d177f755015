/* init: the root server. Starts the servers named by the boot argument `init.run=a,b,...`
 * from the boot module archive, each in its own process with only the capabilities listed in
 * <tacet/init_proto.h>, then supervises them: it reports every fault (and ends the faulting
 * thread) and powers the machine off once every server it started has finished.
 *
 * IPC: one endpoint, told apart by label: the servers' faults (badge = server number + 1) and
 * the init protocol of <tacet/init_proto.h> (INIT_EXIT, INIT_PUBLISH, INIT_LOOKUP; same badge).
 * `init.run=name@hart/priority,...`: hart and priority are optional (0 and 100).
 * `init.budget=PAGES`: the kernel memory each server may use (its account, reserved from
 * init's; default SERVER_BUDGET): frames, page tables, mappings, threads and objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tacet.h>
#include <tacet/bootinfo.h>
#include <tacet/init_proto.h>
#include <tacet/modules.h>
#include "../../kernel/elf.h"

#define MAX_SERVERS 16
#define MAX_NAMES 16
#define SCRATCH_VA 0x0000002000000000ul /* where init maps a page it fills for a child */
#define SERVER_PRIORITY 100
#define SERVER_BUDGET 2048 /* pages of kernel memory per server (8 MiB), unless init.budget= */
#define PAGE 4096ul

struct server {
	char name[TACET_MODULE_NAME_MAX];
	unsigned long process_slot;
	int done;    /* its process has ended (the kernel signalled exits_slot) */
	long status; /* what it reported with INIT_EXIT, or -TACET_EFAULT after a fault */
};

static const struct tacet_bootinfo *bi;
static struct server servers[MAX_SERVERS];
static unsigned int nservers;
static unsigned long next_slot = TACET_SLOT_FIRST_FREE;
static unsigned long exits_slot; /* notification: bit n = server n's process ended */
static unsigned long budget = SERVER_BUDGET; /* init.budget=PAGES */

struct published {
	unsigned long name[TACET_NAME_WORDS];
	unsigned long slot;
	unsigned long how; /* the rights a client gets, | INIT_BADGE_CLIENTS */
};

static struct published names[MAX_NAMES];
static unsigned int nnames;

static unsigned long alloc_slot(void)
{
	return next_slot++;
}

/* One fresh page for the child at va: filled through init's scratch mapping, then moved. */
static long child_page(unsigned long child, unsigned long va, unsigned int rights,
		       const uint8_t *src, unsigned long off, unsigned long len)
{
	unsigned long slot = alloc_slot();
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
	tacet_cap_delete(slot);
	next_slot--;
	return err;
}

static unsigned int map_rights(uint32_t flags)
{
	return (flags & ELF_SEG_R ? TACET_RIGHT_READ : 0) |
	       (flags & ELF_SEG_W ? TACET_RIGHT_WRITE : 0) | (flags & ELF_SEG_X ? TACET_MAP_EXEC : 0);
}

static long load_segment(unsigned long child, const uint8_t *image, const struct elf_segment *s)
{
	for (unsigned long va = s->vaddr & ~(PAGE - 1); va < s->vaddr + s->memsz; va += PAGE) {
		unsigned long from = va < s->vaddr ? s->vaddr : va;
		unsigned long to = va + PAGE < s->vaddr + s->filesz ? va + PAGE : s->vaddr + s->filesz;
		unsigned long len = to > from ? to - from : 0;
		long err = child_page(child, va, map_rights(s->flags), image + s->offset + (from - s->vaddr),
				      from - va, len);

		if (err)
			return err;
	}
	return 0;
}

/* Does a device's compatible string name what init.run asked for? Either whole, or without
 * its vendor ("goldfish-rtc" for "google,goldfish-rtc": a comma separates init.run entries). */
static int compatible_matches(const char *compatible, const char *wanted)
{
	const char *comma = strchr(compatible, ',');

	return !strcmp(compatible, wanted) || (comma && !strcmp(comma + 1, wanted));
}

_Static_assert(TACET_CHILD_DEVICE_IRQ == TACET_CHILD_DEVICE + 1, "a device's slots are a pair");

/* Give device d to the child: frame and IRQ into the pair of slots at `slot`. */
static long give_one_device(unsigned long child, const struct tacet_bootinfo_device *d,
			    unsigned long slot, struct tacet_bootinfo_device *desc)
{
	long err = 0;

	if (d->slot && (d->paddr & (PAGE - 1)))
		return -TACET_EALIGN;
	*desc = *d;
	desc->slot = d->slot ? (unsigned int)slot : 0;
	desc->irq_slot = d->irq_slot ? (unsigned int)slot + 1 : 0;
	if (d->slot)
		err = tacet_cap_give(child, d->slot, slot, TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && d->irq_slot)
		err = tacet_cap_give(child, d->irq_slot, slot + 1, TACET_RIGHT_WRITE);
	return err;
}

/* The devices `compat+compat...` names: each into the child's device slots, the first also
 * into TACET_CHILD_DEVICE / TACET_CHILD_DEVICE_IRQ, all described on a read-only page. */
static long give_devices(unsigned long child, const char *spec)
{
	struct tacet_child_devices *list = (struct tacet_child_devices *)SCRATCH_VA;
	unsigned long page = alloc_slot();
	long err = tacet_frame_new(page, 1);

	if (!err)
		err = tacet_map(TACET_SLOT_SELF_PROCESS, page, SCRATCH_VA,
				TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	while (!err && *spec) {
		char want[32] = { 0 };
		unsigned int n = 0, matched = 0;

		while (*spec && *spec != '+' && n < sizeof(want) - 1)
			want[n++] = *spec++;
		if (*spec == '+')
			spec++;
		for (unsigned long i = 0; !err && i < bi->ndevices; i++) {
			const struct tacet_bootinfo_device *d = &bi->devices[i];
			unsigned long k = list->count;

			if (!compatible_matches(d->compatible, want))
				continue;
			if (k == TACET_CHILD_MAX_DEVICES)
				err = -TACET_ERANGE;
			else
				err = give_one_device(child, d, TACET_CHILD_DEVICE_SLOTS + 2 * k,
						      &list->devices[k]);
			if (!err && k == 0)
				err = give_one_device(child, d, TACET_CHILD_DEVICE,
						      &(struct tacet_bootinfo_device){ 0 });
			list->count += !err;
			matched++;
		}
		if (!err && !matched)
			err = -TACET_ENOENT;
	}
	tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	if (!err)
		err = tacet_map(child, page, TACET_CHILD_DEVICES_VADDR, TACET_RIGHT_READ);
	tacet_cap_delete(page);
	next_slot--;
	return err;
}

static long start_server(const char *name, unsigned int id, unsigned int hart, unsigned int prio,
			 const char *device)
{
	const struct tacet_module *m =
		tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, name);
	struct elf_segment segs[8];
	unsigned long entry, child, fault_ep = alloc_slot(), ep = alloc_slot();
	const char *why;
	int n;
	long err;

	if (!m) {
		printf("init: no module \"%s\"\n", name);
		return -TACET_ENOENT;
	}
	n = elf_parse((const uint8_t *)bi->modules_vaddr + m->offset, m->size, TACET_CHILD_STACK_TOP,
		      segs, 8, &entry, &why);
	if (n < 0) {
		printf("init: %s: bad executable: %s\n", name, why);
		return -TACET_EINVAL;
	}
	child = alloc_slot();
	err = tacet_cap_copy(TACET_SLOT_FAULT_EP, fault_ep, TACET_RIGHT_WRITE, id + 1);
	if (!err)
		err = tacet_process_new(child, fault_ep, name, budget);
	for (int i = 0; !err && i < n; i++)
		err = load_segment(child, (const uint8_t *)bi->modules_vaddr + m->offset, &segs[i]);
	for (unsigned long p = 0; !err && p < TACET_CHILD_STACK_PAGES; p++)
		err = child_page(child, TACET_CHILD_STACK_TOP - (p + 1) * PAGE,
				 TACET_RIGHT_READ | TACET_RIGHT_WRITE, NULL, 0, 0);
	if (!err)
		err = tacet_cap_give(child, child, TACET_CHILD_SELF, TACET_RIGHTS_ALL);
	if (!err && device[0])
		err = give_devices(child, device);
	if (!err)
		err = tacet_cap_copy(TACET_SLOT_FAULT_EP, ep, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT,
				     id + 1);
	if (!err)
		err = tacet_cap_give(child, ep, TACET_CHILD_INIT, TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!err)
		err = tacet_process_watch(child, exits_slot, 1ul << id);
	if (!err)
		err = tacet_thread_new(child, 0, entry, TACET_CHILD_STACK_TOP, id,
				       TACET_SCHED(prio, hart));
	tacet_cap_delete(fault_ep);
	tacet_cap_delete(ep);
	if (err < 0) {
		printf("init: cannot start %s: %s\n", name, tacet_strerror(err));
		return err;
	}
	snprintf(servers[id].name, sizeof(servers[id].name), "%s", name);
	servers[id].process_slot = child;
	return 0;
}

/* `init.run=a,b@2/150,c:ns16550a`: module names, each optionally on a hart, at a priority,
 * with a device. */
static void start_servers(void)
{
	const char *p = strstr(bi->bootargs, "init.run=");

	if (!p) {
		printf("init: no init.run= in the boot arguments; nothing to start\n");
		return;
	}
	p += strlen("init.run=");
	while (*p && *p != ' ' && nservers < MAX_SERVERS) {
		char name[TACET_MODULE_NAME_MAX] = { 0 }, device[128] = { 0 };
		unsigned int n = 0, hart = 0, prio = SERVER_PRIORITY;

		while (*p && !strchr(", @/:", *p) && n < sizeof(name) - 1)
			name[n++] = *p++;
		if (*p == '@')
			hart = (unsigned int)strtoul(p + 1, (char **)&p, 10);
		if (*p == '/')
			prio = (unsigned int)strtoul(p + 1, (char **)&p, 10);
		if (*p == ':')
			for (p++, n = 0; *p && *p != ',' && *p != ' ' && n < sizeof(device) - 1;)
				device[n++] = *p++;
		if (hart >= bi->nharts)
			hart = 0;
		if (start_server(name, nservers, hart, prio, device) == 0)
			nservers++;
		if (*p == ',')
			p++;
	}
}

static int all_done(void)
{
	for (unsigned int i = 0; i < nservers; i++)
		if (!servers[i].done)
			return 0;
	return 1;
}


static void power_off(int failed)
{
	for (unsigned long i = 0; i < bi->ndevices; i++) {
		const struct tacet_bootinfo_device *d = &bi->devices[i];

		if (strcmp(d->compatible, "sifive,test1") && strcmp(d->compatible, "sifive,test0"))
			continue;
		if (tacet_map(TACET_SLOT_SELF_PROCESS, d->slot, SCRATCH_VA,
			      TACET_RIGHT_READ | TACET_RIGHT_WRITE) == 0)
			*(volatile uint32_t *)SCRATCH_VA = failed ? (1u << 16) | 0x3333 : 0x5555;
	}
	tacet_exit(failed); /* no test device: the kernel powers off when init ends */
}

static struct published *find_name(const unsigned long *w)
{
	for (unsigned int i = 0; i < nnames; i++)
		if (!memcmp(names[i].name, w, sizeof(names[i].name)))
			return &names[i];
	return NULL;
}

/* What a publisher may let its clients have: calling and sending capabilities, never
 * receiving (READ); optionally a badge per client. */
static long publish_check(const struct tacet_msg *msg, unsigned long recv_slot)
{
	unsigned long how = msg->w[TACET_NAME_WORDS], badge = 0;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EINVAL;
	if (how & ~(TACET_RIGHT_WRITE | TACET_RIGHT_GRANT | INIT_BADGE_CLIENTS))
		return -TACET_EINVAL;
	if ((how & INIT_BADGE_CLIENTS) && (tacet_cap_info(recv_slot, NULL, &badge) < 0 || badge))
		return -TACET_EINVAL;
	if (find_name(msg->w))
		return -TACET_EEXIST;
	return nnames == MAX_NAMES ? -TACET_ENOMEM : 0;
}

/* INIT_PUBLISH: the capability arrived in recv_slot (the tag says whether it did). */
static long publish(const struct tacet_msg *msg, unsigned long recv_slot)
{
	long err = publish_check(msg, recv_slot);

	if (err) {
		tacet_cap_delete(recv_slot); /* empty if none came */
		return err;
	}
	memcpy(names[nnames].name, msg->w, sizeof(names[nnames].name));
	names[nnames].how = msg->w[TACET_NAME_WORDS];
	names[nnames++].slot = recv_slot;
	next_slot++; /* recv_slot is now taken */
	return 0;
}

/* INIT_LOOKUP by server s: a copy with the rights the publisher chose, badged with s's number
 * + 1 if it asked for that (minted in the free slot after next_slot, then given). */
static long lookup(const struct tacet_msg *msg, struct server *s)
{
	struct published *n = find_name(msg->w);
	unsigned long rights, mint = next_slot + 1, dst = msg->w[TACET_NAME_WORDS];
	long err;

	if (!s)
		return -TACET_EPERM;
	if (!n)
		return -TACET_ENOENT;
	rights = n->how & (TACET_RIGHT_WRITE | TACET_RIGHT_GRANT);
	if (!(n->how & INIT_BADGE_CLIENTS))
		return tacet_cap_give(s->process_slot, n->slot, dst, rights);
	err = tacet_cap_copy(n->slot, mint, rights, (unsigned long)(s - servers) + 1);
	if (!err)
		err = tacet_cap_give(s->process_slot, mint, dst, rights);
	tacet_cap_delete(mint);
	return err;
}

/* One message on the fault/init endpoint; fills *reply, returns whether to reply. */
static int handle(const struct tacet_msg *msg, unsigned long badge, struct tacet_msg *reply)
{
	struct server *s = badge && badge <= nservers ? &servers[badge - 1] : NULL;
	const char *name = s ? s->name : "?";

	if (TACET_TAG_LABEL(msg->tag) == TACET_LABEL_FAULT) {
		printf("init: server %s faulted: cause %lu at pc 0x%lx, address 0x%lx (thread %lu); "
		       "ending it\n", name, msg->w[0], msg->w[1], msg->w[2], msg->w[3]);
		if (s)
			s->status = -TACET_EFAULT;
		reply->tag = TACET_TAG(TACET_FAULT_KILL, 0);
		return 1;
	}
	reply->tag = TACET_TAG(0, 1);
	reply->w[0] = 0;
	switch (TACET_TAG_LABEL(msg->tag)) {
	case INIT_EXIT:
		if (s) {
			s->status = (long)msg->w[0];
			printf("init: server %s finished with status %ld\n", name, s->status);
		}
		break;
	case INIT_PUBLISH:
		reply->w[0] = (unsigned long)publish(msg, next_slot);
		break;
	case INIT_LOOKUP:
		reply->w[0] = (unsigned long)lookup(msg, s);
		break;
	case INIT_POWEROFF:
		printf("init: power off requested by %s\n", name);
		power_off(msg->w[0] != 0);
		break;
	default:
		reply->w[0] = (unsigned long)-TACET_EINVAL;
	}
	return 1;
}

/* Every server's process has ended: drop what init held for them; then every page and kernel
 * object must be back (the object caches keep their pages, so those count as free). The
 * kernel signals the end after it has released the process, so one look is enough. */
static void leak_check(const struct tacet_mem_info *before)
{
	struct tacet_mem_info after;
	int same;

	for (unsigned int i = 0; i < nservers; i++)
		tacet_cap_delete(servers[i].process_slot);
	for (unsigned int i = 0; i < nnames; i++)
		tacet_cap_delete(names[i].slot);
	if (tacet_info(TACET_INFO_MEM, 0, &after, sizeof(after)) < 0)
		return;
	same = before->free_pages + before->kernel_object_pages ==
		       after.free_pages + after.kernel_object_pages &&
	       before->kernel_objects == after.kernel_objects;
	printf("init: leak check: free pages %lu -> %lu (object caches %lu -> %lu), kernel objects "
	       "%lu -> %lu: %s\n", before->free_pages, after.free_pages, before->kernel_object_pages,
	       after.kernel_object_pages, before->kernel_objects, after.kernel_objects,
	       same ? "PASS" : "FAIL");
}

static void note_exits(unsigned long bits)
{
	for (unsigned int i = 0; i < nservers; i++)
		if (bits & (1ul << i))
			servers[i].done = 1;
}

int main(void)
{
	struct tacet_mem_info mem_before;
	struct tacet_msg msg = { 0 }, reply = { 0 };
	unsigned long badge = 0;
	long err;

	bi = (const struct tacet_bootinfo *)tacet_start_arg;
	if (bi->magic != TACET_BOOTINFO_MAGIC) {
		printf("init: bad boot information\n");
		return 1;
	}
	if (strstr(bi->bootargs, "init.budget="))
		budget = strtoul(strstr(bi->bootargs, "init.budget=") + strlen("init.budget="), NULL, 0);
	printf("init: %lu harts, %lu devices, boot arguments \"%s\"; each server's budget %lu "
	       "pages\n", bi->nharts, bi->ndevices, bi->bootargs, budget);
	/* init's own page tables for the scratch page are made once, before the baseline */
	if (tacet_frame_new(next_slot, 1) == 0 &&
	    tacet_map(TACET_SLOT_SELF_PROCESS, next_slot, SCRATCH_VA, TACET_RIGHT_READ) == 0)
		tacet_unmap(TACET_SLOT_SELF_PROCESS, SCRATCH_VA, 1);
	tacet_cap_delete(next_slot);
	exits_slot = alloc_slot();
	err = tacet_ntfn_new(exits_slot);
	if (!err)
		err = tacet_ntfn_bind(exits_slot); /* ends come in through the receive loop */
	if (err)
		printf("init: cannot watch servers: %s\n", tacet_strerror(err));
	tacet_info(TACET_INFO_MEM, 0, &mem_before, sizeof(mem_before));
	start_servers();
	/* a capability that comes with a message (INIT_PUBLISH) lands in the next free slot */
	err = tacet_recv(TACET_SLOT_FAULT_EP, next_slot, &msg, &badge);
	while (nservers && err == 0) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			note_exits(msg.w[0]);
			if (all_done())
				break;
			err = tacet_recv(TACET_SLOT_FAULT_EP, next_slot, &msg, &badge);
			continue;
		}
		handle(&msg, badge, &reply);
		err = tacet_reply_recv(TACET_SLOT_FAULT_EP, &reply, next_slot, &msg, &badge);
	}
	if (err)
		printf("init: receive failed: %s\n", tacet_strerror(err));
	if (nservers && all_done())
		leak_check(&mem_before);
	{
		int failed = 0;

		for (unsigned int i = 0; i < nservers; i++)
			failed |= servers[i].status != 0;
		printf("init: all %u servers done%s; powering off\n", nservers,
		       failed ? " (some failed)" : "");
		power_off(failed);
	}
	return 0;
}
