#!/usr/bin/env bash
# The kernel-SCTP test VM: start | stop | status.
#
#   vm.sh start [NAME]   builds what is missing (build-vm.sh), creates the network namespace NAME
#                        with two tap devices (tap0 10.99.0.1/24 + fd99::1/64, tap1 10.99.1.1/24
#                        + fd99:1::1/64), boots the VM (guest 10.99.0.2, 10.99.1.2, fd99::2,
#                        fd99:1::2) and waits for kpeer's control server. Prints KEY=VALUE lines.
#   vm.sh stop NAME|all  kills the VM and deletes its namespace
#   vm.sh status [NAME]  says what runs
#
# The guest is reachable for SCTP (raw IP, or UDP encapsulation) only from inside the namespace
# (ip netns exec NAME ...). Its control server (TCP 7999) is reachable from the namespace at
# 10.99.0.2:7999 and from the host at 127.0.0.1:CTL_PORT (qemu user networking, loopback only).
# Needs root. Environment: KPEER_BOOT_TIMEOUT (seconds, default 60), KPEER_MEM (MiB, default 256).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
runroot=${KPEER_RUN:-$here/../.cache/run}
PATH=$PATH:/sbin:/usr/sbin

die() {
  echo "vm.sh: $*" >&2
  exit 1
}

need_root() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "vm.sh: needs root: it creates a network namespace and tap devices. Run it as root" \
      "(e.g. sudo $0 $*)." >&2
    exit 77
  fi
}

ctl_ping() { # PORT -> prints the answer to "ping", or nothing
  timeout 2 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"'; echo ping >&3; read -r l <&3; echo "$l"' 2>/dev/null || true
}

