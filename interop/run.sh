#!/usr/bin/env bash
# Runs the interop matrix alone (the InteropMatrixTest of the tests module, through Maven) and
# prints its table: peer x lower layer x direction x case -> pass/FAIL/n/a/skipped, ending with
# "N passed, N failed". Exit status 0 when nothing failed.
#
#   interop/run.sh                       every cell
#   interop/run.sh -Dsctpj.interop.llp=udp -Dsctpj.interop.case=handshake,restart
#   (also -Dsctpj.interop.direction=we-client|we-server; extra arguments go to Maven, e.g. -o)
#
# Raw IP cells need root (CAP_NET_RAW, network namespaces, nftables); without it they are
# skipped with llp-raw's CAP_NET_RAW message and the UDP cells still run. Captures of every cell:
# tests/target/interop-pcaps/; the table also lands in tests/target/interop-table.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
log=$(mktemp)
mark=$(mktemp)
trap 'rm -f "$log" "$mark"' EXIT
mvn -B -ntp -pl tests -am test -Dtest=InteropMatrixTest -Dsurefire.failIfNoSpecifiedTests=false "$@" >"$log" 2>&1
status=$?
table=tests/target/interop-table.txt
if [[ ! -s $table || $table -ot $mark ]]; then
  echo "interop/run.sh: no table was written; Maven's output ends with:" >&2
  tail -40 "$log" >&2
  exit 1
fi
cat "$table"
echo "(wall time $(($(date +%s) - start)) s, Maven exit status $status)"
exit $status
