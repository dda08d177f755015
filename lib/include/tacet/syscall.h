/* tacet/syscall.h: one inline wrapper per Tacet system call (the ABI of <tacet/abi.h>): the
 * arguments go into a0..a6, the call number into a7, and the kernel's answer comes back in a0
 * (a negative TACET_E* code on failure) and, for some calls, a1..a6. Include <tacet.h>.
 *
 * Everything is static inline so that a caller's path to the kernel is the register moves and
 * the ecall, nothing more (the IPC benchmarks measure exactly that). Every wrapper clobbers
 * "memory": a system call is also a compiler barrier, so stores into a buffer shared with
 * another process are not moved past the call that tells the other side about them.
 *
 * May be called from any thread, at any time; none of these touch user-space state.
 */
#ifndef TACET_SYSCALL_H
#define TACET_SYSCALL_H

#include <stdint.h>
#include <tacet/abi.h>
#include <tacet/trace.h>

#include <tacet/msg.h>

/*
 * The raw calls, for the calls with only a0 as result. The register variables pin each value
 * to the register the ABI names; the kernel preserves everything but a0 for these calls.
 */
static inline long tacet_syscall0(unsigned long nr)
{
	register unsigned long a0 __asm__("a0");
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "=r"(a0) : "r"(a7) : "memory");
	return (long)a0;
}

static inline long tacet_syscall1(unsigned long nr, unsigned long arg0)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
	return (long)a0;
}

static inline long tacet_syscall2(unsigned long nr, unsigned long arg0, unsigned long arg1)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
	return (long)a0;
}

static inline long tacet_syscall3(unsigned long nr, unsigned long arg0, unsigned long arg1,
				  unsigned long arg2)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a2 __asm__("a2") = arg2;
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return (long)a0;
}

static inline long tacet_syscall4(unsigned long nr, unsigned long arg0, unsigned long arg1,
				  unsigned long arg2, unsigned long arg3)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a2 __asm__("a2") = arg2;
	register unsigned long a3 __asm__("a3") = arg3;
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a3), "r"(a7) : "memory");
	return (long)a0;
}

static inline long tacet_syscall6(unsigned long nr, unsigned long arg0, unsigned long arg1,
				  unsigned long arg2, unsigned long arg3, unsigned long arg4,
				  unsigned long arg5)
{
	register unsigned long a0 __asm__("a0") = arg0;
	register unsigned long a1 __asm__("a1") = arg1;
	register unsigned long a2 __asm__("a2") = arg2;
	register unsigned long a3 __asm__("a3") = arg3;
	register unsigned long a4 __asm__("a4") = arg4;
	register unsigned long a5 __asm__("a5") = arg5;
	register unsigned long a7 __asm__("a7") = nr;

	__asm__ volatile("ecall"
			 : "+r"(a0)
			 : "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5), "r"(a7)
			 : "memory");
	return (long)a0;
}

/* --- threads and the console ------------------------------------------------------------- */

/* Who am I: the calling thread's id, the hart it runs on and its priority (for a driver that
 * wants its line, or its work, where it runs). Returns the thread id. */
struct tacet_self {
	unsigned long tid, hart, prio;
};

static inline long tacet_self(struct tacet_self *self)
{
	register unsigned long a0 __asm__("a0");
	register unsigned long a1 __asm__("a1");
	register unsigned long a2 __asm__("a2");
	register unsigned long a7 __asm__("a7") = TACET_SYS_SELF;

	__asm__ volatile("ecall" : "=r"(a0), "=r"(a1), "=r"(a2) : "r"(a7) : "memory");
	self->tid = a0;
	self->hart = a1;
	self->prio = a2;
	return (long)a0;
}

/* Returns 0: the cheapest round trip into the kernel and back. */
static inline long tacet_null(void)
{
	return tacet_syscall0(TACET_SYS_NULL);
}

/* Writes len bytes to the kernel console; returns len. For early output and the default sink
 * of stdout (see tacet_console_write). */
static inline long tacet_debug_write(const void *buf, unsigned long len)
{
	return tacet_syscall2(TACET_SYS_DEBUG_WRITE, (unsigned long)buf, len);
}

/* Returns once everything the kernel's log holds (its messages, and every DEBUG_WRITE so far,
 * from any hart) is written out to the console: the kernel writes its log out after it lets go
 * of its lock, asynchronously. For a program about to stop the machine itself (init writes
 * QEMU's test device). */
