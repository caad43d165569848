#!/usr/bin/env bash
# Runs one row of QueryBenchmark in many fresh JVMs, module on, and fails if any fork stayed slow:
# the check for a SIMD path that C2 compiles well in most forks but not all (the split-block
# batch kernel once, inlined into JMH's stub past MaxInlineLevel, boxed its vectors for a
# whole trial in about one fork in 4 to 12; see SplitBlockVectorProbe#mayContainHashes).
# Each fork: -wi 3 -w 1 -i 4 -r 1. Prints one line per fork (its measured iterations, ns per
# lookup) and a summary; exits 1 if a fork's mean exceeds RATIO (default 3) times the median
# fork's mean, 2 if a fork gave no figure.
# Usage: sieve-bench/scripts/simd-fork-check.sh [forks] [structure] [n]
#   defaults: 20 forks, sieve-split-block-bloom-batch, 1000000; env: JAR, BENCH (default
#   positive), RATIO, EXTRA (more JVM flags for the forks, e.g. -XX:MaxInlineLevel=30)
# Takes about 12 s a fork. Run it alone: a fork measured beside other work is not a figure.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
jar="${JAR:-$root/sieve-bench/target/sieve-bench-all.jar}"
forks="${1:-20}"
structure="${2:-sieve-split-block-bloom-batch}"
n="${3:-1000000}"
bench="${BENCH:-positive}"
ratio="${RATIO:-3}"
out="$(mktemp -d)"
means=()
for f in $(seq 1 "$forks"); do
  java -Djmh.ignoreLock=true --add-modules jdk.incubator.vector -cp "$jar" org.openjdk.jmh.Main \
    "dev.sieve.bench.jmh.QueryBenchmark.$bench\$" -p structure="$structure" -p n="$n" \
    -f 1 -wi 3 -w 1 -i 4 -r 1 \
    -jvmArgsAppend "--add-modules=jdk.incubator.vector ${EXTRA:-}" >"$out/fork-$f.log" 2>&1 || true
  its=$(grep -E '^Iteration' "$out/fork-$f.log" | awk '{printf "%s ", $3}')
  if [[ -z "$its" ]]; then
    echo "fork $f: no figure (log: $out/fork-$f.log)"
    exit 2
  fi
  mean=$(echo "$its" | awk '{s=0; for (i=1;i<=NF;i++) s+=$i; printf "%.3f", s/NF}')
  means+=("$mean")
  echo "fork $f: $its(mean $mean)"
done
printf '%s\n' "${means[@]}" | sort -g | awk -v ratio="$ratio" -v s="$structure" -v n="$n" '
  { m[NR] = $1 }
  END {
    med = (NR % 2) ? m[(NR + 1) / 2] : (m[NR / 2] + m[NR / 2 + 1]) / 2
    slow = 0
    for (i = 1; i <= NR; i++) if (m[i] > ratio * med) slow++
    printf "%s n=%s: %d forks, median %.3f ns, best %.3f, worst %.3f; %d above %s x the median\n",
      s, n, NR, med, m[1], m[NR], slow, ratio
    exit slow > 0 ? 1 : 0
  }'
