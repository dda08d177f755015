# module.mk: the in-guest test servers (tests/qemu/cases_ipc.py runs them through init.run=):
# the IPC pair, the three sides of the priority-preemption test and two servers that fault.
SERVERS += ipc_server ipc_client
SERVER_SRCS_ipc_server := servers/tests/ipc_server.c
SERVER_SRCS_ipc_client := servers/tests/ipc_client.c

SERVERS += prio_high prio_low prio_signal
SERVER_SRCS_prio_high := servers/tests/prio_high.c
SERVER_SRCS_prio_low := servers/tests/prio_low.c
SERVER_SRCS_prio_signal := servers/tests/prio_signal.c

SERVERS += faulter faulter_ill
SERVER_SRCS_faulter := servers/tests/faulter.c
SERVER_SRCS_faulter_ill := servers/tests/faulter_ill.c

# storm: keeps the goldfish RTC's interrupt asserted (storm and spurious detection);
# storm_rebind: the same, unhandled, rebinding the line on the way (detection's history).
SERVERS += storm storm_rebind
SERVER_SRCS_storm := servers/tests/storm_main.c servers/tests/storm.c
SERVER_SRCS_storm_rebind := servers/tests/storm_rebind.c servers/tests/storm.c

# uart_typeahead: the console server, which waits for a key before it sets the UART up (a key
# typed before the console is up is the shell's).
SERVERS += uart_typeahead
SERVER_SRCS_uart_typeahead := servers/uart/uart.c servers/uart/irqshow.c servers/uart/traceshow.c \
	servers/uart/ping.c servers/tests/typeahead.c

# pcitest: lists PCI bus 0 through a part of the ECAM frame (frame derivation).
SERVERS += pcitest
SERVER_SRCS_pcitest := servers/tests/pcitest.c

# tlbtest: unmap while another hart reads the page (TLB shootdown).
SERVERS += tlbtest
SERVER_SRCS_tlbtest := servers/tests/tlbtest.c servers/bench/bench.c

# irqbad: the interrupt system calls with bad arguments (and the line working afterwards).
SERVERS += irqbad
SERVER_SRCS_irqbad := servers/tests/irqbad.c

# nvmemsix: QEMU's nvme controller with its admin completions by MSI-X (the AIA's machine).
SERVERS += nvmemsix
SERVER_SRCS_nvmemsix := servers/tests/nvmemsix.c

# msibad: the message-signalled lines' calls with bad arguments, and their pool's end.
SERVERS += msibad
SERVER_SRCS_msibad := servers/tests/msibad.c

# forger: a hostile server that forges the kernel's labels against init, the console and pci.
SERVERS += forger
SERVER_SRCS_forger := servers/tests/forger.c servers/bench/bench.c servers/edu/edu_dev.c

# pcibad: a driver's PCI_BAR and PCI_CONFIG calls with bad arguments, each refused.
SERVERS += pcibad
SERVER_SRCS_pcibad := servers/tests/pcibad.c

# thief: a hostile server that tries to receive on what it looked up and to take another
# driver's device (least privilege).
SERVERS += thief
SERVER_SRCS_thief := servers/tests/thief.c

# threadhog: a process of 100,001 threads listed and ended in linear time (process teardown).
SERVERS += threadhog
SERVER_SRCS_threadhog := servers/tests/threadhog.c

# hog and victim: a server drains kernel memory three ways while another keeps working.
SERVERS += hog victim
SERVER_SRCS_hog := servers/tests/hog.c
SERVER_SRCS_victim := servers/tests/victim.c

# chatter: writes to the console while it is crashed and restarted.
SERVERS += chatter
SERVER_SRCS_chatter := servers/tests/chatter.c

# squatter: tries to take "console" while the console is restarted.
SERVERS += squatter
SERVER_SRCS_squatter := servers/tests/squatter.c

# namesquat, powerthief and namehog: hostile servers against init's authority:
# namesquat tries to publish the drivers' names, powerthief to power the machine off, namehog
# to fill the name table; init.run= grants them none of it.
SERVERS += namesquat powerthief namehog
SERVER_SRCS_namesquat := servers/tests/namesquat.c
SERVER_SRCS_powerthief := servers/tests/powerthief.c
SERVER_SRCS_namehog := servers/tests/namehog.c

