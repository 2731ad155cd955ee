#!/bin/sh
# guest.sh - run by busybox init in the test VM (Debian 12's kernel, a
# cgroup v2 host): mounts what a host has, makes cgroup v2 the only
# hierarchy with the memory, pids and cpu controllers enabled, runs the
# guest's test files through test/check.sh with each result line stamped
# with the guest's uptime, then powers off. The host (test/vm.test) reads
# the lines from the serial console. Debian's essential set has no mount
# or ip: busybox's applets come last in PATH.
/bin/busybox mkdir -p /opt/busybox
/bin/busybox --install -s /opt/busybox
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/opt/busybox HOME=/root
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup
# AppArmor's files (the kernel has it on): the engines load their default
# profiles through them, as on a Debian host
mount -t securityfs securityfs /sys/kernel/security
# podman's storage with the runner and sandbox images (build.sh)
mkdir -p /var/lib/containers/storage
mount -t ext4 /dev/vdb /var/lib/containers/storage
# a Docker data root with the same images (build.sh; docker.test)
mkdir -p /var/lib/docker
mount -t ext4 /dev/vdc /var/lib/docker
echo "+memory +pids +cpu" >/sys/fs/cgroup/cgroup.subtree_control
ip link set lo up
hostname airlock-vm
echo "vm: guest started at $(cut -d' ' -f1 /proc/uptime) s; kernel $(uname -r)"
cd /airlock
# a case that hangs: show what still runs, and stop
(sleep 2400; echo "vm: watchdog: the cases still run after 2400 s:"
	ps -o pid,ppid,stat,args | grep -v ' \['; poweroff -f) &
sh test/check.sh $(ls test/vm-*.test) 2>&1 | while IFS= read -r line; do
	printf '%s %s\n' "$(cut -d' ' -f1 /proc/uptime)" "$line"
done
echo "vm: guest done at $(cut -d' ' -f1 /proc/uptime) s"
poweroff -f
