# rng: the virtio entropy device's driver, the "rng" service (init.run=rng:virtio-rng).
SERVERS += rng
SERVER_SRCS_rng := servers/rng/rng.c
