#!/usr/bin/env bash
# Instructions per blocked Bloom lookup, counted by callgrind over the measured lookups only (no
# perf needed; counts repeat to within 0.1% under load). -Xbatch makes every JIT compile finish
# before the loop goes on, so the warm-up ends compiled.
# Usage: lookup-instructions.sh CORE_CLASSES FASTFILTER_JAR KIND N WARMUP MEASURED [pos]
#   KIND: sieve (XXPH3 keys), prehashed, fasthash (MIX64), batch, fasthash-batch (1024 keys a
#   call), ff (FastFilter BlockedBloom). Prints the hits and callgrind's "Collected" count:
#   divide it by MEASURED. Example (the single-key lookup):
#   lookup-instructions.sh sieve-core/target/classes ~/.m2/.../fastfilter-1.0.2.jar sieve \
#     1000000 2000000 10000000
set -euo pipefail
core="$1"; ff="$2"; shift 2
here="$(cd "$(dirname "$0")" && pwd)"
d="$(mktemp -d)"; trap 'rm -rf "$d"' EXIT
javac -d "$d/classes" -cp "$core:$ff" "$here/LookupInstructions.java"
mkfifo "$d/in"
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$d/out" --smc-check=all-non-file \
  java -XX:+UseSerialGC -Xbatch -Xmx2g -cp "$d/classes:$core:$ff" LookupInstructions "$@" \
  <"$d/in" >"$d/stdout" 2>"$d/stderr" &
vp=$!
exec 3>"$d/in"
until grep -q READY "$d/stdout" 2>/dev/null; do
  sleep 1
  kill -0 "$vp" 2>/dev/null || { tail "$d/stderr" >&2; exit 1; }
done
callgrind_control -i on "$vp" >/dev/null; echo >&3
until grep -q DONE "$d/stdout"; do sleep 1; done
callgrind_control -i off "$vp" >/dev/null; echo >&3
exec 3>&-
wait "$vp"
grep hits "$d/stdout"; grep Collected "$d/stderr"
