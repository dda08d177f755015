#!/bin/sh
# fetch-lwip.sh: lwIP's sources, Debian's source package `lwip`, unpacked into DEST (the
# Makefile's $(BUILD)/lwip/src). The repository holds only Tacet's port of lwIP (lwip/port/),
# never lwIP itself.
#
# The package comes from the machine's own Debian mirrors through a private apt configuration
# (sources, lists and downloads under CACHE, $TACET_CACHE or ~/.cache/tacet/lwip): every
# `deb` entry of /etc/apt/sources.list, sources.list.d/*.list (one-line format) and
# sources.list.d/*.sources (deb822) becomes a `deb-src` entry there; the system's apt sources,
# lists and cache are left as they are, and no root is needed. Its files' digests must be those
# committed in lwip/lwip.sha256; DEST is replaced only by a checked, unpacked tree.
# Called by the Makefile (the rule of $(BUILD)/lwip/src/.stamp), so make, make qemu and
# make test fetch it once on a fresh machine.
#
# Usage: tools/fetch-lwip.sh DEST
set -eu

DEST=${1:?usage: fetch-lwip.sh DEST}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SUMS="$HERE/lwip/lwip.sha256"
VERSION=$(sed -n 's/^version \(.*\)$/\1/p' "$SUMS")
CACHE=${TACET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tacet}/lwip
SRCLIST="$CACHE/apt/sources.list"

say() { echo "fetch-lwip: $*"; }
die() { echo "fetch-lwip: $*" >&2; exit 1; }

# One-line entries: "deb [options] URI SUITE COMPONENTS" -> "deb-src ...". Others dropped.
one_line_sources() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -n 's/^[[:space:]]*deb[[:space:]]\{1,\}/deb-src /p' "$f"
	done
}

# deb822 stanzas: each stanza's Types becomes deb-src alone (its other fields are kept).
deb822_sources() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		sed 's/^Types:.*$/Types: deb-src/' "$f"
		echo
	done
}

apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$SRCLIST" -o Dir::Etc::SourceParts="$CACHE/apt/parts" \
		-o Dir::State="$CACHE/apt/state" -o Dir::Cache="$CACHE/apt/cache" \
		-o Debug::NoLocking=true -o APT::Sandbox::User="$(id -un)" "$@"
}

# Every file of the source package (its .dsc, the orig tarball, Debian's changes) against
# the digests committed in lwip/lwip.sha256.
sums_ok() {
	(cd "$CACHE" && grep -v '^version ' "$SUMS" | sha256sum -c --status - 2>/dev/null)
}

download() {
	mkdir -p "$CACHE/apt/parts" "$CACHE/apt/state/lists/partial" \
		"$CACHE/apt/cache/archives/partial"
	one_line_sources > "$SRCLIST"
	deb822_sources > "$CACHE/apt/parts/system.sources"
	say "apt-get update (deb-src entries from this machine's sources, under $CACHE/apt)"
	# A source without a deb-src side (a third-party repository) fails its own index only:
	# what matters is whether the package is then found.
	apt_private update >"$CACHE/apt/update.log" 2>&1 || say "some indexes failed (see $CACHE/apt/update.log)"
	say "apt-get source --download-only lwip=$VERSION"
	(cd "$CACHE" && apt_private source --download-only "lwip=$VERSION") >"$CACHE/apt/source.log" 2>&1 ||
		{ cat "$CACHE/apt/source.log" "$CACHE/apt/update.log" >&2; die "apt-get source lwip=$VERSION failed"; }
}

mkdir -p "$CACHE"
# One fetch at a time per cache (worktrees and parallel makes share it).
exec 9>"$CACHE/.lock"
flock 9
sums_ok || download
sums_ok || { (cd "$CACHE" && grep -v '^version ' "$SUMS" | sha256sum -c - >&2) || true;
	die "the source package's digests differ from $SUMS"; }
DSC="$CACHE/lwip_$VERSION.dsc"
[ -f "$DSC" ] || die "$DSC missing"

rm -rf "$DEST.tmp"
mkdir -p "$(dirname "$DEST")"
dpkg-source --no-check -x "$DSC" "$DEST.tmp" >/dev/null
rm -rf "$DEST"
mv "$DEST.tmp" "$DEST"
say "lwIP $VERSION unpacked in $DEST"
