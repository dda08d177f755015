# net: the virtio network device's driver, one instance a NIC, each publishing the name its
# init.run= entry grants (init.run=net=net0:virtio-net#0,net=net1:virtio-net#1; docs/net.md).
SERVERS += net
# Its files: net.c (the service), device.c, pass.c (the data path), session.c; net.h between them.
SERVER_SRCS_net := servers/net/net.c servers/net/device.c servers/net/pass.c servers/net/session.c