static inline long tacet_log_sync(void)
{
	return tacet_debug_write(0, 0);
}

/* Ends the calling thread; the last thread of a process ends the process. To end the whole
 * process, every thread of it: tacet_process_exit (exit() and a return from main do). */
_Noreturn static inline void tacet_exit(long status)
{
	/* The kernel never returns from this call; if it ever did, asking again is the only
	 * answer that keeps the promise of _Noreturn. */
	for (;;)
		tacet_syscall1(TACET_SYS_EXIT, (unsigned long)status);
}

/* Ends the calling process, every thread of it, each with status (its watchers and its
 * supervisor see status). Plain exit() runs atexit handlers and flushes stdout first, then
 * comes here through _exit(). */
_Noreturn static inline void tacet_process_exit(long status)
{
	for (;;) /* as tacet_exit: never returns */
		tacet_syscall1(TACET_SYS_PROCESS_EXIT, (unsigned long)status);
}

/* Gives the hart to another ready thread of the same or higher priority; returns 0. */
static inline long tacet_yield(void)
{
	return tacet_syscall0(TACET_SYS_YIELD);
}

/* The cycle counter of the hart the thread runs on (benchmarks). */
static inline unsigned long tacet_cycles(void)
{
	return (unsigned long)tacet_syscall0(TACET_SYS_CYCLES);
}

/* --- IPC: endpoints ---------------------------------------------------------------------- */
/*
 * The IPC calls return words in a1..a6, so all of a0..a6 are outputs of the asm even where
 * this wrapper ignores them: the kernel may write any of them. A message is only copied out
 * when the call succeeded; on failure *msg keeps what the caller put there.
 */

/* A message the kernel answered in registers (a0 the result, a1 the tag, a2..a5 the words) into
 * *msg, unless a0 is an error. Returns a0. */
static inline long tacet_msg_take(long a0, unsigned long tag, unsigned long w0, unsigned long w1,
				  unsigned long w2, unsigned long w3, struct tacet_msg *msg)
{
	if (a0 < 0)
		return a0;
	msg->tag = tag;
	msg->w[0] = w0;
	msg->w[1] = w1;
	msg->w[2] = w2;
	msg->w[3] = w3;
	return a0;
}

/* Sends *msg on endpoint ep and waits for the reply, which overwrites *msg; a capability that
 * comes with the reply lands in reply_slot (an empty slot, or 0 to take none), and the reply's
 * tag says whether one did (TACET_TAG_HAS_CAP). Returns 0. */
static inline long tacet_call_cap(unsigned long ep, struct tacet_msg *msg,
				  unsigned long reply_slot)
{
	register unsigned long a0 __asm__("a0") = ep;
	register unsigned long a1 __asm__("a1") = msg->tag;
	register unsigned long a2 __asm__("a2") = msg->w[0];
	register unsigned long a3 __asm__("a3") = msg->w[1];
	register unsigned long a4 __asm__("a4") = msg->w[2];
	register unsigned long a5 __asm__("a5") = msg->w[3];
	register unsigned long a6 __asm__("a6") = reply_slot;
	register unsigned long a7 __asm__("a7") = TACET_SYS_CALL;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6)
			 : "r"(a7)
			 : "memory");
	return tacet_msg_take((long)a0, a1, a2, a3, a4, a5, msg);
}

/* Sends *msg on endpoint ep and waits for the reply, which overwrites *msg (a capability in
 * the reply is not taken). Returns 0. */
static inline long tacet_call(unsigned long ep, struct tacet_msg *msg)
{
	return tacet_call_cap(ep, msg, 0);
}

/* Waits for a message on endpoint ep into *msg; the sender's badge goes to *badge (if badge is
 * not NULL), a capability it transfers to slot recv_slot. Returns 0. */
static inline long tacet_recv(unsigned long ep, unsigned long recv_slot, struct tacet_msg *msg,
			      unsigned long *badge)
{
	register unsigned long a0 __asm__("a0") = ep;
	register unsigned long a1 __asm__("a1") = recv_slot;
	register unsigned long a2 __asm__("a2");
	register unsigned long a3 __asm__("a3");
	register unsigned long a4 __asm__("a4");
	register unsigned long a5 __asm__("a5");
	register unsigned long a6 __asm__("a6");
	register unsigned long a7 __asm__("a7") = TACET_SYS_RECV;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "=r"(a2), "=r"(a3), "=r"(a4), "=r"(a5), "=r"(a6)
			 : "r"(a7)
			 : "memory");
	if ((long)a0 >= 0 && badge)
		*badge = a6;
	return tacet_msg_take((long)a0, a1, a2, a3, a4, a5, msg);
}

