/* edu_flood_msi.c: the edu_flood server by MSI (edu_open_msi): 25,000 interrupts, the line
 * moving to another hart and back in every 2,500 (pci reprograms the device's address: PCI_MSI_
 * MOVE), each move right after a raise; on the AIA's machine (edu.c). */
#include "edu.h"

int main(void)
{
	return edu_test(25000, 2500, EDU_TEST_MSI);
}
