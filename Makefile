# Tacet: a RISC-V SMP microkernel for QEMU virt.
#   make qemu [SMP=4]   build and boot (Ctrl-A X leaves QEMU)
#   make test           build and run every test (host unit tests and QEMU cases)
#   make gdb            boot halted with a gdb stub and attach gdb-multiarch
#   make trace          trace a boot (the edu flood) into build/trace/trace.json (Perfetto)
#   make run KERNEL=test BOOTARGS=test=ipi   boot the test kernel (build/test/kernel.bin, the
#                       only one with the in-kernel tests) and run one
# Both qemu and test first run tools/install-deps.sh, which installs missing Debian packages.

SMP ?= 4
MEM ?= 128M
# Machine variants: one device tree per machine (variant, harts, memory, QEMU_EXTRA), dumped
# from this QEMU.
VARIANT ?= aclint
DEBUG ?= 1

BUILD := build
CROSS := riscv64-unknown-elf-
CC := $(CROSS)gcc
NM := $(CROSS)nm
OBJCOPY := $(CROSS)objcopy
QEMU := qemu-system-riscv64
OPENSBI := /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin

CFLAGS := -std=gnu11 -march=rv64gc -mabi=lp64 -mcmodel=medany -mno-relax \
	-ffreestanding -nostdlib -fno-builtin -fno-stack-protector -fno-pie \
	-fno-omit-frame-pointer -fno-optimize-sibling-calls \
	-O2 -g -Wall -Wextra -Werror -Ikernel -Ikernel/arch/riscv/include -Ikernel/uapi -MMD -MP
ifeq ($(DEBUG),1)
CFLAGS += -DCONFIG_DEBUG
endif
LDFLAGS := -nostdlib -static -Wl,--no-relax -Wl,-T,kernel/arch/riscv/kernel.ld -Wl,--build-id=none

# The kernel: every source in its folders (lib: freestanding helpers; mm: page pool, object
# caches; object: kernel objects; irq: the interrupt layer; core: entry, scheduling, BKL,
# timers, console, boot), generic first, then the RISC-V port. This is the shipped kernel,
# $(BUILD)/kernel.elf and .bin, what make qemu, run and gdb boot: it has no in-kernel test.
KERNEL_DIRS := kernel/lib kernel/mm kernel/object kernel/irq kernel/core kernel/arch/riscv
# The test kernel, $(BUILD)/test/kernel.elf and .bin (make test-kernel; make test and the
# QEMU cases that boot with test=NAME): the same folders plus kernel/test (the in-kernel tests,
# with the generic code, before the port), every object compiled with -DCONFIG_KTEST into its
# own tree, $(BUILD)/test/kernel/... (kernel/test/ktest.h: without it the hooks are nothing).
TEST_KERNEL_DIRS := $(filter-out kernel/arch/%,$(KERNEL_DIRS)) kernel/test \
	$(filter kernel/arch/%,$(KERNEL_DIRS))
# The faults kernel, $(BUILD)/faults/kernel.elf and .bin (make faults-kernel; make faults and the
# QEMU cases of tests/qemu/cases_faults.py): the shipped folders plus kernel/inject (the fault
# injector's system call, TACET_SYS_INJECT), every object compiled with -DCONFIG_FAULTS into its
# own tree (kernel/inject/inject.h: without it the call is ENOSYS). No in-kernel test.
FAULTS_KERNEL_DIRS := $(filter-out kernel/arch/%,$(KERNEL_DIRS)) kernel/inject \
	$(filter kernel/arch/%,$(KERNEL_DIRS))
