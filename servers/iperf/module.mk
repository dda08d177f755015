# iperf: an iperf 2 server, TCP port 5001 over lib's sockets (init.run=iperf, after ip).
SERVERS += iperf
SERVER_SRCS_iperf := servers/iperf/iperf.c
