#!/usr/bin/env bash
# The side-by-side benchmark of sctpj against usrsctp and the kernel (bench/README.md).
#
#   bench/run.sh            the whole sweep (sizes 100..1400 step 100, 4 KiB, 64 KiB; 3 runs)
#   bench/run.sh --quick    a short one (6 sizes, 1 run, 1 s per run; ~2-3 min)
#   other options go to the runner: --runs N --duration SEC --sizes 100,1000 --no-latency
#                                   --no-throughput --out DIR
#                                   --contenders sctpj-callback,sctpj-socket (only these; names:
#                                     sctpj-callback sctpj-callback-100k sctpj-callback-portable
#                                     sctpj-socket sctpj-socket-nio sctpj-socket-spin (only when
#                                     named) usrsctp usrsctp-tsctp kernel-tcp kernel-udp
#                                     sctpj-callback-raw kernel-tcp-c sctpj-callback-raw-sendmsg
#                                     sctpj-callback-raw-nofilter kernel-udp-acked; without both
#                                     usrsctp contenders their build is skipped)
#                                   --netns MTU (the namespace mode: the sweep between two network
#                                     namespaces over a veth pair of that MTU, e.g. 1500 or 9000,
#                                     created and deleted by the runner; root; results in
#                                     bench/results/netns-MTU/). With --netns or a raw-IP
#                                     contender the runner runs under flock /tmp/sctpj-netlock.
#   bench/run.sh --help     this text
#
# Builds what it needs: the bench jar (mvn package of bench and the modules it uses, tests
# skipped) when it is missing or older than the sources, usrsctp's Release build with our peer
# (interop/usrsctp/build.sh release, which installs gcc, cmake, make and Debian's source package
# when missing and run as root), and usrsctp's own tsctp from the same source (build.sh tsctp).
# Ratios to usrsctp are reported only when our usrsctp contender reaches 0.9 of tsctp at every
# size; otherwise the runner says so and exits 3. Writes bench/results/latest.{md,csv,png} and
# latest-raw.log (every process's output). Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

with_usrsctp=1
netns=0
raw=1 # the default contenders include raw IP
prev=
for a in "$@"; do
  case "$a" in
    --help | -h)
      sed -n '2,/^set -euo/p' bench/run.sh | sed '$d' | sed 's/^# \{0,1\}//'
      exit 0
      ;;
  esac
  if [[ "$prev" == --contenders && ",$a," != *,usrsctp,* && ",$a," != *,usrsctp-tsctp,* ]]; then
    with_usrsctp=0
  fi
  if [[ "$prev" == --netns ]]; then
    netns=1
  fi
  if [[ "$prev" == --contenders && "$a" != *raw* ]]; then
    raw=0
  fi
  prev=$a
done

need() { # need COMMAND PACKAGE: installs PACKAGE when COMMAND is missing (as root), like ./test.sh
  if ! command -v "$1" >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      echo "run.sh: installing $2 (for $1)" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >&2
    else
      echo "run.sh: $1 is missing; install it with: sudo apt-get install -y $2" >&2
      exit 1
    fi
  fi
}
need java openjdk-17-jdk-headless
need mvn maven

jar=bench/target/benchmarks.jar
if [ ! -f "$jar" ] || [ -n "$(find stack timers native llp-udp-encap llp-raw api-callback api-socket bench -name target -prune -o \( -name '*.java' -o -name pom.xml \) -newer "$jar" -print -quit)" ]; then
  echo "run.sh: building $jar (mvn package, tests skipped)..." >&2
  mvn -B -q -ntp -DskipTests -Dspotless.apply.skip=true -pl bench -am package >&2
fi

# The kernel-TCP anchor in C (bench/native/tcpperf.c): no runtime between it and the kernel.
tcpperf=bench/target/tcpperf
if [ ! -x "$tcpperf" ] || [ bench/native/tcpperf.c -nt "$tcpperf" ]; then
  need gcc gcc
  mkdir -p bench/target && gcc -std=gnu11 -O2 -Wall -Wextra -o "$tcpperf" bench/native/tcpperf.c
fi

upeer=interop/.cache/upeer-release
tsctp=interop/.cache/tsctp-release
if [[ $with_usrsctp -eq 1 ]]; then
  upeer=$(interop/usrsctp/build.sh release | tail -1)
  upeer=${upeer% (up to date)}
  tsctp=$(interop/usrsctp/build.sh tsctp | tail -1)
  tsctp=${tsctp% (up to date)}
fi

lock=()
if [[ $netns -eq 1 || $raw -eq 1 ]]; then
  # Namespaces and raw sockets (which see every SCTP packet of the host): one user at a time on
  # this machine, the tests' convention.
  lock=(flock /tmp/sctpj-netlock)
fi
exec "${lock[@]}" java -Djava.awt.headless=true -cp "$jar" org.sctpj.bench.runner.Runner --upeer "$upeer" \
  --tsctp "$tsctp" --tcpperf "$tcpperf" --jar "$jar" "$@"
