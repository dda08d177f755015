/* sock.h: the sockets ip serves its clients (sock.c; <tacet/ip_proto.h>, <tacet/net.h>). */
#ifndef IP_SOCK_H
#define IP_SOCK_H

#include <tacet.h>

/* ip's notification bits a session's client signals (its badged copy of ip's notification):
 * above the session table's watch bits. */
#define SOCK_KICK_BIT(i) (1ul << (34 + (i)))
#define SOCK_KICK_BITS   (((1ul << IP_CLIENTS_MAX) - 1) << 34)

struct netif;

/* The table of sessions (watches on ip's notification ntfn) for the service loop; UDP datagrams
 * are sent in place in netif's transmit buffers where they fit (netif.h). */
void sock_init(struct tacet_service *s, unsigned long ntfn, struct netif *netif);

/* Bits of ip's notification taken outside the service loop (a wait in a handler or a send):
 * the sessions whose clients ended end. Returns the other bits. */
unsigned long sock_ended(unsigned long bits);

/* Every started session's rings: messages to send taken, received data and events handed
 * over. Called by ip's loop at each pass, in the thread that runs lwIP. */
void sock_work(void);
/* UDP datagrams dropped since ip started because their socket's queue was full. */
extern unsigned long sock_udp_overflows;

/* Before ip sleeps: 1 if every session said it sleeps (its client will signal), 0 if one had
 * work meanwhile (another pass). */
int sock_sleep_ok(void);

#endif
