"""cases_net.py: the virtio-net driver (servers/net) and lib's client (<tacet/netdev.h>): two
NICs on one QEMU hub, a client's frames from one to the other through two instances of net,
every byte checked; hostile clients beside a good one; net killed mid-stream and restarted."""

# Two virtio-net devices joined by QEMU hub 0: what one sends, the other receives.
HUB = ("-netdev", "hubport,id=h0,hubid=0", "-device", "virtio-net-device,netdev=h0",
       "-netdev", "hubport,id=h1,hubid=0", "-device", "virtio-net-device,netdev=h1")
NETS = "net=net0:virtio-net#0,net=net1:virtio-net#1"
NET_READY = r"net: net{}: virtio-net 52:54:00:12:34:5[67], link up, 128 buffers a queue\n"

CASES = [
    # 1,000 frames of 60 to 1,514 bytes from net0's NIC to net1's, at most 48 in flight: each
    # arrives once, in order, every byte as sent; net0 counts them sent, net1 received, none
    # dropped; each prints its interrupts per packet.
    case("net-pair",
         [NET_READY.format(0), NET_READY.format(1),
          r"netpair: net0 52:54:00:12:34:5[67], net1 52:54:00:12:34:5[67], links up and up\n",
          r"netpair: 1000 frames of 60 to 1514 bytes sent, 1000 received in order, every byte "
          r"as sent, 0 lost, 0 wrong: PASS",
          r"netpair: net0: \d+ received, 1000 sent, \d+ dropped, \d+ interrupts",
          r"netpair: net1: 1000 received, 0 sent, 0 dropped, \d+ interrupts",
          r"netpair: the services' counts agree .*: PASS", r"netpair: all checks passed",
          r"init: power off requested by netpair"],
         bootargs=f"init.run={NETS},^netpair@1", smp=2, qemu_args=HUB, timeout=60),
]