/* Answers the last message received (the caller blocked in tacet_call). A capability goes
 * with it as with a call (TACET_TAG_CAP), into the slot the caller named in tacet_call_cap.
 * Returns 0. */
static inline long tacet_reply(const struct tacet_msg *msg)
{
	register unsigned long a0 __asm__("a0") = msg->tag;
	register unsigned long a1 __asm__("a1") = msg->w[0];
	register unsigned long a2 __asm__("a2") = msg->w[1];
	register unsigned long a3 __asm__("a3") = msg->w[2];
	register unsigned long a4 __asm__("a4") = msg->w[3];
	register unsigned long a5 __asm__("a5");
	register unsigned long a6 __asm__("a6");
	register unsigned long a7 __asm__("a7") = TACET_SYS_REPLY;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "=r"(a5), "=r"(a6)
			 : "r"(a7)
			 : "memory");
	return (long)a0;
}

/* A server's loop in one call: replies *reply, then waits on ep as tacet_recv() does. reply and
 * msg may be the same message. Returns 0. */
static inline long tacet_reply_recv(unsigned long ep, const struct tacet_msg *reply,
				    unsigned long recv_slot, struct tacet_msg *msg,
				    unsigned long *badge)
{
	register unsigned long a0 __asm__("a0") = ep;
	register unsigned long a1 __asm__("a1") = reply->tag;
	register unsigned long a2 __asm__("a2") = reply->w[0];
	register unsigned long a3 __asm__("a3") = reply->w[1];
	register unsigned long a4 __asm__("a4") = reply->w[2];
	register unsigned long a5 __asm__("a5") = reply->w[3];
	register unsigned long a6 __asm__("a6") = recv_slot;
	register unsigned long a7 __asm__("a7") = TACET_SYS_REPLY_RECV;

	__asm__ volatile("ecall"
			 : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4), "+r"(a5), "+r"(a6)
			 : "r"(a7)
			 : "memory");
	if ((long)a0 >= 0 && badge)
		*badge = a6;
	return tacet_msg_take((long)a0, a1, a2, a3, a4, a5, msg);
}

/* --- IPC: notifications ------------------------------------------------------------------ */
/*
 * The bits come back in a0, which also carries errors: a word with bit 63 set reads as a
 * negative number. Protocols should leave bit 63 unused.
 */

/* Sets bits in notification ntfn, waking its waiter. Returns 0. */
static inline long tacet_signal(unsigned long ntfn, unsigned long bits)
{
	return tacet_syscall2(TACET_SYS_SIGNAL, ntfn, bits);
}

/* Blocks until some bit of ntfn is set; returns the bits and clears them. */
static inline long tacet_wait(unsigned long ntfn)
{
	return tacet_syscall1(TACET_SYS_WAIT, ntfn);
}

/* Returns the bits set in ntfn (possibly none) and clears them; never blocks. */
static inline long tacet_poll(unsigned long ntfn)
{
	return tacet_syscall1(TACET_SYS_POLL, ntfn);
}

/* --- capabilities ------------------------------------------------------------------------ */

/* CAP_INFO as the kernel answers it: returns the type (or a negative TACET_E* code); out gets
 * a1..a5: rights, badge, and for a frame its physical address, pages and kind
 * (TACET_FRAME_DEVICE or 0). */
static inline long tacet_cap_info_regs(unsigned long slot, unsigned long out[5])
{
	register unsigned long a0 __asm__("a0") = slot;
	register unsigned long a1 __asm__("a1");
	register unsigned long a2 __asm__("a2");
	register unsigned long a3 __asm__("a3");
	register unsigned long a4 __asm__("a4");
	register unsigned long a5 __asm__("a5");
	register unsigned long a7 __asm__("a7") = TACET_SYS_CAP_INFO;

	__asm__ volatile("ecall"
			 : "+r"(a0), "=r"(a1), "=r"(a2), "=r"(a3), "=r"(a4), "=r"(a5)
			 : "r"(a7)
			 : "memory");
	out[0] = a1;
	out[1] = a2;
	out[2] = a3;
	out[3] = a4;
	out[4] = a5;
	return (long)a0;
}

