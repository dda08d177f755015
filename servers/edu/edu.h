/* edu.h: the edu interrupt test (edu.c), which the edu and edu_flood servers run with their
 * own settings. */
#ifndef EDU_EDU_H
#define EDU_EDU_H

/* Raises `rounds` interrupts one at a time and checks each is handled exactly once. With
 * move_every > 0, in every move_every interrupts the line moves to another hart and back, each
 * time while one is in flight, and the per-hart counts are checked (edu.c). Returns main()'s
 * exit status. extras: EDU_TEST_* below. */
int edu_test(unsigned long rounds, unsigned long move_every, unsigned int extras);

/* edu_test()'s extras: the device's own completion interrupts, after the raised ones. */
#define EDU_TEST_FACTORIAL 0x1u /* 10!, computed by the device */
#define EDU_TEST_BUSY      0x4u /* 100,000 interrupts, each raised again as soon as it is handled
				 * (tacet_irq_ack_wait): the line is never disabled */
#define EDU_TEST_DMA       0x2u /* RAM -> device -> RAM; needs QEMU's -device edu,dma_mask=
				 * covering RAM (its default reaches 256 MiB; RAM is at 2 GiB) */
#define EDU_TEST_ABANDON   0x8u /* say how many interrupts of the line nobody handled before
				 * this driver; at the end, raise one more and end without
				 * acknowledging it to the device or the kernel (the next driver
				 * must find the device and the line clean) */
#define EDU_TEST_DMA_DIE   0x10u /* at the end, start a DMA transfer from the device into a page
				 * of RAM pinned to it and fault before it is made (dma_mask as
				 * for EDU_TEST_DMA) */
#define EDU_TEST_MEMORY    0x20u /* once the device is claimed, print the machine's free pages,
				 * object caches and kernel objects with tacet_instance() */
#define EDU_TEST_MSI       0x40u /* a message-signalled interrupt where the machine has them
				 * (edu_open_msi), else INTx */
/* Before raising, wait until n drivers have bound the (shared) line, or one of them has begun
 * (the line's count moved): so that n drivers started together each hold their own device and
 * raise at the same time, however late the host lets one of them start. */
#define EDU_TEST_TOGETHER(n) ((unsigned int)(n) << 16)

#endif
