#!/usr/bin/env bash
# Measures the single-key probe forms of the blocked Bloom filter against the library's own choice:
# the row sieve-blocked-bloom (the library: branch-free up to 4 MiB of data, early exit above, or
# the SIMD line test where the JVM has jdk.incubator.vector) beside the experiment rows
# blocked-bloom-form-{early,hybrid,branchfree,loop} (sieve-bench's ProbeForms: the same filter's
# words and key hash, one probe form each), in one JMH run per round. Prints one CSV line per result.
# Usage: sieve-bench/scripts/probe-forms.sh [n,n,...] [rounds]
# env: JAR, FORMS (default: early hybrid branchfree loop), MODULE (default: on; MODULE=off runs the
# library's scalar forms), FORK_HEAP, BENCH_CPUS
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
jar="${JAR:-$root/sieve-bench/target/sieve-bench-all.jar}"
sizes="${1:-10000,1000000,10000000}"
rounds="${2:-2}"
heap="${FORK_HEAP:-4g}"
module="--add-modules jdk.incubator.vector"
if [[ "${MODULE:-on}" == off ]]; then module=""; fi
structs="sieve-blocked-bloom"
for form in ${FORMS:-early hybrid branchfree loop}; do structs="$structs,blocked-bloom-form-$form"; done
# BENCH_CPUS (e.g. 1) pins the runs to those CPUs with taskset
pin=()
if [[ -n "${BENCH_CPUS:-}" ]]; then pin=(taskset -c "$BENCH_CPUS"); fi
out="$(mktemp -d)"
for r in $(seq 1 "$rounds"); do
  "${pin[@]}" java -Djmh.ignoreLock=true -cp "$jar" org.openjdk.jmh.Main '\.QueryBenchmark\.' \
    -p structure="$structs" -p n="$sizes" \
    -f 1 -wi 3 -w 1 -i 3 -r 1 -jvmArgsAppend "-Xmx$heap $module" \
    -rf csv -rff "$out/forms-$r.csv" >"$out/forms-$r.log" 2>&1
  tail -n +2 "$out/forms-$r.csv" | sed "s/^/$r,/"
done
