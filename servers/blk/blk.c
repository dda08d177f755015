/* blk: the virtio block device's driver (virtio-blk, device ID 2) and the block service.
 *
 * Device (from init, `blk:virtio-blk`): the virtio-mmio transport whose DeviceID is 2, in
 * TACET_CHILD_DEVICE, its line in TACET_CHILD_DEVICE_IRQ. One virtqueue (requestq). A request
 * is a chain of three: the header (type, sector; the device reads it), the data (in the
 * client's frame: the device reads it for a write, writes it for a read) and a status byte the
 * device writes. The header and status live in this server's own DMA page.
 *
 * One request at a time: a client's call waits while the driver waits for the device's
 * interrupt (InterruptStatus cleared on the device, the used ring drained, then the line
 * acknowledged), since a reply cannot be put off; other clients queue on the endpoint.
 *
 * IPC: publishes "blk" (badged per client, with GRANT: a client grants its data frame),
 * serving <tacet/blk_proto.h>. Prints only through the kernel's debug output. */
#include <stdio.h>
#include <string.h>
#include <tacet.h>
#include <tacet/blk_proto.h>
#include <tacet/init_proto.h>
#include <tacet/virtio.h>

#define REGS_VA  0x0000002000000000ul
#define QUEUE_VA 0x0000002000001000ul
#define REQ_VA   0x0000002000002000ul

#define SLOT_NTFN    (TACET_CHILD_FIRST_FREE + 0)
#define SLOT_EP      (TACET_CHILD_FIRST_FREE + 1)
#define SLOT_QUEUE   (TACET_CHILD_FIRST_FREE + 2)
#define SLOT_REQ     (TACET_CHILD_FIRST_FREE + 3)
#define SLOT_RECV    (TACET_CHILD_FIRST_FREE + 4)
#define SLOT_CLIENTS (TACET_CHILD_FIRST_FREE + 8) /* one frame per client, by badge */
#define MAX_CLIENTS  16
#define IRQ_BADGE    1
#define QUEUE_SIZE   16
#define PAGE         4096ul

/* virtio-blk (virtio 1.x, "Block Device"). */
#define VIRTIO_BLK_F_RO    5
#define VIRTIO_BLK_F_FLUSH 9
#define VIRTIO_BLK_T_IN    0
#define VIRTIO_BLK_T_OUT   1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_S_OK    0
#define CONFIG_CAPACITY    0 /* u64, in 512-byte sectors */

struct blk_req {
	uint32_t type;
	uint32_t reserved;
	uint64_t sector;
	uint8_t status; /* at offset 16: its own descriptor */
};

struct client {
	uint64_t pa;
	unsigned long pages; /* 0: nothing attached */
};

static struct virtio_device dev;
static struct virtq queue;
static struct blk_req *req = (struct blk_req *)REQ_VA;
static uint64_t req_pa, capacity;
static struct client clients[MAX_CLIENTS];
static int done; /* the request in flight came back */

/* The line fired: clear the device's status, take what is used, then unmask the line. */
static void service_irq(void)
{
	uint32_t status = virtio_interrupt_ack(&dev);

	while (virtq_get(&queue, NULL))
		done = 1;
	tacet_irq_ack(TACET_CHILD_DEVICE_IRQ, status != 0);
}

/* One request through the queue, waited for: the header, the data if any, the status. */
static long submit(uint32_t type, uint64_t sector, uint64_t data_pa, uint32_t len)
{
	struct virtq_buf b[3] = { { req_pa, 16 }, { data_pa, len }, { req_pa + 16, 1 } };
	unsigned int nout = type == VIRTIO_BLK_T_OUT ? 2 : 1, n = len ? 3 : 2;
	long err;

	*req = (struct blk_req){ .type = type, .sector = sector, .status = 0xff };
	if (!len)
		b[1] = b[2];
	done = 0;
	err = virtq_add(&queue, b, nout, n - nout, req);
	if (err < 0)
		return err;
	if (virtq_kick_needed(&queue))
		virtio_notify(&dev, 0);
	while (!done && !queue.broken) {
		long bits = tacet_wait(SLOT_NTFN);

		if (bits < 0)
			return bits;
		if (bits & IRQ_BADGE)
			service_irq();
	}
	if (queue.broken)
		return -TACET_EDEAD;
	return req->status == VIRTIO_BLK_S_OK ? 0 : -TACET_EFAULT;
}

static struct client *client_of(unsigned long badge)
{
	return badge >= 1 && badge <= MAX_CLIENTS ? &clients[badge - 1] : NULL;
}

/* BLK_ATTACH: the frame that came with the call becomes the client's buffer. */
static long attach(const struct tacet_msg *msg, unsigned long badge)
{
	struct client *c = client_of(badge);
	unsigned long slot = SLOT_CLIENTS + badge - 1, pa, pages;
	long err;

	if (!TACET_TAG_HAS_CAP(msg->tag))
		return -TACET_EINVAL;
	if (!c) {
		tacet_cap_delete(SLOT_RECV);
		return -TACET_ENOMEM;
	}
	err = tacet_frame_info(SLOT_RECV, &pa, &pages);
	if (!err) {
		tacet_cap_delete(slot); /* the frame it attached before, if any */
		err = tacet_cap_copy(SLOT_RECV, slot, TACET_RIGHT_READ | TACET_RIGHT_WRITE, 0);
	}
	tacet_cap_delete(SLOT_RECV);
	if (!err)
		*c = (struct client){ .pa = pa, .pages = pages };
	return err;
}

