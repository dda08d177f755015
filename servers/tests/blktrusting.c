/* blktrusting.c: with servers/blk/blk.c, the blk_trusting server: the block service, but one
 * that takes any frame as a client's buffer, device MMIO included, as the service did before
 * it asked the kernel whether a frame is RAM. The blk-device-reset case lets blkmmio break the
 * device through it (QEMU: "virtio: bogus descriptor or out of resources", NEEDS_RESET), to see
 * the service reset the device, fail what was in flight and serve the next client. */
int blk_trusts_any_frame(void);

int blk_trusts_any_frame(void)
{
	return 1;
}