# framerace: 256-page FRAME_NEWs while another hart fills their slot, spends their budget or
# ends their process (the kernel zeroes a frame between preemption points).
SERVERS += framerace
SERVER_SRCS_framerace := servers/tests/framerace.c

# chain_*: chains thousands of links deep that the kernel must end without recursion: derived
# frames, capabilities through cspaces, processes created by processes, faulted threads.
SERVERS += chain_frame chain_cap chain_proc chain_fault
SERVER_SRCS_chain_frame := servers/tests/chain_frame.c servers/tests/chains.c
SERVER_SRCS_chain_cap := servers/tests/chain_cap.c servers/tests/chains.c
SERVER_SRCS_chain_proc := servers/tests/chain_proc.c servers/tests/chains.c
SERVER_SRCS_chain_fault := servers/tests/chain_fault.c servers/tests/chains.c
# faultmany, returnmany: a process ends whole when one thread faults or main returns, while
# 200 other threads of it wait.
SERVERS += faultmany returnmany
SERVER_SRCS_faultmany := servers/tests/faultmany.c servers/tests/waiters.c
SERVER_SRCS_returnmany := servers/tests/returnmany.c servers/tests/waiters.c

# giver, keeper: a server gives its memory away and faults, to be restarted: its
# restarts cannot launder memory.
SERVERS += giver keeper
SERVER_SRCS_giver := servers/tests/giver.c
SERVER_SRCS_keeper := servers/tests/keeper.c

# gensvc, gencli: a client learns which instance of a restarted service it reached.
SERVERS += gensvc gencli
SERVER_SRCS_gensvc := servers/tests/gensvc.c
SERVER_SRCS_gencli := servers/tests/gencli.c

# rtcdie: a driver that faults with its RTC's alarm and interrupt armed (init quiets it).
SERVERS += rtcdie
SERVER_SRCS_rtcdie := servers/tests/rtcdie.c

# dmadie: a driver that faults with its device running: its DMA frames wait in quarantine.
SERVERS += dmadie
SERVER_SRCS_dmadie := servers/tests/dmadie.c

# nvmedie: a PCI driver that faults with QEMU's nvme controller enabled: pci's function-level
# reset (the restart finds the controller disabled) and the DMA quarantine of its admin queues.
SERVERS += nvmedie
SERVER_SRCS_nvmedie := servers/tests/nvmedie.c

# framehold: a process ends while its FRAME_NEW is held back for a more urgent thread.
SERVERS += framehold
SERVER_SRCS_framehold := servers/tests/framehold.c servers/bench/bench.c

# spread: processes of 1,088 sparse mappings (a page-table page each) and 100 capabilities,
# ended without a thread and with one: all back, in bounded steps.
SERVERS += spread
SERVER_SRCS_spread := servers/tests/spread.c servers/tests/chains.c

# framerun: multi-page contiguous frames (FRAME_NEW with pages > 1).
SERVERS += framerun
SERVER_SRCS_framerun := servers/tests/framerun.c

# kittest: the driver kit's calls (lib/include/tacet/driver.h) on the goldfish RTC.
SERVERS += kittest
SERVER_SRCS_kittest := servers/tests/kittest.c

# rtcalarm: a client of the rtc driver's service: the time of day and alarms.
SERVERS += rtcalarm
SERVER_SRCS_rtcalarm := servers/tests/rtcalarm.c
# rtcleak: a client that dies holding the rtc's alarms (its session's end frees them).
SERVERS += rtcleak
SERVER_SRCS_rtcleak := servers/tests/rtcleak.c

# devlist: prints the devices init gave it (init's device matching and ownership).
SERVERS += devlist
SERVER_SRCS_devlist := servers/tests/devlist.c

# rngtest: a client of the entropy service (4096 bytes, their spread, the interrupt counts).
SERVERS += rngtest
SERVER_SRCS_rngtest := servers/tests/rngtest.c

