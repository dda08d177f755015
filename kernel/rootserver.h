/* rootserver.h: starting init, the root server, from the boot module archive. */
#ifndef KERNEL_ROOTSERVER_H
#define KERNEL_ROOTSERVER_H

/* Load module "init", give it its capabilities and boot information, make its thread ready.
 * Boot hart, with the BKL held, once every hart is online. Returns 0, or -1 after saying why
 * (no archive, no init, a malformed ELF, no memory). */
int rootserver_start(void);

#endif
