#!/usr/bin/env bash
# Measures the single-key probe forms of BlockedBloomFilter (system property sieve.bloom.probeForm:
# auto (the default: vector when the JVM has jdk.incubator.vector, as here),
# vector, early, hybrid, branchfree, loop) on hashed and pre-hashed lookups at several n, in one JMH run per
# form, rounds alternated so a noisy neighbour hits every form alike. Prints one CSV line per result.
# Usage: sieve-bench/scripts/probe-forms.sh [n,n,...] [rounds]
# env: JAR, FORMS (default: auto early hybrid branchfree loop), STRUCTS (JMH structure names,
# default sieve-blocked-bloom,sieve-blocked-bloom-prehashed), FORK_HEAP, BENCH_CPUS
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
jar="${JAR:-$root/sieve-bench/target/sieve-bench-all.jar}"
sizes="${1:-10000,1000000,10000000}"
rounds="${2:-2}"
heap="${FORK_HEAP:-4g}"
# BENCH_CPUS (e.g. 1) pins the runs to those CPUs with taskset
pin=()
if [[ -n "${BENCH_CPUS:-}" ]]; then pin=(taskset -c "$BENCH_CPUS"); fi
out="$(mktemp -d)"
for r in $(seq 1 "$rounds"); do
  for form in ${FORMS:-auto early hybrid branchfree loop}; do
    "${pin[@]}" java -Djmh.ignoreLock=true -cp "$jar" org.openjdk.jmh.Main '\.QueryBenchmark\.' \
      -p structure="${STRUCTS:-sieve-blocked-bloom,sieve-blocked-bloom-prehashed}" -p n="$sizes" \
      -f 1 -wi 3 -w 1 -i 3 -r 1 -jvmArgsAppend "-Xmx$heap --add-modules jdk.incubator.vector -Dsieve.bloom.probeForm=$form" \
      -rf csv -rff "$out/$form-$r.csv" >"$out/$form-$r.log" 2>&1
    tail -n +2 "$out/$form-$r.csv" | sed "s/^/$form,$r,/"
  done
done