# pcigone: a client of rng over virtio-pci that has init end the PCI server under it, then
# reads again (rng's claim must not outlive the pci instance that granted it).
SERVERS += pcigone
SERVER_SRCS_pcigone := servers/tests/pcigone.c

# blktest: a client of the block service on the test disk (build/blk-test.img).
SERVERS += blktest
SERVER_SRCS_blktest := servers/tests/blktest.c
# blkseal: lib's sealed sectors through the block service, the driver's mistakes made by hand.
SERVERS += blkseal
SERVER_SRCS_blkseal := servers/tests/blkseal.c

# blkrand: a block service client with many requests in flight (1,000 random ones, checked).
SERVERS += blkrand
SERVER_SRCS_blkrand := servers/tests/blkrand.c

# lookupstorm: a priority-110 driver on init's hart while other harts look names up in a tight
# loop: init must serve them below the driver (shared servers do not lend priority).
SERVERS += lookupstorm
SERVER_SRCS_lookupstorm := servers/tests/lookupstorm.c

# preempt: a 100,000-deep chain ended by one call while an RTC driver takes its alarm on the
# other hart and on the same one: the teardown is preempted (as sel4test's PREEMPT_REVOKE).
SERVERS += preempt
SERVER_SRCS_preempt := servers/tests/preempt.c servers/tests/chains.c

# The block service's hostile clients (servers outlive their clients, and a client cannot
# break a server; tests/qemu/cases_virtio.py):
# blkmmio: attaches an MMIO frame (the RTC's registers) as its data frame; blkvictim, an
# ordinary client, must still be served after it.
SERVERS += blkmmio blkvictim
SERVER_SRCS_blkmmio := servers/tests/blkmmio.c
SERVER_SRCS_blkvictim := servers/tests/blkvictim.c
# blkchurn: 20 clients that come and go (restarts of one entry), a read left in flight by every
# other one: everything the service held for them must come back.
SERVERS += blkchurn
SERVER_SRCS_blkchurn := servers/tests/blkchurn.c
# blkflood: floods the service with flushes for ever; blkwriter must not lose one of its 200
# writes beside six of them.
SERVERS += blkflood blkwriter
SERVER_SRCS_blkflood := servers/tests/blkflood.c
SERVER_SRCS_blkwriter := servers/tests/blkwriter.c
# blkrange: reads and writes outside the sectors its init.run= entry grants it.
SERVERS += blkrange
SERVER_SRCS_blkrange := servers/tests/blkrange.c
# blk_trusting: the block service built to take any frame (servers/tests/blktrusting.c), so that
# blkmmio can break the device and the service's reset be seen; blkstall: a client of a device
# that holds every request 7 s (the service's watchdog).
SERVERS += blk_trusting blkstall
SERVER_SRCS_blk_trusting := servers/blk/blk.c servers/tests/blktrusting.c
SERVER_SRCS_blkstall := servers/tests/blkstall.c

# scatter, dmabig: a fragmenter (one page held in each MiB it can reach) and the
# server whose 1 MiB frame must still come beside it (qemu/scatter-keeps-runs).
SERVERS += scatter dmabig
SERVER_SRCS_scatter := servers/tests/scatter.c
SERVER_SRCS_dmabig := servers/tests/dmabig.c
# Drivers killed with DMA in flight (the DMA quarantine; tests/qemu/
# cases_isolation.py, dma-kill-*): blk_dying, the block service built with blkdying.c, faults
# once the device holds 16 requests; rng_dying, the entropy service built with rngdying.c,
# faults when a read must wait for the device, its buffers offered. canary_blk and canary_rng
# (canary.c) take every free page at the death and check after the restart that the device
# wrote none of them; blkinflight has writes in flight at the death and finds them all on disk
# (lib's client reconnects and resubmits).
SERVERS += blk_dying rng_dying canary_blk canary_rng blkinflight
SERVER_SRCS_blk_dying := servers/blk/blk.c servers/tests/blkdying.c
SERVER_SRCS_rng_dying := servers/rng/rng.c servers/tests/rngdying.c
SERVER_SRCS_canary_blk := servers/tests/canary.c servers/tests/canary_blk.c
SERVER_SRCS_canary_rng := servers/tests/canary.c servers/tests/canary_rng.c
SERVER_SRCS_blkinflight := servers/tests/blkinflight.c

