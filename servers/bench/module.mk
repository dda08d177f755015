# module.mk: the benchmark servers `make bench` runs (tests/bench/bench.py says how): the null
# system call, the IPC round trip (one server, a client per hart placement), the
# notification wake-up (same hart, cross hart), the interrupt latencies (with the threaded half
# of the masked-vs-threaded experiment) and the boot to the shell prompt.
BENCH_COMMON := servers/bench/bench.c

SERVERS += bench_null
SERVER_SRCS_bench_null := servers/bench/null.c $(BENCH_COMMON)

SERVERS += bench_ipc_srv bench_ipc_same bench_ipc_cross
SERVER_SRCS_bench_ipc_srv := servers/bench/ipc_server.c
SERVER_SRCS_bench_ipc_same := servers/bench/ipc_same.c servers/bench/ipc_client.c $(BENCH_COMMON)
SERVER_SRCS_bench_ipc_cross := servers/bench/ipc_cross.c servers/bench/ipc_client.c \
	$(BENCH_COMMON)

SERVERS += bench_ntfn_same bench_ntfn_cross
SERVER_SRCS_bench_ntfn_same := servers/bench/notify_same.c servers/bench/notify.c $(BENCH_COMMON)
SERVER_SRCS_bench_ntfn_cross := servers/bench/notify_cross.c servers/bench/notify.c \
	$(BENCH_COMMON)

# The interrupt latencies, with the PCI server and an edu device (servers/edu/edu_dev.c).
SERVERS += bench_irq_same bench_irq_cross
BENCH_IRQ := servers/bench/irq.c servers/edu/edu_dev.c $(BENCH_COMMON)
SERVER_SRCS_bench_irq_same := servers/bench/irq_same.c $(BENCH_IRQ)
SERVER_SRCS_bench_irq_cross := servers/bench/irq_cross.c $(BENCH_IRQ)
# the same two by MSI (the AIA's machine)
SERVERS += bench_irq_same_msi bench_irq_cross_msi
SERVER_SRCS_bench_irq_same_msi := servers/bench/irq_same_msi.c $(BENCH_IRQ)
SERVER_SRCS_bench_irq_cross_msi := servers/bench/irq_cross_msi.c $(BENCH_IRQ)
# The same to a driver waiting as a service loop does (a receive, as the notification's bound
# thread: lib's tacet_service_run).
SERVERS += bench_irq_svc_same bench_irq_svc_cross
SERVER_SRCS_bench_irq_svc_same := servers/bench/irq_svc_same.c $(BENCH_IRQ)
SERVER_SRCS_bench_irq_svc_cross := servers/bench/irq_svc_cross.c $(BENCH_IRQ)
# irq_server_cycle: raise, top half, the driver's handling and tacet_irq_ack_wait, the raiser
# again.
SERVERS += bench_irq_cycle
SERVER_SRCS_bench_irq_cycle := servers/bench/irq_cycle_main.c servers/bench/irq_cycle.c \
	servers/edu/edu_dev.c $(BENCH_COMMON)
# irq_service_cycle: the same, the driver a service loop (tacet_irq_ack, then a receive).
SERVERS += bench_irq_svc_cycle
SERVER_SRCS_bench_irq_svc_cycle := servers/bench/irq_svc_cycle.c servers/bench/irq_cycle.c \
	servers/edu/edu_dev.c $(BENCH_COMMON)
# The threaded half of the masked-vs-threaded experiment: two edus, A's server raising B's.
SERVERS += bench_irq_prio
SERVER_SRCS_bench_irq_prio := servers/bench/irq_prio.c servers/edu/edu_dev.c $(BENCH_COMMON)
# irq_busy_cycle: one interrupt to a driver whose device raises the next before the ack.
SERVERS += bench_irq_busy
SERVER_SRCS_bench_irq_busy := servers/bench/irq_busy.c servers/edu/edu_dev.c $(BENCH_COMMON)

# Boot to the shell prompt: the console server (its own uart.c) with a hook at the first prompt.
SERVERS += bench_boot
SERVER_SRCS_bench_boot := servers/uart/uart.c servers/uart/irqshow.c servers/uart/traceshow.c servers/uart/ping.c \
	servers/bench/boot.c $(BENCH_COMMON)