/* CAP_INFO's a1..a5 into out for a capability of the given type in slot. Returns 0 or a
 * negative TACET_E* code (-TACET_ETYPE: another type). */
static inline long tacet_cap_info_of(unsigned long slot, long type, unsigned long out[5])
{
	long got = tacet_cap_info_regs(slot, out);

	if (got < 0)
		return got;
	return got == type ? 0 : -TACET_ETYPE;
}

/* CAP_INFO's a3 and a4 for a capability of the given type in slot. Returns 0 or a negative
 * TACET_E* code (-TACET_ETYPE: another type). */
static inline long tacet_cap_info_type(unsigned long slot, long type, unsigned long *a3,
				       unsigned long *a4)
{
	unsigned long out[5];
	long err = tacet_cap_info_of(slot, type, out);

	if (err)
		return err;
	*a3 = out[2];
	*a4 = out[3];
	return 0;
}

/* The number of the interrupt line whose capability is in slot (for TACET_INFO_IRQ's counts),
 * or a negative TACET_E* code (-TACET_ETYPE: not a line). */
static inline long tacet_irq_line(unsigned long slot)
{
	unsigned long irq, unused;
	long err = tacet_cap_info_type(slot, TACET_CAP_IRQ, &irq, &unused);

	return err ? err : (long)irq;
}

/* The physical address and size (pages) of the frame in slot: a device frame's address; a RAM
 * frame's reads 0 (a device may be given RAM only through tacet_frame_pin). Returns 0 or a
 * negative TACET_E* code (-TACET_ETYPE: not a frame). */
static inline long tacet_frame_info(unsigned long slot, unsigned long *paddr, unsigned long *pages)
{
	return tacet_cap_info_type(slot, TACET_CAP_FRAME, paddr, pages);
}

/* The frame in slot is the device's (a device frame's slot) to DMA into: its physical address
 * and pages. If it ends while pinned (its last capability deleted, its process ended), its
 * pages stay out of circulation, in the device's quarantine, until the device's holder has
 * made it quiet (tacet_device_release). A frame is pinned to one device: another gives
 * -TACET_EBUSY. Returns 0 or a negative TACET_E* code. */
static inline long tacet_frame_pin(unsigned long slot, unsigned long device, unsigned long *paddr,
				   unsigned long *pages)
{
	register long a0 __asm__("a0") = (long)slot;
	register unsigned long a1 __asm__("a1") = device;
	register unsigned long a2 __asm__("a2");
	register unsigned long a7 __asm__("a7") = TACET_SYS_FRAME_PIN;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1), "=r"(a2) : "r"(a7) : "memory");
	if (a0 == 0) {
		*paddr = a1;
		*pages = a2;
	}
	return a0;
}

/* The device (its frame in device_slot, the one the frame was pinned to) is done with the frame
 * in slot: it ends as any frame from now on. -TACET_EPERM with another device: a client that
 * lent a driver its frame cannot take the driver's pin away. */
static inline long tacet_frame_unpin(unsigned long slot, unsigned long device_slot)
{
	return tacet_syscall2(TACET_SYS_FRAME_UNPIN, slot, device_slot);
}

/* The device whose frame is in slot was made quiet (reset): the frames that ended pinned to
 * it, or to a part of it (a frame derived from it), go back to the pool; those pinned to
 * another part of its root stay. Needs TACET_RIGHT_RELEASE on it (init's, or the PCI
 * server's for its window; never a driver's). Returns the pages released or a negative
 * TACET_E* code. */
static inline long tacet_device_release(unsigned long slot)
{
	return tacet_syscall1(TACET_SYS_DEVICE_RELEASE, slot);
}

/* Whether the frame in slot is RAM the kernel allocated (FRAME_NEW, or a frame derived from
 * one): 1; device MMIO or boot memory (TACET_FRAME_DEVICE): 0; or a negative TACET_E* code
 * (-TACET_ETYPE: not a frame). A driver gives a device only RAM to read and write: a device
 * frame as a DMA buffer points the device at registers (virtio: "bogus descriptor"). */
static inline long tacet_frame_is_ram(unsigned long slot)
{
	unsigned long out[5];
	long err = tacet_cap_info_of(slot, TACET_CAP_FRAME, out);

	return err ? err : !(out[4] & TACET_FRAME_DEVICE);
}

