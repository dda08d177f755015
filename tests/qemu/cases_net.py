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
          r"netpair: 1000 frames of 60 to 1514 bytes sent, 1000 received once each, every byte "
          r"as sent, 0 lost, 0 late, 0 wrong \(\d+ before an earlier one\): PASS",
          r"netpair: net0: \d+ received, 1000 sent, \d+ dropped, \d+ interrupts",
          r"netpair: net1: 1000 received, 0 sent, 0 dropped, \d+ interrupts",
          r"netpair: the services' counts agree .*: PASS",
          r"netpair: \d+ interrupts for \d+ packets at 48 in flight, under 1 in 4: PASS",
          r"netpair: all checks passed", r"init: power off requested by netpair"],
         bootargs=f"init.run={NETS},^netpair@1", smp=2, qemu_args=HUB, timeout=60),
]

HOSTILE_LIES = ["a tx_ready tail 1000 ahead", "a descriptor outside the transmit area",
                "a frame without headroom", "a frame of 1600 bytes",
                "a buffer sent twice, tx_done never consumed"]

CASES += [
    # nethostile tells five lies in five sessions on net1 while netpair_hostile streams into
    # it: net1 stops each liar (and says so), counts it, and the stream goes on, 1,000 frames
    # after the last stop, none lost, none dropped.
    case("net-hostile",
         [NET_READY.format(0), NET_READY.format(1),
          *[r"nethostile: %s: the session stopped, counted: PASS" % lie for lie in HOSTILE_LIES],
          r"nethostile: all checks passed",
          r"net: net1: stopping the session of badge \d+: a ring index that is garbage",
          r"net: net1: stopping the session of badge \d+: a descriptor outside its area",
          r"net: net1: stopping the session of badge \d+: a frame without headroom",
          r"net: net1: stopping the session of badge \d+: its tx_done is full or its head "
          r"garbage",
          r"netpair: \d+ frames of 60 to 1514 bytes sent, \d+ received once each, every byte as "
          r"sent, 0 lost, 0 late, 0 wrong \(\d+ before an earlier one\): PASS",
          r"netpair: net1: \d+ received, \d+ sent, 0 dropped",
          r"netpair: all checks passed", r"init: power off requested by netpair_hostile"],
         bootargs=f"init.run={NETS},^netpair_hostile@1,nethostile", smp=2, qemu_args=HUB,
         timeout=60),
    # net1 (net_dying) faults once it has handed 300 frames to netpair_kill, the client's
    # receive buffers at the device: init resets the device and releases its DMA quarantine
    # before the restart, which finds the device's Status 0; lib notices the end (the
    # endpoint's watch), reaches instance 1 over the same areas and the stream goes on to
    # 1,000, every frame that arrives as sent (those in flight at the death lost, counted).
    case("net-kill",
         [NET_READY.format(0), NET_READY.format(1),
          r"net_dying: instance 0: 300 frames received; faulting",
          r"init: net_dying's devices: 1 reset, \d+ pages back from their DMA quarantine",
          r"net: net1: instance 1: the device's Status was 0 at start",
          r"netpair: \d+ frames of 60 to 1514 bytes sent, \d+ received once each, every byte as "
          r"sent, \d+ lost, \d+ late, 0 wrong \(\d+ before an earlier one\): PASS",
          r"netpair: net1 ended mid-stream, 1 reconnect\(s\), now instance 1: PASS",
          r"netpair: all checks passed", r"init: power off requested by netpair_kill"],
         bootargs=f"init.run=net=net0:virtio-net#0,net_dying=net1:virtio-net#1*1,"
                  "^netpair_kill@1", smp=2, qemu_args=HUB, timeout=60),
]

