#!/usr/bin/env bash
# The whole sctpj test suite: checks that the tools the tests need are installed (installing
# the missing ones when run as root on Debian), then runs the Maven build with every test.
# Extra arguments go to Maven, e.g. ./test.sh -pl stack,trace -am  or  ./test.sh -o
set -euo pipefail

cd "$(dirname "$0")"

# Tools the tests need, one entry each: "debian-package|check function|what needs it".
# The check function (defined below) succeeds when the tool is present. Add entries here as
# tests need more (usrsctp, qemu, ...).
REQUIRED_TOOLS=(
  "tshark|has_tshark|the tshark judge tests in the trace module"
  "libpcap0.8|has_libpcap|pcap4j, which writes the captures of the trace module tests"
  "libusrsctp-dev|has_usrsctp|the usrsctp interop peer (interop/usrsctp) built by the tests module"
  "gcc|has_gcc|compiling the interop peers"
  "qemu-system-x86|has_qemu|the Linux kernel SCTP peer in a small VM (interop/kernel)"
  "busybox-static|has_busybox|the initramfs of the kernel-peer VM"
  "cpio|has_cpio|packing the initramfs of the kernel-peer VM"
  "kmod|has_kmod|depmod/modprobe for the kernel-peer VM's modules"
  "nftables|has_nft|loss and path cuts in the interop and multi-path tests"
  "iproute2|has_ip|network namespaces, veth and tbf for the interop and multi-path tests"
  "strace|has_strace|the journal's test that recording and replaying connect nowhere outside loopback"
)

has_tshark() {
  command -v tshark >/dev/null 2>&1
}

has_usrsctp() {
  [ -e /usr/include/usrsctp.h ]
}

has_qemu() {
  command -v qemu-system-x86_64 >/dev/null 2>&1
}

has_busybox() {
  [ -x /bin/busybox ] || [ -x /usr/bin/busybox ]
}

has_cpio() {
  command -v cpio >/dev/null 2>&1
}

has_kmod() {
  command -v depmod >/dev/null 2>&1 || [ -x /sbin/depmod ] || [ -x /usr/sbin/depmod ]
}

has_nft() {
  command -v nft >/dev/null 2>&1 || [ -x /usr/sbin/nft ]
}

has_ip() {
  command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ]
}

has_strace() {
  command -v strace >/dev/null 2>&1
}

has_gcc() {
  command -v gcc >/dev/null 2>&1
}

has_libpcap() {
  dpkg-query -W -f='${Status}' libpcap0.8 2>/dev/null | grep 'ok installed' >/dev/null ||
    { command -v ldconfig >/dev/null 2>&1 && ldconfig -p | grep 'libpcap\.so' >/dev/null; } ||
    /sbin/ldconfig -p 2>/dev/null | grep 'libpcap\.so' >/dev/null
}

missing_packages=()
missing_lines=() # "package (needed by ...)"

is_present() {
  "$1" >/dev/null 2>&1
}

for entry in "${REQUIRED_TOOLS[@]}"; do
  IFS='|' read -r package check needed_by <<<"$entry"
  if ! is_present "$check"; then
    missing_packages+=("$package")
    missing_lines+=("$package (needed by $needed_by)")
  fi
done

if ((${#missing_packages[@]} > 0)); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    for line in "${missing_lines[@]}"; do
      echo "installing $line"
    done
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_packages[@]}"
    still_missing=()
    for entry in "${REQUIRED_TOOLS[@]}"; do
      IFS='|' read -r package check needed_by <<<"$entry"
      if ! is_present "$check"; then
        still_missing+=("  $package (needed by $needed_by)")
      fi
    done
    if ((${#still_missing[@]} > 0)); then
      echo "test.sh: still missing after apt-get install (is it on the PATH?):" >&2
      printf '%s\n' "${still_missing[@]}" >&2
      exit 1
    fi
  else
    echo "test.sh: the tests need these Debian packages, which are not installed:" >&2
    printf '  %s\n' "${missing_lines[@]}" >&2
    echo "Install them with:" >&2
    echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y ${missing_packages[*]}" >&2
    echo "(or run ./test.sh as root, which installs them)" >&2
    exit 1
  fi
fi

exec mvn -B -ntp verify "$@"