# bench_frame: a 256-page FRAME_NEW and its deletion, and the longest BKL hold meanwhile.
SERVERS += bench_frame
SERVER_SRCS_bench_frame := servers/bench/frame.c $(BENCH_COMMON)

# bench_framewake: a top-priority thread's timer lateness while a lower one on its hart makes
# 256-page frames (the same-hart bound, 10,000 instructions, holds inside FRAME_NEW).
SERVERS += bench_framewake
SERVER_SRCS_bench_framewake := servers/bench/framewake.c servers/bench/framenew.c $(BENCH_COMMON)
# bench_mapwake: the same while the lower thread maps and unmaps a 256-page frame.
SERVERS += bench_mapwake
SERVER_SRCS_bench_mapwake := servers/bench/framewake.c servers/bench/mapwake.c $(BENCH_COMMON)

# bench_blk: 4 KiB reads from the block service at queue depth 1 and 16, wall clock.
SERVERS += bench_blk
SERVER_SRCS_bench_blk := servers/bench/blk.c

# The stress benchmarks (stress.h): bench_stress measures the interrupt paths while a stressor
# runs on each other hart; tests/bench/bench.py boots it once per stressor (make bench-stress).
# The stressors: chains (servers/tests/chains.c's), 256-page frames, thread storms, an IPC call
# storm, the system call fuzzer (servers/fuzz) and processes ended many at once.
SERVERS += bench_stress
SERVER_SRCS_bench_stress := servers/bench/stress_bench.c servers/bench/stress_ctl.c $(BENCH_IRQ) \
	servers/tests/chains.c
STRESS_COMMON := servers/bench/stress.c
SERVERS += stress_chains stress_frames stress_threads stress_ipc stress_fuzz stress_procs
SERVER_SRCS_stress_chains := servers/bench/stress_chains.c servers/tests/chains.c $(STRESS_COMMON)
SERVER_SRCS_stress_frames := servers/bench/stress_frames.c $(STRESS_COMMON)
SERVER_SRCS_stress_threads := servers/bench/stress_threads.c $(STRESS_COMMON)
SERVER_SRCS_stress_ipc := servers/bench/stress_ipc.c $(STRESS_COMMON) $(BENCH_COMMON)
SERVER_SRCS_stress_fuzz := servers/bench/stress_fuzz.c servers/fuzz/fuzz.c $(STRESS_COMMON)
SERVER_SRCS_stress_procs := servers/bench/stress_procs.c servers/tests/chains.c $(STRESS_COMMON)

# The scaling curves (a path's cost must not grow with what the machine holds; scale.h): the
# same-hart raise to the driver with 1..64 servers bound to lines and asleep, the IPC round trip
# with 1..64 server processes, the arming of a notification timer with 1..1,000 armed.
BENCH_SCALE := servers/bench/scale.c $(BENCH_COMMON)
SERVERS += bench_irq_scale bench_ipc_scale bench_timer_scale
SERVER_SRCS_bench_irq_scale := servers/bench/scale_irq.c servers/bench/irq.c servers/edu/edu_dev.c \
	$(BENCH_SCALE)
SERVER_SRCS_bench_ipc_scale := servers/bench/scale_ipc.c $(BENCH_SCALE)
SERVER_SRCS_bench_timer_scale := servers/bench/scale_timer.c $(BENCH_SCALE)

# bench_net: instructions per packet through two instances of the network device service (one
# QEMU hub) at 1, 16 and 256 frames in flight, and interrupts per packet.
SERVERS += bench_net
SERVER_SRCS_bench_net := servers/bench/net.c $(BENCH_COMMON)

# bench_wall: the wall-clock tail on parallel harts (bench.py --wall, make bench-wall; no
# -icount): a goldfish RTC alarm every millisecond to its driver on hart 0, idle then with a
# stressor (stress.h) on each other hart.
SERVERS += bench_wall
SERVER_SRCS_bench_wall := servers/bench/wall.c servers/bench/stress_ctl.c

# bench_udp: instructions per echoed UDP datagram through the IP stack: a raw client of net1
# sends, ip_static (servers/ip at a fixed address, servers/ip/module.mk) on net0 and servers/echo
# answer.
SERVERS += bench_udp
SERVER_SRCS_bench_udp := servers/bench/udp.c servers/bench/rawudp.c $(BENCH_COMMON)
