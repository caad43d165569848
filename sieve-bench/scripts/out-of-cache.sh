#!/usr/bin/env bash
# Lookups far out of cache: OutOfCacheBenchmark's rows (Sieve's two-word and blocked Bloom filters,
# single and batch, FastFilter's BlockedBloom and the raw random read) at 10^8 and 10^9 keys, each
# size one JMH run with the heap it needs, each row in its own fork. The filters are built from a
# seeded key stream (no key array), so 10^9 keys need only the filter's own memory.
# Prints one CSV (JMH's columns, the size in the n column) on stdout; JMH's own output goes to
# OUT/<n>.log and its CSVs to OUT/<n>.csv (OUT default: a temporary directory, named on stderr).
# Usage: out-of-cache.sh [SIZES (comma; default 100000000,1000000000)]
# Environment: JAR (default sieve-bench/target/sieve-bench-all.jar), OUT, BENCH_CPUS (taskset
# list, default 1), STRUCTURES (comma; default all six rows), QUERIES (positive, negative or
# both, the default: which of the benchmark's two query streams), BITS (bits/key, default 10),
# WI/W/I/R (JMH warm-ups, their seconds, iterations, their seconds: 5 1 5 1), HEAP_<n> (a fork's
# heap for size n, e.g. HEAP_1000000000=6g; default the filter's size rounded down to gigabytes plus 2g).
# Building a row at 10^9 keys (one add per key, each a cache miss) takes minutes per fork.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="${JAR:-$root/sieve-bench/target/sieve-bench-all.jar}"
sizes="${1:-100000000,1000000000}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
pin=(taskset -c "${BENCH_CPUS:-1}")
wi="${WI:-5}" w="${W:-1}" i="${I:-5}" r="${R:-1}"
structures="${STRUCTURES:-sieve-two-word-bloom,sieve-two-word-bloom-batch,sieve-blocked-bloom,sieve-blocked-bloom-batch,fastfilter-blocked-bloom,raw-read-1x}"
bits="${BITS:-10}"
case "${QUERIES:-both}" in
  positive | negative) methods="${QUERIES}" ;;
  both) methods="(positive|negative)" ;;
  *) echo "QUERIES must be positive, negative or both, got '${QUERIES}'" >&2; exit 2 ;;
esac
[[ -f "$jar" ]] || { echo "no benchmark jar at $jar (build sieve-bench with package)" >&2; exit 1; }
echo "logs and CSVs: $out" >&2
header=""
IFS=',' read -ra ns <<< "$sizes"
for n in "${ns[@]}"; do
  var="HEAP_$n"
  # the largest row holds the filter's footprint (about bits/8 bytes per key) once
  heap="${!var:-$(( n * bits / 8 / 1000000000 + 2 ))g}"
  echo "== n=$n, heap $heap (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  "${pin[@]}" java -Djmh.ignoreLock=true -cp "$jar" org.openjdk.jmh.Main '\.OutOfCacheBenchmark\.'"$methods"'$' \
    -p structure="$structures" -p n="$n" -p bitsPerKey="$bits" -f 1 -wi "$wi" -w "$w" -i "$i" \
    -r "$r" -jvmArgsAppend "-Xms$heap -Xmx$heap" -rf csv -rff "$out/$n.csv" > "$out/$n.log" 2>&1 \
    || { echo "JMH failed at n=$n; see $out/$n.log" >&2; tail -20 "$out/$n.log" >&2; exit 1; }
  if [[ -z "$header" ]]; then
    header="$(head -1 "$out/$n.csv")"
    echo "$header"
  fi
  tail -n +2 "$out/$n.csv"
done
