#!/usr/bin/env bash
# Builds what the kernel-SCTP test VM boots: Debian's cloud kernel and an initramfs holding busybox,
# the sctp and virtio-net modules, and our static peer (kpeer.c). Idempotent: everything goes to
# interop/.cache/kernel/ (git-ignored) and is rebuilt only when missing or older than its inputs.
# Everything comes from Debian packages; the missing ones are installed when run as root.
#
# Prints the paths of the kernel and the initramfs on its last two lines (KERNEL=..., INITRD=...).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KPEER_CACHE:-$here/../.cache/kernel}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

log() { echo "build-vm: $*" >&2; }

# ---------------------------------------------------------------- Debian packages
need_pkgs=()
command -v qemu-system-x86_64 >/dev/null 2>&1 || need_pkgs+=(qemu-system-x86)
# the initramfs needs the static busybox (Debian's plain busybox package is dynamically linked)
if [[ ! -x /bin/busybox ]] || ldd /bin/busybox >/dev/null 2>&1; then need_pkgs+=(busybox-static); fi
command -v depmod >/dev/null 2>&1 || [[ -x /sbin/depmod ]] || need_pkgs+=(kmod)
command -v cpio >/dev/null 2>&1 || need_pkgs+=(cpio)
command -v gcc >/dev/null 2>&1 || need_pkgs+=(gcc)
[[ -e /usr/lib/x86_64-linux-gnu/libc.a ]] || need_pkgs+=(libc6-dev)
if ((${#need_pkgs[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    log "missing Debian packages: ${need_pkgs[*]}; install them as root:"
    log "  apt-get install -y --no-install-recommends ${need_pkgs[*]}"
    exit 1
  fi
  log "installing ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # another apt may be running on a shared machine: wait for its lock rather than fail
  apt-get -o DPkg::Lock::Timeout=600 update -qq >&2
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need_pkgs[@]}" >&2
fi
PATH=$PATH:/sbin:/usr/sbin

# ---------------------------------------------------------------- kernel package
# The cloud kernel (gzip-compressed, few drivers) boots faster than the generic one.
abi_pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
  awk '/Depends: linux-image-[0-9].*-cloud-amd64/ {print $2; exit}')
if [[ -z $abi_pkg ]]; then
  # package lists not loaded yet on a fresh machine
  if [[ $(id -u) -eq 0 ]]; then apt-get -o DPkg::Lock::Timeout=600 update -qq >&2; fi
  abi_pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
    awk '/Depends: linux-image-[0-9].*-cloud-amd64/ {print $2; exit}')
fi
if [[ -z $abi_pkg ]]; then
  # offline with a cache: use whatever kernel was unpacked before
  abi_pkg=$(ls -d "$cache"/linux-image-*-cloud-amd64 2>/dev/null | head -n1 | xargs -r basename)
fi
[[ -n $abi_pkg ]] || { log "cannot resolve linux-image-cloud-amd64 (run apt-get update)"; exit 1; }
kver=${abi_pkg#linux-image-}
root=$cache/$abi_pkg
if [[ ! -e $root/.unpacked ]]; then
  log "downloading $abi_pkg"
  rm -rf "$root" "$cache"/debs
  mkdir -p "$cache/debs"
  # apt-get download runs as _apt when it can; a world-writable download dir avoids the warning
  chmod 777 "$cache/debs"
  (cd "$cache/debs" && apt-get download "$abi_pkg" >&2)
  mkdir -p "$root"
  dpkg-deb -x "$cache"/debs/"$abi_pkg"_*.deb "$root"
  depmod -b "$root" "$kver"
  rm -rf "$cache/debs"
  touch "$root/.unpacked"
fi
kernel=$root/boot/vmlinuz-$kver

# ---------------------------------------------------------------- the peer
kpeer=$cache/kpeer
if [[ ! -x $kpeer || $here/kpeer.c -nt $kpeer ]]; then
  log "compiling kpeer"
  gcc -static -O2 -Wall -o "$kpeer.tmp" "$here/kpeer.c"
  mv "$kpeer.tmp" "$kpeer"
fi

# ---------------------------------------------------------------- initramfs
initrd=$cache/initrd-$kver.cpio.gz
if [[ ! -s $initrd || $kpeer -nt $initrd || $here/init.sh -nt $initrd || $0 -nt $initrd ]]; then
  log "building the initramfs"
  stage=$cache/stage
  rm -rf "$stage"
  mkdir -p "$stage"/{bin,sbin,dev,proc,sys,run,tmp,etc,lib/kmods}
  cp /bin/busybox "$stage/bin/busybox"
  cp "$kpeer" "$stage/bin/kpeer"
  cp "$here/init.sh" "$stage/init"
  chmod 755 "$stage/init"
  # modules in dependency order (modprobe --show-depends lists each one after what it needs)
  : >"$stage/lib/kmods/order"
  for m in virtio_pci virtio_net sctp; do
    modprobe -d "$root" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
  done | awk '!seen[$0]++' | while read -r ko; do
    cp "$ko" "$stage/lib/kmods/"
    basename "$ko" >>"$stage/lib/kmods/order"
  done
  (cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
  rm -rf "$stage"
fi

echo "KERNEL=$kernel"
echo "INITRD=$initrd"
