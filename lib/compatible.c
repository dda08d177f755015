/* compatible.c: the one rule for naming a device by its compatible string (<tacet/driver.h>),
 * for init (init.run='s device part) and the kit (tacet_device_open, tacet_device_find) alike.
 * A file of its own, so that init links it without the rest of the kit. */
#include <string.h>
#include <tacet.h>

int tacet_compatible_matches(const char *compatible, const char *wanted)
{
	const char *comma = strchr(compatible, ',');

	return !wanted || !strcmp(compatible, wanted) || (comma && !strcmp(comma + 1, wanted));
}
