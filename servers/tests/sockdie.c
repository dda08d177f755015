/* sockdie: a socket client that dies holding sockets (tests/qemu/cases_ip.py, `^sockdie*1`):
 * instance 0 binds UDP and TCP port 2007 (listening) and a third socket, then ends with a
 * failure status without closing anything; init restarts it, and instance 1 binds both ports
 * again, which only works if ip ended the dead instance's session and freed its sockets. Then
 * it powers the machine off. Prints through the kernel's debug output. */
#include <stdio.h>
#include <tacet.h>
#include <tacet/net.h>

#define PORT 2007

static struct tacet_net n;

/* UDP and a listening TCP socket on PORT, and one more TCP socket: 0 or the first error. */
static long take_port(void)
{
	long udp = tacet_net_socket(&n, IP_SOCK_UDP), tcp = tacet_net_socket(&n, IP_SOCK_TCP);
	long spare = tacet_net_socket(&n, IP_SOCK_TCP), err;

	if (udp < 0 || tcp < 0 || spare < 0)
		return udp < 0 ? udp : tcp < 0 ? tcp : spare;
	err = tacet_net_bind(&n, udp, 0, PORT);
	if (!err)
		err = tacet_net_bind(&n, tcp, 0, PORT);
	return err ? err : tacet_net_listen(&n, tcp);
}

int main(void)
{
	long slot = tacet_slot_alloc(), err = slot < 0 ? slot : tacet_ntfn_new((unsigned long)slot);
	unsigned long instance = tacet_instance();

	if (!err)
		err = tacet_net_open(&n, 4, 512, (unsigned long)slot, 1);
	if (!err)
		err = take_port();
	printf("sockdie: instance %lu: UDP and TCP port %d bound, listening: %s\n", instance, PORT,
	       tacet_strerror(err));
	if (instance == 0) {
		printf("sockdie: instance 0: ending with its sockets open\n");
		return 1; /* a failure: init restarts it */
	}
	printf("sockdie: the dead instance's sockets were freed: %s\n", err ? "FAIL" : "PASS");
	tacet_poweroff(err ? 1 : 0);
	return 1;
}
