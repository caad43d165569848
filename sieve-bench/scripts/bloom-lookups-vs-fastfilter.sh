#!/usr/bin/env bash
# The Bloom filters' lookups against FastFilter's BlockedBloom in one sitting, each group one JMH
# run (rows compared with each other share a run): the Bloom filters without any JVM flag (the split-block and blocked Bloom filters'
# scalar paths against FastFilter's BlockedBloom and the raw random read), the same rows and the
# Ribbon filters with the Vector module (SIMD paths), and the out-of-cache batch at 10^8 keys.
# Prints JMH's tables; CSVs land in OUT (default: a temporary directory, printed at the end).
# Usage: bloom-lookups-vs-fastfilter.sh [SIZES_IN_CACHE (comma; default 10000,1000000,10000000)] [DRAM_N (default 100000000; 0 skips)]
# (SIMD_SIZES: the sizes of the module run, default 1000000,10000000)
# Environment: JAR (default sieve-bench/target/sieve-bench-all.jar), OUT, BENCH_CPUS (taskset list,
# default 1), WI/W/I/R (JMH warm-ups, their seconds, iterations, their seconds: 3 1 3 1),
# FORK_HEAP (default 4g; the DRAM run takes 14g).
# The warm-up must outlast the SIMD gate's opening (VectorGate: about 1-2 s after the first filter)
# or the module rows measure the scalar probe: keep WI*W >= 3 s.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="${JAR:-$root/sieve-bench/target/sieve-bench-all.jar}"
sizes="${1:-10000,1000000,10000000}"
dram="${2:-100000000}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
pin=(taskset -c "${BENCH_CPUS:-1}")
wi="${WI:-3}" w="${W:-1}" i="${I:-3}" r="${R:-1}"
heap="${FORK_HEAP:-4g}"
rows="sieve-split-block-bloom,sieve-split-block-bloom-batch,sieve-split-block-bloom-fasthash,sieve-blocked-bloom,sieve-blocked-bloom-batch,sieve-ribbon,sieve-bumped-ribbon,fastfilter-blocked-bloom,raw-read-1x"
jmh() { # name, jvm args, structures, sizes
  local name="$1" args="$2" structures="$3" n="$4"
  echo "== $name: n=$n, JVM options '${args}' (load $(cut -d' ' -f1-3 /proc/loadavg))"
  "${pin[@]}" java -Djmh.ignoreLock=true -cp "$jar" org.openjdk.jmh.Main '\.QueryBenchmark\.' \
    -p structure="$structures" -p n="$n" -f 1 -wi "$wi" -w "$w" -i "$i" -r "$r" \
    -jvmArgsAppend "-Xmx$heap $args" -rf csv -rff "$out/$name.csv" 2>&1 | grep -E '^(Benchmark|QueryBenchmark)'
}
jmh noflag "" "$rows" "$sizes"
jmh simd "--add-modules jdk.incubator.vector" "$rows" "${SIMD_SIZES:-1000000,10000000}"
if [[ "$dram" != 0 ]]; then
  heap="${DRAM_HEAP:-14g}"
  jmh dram-noflag "" "sieve-split-block-bloom,sieve-split-block-bloom-batch,sieve-blocked-bloom,sieve-blocked-bloom-batch,fastfilter-blocked-bloom,raw-read-1x" "$dram"
fi
echo "CSVs: $out"