kernel_srcs = $(foreach d,$(1),$(sort $(wildcard $(d)/*.c $(d)/*.S)))
KERNEL_SRCS := $(call kernel_srcs,$(KERNEL_DIRS))
TEST_KERNEL_SRCS := $(call kernel_srcs,$(TEST_KERNEL_DIRS))
FAULTS_KERNEL_SRCS := $(call kernel_srcs,$(FAULTS_KERNEL_DIRS))

.PHONY: all kernel test-kernel faults-kernel faults callgraph userspace qemu-plugins qemu run gdb test bench deps host-tests dtbs print-dtb clean trace
all: kernel userspace

# Per-source flags, in every kernel built (KERNEL_CFLAGS_<source>; flags live here: a changed
# Makefile rebuilds the kernel, an old object keeps its old flags).
# The controllers' operations (PLIC, AIA), the wait/run queues and the interrupt statistics
# (irq_note_running, on every interrupt's wake-up) are leaves (or nearly) on every interrupt and
# switch: built without frame-pointer setup. A backtrace through them loses only the leaf,
# whose pc the trap frame has anyway.
HOT_LEAVES := kernel/arch/riscv/plic.c kernel/arch/riscv/aia.c kernel/core/runqueue.c \
	kernel/irq/irq_stats.c
$(foreach f,$(HOT_LEAVES),$(eval KERNEL_CFLAGS_$(f) := -fomit-frame-pointer))
# Flags per folder. kernel/core holds the generic trap entry (entry.c), which picks a system
# call's fast path with a few compares; as a jump table (GCC's choice from five cases up) the
# hottest paths would each pay ~6 instructions more.
$(foreach f,$(wildcard kernel/core/*.c),$(eval KERNEL_CFLAGS_$(f) += -fno-jump-tables))
# The trap entries (entry.c) are called only by trap.S, on an empty stack, and never return: no
# caller needs the callee-saved registers kept, so their prologues need not save them (GCC saves
# them even for a _Noreturn function). s0 stays the frame pointer. Nothing outside trap.S may
# call a function of entry.c: tools/callcycles.py checks it in the call graph. TACET_CALL_USED_S
# tells the headers inlined there (arch_irq_unmask) that an s register is free to keep a value
# across an assembly call.
ENTRY_CALL_USED := $(foreach r,1 2 3 4 5 6 7 8 9 10 11,-fcall-used-s$(r)) -DTACET_CALL_USED_S
KERNEL_CFLAGS_kernel/core/entry.c += $(ENTRY_CALL_USED)

# $(call kernel_objs,DIR,SOURCES): where the objects of SOURCES go in object tree DIR
# (DIR/kernel/core/main.c.o); kernel_callgraphs: their call graphs (DIR/kernel/core/main.c.ci).
kernel_objs = $(patsubst %,$(1)/%.o,$(2))
kernel_callgraphs = $(patsubst %.c,$(1)/%.c.ci,$(filter %.c,$(2)))
KERNEL_DEPS :=
# A kernel's link (its objects, then its symbol table); an ELF's text symbols, by address.
kernel_link = $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^)
text_syms = $(NM) -n $(1) | awk '$$2 ~ /^[tT]$$/'

# $(eval $(call kernel_build,DIR,SOURCES,FLAGS)): one kernel, DIR/kernel.elf and DIR/kernel.bin,
# from SOURCES, each compiled with CFLAGS and FLAGS into object tree DIR: no object is shared
# with another kernel. make callgraph builds its call graphs and lists them in
# DIR/callgraph.files, which tools/callcycles.py DIR reads (not a stale graph left in DIR).
# -fcallgraph-info: each object's call graph beside it (.c.ci), which tools/callcycles.py reads
# to check that the kernel has no recursion (make test). An object built before that has
# none: the .c.ci rule builds it again.
# Two links: the first, with an empty symbol table, tells the text addresses; .ksyms comes
# after .text, so the second link (with the table) keeps them, which the cmp checks.
# (Data moves, but the table holds only text symbols.)
define kernel_build
$(1)/%.c.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(KERNEL_CFLAGS_$$<) $(3) -fcallgraph-info -c -o $$@ $$<
$(call kernel_callgraphs,$(1),$(2)): $(1)/%.c.ci: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(KERNEL_CFLAGS_$$<) $(3) -fcallgraph-info -c -o $(1)/$$*.c.o $$<
$(1)/%.S.o: %.S
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $(3) -c -o $$@ $$<
$(call kernel_objs,$(1),$(2)) $(call kernel_callgraphs,$(1),$(2)): Makefile
callgraph:: $(call kernel_callgraphs,$(1),$(2))
	$$(file >$(1)/callgraph.files,$(call kernel_callgraphs,$(1),$(2)))
KERNEL_DEPS += $(patsubst %.o,%.d,$(call kernel_objs,$(1),$(2)))

$(1)/ksyms0.S: tools/gensyms.sh
	@mkdir -p $$(@D)
	tools/gensyms.sh $$(NM) - > $$@
$(1)/ksyms0.S.o $(1)/ksyms.S.o: $(1)/%.S.o: $(1)/%.S
	$$(CC) $$(CFLAGS) $(3) -c -o $$@ $$<
$(1)/kernel0.elf: $(call kernel_objs,$(1),$(2)) $(1)/ksyms0.S.o kernel/arch/riscv/kernel.ld
	$$(kernel_link)
$(1)/kernel.elf: $(call kernel_objs,$(1),$(2)) $(1)/ksyms.S.o kernel/arch/riscv/kernel.ld
	$$(kernel_link)
	@$$(call text_syms,$(1)/kernel0.elf) > $(1)/kernel0.syms
	@$$(call text_syms,$$@) > $(1)/kernel.syms
	@cmp -s $(1)/kernel0.syms $(1)/kernel.syms || \
		{ echo "ksyms: the symbol table moved code; fix kernel.ld"; rm -f $$@; exit 1; }
$(1)/ksyms.S: $(1)/kernel0.elf tools/gensyms.sh
	tools/gensyms.sh $$(NM) $$< > $$@
$(1)/kernel.bin: $(1)/kernel.elf
	$$(OBJCOPY) -O binary $$< $$@
endef

$(eval $(call kernel_build,$(BUILD),$(KERNEL_SRCS),))
$(eval $(call kernel_build,$(BUILD)/test,$(TEST_KERNEL_SRCS),-DCONFIG_KTEST))
$(eval $(call kernel_build,$(BUILD)/faults,$(FAULTS_KERNEL_SRCS),-DCONFIG_FAULTS))
kernel: $(BUILD)/kernel.elf $(BUILD)/kernel.bin
test-kernel: $(BUILD)/test/kernel.elf $(BUILD)/test/kernel.bin
faults-kernel: $(BUILD)/faults/kernel.elf $(BUILD)/faults/kernel.bin

# --- user space: lib/ and the servers (lib/lib.mk, servers/servers.mk define USER_* and
# SERVERS), packed into the boot module archive QEMU loads with -initrd ---------------------
SERVERS :=
-include lib/lib.mk
-include lwip/lwip.mk
-include servers/servers.mk
SERVER_ELFS := $(SERVERS:%=$(BUILD)/servers/%.elf)
# The archive holds copies without debug information (gdb reads build/servers/*.elf).
SERVER_BOOT_ELFS := $(SERVERS:%=$(BUILD)/modules/%.elf)
$(BUILD)/modules/%.elf: $(BUILD)/servers/%.elf
	@mkdir -p $(@D)
	$(CROSS)objcopy --strip-debug $< $@
# The linked servers are only intermediates of the archive to make: kept, for gdb
# (docs/drivers.md: add-symbol-file build/servers/NAME.elf).
.SECONDARY: $(SERVER_ELFS)
$(BUILD)/modules.img: $(SERVER_BOOT_ELFS) tools/mkmodules.py
	python3 tools/mkmodules.py $@ $(SERVER_BOOT_ELFS)
userspace: $(BUILD)/modules.img

# --- QEMU plugins (host code QEMU loads with -plugin) --------------------------------------
# bkl_holds.so: counts each hart's own instructions in its BKL holds between the test kernel's
# hold markers (tools/qemu-plugins/bkl_holds.c, docs/benchmarks.md "BKL holds per hart"); the
# stress benchmarks and bench_frame's boot load it (tests/bench/bench.py), so make bench,
# bench-stress, bench-docs and test build it. The host's cc, no QEMU header (the file declares
# the API it uses).
BKL_HOLDS_PLUGIN := $(BUILD)/bkl_holds.so
$(BKL_HOLDS_PLUGIN): tools/qemu-plugins/bkl_holds.c tools/qemu-plugins/qemu_plugin_api.h \
		     kernel/test/ktest_marks.h Makefile
	@mkdir -p $(@D)
	$(HOST_CC) -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden -o $@ $<
# hart_split.so: each hart's user, kernel and firmware instructions between a benchmark server's
# markers (tools/qemu-plugins/hart_split.c; the udp_echo benchmark's split per component).
HART_SPLIT_PLUGIN := $(BUILD)/hart_split.so
$(HART_SPLIT_PLUGIN): tools/qemu-plugins/hart_split.c tools/qemu-plugins/hart_split.h \
		      tools/qemu-plugins/qemu_plugin_api.h Makefile
	@mkdir -p $(@D)
	$(HOST_CC) -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden -o $@ $<
# hart_profile.so: one hart's instructions by address over one marked stretch (tools/hartprof.py
# runs it: where a component's share of a benchmark goes, by function).
HART_PROFILE_PLUGIN := $(BUILD)/hart_profile.so
$(HART_PROFILE_PLUGIN): tools/qemu-plugins/hart_profile.c tools/qemu-plugins/hart_split.h \
			tools/qemu-plugins/qemu_plugin_api.h Makefile
	@mkdir -p $(@D)
	$(HOST_CC) -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden -o $@ $<
qemu-plugins: $(BKL_HOLDS_PLUGIN) $(HART_SPLIT_PLUGIN) $(HART_PROFILE_PLUGIN)

# --- device trees: QEMU's own tree for the machine, plus Tacet's overlay -------------------
# QEMU describes in its tree the machine it was started as, and leaves a tree given with -dtb as
# it is (but /chosen): a tree must boot only the machine it was dumped from (one that says
# 384 MiB on a 256 MiB machine kills the kernel). So a tree's file name carries every QEMU
# argument that shapes the machine: $(BUILD)/dts/VARIANT-smpN-MEM-HASH.dtb, HASH over the
# variant's options below, -smp, -m and QEMU_EXTRA (extra devices). DTB is the tree for this
# make's VARIANT, SMP, MEM and QEMU_EXTRA; `make -s print-dtb` builds it and prints its path.
QEMU_MACHINE_aclint := -machine virt,aclint=on -cpu rv64
QEMU_MACHINE_sbi := -machine virt,aclint=off -cpu rv64
QEMU_MACHINE_nosstc := -machine virt,aclint=on -cpu rv64,sstc=off
# The Advanced Interrupt Architecture: an APLIC in MSI mode and an IMSIC interrupt file per
# hart instead of the PLIC (the kernel picks the controller from the tree; docs/interrupts.md).
QEMU_MACHINE_aia := -machine virt,aia=aplic-imsic -cpu rv64
# Every machine's virtio-mmio transports offer the modern interface (virtio 1.x, Version 2),
# the only one lib/virtio.c speaks: QEMU 7.2 offers the legacy one unless told otherwise
# (docs/virtio.md). tests/run.py and tests/bench/bench.py pass the same.
QEMU_GLOBALS := -global virtio-mmio.force-legacy=false
# $(call QEMU_ARGS,VARIANT,SMP,MEM)
QEMU_ARGS = $(QEMU_MACHINE_$(1)) $(QEMU_GLOBALS) -smp $(2) -m $(3)
# $(call dtb_args,VARIANT,SMP,MEM,EXTRA): all the tree depends on; dtb_name: the tree's name.
# A user network's host port forwards (-netdev user,...,hostfwd=...) shape no device: the tree's
# arguments leave them out (a dump would bind the ports, and a test's own free ports would each
# make a tree).
no_hostfwd = $(shell printf '%s' '$(subst ','\'',$(1))' | sed 's/,hostfwd=[^, ]*//g')
dtb_args = $(strip $(call QEMU_ARGS,$(1),$(2),$(3)) $(call no_hostfwd,$(4)))
dtb_name = $(1)-smp$(2)-$(3)-$(shell printf '%s' \
	'$(subst ','\'',$(call dtb_args,$(1),$(2),$(3),$(4)))' | sha1sum | cut -c1-8)

# The devices `make qemu` attaches whatever QEMU_EXTRA says: the entropy source, the disk and
# the network card the default boot arguments give the rng, blk and net servers (rng:virtio-rng,
# blk:virtio-blk, net=net0:virtio-net). The disk is build/disk.img (1 MiB, made once, kept
# between runs). The card is on QEMU's user network (the guest leases 10.0.2.15 by DHCP; the
# gateway is 10.0.2.2), with QEMU_HOSTFWD's host ports forwarded to the guest's: 127.0.0.1:8080
# to port 80, 5001 to 5001, 7007 to 7 (the echo service: TCP and UDP) (`make qemu
# QEMU_HOSTFWD=...` to change them). The tests attach their own (machine.py empties this).
QEMU_DISK := $(BUILD)/disk.img
QEMU_HOSTFWD ?= hostfwd=tcp:127.0.0.1:8080-:80,hostfwd=tcp:127.0.0.1:5001-:5001,$\
	hostfwd=tcp:127.0.0.1:7007-:7,hostfwd=udp:127.0.0.1:7007-:7
QEMU_NET ?= -netdev user,id=net0,$(QEMU_HOSTFWD) -device virtio-net-device,netdev=net0
QEMU_DEVICES ?= -device virtio-rng-device \
	-drive file=$(QEMU_DISK),if=none,format=raw,id=disk0 -device virtio-blk-device,drive=disk0 \
	$(QEMU_NET)
MACHINE_EXTRA := $(strip $(QEMU_DEVICES) $(QEMU_EXTRA))
DTB_NAME := $(call dtb_name,$(VARIANT),$(SMP),$(MEM),$(MACHINE_EXTRA))
DTB := $(BUILD)/dts/$(DTB_NAME).dtb
BAD_DTB_BASE_NAME := $(call dtb_name,aclint,4,128M,)
BAD_AIA_DTB_BASE_NAME := $(call dtb_name,aia,4,128M,)
# The dump rule knows a tree's arguments only for the machines named here (a hash cannot be
# undone): this make's, and the tests' usual ones (the PLIC's and the AIA's), which the
# malformed trees are made from.
# The dump's QEMU reads nothing, but -nographic sets the terminal of its standard input raw:
# from a background process group (`timeout make qemu`, a test runner's make) that stops it
# with SIGTTOU for good, so its input is /dev/null (dtb/dump-in-background-group).
$(BUILD)/dts/$(DTB_NAME).qemu.dtb: DUMP_ARGS := \
	$(call dtb_args,$(VARIANT),$(SMP),$(MEM),$(MACHINE_EXTRA))
$(BUILD)/dts/$(BAD_DTB_BASE_NAME).qemu.dtb: DUMP_ARGS := $(call dtb_args,aclint,4,128M,)
$(BUILD)/dts/$(BAD_AIA_DTB_BASE_NAME).qemu.dtb: DUMP_ARGS := $(call dtb_args,aia,4,128M,)

$(QEMU_DISK):
	@mkdir -p $(@D)
	truncate -s 1M $@

$(BUILD)/dts/$(DTB_NAME).qemu.dtb: $(if $(findstring $(QEMU_DISK),$(MACHINE_EXTRA)),$(QEMU_DISK))
$(BUILD)/dts/%.qemu.dtb:
	$(if $(DUMP_ARGS),,$(error $@ is no tree of this make's machine: \
		ask for a tree by VARIANT, SMP, MEM and QEMU_EXTRA with make dtbs or print-dtb))
	@mkdir -p $(@D)
	$(QEMU) $(DUMP_ARGS) -machine dumpdtb=$@ -nographic </dev/null >$@.log 2>&1 || \
		{ cat $@.log; exit 1; }
$(BUILD)/dts/tacet.dtbo: dts/tacet.dtso
	@mkdir -p $(@D)
	dtc -q -@ -I dts -O dtb -o $@ $<
$(BUILD)/dts/%.dtb: $(BUILD)/dts/%.qemu.dtb $(BUILD)/dts/tacet.dtbo
	fdtoverlay -i $< -o $@ $(BUILD)/dts/tacet.dtbo
.PRECIOUS: $(BUILD)/dts/%.qemu.dtb

# Malformed trees for the QEMU tests (see tests/qemu/baddtb.py), from the tests' usual machine.
$(BUILD)/dts/bad/%.dtb: $(BUILD)/dts/$(BAD_DTB_BASE_NAME).dtb tests/qemu/baddtb.py
	python3 tests/qemu/baddtb.py $< $(@D)
$(BUILD)/dts/bad-aia/%.dtb: $(BUILD)/dts/$(BAD_AIA_DTB_BASE_NAME).dtb tests/qemu/baddtb.py
	python3 tests/qemu/baddtb.py --aia $< $(@D)

dtbs: $(DTB)
# For tests/run.py and tests/bench/bench.py: they boot the tree made for their own machine.
print-dtb: $(DTB)
	@echo $(DTB)

# Bad module archives for the QEMU tests (see tests/qemu/badmodules.py).
BAD_MODULES := $(patsubst %,$(BUILD)/bad-modules/%.img,bad-magic no-init init-not-elf \
	init-truncated)
$(BAD_MODULES) &: $(BUILD)/modules.img tests/qemu/badmodules.py tools/tacet_modules.py
	python3 tests/qemu/badmodules.py $< $(BUILD)/bad-modules

# --- running ------------------------------------------------------------------------------
# BOOTARGS replaces the overlay's default boot arguments (init.run=rng/110:virtio-rng*3,
# ^%uart=console:ns16550a*5,rtc:goldfish-rtc,blk/110:virtio-blk,net=net0/110:virtio-net*3,
# ip@1*3,echo@1*3,%http@1*3,iperf@1*3); QEMU_EXTRA adds QEMU arguments
# (devices: QEMU_EXTRA="-device edu") to QEMU_DEVICES; each machine gets its own tree.
# KERNEL=test boots the test kernel instead of the shipped one, to run an in-kernel test by
# hand: make run KERNEL=test BOOTARGS=test=ipi.
ifeq ($(KERNEL),test)
RUN_KERNEL := test-kernel
RUN_KERNEL_DIR := $(BUILD)/test
else ifeq ($(KERNEL),)
RUN_KERNEL := kernel
RUN_KERNEL_DIR := $(BUILD)
else
$(error KERNEL=$(KERNEL): say KERNEL=test for the test kernel, nothing for the shipped one)
endif
QEMU_RUN = $(QEMU) $(call QEMU_ARGS,$(VARIANT),$(SMP),$(MEM)) -nographic -bios $(OPENSBI) \
	-kernel $(RUN_KERNEL_DIR)/kernel.bin -dtb $(DTB) \
	-initrd $(BUILD)/modules.img $(if $(BOOTARGS),-append "$(BOOTARGS)") $(MACHINE_EXTRA)

deps:
	@tools/install-deps.sh

qemu: deps
	@$(MAKE) --no-print-directory run

run: $(RUN_KERNEL) userspace dtbs $(if $(findstring $(QEMU_DISK),$(MACHINE_EXTRA)),$(QEMU_DISK))
	$(QEMU_RUN)

# QEMU runs in the background while gdb has the terminal: its console input is /dev/null.
gdb: deps
	@$(MAKE) --no-print-directory $(RUN_KERNEL) userspace dtbs
	$(QEMU_RUN) -S -gdb tcp::1234 </dev/null & \
	gdb-multiarch -q $(RUN_KERNEL_DIR)/kernel.elf -ex 'set architecture riscv:rv64' \
		-ex 'target remote :1234'; kill %1 2>/dev/null || true

test: deps
	@$(MAKE) --no-print-directory kernel test-kernel faults-kernel callgraph userspace qemu-plugins \
		host-tests $(BAD_MODULES) $(BLK_TEST_IMG)
	@python3 tests/run.py

# --- the fault injection campaign (make faults; docs/faults.md) ------------------------------
# N faults (SEED, into DRIVERS: r rng, b blk, t rtc, u the console's uart, n net0's net)
# thrown by servers/faults into the real drivers on the faults kernel while it uses them (with
# n, a TCP stream from the host through net and ip to the echo service too), shared among
# JOBS QEMU instances at once (seeds SEED .. SEED+JOBS-1); the logs go to
# build/faults/campaign-SEED.log, each run's summary to docs/faults/runs/SEED.json (commit it),
# and tools/faults.py prints their figures (`python3 tools/faults.py table --write` writes
# docs/faults.md's tables from every committed run). ALIVE_MS: the drivers' liveness limit
# (longer on a loaded host, where a stalled QEMU makes the liveness thread end healthy drivers);
# PCI=1: rng and blk (and net) as virtio-pci functions behind the pci server (SHARED=1 too: blk
# on rng's INTx line); MACHINE=aia: the AIA's interrupt controllers instead of the PLIC;
# GARBAGE=1: garbage in a driver's replies and a driver deaf to its notification drawn too.
# Not part of make test, which runs a short seeded one (tests/qemu/cases_faults.py,
# faults-campaign).
N ?= 1000
SEED ?= 1
DRIVERS ?= rbtu
JOBS ?= 1
ALIVE_MS ?= 10
PCI ?=
SHARED ?=
GARBAGE ?=
MACHINE ?= aclint
faults: faults-kernel userspace $(BLK_TEST_IMG)
	python3 tools/faults.py run --n $(N) --seed $(SEED) --drivers $(DRIVERS) --jobs $(JOBS) \
		--alive-ms $(ALIVE_MS) --machine $(MACHINE) $(if $(PCI),--pci) \
		$(if $(SHARED),--shared-line) $(if $(GARBAGE),--garbage)

# --- the kernel's event trace (make trace; docs/tracing.md) ----------------------------------
# Boots a scenario with trace=on under -icount, types `trace dump` once TRACE_UNTIL (a Python
# regular expression) was printed, and writes build/trace/trace.json (Chrome/Perfetto trace
# events). Without BOOTARGS: the edu flood for tracing (four edu devices, an edu_trace driver on
# each of four harts) until the four drivers have reported; with BOOTARGS (and QEMU_EXTRA):
# that scenario, until TRACE_UNTIL or the shell's first prompt.
TRACE_UNTIL ?=
trace: kernel userspace
	python3 tools/trace/trace.py record --smp $(SMP) \
		$(if $(BOOTARGS),--bootargs '$(BOOTARGS)' --qemu-extra '$(QEMU_EXTRA)') \
		$(if $(TRACE_UNTIL),--until '$(TRACE_UNTIL)')

# --- benchmarks (make bench): tests/bench/bench.mk ----------------------------------------
-include tests/bench/bench.mk

# --- host unit tests ------------------------------------------------------------------------
HOST_CC := gcc
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-Ikernel -Ikernel/uapi -Itests/host -DTACET_HOST_TEST
HOST_TESTS :=
include $(sort $(wildcard tests/host/*.mk))
HOST_BINS := $(HOST_TESTS:%=$(BUILD)/host/test_%)

host-tests: $(HOST_BINS)

# Each tests/host/NAME.mk adds NAME to HOST_TESTS and may set HOST_SRCS_NAME (kernel sources
# under test), HOST_LIBS_NAME (extra libraries), HOST_DEPS_NAME (data the test needs built) and
# HOST_CFLAGS_NAME (more flags: -Ilib/include for lib/ code).
.SECONDEXPANSION:
# Every header, so that a changed kernel header rebuilds the tests (they build in seconds).
HOST_HEADERS := $(wildcard kernel/*.h kernel/*/*.h kernel/arch/riscv/include/*.h \
	kernel/uapi/tacet/*.h tests/host/*.h)
$(BUILD)/host/test_%: tests/host/test_%.c $$(HOST_SRCS_$$*) $$(HOST_DEPS_$$*) $(HOST_HEADERS) \
		| $(BUILD)/host
	$(HOST_CC) $(HOST_CFLAGS) $(HOST_CFLAGS_$*) -o $@ $< $(HOST_SRCS_$*) $(HOST_LIBS_$*) -lcmocka

$(BUILD)/host:
	mkdir -p $@

clean:
	rm -rf $(BUILD)

-include $(KERNEL_DEPS)