/* The kernel memory charged to the account of the process in slot and its limit, in bytes
 * (what TACET_ENOMEM is measured against). Returns 0 or a negative TACET_E* code. */
static inline long tacet_process_memory(unsigned long slot, unsigned long *used,
					unsigned long *limit)
{
	return tacet_cap_info_type(slot, TACET_CAP_PROCESS, used, limit);
}

/* Copies the capability in slot src to the empty slot dst, keeping only the rights in mask
 * rights, and badging it with badge (endpoint and notification capabilities). Returns 0. */
static inline long tacet_cap_copy(unsigned long src, unsigned long dst, unsigned long rights,
				  unsigned long badge)
{
	return tacet_syscall4(TACET_SYS_CAP_COPY, src, dst, rights, badge);
}

/* Empties slot. Returns 0. */
static inline long tacet_cap_delete(unsigned long slot)
{
	return tacet_syscall1(TACET_SYS_CAP_DELETE, slot);
}

/* Returns the type (enum tacet_cap_type) of the capability in slot; its rights and badge go to
 * *rights and *badge, either of which may be NULL. */
static inline long tacet_cap_info(unsigned long slot, unsigned long *rights, unsigned long *badge)
{
	unsigned long out[5];
	long type = tacet_cap_info_regs(slot, out);

	if (type >= 0 && rights)
		*rights = out[0];
	if (type >= 0 && badge)
		*badge = out[1];
	return type;
}
/* Copies the capability in the caller's slot src into slot dst of the process whose capability
 * is in slot process, with rights masked by rights. Returns 0. */
static inline long tacet_cap_give(unsigned long process, unsigned long src, unsigned long dst,
				  unsigned long rights)
{
	return tacet_syscall4(TACET_SYS_CAP_GIVE, process, src, dst, rights);
}

/* --- objects ----------------------------------------------------------------------------- */

/* Creates an endpoint; its capability (all rights) lands in the empty slot dst. Returns 0. */
static inline long tacet_endpoint_new(unsigned long dst)
{
	return tacet_syscall1(TACET_SYS_ENDPOINT_NEW, dst);
}

/* Creates a notification, capability in the empty slot dst. Returns 0. */
static inline long tacet_ntfn_new(unsigned long dst)
{
	return tacet_syscall1(TACET_SYS_NTFN_NEW, dst);
}

/* Allocates pages of zeroed, physically contiguous RAM as a frame, capability in slot dst.
 * Returns 0. */
static inline long tacet_frame_new(unsigned long dst, unsigned long pages)
{
	return tacet_syscall3(TACET_SYS_FRAME_NEW, dst, pages, 0);
}

/* As tacet_frame_new, for a frame a device will be given (FRAME_PIN takes no other RAM): from
 * the top of memory, where a device told a wrong length writes on into DMA frames only. */
static inline long tacet_frame_new_dma(unsigned long dst, unsigned long pages)
{
	return tacet_syscall3(TACET_SYS_FRAME_NEW, dst, pages, TACET_FRAME_DMA);
}

/* Maps the frame in slot frame at vaddr (page aligned) in the process in slot process, with
 * rights TACET_RIGHT_READ / _WRITE / TACET_MAP_EXEC (never WRITE with EXEC). Returns 0. */
static inline long tacet_map(unsigned long process, unsigned long frame, unsigned long vaddr,
			     unsigned long rights)
{
	return tacet_syscall4(TACET_SYS_MAP, process, frame, vaddr, rights);
}

/* Unmaps pages pages at vaddr in the process in slot process. Returns 0. */
static inline long tacet_unmap(unsigned long process, unsigned long vaddr, unsigned long pages)
{
	return tacet_syscall3(TACET_SYS_UNMAP, process, vaddr, pages);
}

/* Creates a process with an empty address space and capability table, capability in slot dst;
 * its threads' faults go to the endpoint in slot fault_ep; name (NUL-terminated) shows in
 * TACET_INFO_THREAD. Its kernel memory (page tables, mappings, threads, the objects it makes)
 * comes from an account of budget pages taken from the caller's own (-TACET_ENOMEM if the
 * caller has not that much left), or, with budget 0, from the caller's account. Returns 0. */
static inline long tacet_process_new(unsigned long dst, unsigned long fault_ep, const char *name,
				     unsigned long budget)
{
	return tacet_syscall6(TACET_SYS_PROCESS_NEW, dst, fault_ep, (unsigned long)name, budget, 0, 0);
}

