/* lwip_hooks.h: the prototypes of lwIP's hooks in the host test of the port (LWIP_HOOK_FILENAME,
 * set by tests/host/lwip.mk only, which defines LWIP_HOOK_IP4_ROUTE_SRC on the command line:
 * lwIP's opt.h must see it before any hook file is included). test_lwip.c joins two netifs of one lwIP stack by a link, so a
 * packet must leave by the netif that owns its source address, not by the first netif of the
 * subnet (both are on it). test_lwip_route_src returns that netif, or NULL (lwIP's own route). */
#ifndef TEST_LWIP_HOOKS_H
#define TEST_LWIP_HOOKS_H

struct netif;
struct ip4_addr;
struct netif *test_lwip_route_src(const struct ip4_addr *src, const struct ip4_addr *dest);

#endif