stop_one() {
  local name=$1 state=$runroot/$1
  if [[ -f $state/qemu.pid ]]; then
    local pid
    pid=$(cat "$state/qemu.pid")
    if [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "qemu-system.*$name"; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do
        [[ -e /proc/$pid ]] || break
        sleep 0.1
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
  fi
  ip netns del "$name" 2>/dev/null || true
  for t in "${name}t0" "${name}t1"; do ip link del "$t" 2>/dev/null || true; done
  rm -rf "$state"
  echo "vm.sh: stopped $name" >&2
}

start() {
  need_root start
  local name=${1:-skvm$$}
  [[ $name =~ ^[a-zA-Z0-9_-]{1,12}$ ]] || die "NAME must be 1-12 letters, digits, _ or - (tap names derive from it)"
  local state=$runroot/$name
  if ip netns list | awk '{print $1}' | grep -qx "$name"; then die "namespace $name exists: vm.sh stop $name first"; fi
  mkdir -p "$state"
  local t0
  t0=$(date +%s%N)

  local out
  out=$("$here/build-vm.sh")
  local kernel initrd
  kernel=$(sed -n 's/^KERNEL=//p' <<<"$out")
  initrd=$(sed -n 's/^INITRD=//p' <<<"$out")

  # from here on, undo everything on failure
  trap 'stop_one "'"$name"'"' ERR INT TERM

  ip netns add "$name"
  ip -n "$name" link set lo up
  local tap0=${name}t0 tap1=${name}t1
  ip tuntap add dev "$tap0" mode tap
  ip tuntap add dev "$tap1" mode tap

  local port=0
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    ss -Htln "sport = :$port" | grep -q . || break
  done

  local tb
  tb=$(date +%s%N)
  # qemu runs in the host namespace (so that the control port forward listens on the host's
  # loopback); its taps move into the namespace once it holds them.
  # csum=off: with checksum offload the guest drops large UDP-encapsulated SCTP packets.
  qemu-system-x86_64 -name "kpeer-$name" -accel tcg -cpu max -m "${KPEER_MEM:-256}" -smp 1 \
    -display none -monitor none -no-reboot -nodefaults \
    -serial "file:$state/console.log" \
    -kernel "$kernel" -initrd "$initrd" -append "console=ttyS0 panic=-1 quiet" \
    -netdev "tap,id=n0,ifname=$tap0,script=no,downscript=no" \
    -device virtio-net-pci,netdev=n0,mac=52:54:00:99:00:02,csum=off,guest_csum=off \
    -netdev "tap,id=n1,ifname=$tap1,script=no,downscript=no" \
    -device virtio-net-pci,netdev=n1,mac=52:54:00:99:01:02,csum=off,guest_csum=off \
    -netdev "user,id=nc,net=10.0.2.0/24,hostfwd=tcp:127.0.0.1:$port-:7999" \
    -device virtio-net-pci,netdev=nc,mac=52:54:00:99:ff:02 \
    -daemonize -pidfile "$state/qemu.pid"

  local i=0
  for tap in "$tap0" "$tap1"; do
    ip link set "$tap" netns "$name"
    ip -n "$name" link set "$tap" name "tap$i"
    ip -n "$name" addr add "10.99.$i.1/24" dev "tap$i"
    if ((i == 0)); then
      ip -n "$name" -6 addr add fd99::1/64 dev tap0 nodad
    else
      ip -n "$name" -6 addr add fd99:1::1/64 dev tap1 nodad
    fi
    ip -n "$name" link set "tap$i" up
    i=$((i + 1))
  done

  local deadline=$(($(date +%s) + ${KPEER_BOOT_TIMEOUT:-60}))
  until [[ $(ctl_ping "$port") == "ok pong" ]]; do
    if (($(date +%s) > deadline)) || [[ ! -e /proc/$(cat "$state/qemu.pid") ]]; then
      echo "vm.sh: the VM did not answer on its control port; console:" >&2
      tail -n 30 "$state/console.log" >&2 || true
      stop_one "$name"
      exit 1
    fi
    sleep 0.2
  done
  trap - ERR INT TERM
  local t1
  t1=$(date +%s%N)

  cat >"$state/env" <<EOF
NS=$name
CTL_HOST=127.0.0.1
CTL_PORT=$port
GUEST=10.99.0.2
GUEST2=10.99.1.2
GUEST6=fd99::2
HOST=10.99.0.1
HOST2=10.99.1.1
HOST6=fd99::1
QEMU_PID=$(cat "$state/qemu.pid")
CONSOLE=$state/console.log
BOOT_MS=$(((t1 - tb) / 1000000))
START_MS=$(((t1 - t0) / 1000000))
EOF
  cat "$state/env"
  {
    echo "vm.sh: VM $name up (boot $(((t1 - tb) / 1000000)) ms)."
    echo "  control: printf 'ping\\n' | nc 127.0.0.1 $port   (or from the namespace: 10.99.0.2 7999)"
    echo "  SCTP:    ip netns exec $name <your program>   (guest 10.99.0.2 / 10.99.1.2)"
    echo "  stop:    $0 stop $name"
  } >&2
}

status() {
  local any=0
  for state in "$runroot"/*/; do
    [[ -f $state/env ]] || continue
    any=1
    local name
    name=$(basename "$state")
    local port
    port=$(sed -n 's/^CTL_PORT=//p' "$state/env")
    if [[ -n ${1:-} && $1 != "$name" ]]; then continue; fi
    if [[ $(ctl_ping "$port") == "ok pong" ]]; then
      echo "$name running (control 127.0.0.1:$port)"
    else
      echo "$name not answering (stale? vm.sh stop $name)"
    fi
  done
  ((any)) || echo "no VM"
}

case ${1:-} in
start) start "${2:-}" ;;
stop)
  need_root stop
  [[ -n ${2:-} ]] || die "usage: vm.sh stop NAME|all"
  if [[ $2 == all ]]; then
    for state in "$runroot"/*/; do
      [[ -d $state ]] && stop_one "$(basename "$state")"
    done
    true
  else
    stop_one "$2"
  fi
  ;;
status) status "${2:-}" ;;
*)
  echo "usage: vm.sh start [NAME] | stop NAME|all | status [NAME]" >&2
  exit 2
  ;;
esac