/* The same, charged to the account of the process in slot same_as (ended or not; WRITE): a
 * supervisor restarting a server gives the new instance its dead instance's account, so that
 * what the dead one made and gave away still counts against the one budget. */
static inline long tacet_process_new_same_account(unsigned long dst, unsigned long fault_ep,
						  const char *name, unsigned long same_as)
{
	return tacet_syscall6(TACET_SYS_PROCESS_NEW, dst, fault_ep, (unsigned long)name, 0, same_as,
			      0);
}

/* Creates and starts a thread in the process in slot process, capability in slot dst: it
 * begins at pc with sp, and arg in a0; sched is TACET_SCHED(priority, hart). Returns 0. */
static inline long tacet_thread_new(unsigned long process, unsigned long dst, unsigned long pc,
				    unsigned long sp, unsigned long arg, unsigned long sched)
{
	return tacet_syscall6(TACET_SYS_THREAD_NEW, process, dst, pc, sp, arg, sched);
}

/* Changes the priority and hart (TACET_SCHED()) of the thread in slot thread. Returns 0. */
static inline long tacet_thread_set(unsigned long thread, unsigned long sched)
{
	return tacet_syscall2(TACET_SYS_THREAD_SET, thread, sched);
}

/* Copies the index-th record of kind (enum tacet_info) into buf, at most len bytes; returns the
 * bytes written, or -TACET_ENOENT past the last record. With no authority: TACET_INFO_TRACE is
 * -TACET_EPERM, and another process's interrupt lines read without their timing (abi.h). */
static inline long tacet_info(unsigned long kind, unsigned long index, void *buf, unsigned long len)
{
	return tacet_syscall6(TACET_SYS_INFO, kind, index, (unsigned long)buf, len, 0, 0);
}

/* The process whose capability (with WRITE: its supervisor's) is in slot: its first live
 * thread's state and the times the scheduler preempted it (TACET_INFO_PROCESS);
 * 0, or -TACET_EBADSLOT, -TACET_EEMPTY, -TACET_ETYPE, -TACET_EPERM, -TACET_EFAULT. */
static inline long tacet_process_info(unsigned long slot, struct tacet_process_info *pi)
{
	long n = tacet_info(TACET_INFO_PROCESS, slot, pi, sizeof(*pi));

	return n < 0 ? n : 0;
}

/* tacet_info with the trace authority (a TACET_CAP_TRACE capability) in slot trace: init gives
 * it at TACET_CHILD_TRACE to the servers its init.run= entry marks with `%`. */
static inline long tacet_info_traced(unsigned long trace, unsigned long kind, unsigned long index,
				     void *buf, unsigned long len)
{
	return tacet_syscall6(TACET_SYS_INFO, kind, index, (unsigned long)buf, len, trace, 0);
}

/* The kernel's event trace (<tacet/trace.h>): TACET_TRACE_STOP or _START recording, with the
 * trace authority in slot trace; 0, -TACET_EPERM without it, or -TACET_ENOSYS in a boot
 * without trace=on. Read it with tacet_info_traced(trace, TACET_INFO_TRACE, ...). */
static inline long tacet_trace(unsigned long op, unsigned long trace)
{
	return tacet_syscall2(TACET_SYS_TRACE, op, trace);
}

/* Interrupts: bind the line named by the IRQ handler capability irq to notification ntfn (it
 * signals badge; after each interrupt the line stays masked until every binder called
 * tacet_irq_ack). flags: TACET_IRQ_SHARED to share the line with other binders. */
static inline long tacet_irq_bind(unsigned long irq, unsigned long ntfn, unsigned long badge,
				  unsigned long flags)
{
	return tacet_syscall4(TACET_SYS_IRQ_BIND, irq, ntfn, badge, flags);
}

/* Done with the interrupt; handled says whether it was this server's device's (an interrupt
 * nobody handles counts toward disabling the line). If the device has raised the line again by
 * the time the ack unmasks it, the call takes that interrupt itself: its bits are in the
 * notification when this returns. -TACET_EDISABLED: the kernel has disabled the line. */
static inline long tacet_irq_ack(unsigned long irq, int handled)
{
	return tacet_syscall2(TACET_SYS_IRQ_ACK, irq, (unsigned long)(handled != 0));
}

