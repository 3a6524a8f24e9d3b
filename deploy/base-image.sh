#!/usr/bin/env bash
# Build the Debian 12 base image from Debian packages alone (mmdebstrap; no image registry) and
# import it into podman as $ENCLAVE_BASE_IMAGE (default localhost/enclave-debian:bookworm).
# The root file system tarball is cached in $ENCLAVE_IMAGE_CACHE; --rebuild downloads it afresh.
set -euo pipefail
image="${ENCLAVE_BASE_IMAGE:-localhost/enclave-debian:bookworm}"
cache="${ENCLAVE_IMAGE_CACHE:-/var/cache/enclave-images}"
mirror="${ENCLAVE_DEBIAN_MIRROR:-http://deb.debian.org}"
tar="$cache/debian-bookworm.tar"
if [ "${1:-}" = --rebuild ]; then rm -f "$tar"; podman rmi -f "$image" >/dev/null 2>&1 || true; fi
if podman image exists "$image"; then echo "base-image: $image exists"; exit 0; fi
mkdir -p "$cache"
if [ ! -s "$tar" ]; then
  echo "base-image: mmdebstrap bookworm from $mirror -> $tar"
  # variant apt: Essential packages and apt, like debian:bookworm-slim (which also leaves out
  # manuals, documentation and translations); security updates included.
  mmdebstrap --quiet --format=tar --variant=apt --include=ca-certificates --aptopt='Acquire::Retries "3"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    bookworm "$tar.partial" \
    "deb $mirror/debian bookworm main" "deb $mirror/debian bookworm-updates main" \
    "deb $mirror/debian-security bookworm-security main"
  mv "$tar.partial" "$tar"
fi
podman import --change 'CMD ["/bin/bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  "$tar" "$image" >/dev/null
echo "base-image: imported $image"