# pci_dying: the PCI bus server built with pcidying.c, whose first instance faults when a
# driver ends, before it quiets the function (qemu/pci-dies-quarantine).
SERVERS += pci_dying
SERVER_SRCS_pci_dying := servers/pci/pci.c servers/tests/pcidying.c

# blkwaitdie, blkpoke: a client waiting when the block service ends learns it from the kernel's
# watch of the service's endpoint (qemu/blk-end-while-waiting).
SERVERS += blkwaitdie blkpoke
SERVER_SRCS_blkwaitdie := servers/tests/blkwaitdie.c
SERVER_SRCS_blkpoke := servers/tests/blkpoke.c

# watchee, watchmany: 100 notifications watch one endpoint whose server ends; the kernel tells
# them a bounded step at a time (qemu/endpoint-watchers-in-steps).
SERVERS += watchee watchmany
SERVER_SRCS_watchee := servers/tests/watchee.c
SERVER_SRCS_watchmany := servers/tests/watchmany.c

# epwaiters: 1,000 threads receive on an endpoint and 200 call another when both end; the kernel
# wakes them a bounded step at a time (qemu/endpoint-end-in-steps).
SERVERS += epwaiters
SERVER_SRCS_epwaiters := servers/tests/epwaiters.c

# mapdie: the process ends while a thread of it is held back inside MAP or UNMAP for a more
# urgent one (qemu/map-held-when-ended).
SERVERS += mapdie
SERVER_SRCS_mapdie := servers/tests/mapdie.c

# blk_mortal, blklives: a client lives through ten restarts of the block service, each
# instance's watch of the client ended with it (qemu/blk-client-outlives-restarts).
SERVERS += blk_mortal blklives
SERVER_SRCS_blk_mortal := servers/blk/blk.c servers/tests/blkmortal.c
SERVER_SRCS_blklives := servers/tests/blklives.c

# pinhand, pinkeep: a DMA frame a driver pinned and handed to another server, deleted after the
# driver's device was released, goes back to the pool (qemu/pinned-frame-outlives-release).
SERVERS += pinhand pinkeep
SERVER_SRCS_pinhand := servers/tests/pinhand.c
SERVER_SRCS_pinkeep := servers/tests/pinkeep.c

# quietown, quietbad: a 16550 driver that dies; init applies its own image's quiesce
# description (a mark in the scratch register the restart reads back), or refuses a malformed
# one whole.
SERVERS += quietown quietbad
SERVER_SRCS_quietown := servers/tests/quietscr.c servers/tests/quietown.c
SERVER_SRCS_quietbad := servers/tests/quietscr.c servers/tests/quietbad.c

# tracethief: a server without the trace authority: TRACE and INFO_TRACE refused, no other
# line's timing (qemu/trace-authority-refused).
SERVERS += tracethief
SERVER_SRCS_tracethief := servers/tests/tracethief.c

# watchends: badge 0 and a notification's end each end a process watch (qemu/process-watch-ends).
SERVERS += watchends
SERVER_SRCS_watchends := servers/tests/watchends.c