/* Acknowledge the interrupt just handled (as tacet_irq_ack) and wait for ntfn's next bits in
 * one kernel entry (Zircon's zx_interrupt_wait). Returns the bits, or a negative error:
 * -TACET_EDISABLED if the kernel has disabled the line (nothing waited for). If stamp is not
 * NULL it gets the trap-entry cycle count of the interrupt that woke the caller (0 if a timer
 * or a signal did, or bits were already there). It acknowledges only an interrupt that was
 * delivered, so start the loop with a plain wait:
 *     for (long bits = tacet_wait(ntfn);; bits = tacet_irq_ack_wait(irq, handled, ntfn, 0))
 *         handled = handle(bits); */
static inline long tacet_irq_ack_wait(unsigned long irq, int handled, unsigned long ntfn,
				      unsigned long *stamp)
{
	register unsigned long a0 __asm__("a0") = irq;
	register unsigned long a1 __asm__("a1") = (unsigned long)(handled != 0);
	register unsigned long a2 __asm__("a2") = ntfn;
	register unsigned long a7 __asm__("a7") = TACET_SYS_IRQ_ACK_WAIT;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a7) : "memory");
	if (stamp)
		*stamp = (long)a0 < 0 ? 0 : a1;
	return (long)a0;
}

/* Turn a line back on that storm or spurious detection disabled. */
static inline long tacet_irq_enable(unsigned long irq)
{
	return tacet_syscall1(TACET_SYS_IRQ_ENABLE, irq);
}

/* Let this thread's receives also end when ntfn is signalled (label TACET_LABEL_NOTIFY). */
static inline long tacet_ntfn_bind(unsigned long ntfn)
{
	return tacet_syscall1(TACET_SYS_NTFN_BIND, ntfn);
}

/* Signal badge on ntfn when the process ends (its last thread is gone). A process takes up to
 * 4 watching notifications (its creator's, a server's it claimed a device from, ...); then
 * -TACET_EBUSY. A notification watches a process once: watching again replaces the badge, and
 * badge 0 ends the watch (0 also when there was none, or the process has ended). A watch holds
 * neither alive: it ends with the process (signalled) or with the notification (its last
 * capability gone: the watcher ended), freeing its place. -TACET_EDEAD: the process has ended
 * (badge not 0). */
static inline long tacet_process_watch(unsigned long process, unsigned long ntfn,
				       unsigned long badge)
{
	return tacet_syscall3(TACET_SYS_PROCESS_WATCH, process, ntfn, badge);
}

/* End the process a WRITE capability in slot process names, every thread of it (init's end of a
 * server that stopped answering). 0, or -TACET_EDEAD if it had ended. */
static inline long tacet_process_end(unsigned long process)
{
	return tacet_syscall1(TACET_SYS_PROCESS_END, process);
}

/* The faults kernel's injector (enum tacet_inject_op, <tacet/abi.h>): a fault into thread tid of
 * a driver, with the trace authority in slot trace; where it struck, or -TACET_E* (ENOSYS in
 * every other kernel); *found (if not NULL) TACET_INJECT_FOUND_*, what the word lies in (0
 * after an error). */
static inline long tacet_inject_found(unsigned long op, unsigned long trace, unsigned long tid,
				      unsigned long where, unsigned long value,
				      unsigned long *found)
{
	register long a0 __asm__("a0") = (long)op;
	register unsigned long a1 __asm__("a1") = trace;
	register unsigned long a2 __asm__("a2") = tid;
	register unsigned long a3 __asm__("a3") = where;
	register unsigned long a4 __asm__("a4") = value;
	register unsigned long a7 __asm__("a7") = TACET_SYS_INJECT;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a2), "r"(a3), "r"(a4), "r"(a7)
			 : "memory");
	if (found)
		*found = a0 < 0 ? 0 : a1;
	return a0;
}

static inline long tacet_inject(unsigned long op, unsigned long trace, unsigned long tid,
				unsigned long where, unsigned long value)
{
	return tacet_inject_found(op, trace, tid, where, value, 0);
}

static inline long tacet_irq_unbind(unsigned long irq)
{
	return tacet_syscall1(TACET_SYS_IRQ_UNBIND, irq);
}

/* Route the line to one hart (logical number). */
static inline long tacet_irq_set_affinity(unsigned long irq, unsigned long hart)
{
	return tacet_syscall2(TACET_SYS_IRQ_SET_AFFINITY, irq, hart);
}

