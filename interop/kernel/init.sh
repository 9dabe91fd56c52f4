#!/bin/busybox sh
# /init of the kernel-SCTP test VM (busybox). Loads the modules, configures the network by MAC
# address (vm.sh assigns the MACs) and runs kpeer's control server on TCP port 7999.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs run /run
mount -t tmpfs tmp /tmp

for ko in $(cat /lib/kmods/order); do
  insmod /lib/kmods/"$ko" 2>/dev/null || echo "init: insmod $ko failed (may be built in)"
done

ip link set lo up
# name, MAC, IPv4, IPv6 of each interface vm.sh may give us
for spec in \
  "52:54:00:99:00:02 10.99.0.2/24 fd99::2/64" \
  "52:54:00:99:01:02 10.99.1.2/24 fd99:1::2/64" \
  "52:54:00:99:ff:02 10.0.2.15/24 -"; do
  set -- $spec
  for dev in /sys/class/net/*; do
    if [ "$(cat "$dev"/address)" = "$1" ]; then
      n=${dev##*/}
      # no duplicate address detection (busybox ip has no nodad): addresses usable at once
      echo 0 >/proc/sys/net/ipv6/conf/"$n"/accept_dad
      ip link set "$n" up
      ip addr add "$2" dev "$n"
      [ "$3" = - ] || ip -6 addr add "$3" dev "$n"
      echo "init: $n $1 $2 $3"
    fi
  done
done

echo "init: sctp $(cat /sys/module/sctp/version 2>/dev/null || echo loaded), kernel $(uname -r)"
# keep the control server up: restart it if it ever dies
while true; do
  /bin/kpeer ctl 7999
  sleep 1
done