# netpair: a client of two network device services on one QEMU hub (tests/qemu/cases_net.py):
# frames of varied lengths from net0's NIC to net1's, every byte checked, the services' counts.
SERVERS += netpair
SERVER_SRCS_netpair := servers/tests/netpair.c
# netpair_hostile beside nethostile (lying sessions on net1); netpair_kill with net_dying (the
# service built with netdying.c, whose first instance faults mid-stream).
SERVERS += netpair_hostile nethostile netpair_kill net_dying
SERVER_SRCS_netpair_hostile := servers/tests/netpair.c servers/tests/netpair_hostile.c
SERVER_SRCS_nethostile := servers/tests/nethostile.c
SERVER_SRCS_netpair_kill := servers/tests/netpair.c servers/tests/netpair_kill.c
SERVER_SRCS_net_dying = $(SERVER_SRCS_net) servers/tests/netdying.c
# net_refusing: net_dying whose second instance refuses a session's start, then faults.
SERVERS += net_refusing
SERVER_SRCS_net_refusing = $(SERVER_SRCS_net) servers/tests/netdying.c servers/tests/netrefuse.c
# netarp: an ARP request for QEMU's user-network gateway through net0, and its reply.
SERVERS += netarp
SERVER_SRCS_netarp := servers/tests/netarp.c
# netvictim dies with its receive buffers at net1's device; netreap checks net freed its session.
SERVERS += netvictim netreap
SERVER_SRCS_netvictim := servers/tests/netvictim.c
SERVER_SRCS_netreap := servers/tests/netreap.c
# netthief starts first on net1; netpair_granted, granted [net1=receive], must get the stream.
SERVERS += netthief netpair_granted
SERVER_SRCS_netthief := servers/tests/netthief.c
SERVER_SRCS_netpair_granted := servers/tests/netpair.c servers/tests/netpair_granted.c
# sockdie: a socket client that ends holding its sockets; sockheir then binds the same ports.
SERVERS += sockdie sockheir
SERVER_SRCS_sockdie := servers/tests/sockdie.c
SERVER_SRCS_sockheir := servers/tests/sockheir.c
# sockhostile: a sockets client that lies in its rings (beside the echo service's good client).
SERVERS += sockhostile
SERVER_SRCS_sockhostile := servers/tests/sockhostile.c
# ip_dying: the IP stack whose first instance faults with its socket clients' sessions open.
SERVERS += ip_dying
SERVER_SRCS_ip_dying := $(SERVER_SRCS_ip) servers/tests/ipdying.c
SERVER_LIBS_ip_dying := $(LWIP)
$(call user_objs,$(SERVER_SRCS_ip_dying)): USER_CFLAGS += $(LWIP_INCLUDES)
$(call user_objs,$(SERVER_SRCS_ip_dying)): | $(LWIP_STAMP)

# ipbadwire: malformed frames from net1's side into ip_static (servers/ip/module.mk) while a
# good UDP echo runs through servers/echo.
SERVERS += ipbadwire
SERVER_SRCS_ipbadwire := servers/tests/ipbadwire.c servers/bench/rawudp.c

# udpheld: datagrams ip holds in net0's buffers when net_dying dies, from net1's side into
# ip_static and servers/echo.
# udpkeep: echo's UDP half that reads nothing until ip has reached net's next instance.
SERVERS += udpheld udpkeep
SERVER_SRCS_udpheld := servers/tests/udpheld.c servers/bench/rawudp.c
SERVER_SRCS_udpkeep := servers/tests/udpkeep.c

# injectbad: the faults kernel's injector refuses bad calls; rng survives a flipped stack pointer
# and an endless loop (init's liveness thread).
SERVERS += injectbad
SERVER_SRCS_injectbad := servers/tests/injectbad.c servers/faults/target.c

# injectpci: the injector takes the PCI bus server for a driver; rng survives a fault into it
SERVERS += injectpci
SERVER_SRCS_injectpci := servers/tests/injectpci.c servers/faults/target.c

# msirevoke, msistale: a message-signalled line's freeing revokes a copy of its capability
# another process holds, also once the line is lent again.
SERVERS += msirevoke msistale
SERVER_SRCS_msirevoke := servers/tests/msirevoke.c
SERVER_SRCS_msistale := servers/tests/msistale.c

# slicefair: a thread preempted by a more urgent one keeps its place among its equals only for
# the rest of its slice (a spinner, a busy thread above it, and a victim: cases_ipc.py).
SERVERS += slicefair
SERVER_SRCS_slicefair := servers/tests/slicefair.c

# livespin: init's liveness check ends a spinning rng, not blk, whose question it starves (blk
# waits for init's service thread, which waits for the spinner's hart).
SERVERS += livespin
SERVER_SRCS_livespin := servers/tests/livespin.c servers/faults/target.c

# spinstart, livestart: init's liveness check ends a server that spins before it publishes
# (spinstart's first instance), through the question its start is.
SERVERS += spinstart livestart
SERVER_SRCS_spinstart := servers/tests/spinstart.c
SERVER_SRCS_livestart := servers/tests/livestart.c
