#!/usr/bin/env bash
# Before/after figures for a hot-path change from one run: the QueryBenchmark of two builds of
# sieve-bench-all.jar (e.g. main before the change, saved aside, and the working tree), forks
# alternated per round so a noisy neighbour hits both alike. Prints CSV:
# round,build,benchmark,structure,n,ns/op,error
# Usage: before-after.sh OLD.jar NEW.jar STRUCTURES(comma) SIZES(comma) [rounds]
# BENCH picks the benchmarks (a JMH regex, default '\.QueryBenchmark\.'; e.g.
# '\.QueryBenchmark\.negative$' or '\.BuildBenchmark\.'). Forks run with
# --add-modules jdk.incubator.vector, as the report, unless VECTOR=0 (the JVM a user gets without
# flags); JVM_ARGS adds more. JMH_OPTS replaces the iteration settings.
set -euo pipefail
old="$1"; new="$2"; structures="$3"; sizes="$4"; rounds="${5:-2}"
heap="${FORK_HEAP:-4g}"
bench="${BENCH:-\.QueryBenchmark\.}"
iterations="${JMH_OPTS:--f 1 -wi 3 -w 1 -i 4 -r 1}"
vector="--add-modules jdk.incubator.vector"
if [[ "${VECTOR:-1}" == 0 ]]; then vector=""; fi
pin=()
if [[ -n "${BENCH_CPUS:-}" ]]; then pin=(taskset -c "$BENCH_CPUS"); fi
out="$(mktemp -d)"
for r in $(seq 1 "$rounds"); do
  for build in old new; do
    jar="$old"; [[ "$build" == new ]] && jar="$new"
    "${pin[@]}" java -Djmh.ignoreLock=true -cp "$jar" org.openjdk.jmh.Main "$bench" \
      -p structure="$structures" -p n="$sizes" \
      $iterations -jvmArgsAppend "-Xmx$heap $vector ${JVM_ARGS:-}" \
      -rf csv -rff "$out/$build-$r.csv" >"$out/$build-$r.log" 2>&1 || { cat "$out/$build-$r.log" >&2; exit 1; }
    tail -n +2 "$out/$build-$r.csv" | tr -d '"\r' | \
      awk -F, -v r="$r" -v b="$build" '{print r "," b "," $1 "," $11 "," $9 "," $5 "," $6}'
  done
done
