/* driver.h: the driver kit: what every user-space driver needs and would otherwise write again.
 * Included by <tacet.h>; the tutorial is docs/drivers.md.
 *
 *   MMIO        mmio_read8..64, mmio_write8..64, mb/rmb/wmb: device register access with the
 *               fences Linux's readl/writel use on RISC-V.
 *   slots       tacet_slot_alloc/free: capability slots from lib's range (TACET_CHILD_LIB_SLOTS
 *               up), so that a driver hard-codes none.
 *   addresses   tacet_va_alloc/free: room in the process's address space to map things.
 *   DMA         tacet_dma_alloc/free: zeroed, physically contiguous memory, mapped, with its
 *               physical address for the device.
 *   devices     tacet_device_open/close: one of the devices init gave the server, mapped, its
 *               interrupt bound to a notification; tacet_device_wait/ack: the interrupt loop;
 *               tacet_device_find: a device's description, for one the server uses unopened;
 *               tacet_device_quiesce: the device made quiet as the server's own quiesce
 *               description says (<tacet/quiesce.h>: TACET_QUIESCE, which init applies too);
 *               tacet_device_watch_bus: the driver ends with the bus instance that granted it.
 *   services    tacet_service_open/run: an endpoint published under a name and the loop that
 *               answers its calls and takes the device's interrupts, in one thread.
 *   time        tacet_timebase_hz, tacet_time_ns, tacet_ns_to_ticks, tacet_sleep_ns.
 *   threads     tacet_thread_start: another thread of the server, running a C function.
 *
 * None of this is thread-safe: a server uses the kit from one thread at a time (most drivers
 * have one thread). Every call that can fail returns 0 (or the value it names) or a negative
 * TACET_E* code, and changes nothing when it fails.
 */
#ifndef TACET_DRIVER_H
#define TACET_DRIVER_H

#include <stdint.h>
#include <tacet/bootinfo.h>
#include <tacet/clock.h>
#include <tacet/syscall.h>
#include <tacet/service.h>
#include <tacet/slot.h>

/* --- MMIO ------------------------------------------------------------------------------------
 * Device registers are mapped uncached and strongly ordered among themselves by the platform
 * (PMA "I/O"), but not against normal memory: a driver that fills a DMA buffer and then writes
 * a "go" register needs the buffer's stores to reach memory first, and one that reads a status
 * register and then the buffer the device wrote needs the read to come first. These do what
 * Linux's readX/writeX do on RISC-V: `fence w,o` before a register write (earlier memory
 * stores are visible to the device before the write reaches it), `fence i,r` after a register
 * read (later memory reads see what the device wrote before the register said so). Each is also
 * a compiler barrier. Reads and writes must be naturally aligned; the width must be one the
 * device accepts (the goldfish RTC, for one, takes only 32-bit accesses). */

#ifdef __riscv
#define TACET_MMIO_READ(bits, insn)                                                             \
	static inline uint##bits##_t mmio_read##bits(const volatile void *addr)                 \
	{                                                                                       \
		uint##bits##_t v;                                                               \
		__asm__ volatile(insn " %0, 0(%1)" : "=r"(v) : "r"(addr) : "memory");          \
		__asm__ volatile("fence i,r" ::: "memory");                                     \
		return v;                                                                       \
	}
#define TACET_MMIO_WRITE(bits, insn)                                                            \
	static inline void mmio_write##bits(volatile void *addr, uint##bits##_t v)              \
	{                                                                                       \
		__asm__ volatile("fence w,o" ::: "memory");                                     \
		__asm__ volatile(insn " %0, 0(%1)" : : "r"(v), "r"(addr) : "memory");          \
	}
#else /* a host build (tests/host): the registers are a fake device's memory */
#define TACET_MMIO_READ(bits, insn)                                                             \
	static inline uint##bits##_t mmio_read##bits(const volatile void *addr)                 \
	{                                                                                       \
		uint##bits##_t v = *(const volatile uint##bits##_t *)addr;                      \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                                        \
		return v;                                                                       \
	}