CASES += [
    # QEMU's user network: a hand-built ARP request for the gateway goes out through net and
    # the gateway's reply comes back (QEMU's slirp answers as 52:55:0a:00:02:02).
    case("net-arp",
         [NET_READY.format(0),
          r"netarp: who-has 10.0.2.2 tell 10.0.2.15 from 52:54:00:12:34:56: 10.0.2.2 is at "
          r"52:55:0a:00:02:02: PASS", r"init: power off requested by netarp"],
         bootargs="init.run=net=net0:virtio-net,^netarp@1", smp=2,
         qemu_args=("-netdev", "user,id=n0", "-device", "virtio-net-device,netdev=n0"),
         timeout=60),
]

CASES += [
    # netvictim, net1's receiver, faults with its buffers at the device: net ends its session
    # (the process's watch), takes its buffers back by a device reset and unpins its areas:
    # nothing is left held for it; a new session on net1 then receives as before.
    case("net-client-dies",
         [NET_READY.format(0), NET_READY.format(1),
          r"netvictim: a frame of 60 bytes came; faulting with 31 buffers at the device",
          r"init: server netvictim faulted",
          r"net: net1: resetting the device: its receiving session ended",
          r"netreap: the victim's session on net1 ended: 0 open, 0 held for the device, 0 "
          r"capability slots kept, 1 device reset\(s\): PASS",
          r"netreap: a new session on net1 receives \d+ frames: PASS",
          r"netreap: all checks passed", r"init: power off requested by netreap"],
         bootargs=f"init.run={NETS},netvictim,^netreap@1", smp=2, qemu_args=HUB, timeout=60),
]

CASES += [
    # netthief starts on net1 first (the earliest started: the receiver) and would take every
    # frame; netpair_granted's entry grants it [net1=receive]: when its session starts, net1
    # resets the device to take the thief's buffers back (they come back to it empty) and the
    # whole stream reaches the granted client, none lost.
    case("net-receiver-grant",
         [NET_READY.format(0), NET_READY.format(1),
          r"netthief: net1's receiver, waiting for frames",
          r"net: net1: resetting the device: a session granted the receiving started",
          r"netpair: 1000 frames of 60 to 1514 bytes sent, 1000 received once each, every byte "
          r"as sent, 0 lost, 0 late, 0 wrong \(\d+ before an earlier one\): PASS",
          r"netpair: net1: 1000 received, 1 sent, 0 dropped",
          r"netpair: all checks passed", r"init: power off requested by netpair_granted"],
         bootargs=f"init.run={NETS},netthief,^netpair_granted@1[net1=receive]", smp=2,
         qemu_args=HUB, timeout=60),
]

CASES += [
    # ipbadwire, a raw client of net1, sends ip_static (ip at 10.0.9.1 on net0) 300 good UDP
    # datagrams for servers/echo, each after bad frames of one kind in turn: too short for its
    # IPv4 header, a bad IP checksum, a bad UDP checksum, an IP length past the frame, a lone
    # first fragment, a flood of 64 with bad checksums. Every good one comes back byte for
    # byte; ip counts the bad ones malformed and dropped (IP_COUNTS) and the fragments; nothing
    # faults.
    case("ip-bad-wire",
         [NET_READY.format(0), NET_READY.format(1), r"ip: 10\.0\.9\.1/24 gw 0\.0\.0\.0 via net0",
          r"echo: echoing on UDP and TCP port 7",
          r"ipbadwire: sent \d+ malformed frames and 50 lone fragments; ip counted \d+ "
          r"malformed, \d+ dropped, \d+ fragments; net0 dropped \d+",
          r"ipbadwire: 300 of 300 good datagrams echoed, every byte as sent \(\d+ resent, 0 "
          r"wrong\): PASS",
          r"ipbadwire: every malformed frame ip saw counted malformed: PASS",
          r"ipbadwire: and dropped: PASS",
          r"ipbadwire: every lone fragment ip saw counted: PASS",
          r"ipbadwire: all checks passed", r"init: power off requested by ipbadwire"],
         bootargs="init.run=net=net0:virtio-net#0,ip_static=ip,echo,net=net1:virtio-net#1,"
                  "^ipbadwire@1", smp=2, qemu_args=HUB, timeout=120),
]