/* Message-signalled interrupts (PCI MSI and MSI-X; docs/interrupts.md, "Message-signalled
 * lines"). The bus server, holding its bus window's device frame with TACET_RIGHT_RELEASE in
 * bus, takes a line on hart's interrupt file for a device: its IRQ handler capability lands in
 * slot dst, and the device must write *data (32 bits) to *addr to raise it (the server programs
 * its MSI capability or MSI-X table entry). From then on it is a line like any other: its
 * driver binds it (never shared), acknowledges it, moves it (tacet_irq_msi_move). *line gets
 * its number (TACET_INFO_IRQ's). Returns 0; -TACET_ENODEV on a machine without an MSI
 * controller (the PLIC's), -TACET_ENOMEM when every line is lent, -TACET_EINVAL for a hart
 * that is not there, or the capability errors. */
static inline long tacet_irq_msi_new(unsigned long bus, unsigned long hart, unsigned long dst,
				     uint64_t *addr, uint32_t *data, unsigned long *line)
{
	register long a0 __asm__("a0") = (long)bus;
	register unsigned long a1 __asm__("a1") = hart;
	register unsigned long a2 __asm__("a2") = dst;
	register unsigned long a3 __asm__("a3");
	register unsigned long a7 __asm__("a7") = TACET_SYS_IRQ_MSI_NEW;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1), "+r"(a2), "=r"(a3) : "r"(a7) : "memory");
	if (a0 == 0) {
		*addr = a1;
		*data = (uint32_t)a2;
		*line = a3;
	}
	return a0;
}

/* The line's device writes no more (the bus server masked it): its binders leave, its
 * identity is disabled and its pending message dropped (counted spurious), and the line goes
 * back to the pool. Returns 0 or a negative TACET_E* code (-TACET_EINVAL: not a lent
 * message-signalled line). */
static inline long tacet_irq_msi_free(unsigned long bus, unsigned long irq)
{
	return tacet_syscall2(TACET_SYS_IRQ_MSI_FREE, bus, irq);
}

/* tacet_irq_set_affinity for a message-signalled line: *addr gets the address its device must
 * write from now on (the data stays); the bus server reprograms the device with it. Until then
 * the device writes the old hart's file, which sends each message on: none is lost. */
static inline long tacet_irq_msi_move(unsigned long irq, unsigned long hart, uint64_t *addr)
{
	register long a0 __asm__("a0") = (long)irq;
	register unsigned long a1 __asm__("a1") = hart;
	register unsigned long a7 __asm__("a7") = TACET_SYS_IRQ_SET_AFFINITY;

	__asm__ volatile("ecall" : "+r"(a0), "+r"(a1) : "r"(a7) : "memory");
	if (a0 == 0)
		*addr = a1;
	return a0;
}

/* Signal badge on ntfn when the endpoint in ep ends (its server ended: a call to it would say
 * -TACET_EDEAD), so that a thread waiting on ntfn for something else learns it at once. One
 * endpoint per notification (a new watch replaces the last); badge 0 ends the watch.
 * -TACET_EDEAD if it has ended already. */
static inline long tacet_endpoint_watch(unsigned long ep, unsigned long ntfn, unsigned long badge)
{
	return tacet_syscall3(TACET_SYS_ENDPOINT_WATCH, ep, ntfn, badge);
}

/* Signal badge on ntfn when the time (timebase ticks, as rdtime reads) reaches deadline; 0
 * cancels. One timer per notification; it fires on the calling thread's hart. */
static inline long tacet_timer_set(unsigned long ntfn, unsigned long badge, unsigned long deadline)
{
	return tacet_syscall3(TACET_SYS_TIMER_SET, ntfn, badge, deadline);
}

/* The timebase, in ticks since boot: user mode may read it. Its frequency comes from the device
 * tree: tacet_timebase_hz() (<tacet/driver.h>). */
static inline unsigned long tacet_time(void)
{
	unsigned long t;

	__asm__ volatile("rdtime %0" : "=r"(t));
	return t;
}

/* A frame capability in dst for pages [first, first + pages) of frame (same rights). */
static inline long tacet_frame_derive(unsigned long frame, unsigned long dst, unsigned long first,
				      unsigned long pages)
{
	return tacet_syscall4(TACET_SYS_FRAME_DERIVE, frame, dst, first, pages);
}

#endif
