#!/bin/sh
# install-deps.sh: make sure every Debian package Tacet builds, boots and tests with is present.
# Installs only what is missing, says what it installs, and works as root or through sudo.
set -eu

# python3-matplotlib: make bench's charts (tests/bench/plots.py), which make test checks.
# dpkg-dev, xz-utils: tools/fetch-lwip.sh unpacks lwIP's Debian source package (the build's
# first step fetches it with apt-get's private configuration: lwip/lwip.mk).
# prometheus: its promtool checks the shell's Prometheus text (tests/qemu/cases_metrics.py); the
# package also brings the Prometheus server, which Debian starts as a service (port 9090).
# iperf: iperf 2's client, which tests/qemu/cases_netapps.py runs against servers/iperf; curl,
# the README's client of servers/http.
PACKAGES="make gcc libc6-dev python3 python3-matplotlib dpkg-dev xz-utils
gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf binutils-riscv64-unknown-elf
qemu-system-misc opensbi device-tree-compiler
libcmocka-dev libfdt-dev gdb-multiarch prometheus iperf curl"

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing missing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "install-deps: not root and no sudo; install these packages by hand:$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
echo "install-deps: done"
