#!/usr/bin/env bash
# The sieve command: builds the CLI on first use (or when sources changed), then runs it.
# `sieve report` runs the benchmark module's report (sieve-bench, which holds the peers).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
module=sieve-cli
heap="${SIEVE_HEAP:-6g}"
if [[ "${1:-}" == "report" ]]; then
  shift
  module=sieve-bench
  heap="${SIEVE_HEAP:-10g}"
fi
jar="$root/$module/target/$module-all.jar"
stamp="$root/$module/target/.sieve-build-stamp"
needs_build=0
if [[ ! -f "$jar" || ! -f "$stamp" ]]; then
  needs_build=1
elif [[ -n "$(find "$root" -path "$root/*/target" -prune -o \( -name '*.java' -o -name 'pom.xml' -o -name '*.properties' \) -newer "$stamp" -print -quit)" ]]; then
  needs_build=1
fi
if [[ "$needs_build" == 1 ]]; then
  echo "sieve: building $module (first use or sources changed)..." >&2
  (cd "$root" && mvn -q -B -Dstyle.color=never -DskipTests -Dspotless.check.skip=true package -pl "$module" -am) >&2
  touch "$stamp"
fi
exec java -Xmx"$heap" -XX:+UseParallelGC -jar "$jar" "$@"
