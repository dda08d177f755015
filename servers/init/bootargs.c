/* bootargs.c: init's boot arguments, read by the supervisor at the start (start_servers,
 * boot_number).
 * `init.run=^%name=names@hart/priority:devices*restarts~ms[grants],...`: all but the name
 * optional (no power-off, no trace authority, the module's name, hart 0, priority 100, no
 * devices, no restarts, no liveness question, no grants). `~MS`: an asking thread asks the
 * server whether it is alive (TACET_LABEL_ALIVE, answered by its service loop); one that has not
 * answered within MS ms although it ran since, or within ALIVE_WAIT_TIMES limits, is ended, a
 * failure (liveness.c); until its first publish its start is the question, with
 * ALIVE_START_TIMES limits.
 * Names: `name+name...` (up to 23 bytes each; `=` alone: none). Grants:
 * `service=arg;service=arg...`, what the entry's server may use of each service (the block
 * service's sector range: `[blk=0-63]`): init keeps the text and tells it only to the server that
 * published the service's name, which asks with INIT_GRANT and the client's badge. An entry's
 * grants are written when init.run= is read and never after, so the service thread reads them once
 * SERVICE_GO has come without a word with the supervisor. Devices: `compat+compat...`, each a
 * device-tree compatible (whole, or without its vendor) or a virtio device name (`virtio-rng`: the
 * virtio-mmio transports whose DeviceID register says that device). A device goes to one server
 * only: a second server asking for it is not started. A comma inside the device part belongs to the
 * compatible (`virtio,mmio`) unless the name of a module follows it.
 * `init.budget=PAGES`: the kernel memory each server may use (its account, reserved from
 * init's; default SERVER_BUDGET): frames, page tables, mappings, threads and objects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "init.h"

/* In init.run=, the characters that end a server's name (and a module name after a comma), and
 * a name it is granted. */
#define NAME_STOP ", =@/:*+[~"

/* Does the text at p (just after a comma) start with the name of a module in the archive? */
static int module_follows(const char *p)
{
	char name[TACET_MODULE_NAME_MAX] = { 0 };
	unsigned int n = 0;

	while (*p == POWER_OFF_MARK || *p == TRACE_MARK)
		p++;
	while (p[n] && !strchr(NAME_STOP, p[n]) && n < sizeof(name) - 1) {
		name[n] = p[n];
		n++;
	}
	return tacet_module_find((const void *)bi->modules_vaddr, bi->modules_size, name) != NULL;
}

/* One entry of `init.run=`:
 * `[^][%]name[=names][@hart][/priority][:compat+compat...][*restarts][~ms][[grants]]`, into s;
 * returns where the next entry starts (after the comma) or the end of the list. A comma in the
 * device part ends the entry only if a module's name follows it: every entry starts with one,
 * and a compatible may hold a comma (`virtio,mmio`). */
static const char *parse_server(const char *p, struct server *s)
{
	unsigned int n = 0;

	*s = (struct server){ .prio = SERVER_PRIORITY };
	for (;; p++) { /* the marks, in either order */
		if (*p == POWER_OFF_MARK)
			s->power_off = 1;
		else if (*p == TRACE_MARK)
			s->trace = 1;
		else
			break;
	}
	while (*p && !strchr(NAME_STOP, *p) && n < sizeof(s->name) - 1)
		s->name[n++] = *p++;
	if (*p == '=') /* kept with its `=`: grant_names reads it */
		for (n = 0; *p && (n == 0 || *p == '+' || !strchr(NAME_STOP, *p)) &&
			    n < sizeof(s->names) - 1;)
			s->names[n++] = *p++;
	if (*p == '@')
		s->hart = (unsigned int)strtoul(p + 1, (char **)&p, 10);
	if (*p == '/')
		s->prio = (unsigned int)strtoul(p + 1, (char **)&p, 10);
	if (*p == ':')
		for (p++, n = 0; *p && *p != ' ' && *p != '*' && *p != '[' && *p != ALIVE_MARK &&
				 !(*p == ',' && module_follows(p + 1)) && n < sizeof(s->devices) - 1;)
			s->devices[n++] = *p++;
	for (;;) { /* `*N`, `~MS` and `[grants]`, in any order */
		if (*p == '*') {
			s->restarts_max = (unsigned int)strtoul(p + 1, (char **)&p, 10);
		} else if (*p == ALIVE_MARK) {
			s->alive_ms = (unsigned int)strtoul(p + 1, (char **)&p, 10);
		} else if (*p == '[') {
			for (p++, n = 0; *p && *p != ']' && *p != ' '; p++) {
				s->grants_cut |= n == sizeof(s->grants) - 1;
				if (n < sizeof(s->grants) - 1)
					s->grants[n++] = *p;
			}
			p += *p == ']';
		} else {
			break;
		}
	}
	if (s->hart >= bi->nharts)
		s->hart = 0;
	while (*p && *p != ',' && *p != ' ')
		p++; /* anything else in this entry is not understood */
	return *p == ',' ? p + 1 : p;
}

/* `init.run=a,b@2/150,^c=console:ns16550a*3`: module names, each optionally allowed to power
 * off, with the names it may publish, on a hart, at a priority, with devices, restarted up to N
 * times after a failure. */
void start_servers(void)
{
	const char *p = strstr(bi->bootargs, "init.run=");

	if (!p) {
		printf("init: no init.run= in the boot arguments; nothing to start\n");
		return;
	}
	p += strlen("init.run=");
	while (*p && *p != ' ' && nservers < MAX_SERVERS) {
		p = parse_server(p, &servers[nservers]);
		if (servers[nservers].alive_ms && nservers >= ALIVE_SERVERS_MAX) {
			printf("init: %s: only the first %u entries may have `~`; not asked\n",
			       servers[nservers].name, ALIVE_SERVERS_MAX);
			servers[nservers].alive_ms = 0;
		}
		if (grant_names(nservers) == 0 && start_server(nservers) == 0) {
			nservers++;
			continue;
		}
		release_names(nservers);
		start_failures++;
		if (servers[nservers].process_slot)
			tacet_slot_free(servers[nservers].process_slot);
	}
}

/* The supervisor: a number after `arg=` in the boot arguments, or dflt. */
unsigned long boot_number(const char *arg, unsigned long dflt)
{
	const char *p = strstr(bi->bootargs, arg);

	return p ? strtoul(p + strlen(arg), NULL, 0) : dflt;
}
