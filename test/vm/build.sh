#!/bin/sh
# build.sh - the parts of the test VM that come from Debian, cached under
# build/vm (rebuilt only when missing, or when ROOT_PACKAGES changes):
#   vmlinuz, modules/*.ko  Debian 12's own cloud kernel, from its package
#                          (the package linux-image-cloud-amd64 names),
#                          and the modules the guest's init loads (MODULES)
#   root.img               an ext4 image of a Debian root made by mmdebstrap
#   busybox                the initramfs's shell (busybox-static)
#   images.img             podman's storage with the runner and sandbox images
#   docker.img             a Docker data root with the same images
# Needs apt-get, dpkg-deb, mmdebstrap and mke2fs, and the Debian mirror.
set -eu
VM=${VM:-build/vm}
ROOT_PACKAGES="busybox-static python3 nodejs podman runc conmon catatonit docker.io"
# AppArmor (the engines load their default profiles with apparmor_parser;
# docker.test, podman.test), PyYAML (compose_run.py reads deploy/compose.yaml)
ROOT_PACKAGES="$ROOT_PACKAGES apparmor python3-yaml"
# the JDK (vm/warm2.test: warm Java slots)
ROOT_PACKAGES="$ROOT_PACKAGES openjdk-17-jdk-headless"
# the root disk's (virtio), the TCP socket diagnostics the services look
# a local peer's uid up with (a Debian host loads them on demand through
# modprobe, which this root has no modules tree for), podman's overlay
MODULES="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
virtio_pci virtio_blk inet_diag tcp_diag overlay"
mkdir -p "$VM"
VM=$(cd "$VM" && pwd)