#define TACET_MMIO_WRITE(bits, insn)                                                            \
	static inline void mmio_write##bits(volatile void *addr, uint##bits##_t v)              \
	{                                                                                       \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                                        \
		*(volatile uint##bits##_t *)addr = v;                                           \
	}
#endif

TACET_MMIO_READ(8, "lbu")
TACET_MMIO_READ(16, "lhu")
TACET_MMIO_READ(32, "lwu")
TACET_MMIO_READ(64, "ld")
TACET_MMIO_WRITE(8, "sb")
TACET_MMIO_WRITE(16, "sh")
TACET_MMIO_WRITE(32, "sw")
TACET_MMIO_WRITE(64, "sd")

/* Full barrier over memory and I/O; reads before reads; writes before writes (Linux's mb, rmb,
 * wmb on RISC-V). The accessors above already order each access against memory the usual way;
 * these are for the rest (e.g. a ring's index read before the entries it covers). */
static inline void mb(void)
{
	__asm__ volatile("fence iorw,iorw" ::: "memory");
}

static inline void rmb(void)
{
	__asm__ volatile("fence ir,ir" ::: "memory");
}

static inline void wmb(void)
{
	__asm__ volatile("fence ow,ow" ::: "memory");
}

/* --- capability slots: <tacet/slot.h> -------------------------------------------------------- */

/* --- the address space -----------------------------------------------------------------------
 * A page-aligned range of `pages` free virtual pages in lib's region (TACET_VA_BASE up to
 * TACET_VA_END, away from the stack, init's fixed pages and the addresses older servers
 * hard-code), with an unmapped guard page after it; 0 when the region is used up or pages is 0.
 * Nothing is mapped: the caller maps what it wants there. tacet_va_free gives a range back
 * (unmapping nothing). */
#define TACET_VA_BASE 0x0000003000000000ul
#define TACET_VA_END  0x0000003f00000000ul
unsigned long tacet_va_alloc(unsigned long pages);
void tacet_va_free(unsigned long va, unsigned long pages);

/* --- DMA -------------------------------------------------------------------------------------
 * Memory a device reads or writes by itself: size bytes rounded up to whole pages (at most
 * TACET_FRAME_MAX_PAGES), zeroed, physically contiguous, mapped read/write in this process.
 * The device is given `pa`; the driver uses `va`. QEMU's virt machine is cache coherent, so
 * no cache maintenance is needed; the MMIO accessors' fences order the buffer against the
 * registers. tacet_dma_free unmaps and frees it (the device must be done with it).
 * The frame is pinned to the DMA device (tacet_frame_pin): the device the server opened first
 * with tacet_device_open, or the one tacet_dma_device names. If the server ends with the
 * buffer alive (a fault, an exit), its pages are not freed but quarantined with the device
 * until init has reset the device (docs/drivers.md, "DMA and a driver's death"). Without a
 * device (a server that drives none), `pa` is 0: the memory is the server's alone. */
struct tacet_dma {
	void *va;
	unsigned long pa;
	unsigned long size; /* bytes, whole pages */
	unsigned long slot; /* the frame capability */
};

long tacet_dma_alloc(unsigned long size, struct tacet_dma *dma);
void tacet_dma_free(struct tacet_dma *dma);
/* The device (its frame's slot) later tacet_dma_alloc buffers are for; 0: none. */
void tacet_dma_device(unsigned long device_slot);
unsigned long tacet_dma_device_slot(void);

/* --- devices ---------------------------------------------------------------------------------
 * The bits of a device's notification word. The kit owns the first two; the others (2..62)
 * are the driver's: it may signal dev->ntfn_slot itself (from another thread), set its own
 * timer on it (tacet_timer_set) or bind a process watch to it, and tacet_device_wait reports
 * those bits too. */
#define TACET_DEVICE_IRQ     (1ul << 0) /* the device's interrupt fired */
#define TACET_DEVICE_TIMEOUT (1ul << 1) /* tacet_device_wait's timeout passed first */
#define TACET_DEVICE_OWN_BITS (~(TACET_DEVICE_IRQ | TACET_DEVICE_TIMEOUT | TACET_NTFN_BIT_RESERVED))
/* The kit's too in a driver that watches a bus (tacet_device_watch_bus, below: the bus
 * instance that granted its device ended, and the driver ends before any event is reported);
 * a driver's own in one that does not. */
#define TACET_DEVICE_BUS_ENDED (1ul << 61)

/* tacet_device_open flags */
#define TACET_DEVICE_SHARED  1u /* share the line with other drivers (TACET_IRQ_SHARED) */
#define TACET_DEVICE_NO_IRQ  2u /* leave the interrupt unbound (a polled driver) */
#define TACET_DEVICE_NO_MAP  4u /* leave the registers unmapped (regs NULL): the driver maps the
				 * part it uses itself (a PCI ECAM is 256 MiB; bus 0 is 1 MiB) */

struct tacet_device {
	volatile uint8_t *regs;  /* the registers, mapped read/write (mmio_read32(regs + OFF));
				  * NULL with TACET_DEVICE_NO_MAP */
	unsigned long paddr;     /* their physical address */
	unsigned long size;      /* bytes of registers the device tree gives */
	unsigned int irq;        /* the interrupt line's number (0: the device has none) */
	unsigned long frame_slot; /* the MMIO frame (init's, TACET_CHILD_DEVICE_SLOTS + 2i) */
	unsigned long irq_slot;  /* the IRQ handler capability (0: none) */
	unsigned long ntfn_slot; /* the notification the interrupt signals (a lib slot) */
	const struct tacet_bootinfo_device *desc; /* init's description of it */
	/* the kit's: */
	unsigned long pending;   /* bits taken from the notification, not yet reported */
	unsigned long va_pages;  /* where regs are mapped: the range's size */
	unsigned int flags;
	unsigned int ack_owed;   /* the interrupt tacet_device_wait reported: its ack's state */
	const char *bus;         /* the bus server watched (tacet_device_watch_bus); NULL: none */
	void (*bus_ended)(const struct tacet_device *dev); /* its end's (does not return) */
};

/* Does a device's compatible string answer to `wanted`: whole, or without its vendor
 * ("goldfish-rtc" matches "google,goldfish-rtc")? NULL matches any. The one rule for naming a
 * device: init matches init.run='s devices by it, and the kit's calls below find them by it. */
int tacet_compatible_matches(const char *compatible, const char *wanted);

/*
 * Open the index-th device (0: the first) init gave this server whose compatible string
 * answers to `compatible` (tacet_compatible_matches: NULL matches any), as init.run= matched
 * it. Maps its registers at an address lib chooses (unless TACET_DEVICE_NO_MAP), creates a
 * notification and binds the interrupt line to it with badge TACET_DEVICE_IRQ (the kernel
 * routes a line nobody had bound to the binding thread's hart, so open it from the thread that
 * will wait). -TACET_ENOENT: no such device; otherwise the failing call's error.
 */
long tacet_device_open(struct tacet_device *dev, const char *compatible, unsigned int index,
		       unsigned int flags);
/* The index-th device init gave this server that `compatible` matches, as tacet_device_open
 * finds it, without opening it (its description: regions, lines, capabilities); NULL if none.
 * For what a driver uses but does not drive, e.g. the PCI server's window and INTx lines. */
const struct tacet_bootinfo_device *tacet_device_find(const char *compatible, unsigned int index);
/* A device the server got from another server rather than from init (a PCI function claimed
 * from "pci"): as tacet_device_open, its line (irq_slot, numbered irq) bound to a new
 * notification, nothing mapped (regs NULL: the driver maps what it was given); frame_slot is
 * recorded as the device's frame. 0 or the failing call's error. */
long tacet_device_adopt(struct tacet_device *dev, unsigned long frame_slot,
			unsigned long irq_slot, unsigned int irq, unsigned int flags);
/* Unbind the line, unmap the registers, delete the notification. */
void tacet_device_close(struct tacet_device *dev);
/*
 * The device was granted by a bus server (a PCI function claimed from "pci"), whose endpoint is
 * in slot bus_ep, published as `bus`: the grant lives no longer than that instance of the bus
 * server, whose next instance quiets every function and takes them back. Watches the endpoint
 * on dev's notification (TACET_DEVICE_BUS_ENDED); when the instance ends, the kit ends the
 * driver wherever it takes dev's bits (tacet_device_wait, tacet_device_notified: the service
 * loop), with the line `NAME: the BUS instance that granted its device ended; ending` and exit
 * status TACET_DEVICE_BUS_ENDED_STATUS, so that init restarts it and its next instance claims
 * from the bus's next one. Its DMA frames, pinned within the bus's window, go to that window's
 * quarantine, which the bus's next instance releases once every function is quiet (or, still
 * alive then, are unpinned by that release and go back to the pool at the exit): the device
 * never writes a page back in the pool. After tacet_device_open or tacet_device_adopt; 0,
 * -TACET_EDEAD if the instance has ended already (the caller fails: init restarts it), or the
 * kernel's error.
 */
#define TACET_DEVICE_BUS_ENDED_STATUS 3
long tacet_device_watch_bus(struct tacet_device *dev, unsigned long bus_ep, const char *bus);
/* Make the opened device quiet as this server's own description for it says (TACET_QUIESCE,
 * <tacet/quiesce.h>): the one init applies when the server ends. A driver calls it at its start,
 * before it sets the device up, so that it starts from what its last instance's death left. 1
 * done, 0 nothing to do (no description for this device, or its guard said so), else the
 * error (-TACET_EINVAL: no registers mapped, or the description is malformed). */
long tacet_device_quiesce(struct tacet_device *dev);

/*
 * Wait for the next event: the device's interrupt, one of the driver's own bits, or (if
 * timeout_ns is not 0) the timeout. Returns TACET_DEVICE_IRQ alone when the interrupt fired,
 * else the driver's own bits that were set, else TACET_DEVICE_TIMEOUT; or a negative TACET_E*
 * code. Whatever the notification held that this call does not report stays for the next one:
 * nothing taken from the notification word is ever dropped (polling away a bit is how a driver
 * loses its line for good: the kernel keeps the line masked until the ack, and the ack comes
 * only after the driver saw the bit). After TACET_DEVICE_IRQ, make the device lower its
 * interrupt, then call tacet_device_ack (docs/drivers.md: clear, then ack).
 */
long tacet_device_wait(struct tacet_device *dev, uint64_t timeout_ns);

/*
 * For a driver that takes its interrupts through IPC (its notification bound to its thread
 * with tacet_ntfn_bind, so a TACET_LABEL_NOTIFY message carries the bits in w[0]): hand the
 * bits to the kit. Returns the next event as tacet_device_wait would (0 if none), keeping the
 * rest; call it again with 0 until it returns 0.
 */
long tacet_device_notified(struct tacet_device *dev, unsigned long bits);

/* Done with the interrupt tacet_device_wait (or tacet_device_notified) reported: handled says
 * whether the device had raised it (an interrupt nobody handles counts toward the kernel
 * disabling the line). The line stays masked from the interrupt until the kernel has the ack
 * (oneshot). After tacet_device_wait's interrupt the ack is put off to the driver's next
 * tacet_device_wait, which makes it and waits in one kernel entry (tacet_irq_ack_wait): call
 * tacet_device_wait next, as a driver's loop does, not a sleep or a blocking call first (the
 * line would stay masked that long); the kernel's error, -TACET_EDISABLED when the ack was the
 * one that disabled the line, is then tacet_device_wait's. A shared line's ack, and one after
 * tacet_device_notified's interrupt, are made at once and return the error here.
 * tacet_device_notified and tacet_device_close make an ack still owed first. */
long tacet_device_ack(struct tacet_device *dev, int handled);

/* --- services: <tacet/service.h> ---------------------------------------------------------- */

/* --- time ------------------------------------------------------------------------------------
 * tacet_time() (rdtime) counts timebase ticks since boot; the frequency comes from the device
 * tree (/cpus timebase-frequency), through the boot information for init and the child
 * information page for the servers it starts. tacet_ns_to_ticks rounds up, so that a deadline is
 * never early; tacet_ticks_to_ns rounds down. tacet_sleep_ns blocks the calling thread on lib's own notification (never the
 * device's: a sleeping driver's interrupt bits wait for its next tacet_device_wait). */
unsigned long tacet_timebase_hz(void);
/* Which start of this server runs: 0 the first, k after k restarts by init (`*N` in init.run). */
unsigned long tacet_instance(void);
/* The first name this server's init.run= entry grants it (`net=net1:...`: "net1"; its module's
 * without `=`; "" with `=` alone): what a module that runs once a device publishes. */
const char *tacet_service_name(void);
uint64_t tacet_time_ns(void); /* since boot */
uint64_t tacet_ns_to_ticks(uint64_t ns);
uint64_t tacet_ticks_to_ns(uint64_t ticks);
long tacet_sleep_ns(uint64_t ns);
/* tacet_cycles_to_ns: <tacet/clock.h>, included above. */

/* --- threads ---------------------------------------------------------------------------------
 * Start fn(arg) in a new thread of the calling process, at sched (TACET_SCHED(priority, hart):
 * no more urgent than the caller), on the stack whose top is stack_top: memory the caller has
 * mapped read/write and keeps for the thread (a tacet_dma_alloc buffer will do). The thread
 * gets what crt0 gives the first one (gp, a TLS block of its own, taken from the stack's top,
 * so errno is its own) and ends when fn returns. The thread id, or a negative TACET_E* code.
 * Mind the rest of the kit and stdio: neither is thread-safe. */
long tacet_thread_start(void (*fn)(void *arg), void *arg, unsigned long stack_top,
			unsigned long sched);

#endif
