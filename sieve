#!/usr/bin/env bash
# The sieve command: builds the CLI on first use (or when its sources changed), then runs it.
# `sieve report` (and `sieve help report`) run the benchmark module's report instead (sieve-bench,
# which holds the peers).
#
# Safe to run concurrently and from a symbolic link on PATH: the check-and-build is serialized by
# a lock (flock on .sieve-build.lock at the repository root), re-checked once the lock is held,
# and only the process that built writes the stamp. Maven's output goes to
# <module>/target/sieve-build.log; a failed build prints one line naming it. The build is
# `package` of the module and the modules it depends on, with the profile sieve-wrapper (tests
# neither compiled nor run, test-only dependencies such as rocksdbjni not even resolved).
#
# Environment: SIEVE_HEAP (the JVM heap; default 6g, 10g for report), SIEVE_MVN_ARGS (extra Maven
# arguments, e.g. -o for offline), SIEVE_JAVA (the java command; default java).
set -euo pipefail
root="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
module=sieve-cli
deps=(sieve-core sieve-rocksdb sieve-parquet sieve-cli)
heap="${SIEVE_HEAP:-6g}"
java_opts=()
if [[ "${1:-}" == "report" || ( "${1:-}" == "help" && "${2:-}" == "report" ) ]]; then
  if [[ "$1" == "help" ]]; then
    set -- --help
  else
    shift
  fi
  module=sieve-bench
  deps=(sieve-core sieve-bench)
  heap="${SIEVE_HEAP:-10g}"
  # blocked Bloom queries take their SIMD path (dev.sieve.bloom.VectorLineProbe) only with the
  # incubating Vector API; the report measures the library as a user would run it fastest
  java_opts+=(--add-modules jdk.incubator.vector)
fi
target="$root/$module/target"
jar="$target/$module-all.jar"
stamp="$target/.sieve-build-stamp"

# Stale: no jar or stamp, or a pom or a main source of the module or of what it is built from is
# newer than the stamp (tests, other modules and the reports do not count).
stale() {
  [[ -f "$jar" && -f "$stamp" ]] || return 0
  local paths=("$root/pom.xml") m
  for m in "${deps[@]}"; do
    paths+=("$root/$m/pom.xml")
    [[ -d "$root/$m/src/main" ]] && paths+=("$root/$m/src/main")
  done
  [[ -n "$(find "${paths[@]}" -newer "$stamp" -print -quit 2>/dev/null)" ]]
}

if stale; then
  exec 9>>"$root/.sieve-build.lock"
  flock 9
  if stale; then # still stale once the lock is ours: nobody built it while we waited
    mkdir -p "$target"
    log="$target/sieve-build.log"
    echo "sieve: building $module (first use or sources changed); Maven log: $log" >&2
    touch "$stamp.next" # the stamp's time is the build's start: later edits count as changes
    # shellcheck disable=SC2086 # SIEVE_MVN_ARGS is split into words on purpose
    if ! (cd "$root" && env -u CI MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.force=false" \
      mvn -B -Dstyle.color=never -Dsieve.wrapper -DskipTests -Dspotless.check.skip=true \
      ${SIEVE_MVN_ARGS:-} package -pl "$module" -am) >"$log" 2>&1; then
      rm -f "$stamp.next"
      first="$(grep -m1 -E '^\[ERROR\]' "$log" | cut -c1-300 || true)"
      echo "sieve: building $module failed${first:+: $first}; full Maven log: $log" >&2
      exit 1
    fi
    mv -f "$stamp.next" "$stamp"
  fi
  exec 9>&- # release the lock; the CLI runs without it
fi
exec "${SIEVE_JAVA:-java}" -Xmx"$heap" -XX:+UseParallelGC "${java_opts[@]}" -jar "$jar" "$@"