if [ ! -f "$VM/vmlinuz" ] || [ "$(cat "$VM/modules/order" 2>/dev/null)" != "$MODULES" ]; then
	if ! ls "$VM/kernel/"*.deb >/dev/null 2>&1; then
		pkg=$(apt-cache depends linux-image-cloud-amd64 |
			sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
		[ -n "$pkg" ] || { echo "build.sh: apt-cache names no cloud kernel" >&2; exit 1; }
		rm -rf "$VM/kernel" && mkdir -p "$VM/kernel"
		(cd "$VM/kernel" && apt-get -q download "$pkg" >/dev/null)
	fi
	rm -rf "$VM/kernel/x" "$VM/modules" && mkdir -p "$VM/modules"
	(cd "$VM/kernel" && dpkg-deb -x ./*.deb x)
	for m in $MODULES; do
		find "$VM/kernel/x/lib/modules" -name "$m.ko" -exec cp {} "$VM/modules/" \;
		[ -f "$VM/modules/$m.ko" ] || { echo "build.sh: the kernel package has no $m.ko" >&2; exit 1; }
	done
	echo "$MODULES" >"$VM/modules/order"
	cp "$VM/kernel/x/boot/vmlinuz-"* "$VM/vmlinuz.new"
	rm -rf "$VM/kernel/x"
	mv "$VM/vmlinuz.new" "$VM/vmlinuz"
fi

if [ ! -f "$VM/root.img" ] || [ "$(cat "$VM/root.stamp" 2>/dev/null)" != "$ROOT_PACKAGES" ]; then
	rm -rf "$VM/root" "$VM/root.img"
	# (the JDK's postinst links its man pages as alternatives: their
	# directory must exist though no page is installed)
	mmdebstrap --quiet --variant=essential --include="$(echo $ROOT_PACKAGES | tr ' ' ,)" \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--essential-hook='mkdir -p "$1/usr/share/man/man1"' \
		bookworm "$VM/root" http://deb.debian.org/debian
	cp "$VM/root/bin/busybox" "$VM/busybox"
	mke2fs -q -t ext4 -d "$VM/root" "$VM/root.img.new" 1536M
	rm -rf "$VM/root"
	mv "$VM/root.img.new" "$VM/root.img"
	echo "$ROOT_PACKAGES" >"$VM/root.stamp"
fi

# images.img: podman's storage (overlay) holding the runner and sandbox
# images as `make images` last built them (scripts/images.sh runs only
# where there are none: it builds airlock inside a container, too slow to
# redo for every change; the guest runs them with the airlock under test
# mounted over the image's), for test/vm/podman.test. Rebuilt when the
# images' ids change.
IMAGES="localhost/airlock-runner:latest localhost/airlock-sandbox:latest"
ids() { for i in $IMAGES; do podman image inspect --format '{{.Id}}' "$i" 2>/dev/null || return 1; done; }
command -v podman >/dev/null || { echo "build.sh: podman is not installed (the images)" >&2; exit 1; }
ids >/dev/null || sh scripts/images.sh
want=$(ids | tr '\n' ' ')
if [ ! -f "$VM/images.img" ] || [ "$(cat "$VM/images.stamp" 2>/dev/null)" != "$want" ]; then
	rm -rf "$VM/store" "$VM/store.run" "$VM/images.tar" "$VM/images.img"
	# shellcheck disable=SC2086
	podman save --quiet -m -o "$VM/images.tar" $IMAGES
	podman --root "$VM/store" --runroot "$VM/store.run" --storage-driver overlay \
		load --quiet -i "$VM/images.tar" >/dev/null
	# libpod's database names this host's paths: the guest's podman makes its own
	rm -rf "$VM/store/libpod" "$VM/images.tar" "$VM/store.run"
	mke2fs -q -t ext4 -d "$VM/store" "$VM/images.img.new" 3G
	rm -rf "$VM/store"
	mv "$VM/images.img.new" "$VM/images.img"
	echo "$want" >"$VM/images.stamp"
fi

# docker.img: a Docker data root (overlay2) holding the same images, for
# test/vm/docker.test. `docker load` runs here, on a dockerd of this
# script's own (own socket, exec root and pidfile; no iptables, no
# bridge), not in the guest, where hashing the layers under emulation
# would take minutes. Rebuilt when the images' ids change.
if [ ! -f "$VM/docker.img" ] || [ "$(cat "$VM/docker.stamp" 2>/dev/null)" != "$want" ]; then
	command -v dockerd >/dev/null || { echo "build.sh: dockerd is not installed (docker.img)" >&2; exit 1; }
	rm -rf "$VM/docker" "$VM/docker.img"
	sock=$VM/docker.run/docker.sock
	mkdir -p "$VM/docker" "$VM/docker.run"
	dockerd --host "unix://$sock" --data-root "$VM/docker" --exec-root "$VM/docker.run" \
		--pidfile "$VM/docker.run/pid" --iptables=false --bridge=none \
		--storage-driver overlay2 >"$VM/dockerd.log" 2>&1 &
	i=0
	until /usr/bin/docker -H "unix://$sock" info >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 60 ] || { kill "$(cat "$VM/docker.run/pid")"; echo "build.sh: dockerd did not start" >&2; exit 1; }
		sleep 1
	done
	# shellcheck disable=SC2086
	podman save --quiet -m $IMAGES | /usr/bin/docker -H "unix://$sock" load -q >/dev/null || rc=$?
	kill "$(cat "$VM/docker.run/pid")"
	i=0
	while [ -e "$VM/docker.run/pid" ] && [ $i -lt 300 ]; do sleep 0.2; i=$((i + 1)); done
	umount "$VM/docker.run/netns/default" 2>/dev/null || true
	rm -rf "$VM/docker.run" "$VM/docker/network" "$VM/docker/containers/"*
	[ "${rc:-0}" = 0 ] || { echo "build.sh: docker load failed" >&2; exit 1; }
	mke2fs -q -t ext4 -d "$VM/docker" "$VM/docker.img.new" 3G
	rm -rf "$VM/docker"
	mv "$VM/docker.img.new" "$VM/docker.img"
	echo "$want" >"$VM/docker.stamp"
fi