/* BLK_READ / BLK_WRITE: check the range against the disk and the client's frame. */
static long transfer(const struct tacet_msg *msg, unsigned long badge, uint32_t type)
{
	struct client *c = client_of(badge);
	uint64_t sector = msg->w[0], count = msg->w[1], offset = msg->w[2];

	if (!c || !c->pages || !count || offset % BLK_SECTOR)
		return -TACET_EINVAL;
	if (sector >= capacity || count > capacity - sector || offset >= c->pages * PAGE ||
	    count > (c->pages * PAGE - offset) / BLK_SECTOR)
		return -TACET_ERANGE;
	if (type == VIRTIO_BLK_T_OUT && (dev.features & VIRTIO_FEATURE(VIRTIO_BLK_F_RO)))
		return -TACET_EPERM;
	return submit(type, sector, c->pa + offset, (uint32_t)(count * BLK_SECTOR));
}

static long flush(void)
{
	if (!(dev.features & VIRTIO_FEATURE(VIRTIO_BLK_F_FLUSH)))
		return 0; /* without the feature the device writes through */
	return submit(VIRTIO_BLK_T_FLUSH, 0, 0, 0);
}

static void serve(const struct tacet_msg *msg, unsigned long badge, struct tacet_msg *reply)
{
	long r;

	*reply = (struct tacet_msg){ .tag = TACET_TAG(0, 1) };
	switch (TACET_TAG_LABEL(msg->tag)) {
	case BLK_INFO:
		*reply = (struct tacet_msg){
			.tag = TACET_TAG(0, 3),
			.w = { capacity, BLK_SECTOR,
			       !!(dev.features & VIRTIO_FEATURE(VIRTIO_BLK_F_RO)) }
		};
		return;
	case BLK_ATTACH:
		r = attach(msg, badge);
		break;
	case BLK_READ:
		r = transfer(msg, badge, VIRTIO_BLK_T_IN);
		break;
	case BLK_WRITE:
		r = transfer(msg, badge, VIRTIO_BLK_T_OUT);
		break;
	case BLK_FLUSH:
		r = flush();
		break;
	default:
		r = -TACET_EINVAL;
	}
	if (TACET_TAG_HAS_CAP(msg->tag) && TACET_TAG_LABEL(msg->tag) != BLK_ATTACH)
		tacet_cap_delete(SLOT_RECV); /* a capability nobody asked for */
	reply->w[0] = (unsigned long)r;
}

static long setup(const char **step)
{
	long err;

	*step = "map the device";
	err = tacet_map(TACET_CHILD_SELF, TACET_CHILD_DEVICE, REGS_VA,
			TACET_RIGHT_READ | TACET_RIGHT_WRITE);
	if (!err && (*step = "open the virtio device"))
		err = virtio_open(&dev, (volatile void *)REGS_VA, VIRTIO_ID_BLK,
				  VIRTIO_FEATURE(VIRTIO_F_EVENT_IDX) |
					  VIRTIO_FEATURE(VIRTIO_BLK_F_RO) |
					  VIRTIO_FEATURE(VIRTIO_BLK_F_FLUSH));
	if (!err && (*step = "set up the request queue"))
		err = virtio_queue_create(&dev, 0, &queue, QUEUE_SIZE, SLOT_QUEUE, QUEUE_VA);
	if (!err && (*step = "allocate the request page"))
		err = virtio_dma_page(SLOT_REQ, REQ_VA, &req_pa);
	if (!err && (*step = "create the notification"))
		err = tacet_ntfn_new(SLOT_NTFN);
	if (!err && (*step = "bind the interrupt"))
		err = tacet_irq_bind(TACET_CHILD_DEVICE_IRQ, SLOT_NTFN, IRQ_BADGE, 0);
	if (!err && (*step = "bind the notification"))
		err = tacet_ntfn_bind(SLOT_NTFN);
	if (!err && (*step = "create the endpoint"))
		err = tacet_endpoint_new(SLOT_EP);
	if (err)
		return err;
	capacity = virtio_config_read(&dev, CONFIG_CAPACITY, 8);
	virtio_driver_ok(&dev);
	printf("blk: virtio block device, %llu sectors of %u bytes%s%s\n",
	       (unsigned long long)capacity, BLK_SECTOR,
	       dev.features & VIRTIO_FEATURE(VIRTIO_BLK_F_RO) ? ", read-only" : "",
	       dev.features & VIRTIO_FEATURE(VIRTIO_BLK_F_FLUSH) ? ", flush" : "");
	*step = "publish \"blk\"";
	return tacet_publish("blk", SLOT_EP,
			     TACET_RIGHT_WRITE | TACET_RIGHT_GRANT | INIT_BADGE_CLIENTS);
}

int main(void)
{
	struct tacet_msg msg, reply = { 0 };
	unsigned long badge = 0;
	const char *step = "";
	long err = setup(&step);

	if (err) {
		printf("blk: cannot %s: %s%s%s\n", step, tacet_strerror(err), dev.why ? ": " : "",
		       dev.why ? dev.why : "");
		if (dev.device_id == VIRTIO_ID_BLK)
			virtio_fail(&dev, step);
		return 1;
	}
	err = tacet_recv(SLOT_EP, SLOT_RECV, &msg, &badge);
	while (!err) {
		if (TACET_TAG_LABEL(msg.tag) == TACET_LABEL_NOTIFY) {
			if (msg.w[0] & IRQ_BADGE)
				service_irq(); /* nothing in flight: a late or stray interrupt */
			err = tacet_recv(SLOT_EP, SLOT_RECV, &msg, &badge);
			continue;
		}
		serve(&msg, badge, &reply);
		if (queue.broken) {
			printf("blk: the device returned a buffer it was not given; stopping\n");
			virtio_fail(&dev, "broken used ring");
			return 1;
		}
		err = tacet_reply_recv(SLOT_EP, &reply, SLOT_RECV, &msg, &badge);
	}
	printf("blk: receive failed: %s\n", tacet_strerror(err));
	return 1;
}
