# http: the metrics server, /irqs and /metrics on TCP port 80 over lib's sockets (init.run=%http,
# after ip).
SERVERS += http
SERVER_SRCS_http := servers/http/http.c
