#!/usr/bin/env bash
# The sieve command: builds the CLI on first use (or when its sources changed), then runs it.
# `sieve report` (and `sieve help report`) run the report instead (sieve-report, built with the
# benchmark module sieve-bench, which holds the peers).
#
# Safe to run concurrently and from a symbolic link on PATH: the check-and-build is serialized by
# a lock (flock on .sieve-build.lock at the repository root), re-checked once the lock is held,
# and only the process that built writes the stamp. A jar Maven built itself (mvn package or
# install) is used as it is while no source is newer than it (see stale below). Maven's output goes to
# <module>/target/sieve-build.log; a failed build prints one line naming it. The build is
# `package` of the module and the modules it depends on, with the profile sieve-wrapper (tests
# neither compiled nor run, test-only dependencies such as rocksdbjni not even resolved).
#
# Start-up (the CLI only; `report` runs as before): right after it builds the jar, and whenever
# the archive for this jar and this java is missing, the wrapper makes a class-data-sharing
# archive (a dynamic AppCDS archive, JDK 13+): one training JVM run with
# -XX:ArchiveClassesAtExit runs dev.sieve.cli.StartupTraining (build, query and inspect on small
# inputs in a temporary directory), the archive is checked once with -Xshare:on, and only then
# moved into place, under the same lock. Its name, sieve-cli/target/cds/sieve-cli-<key>.jsa,
# carries the jar's size, modification time (ns) and inode and the java binary's, so
# a rebuilt jar or another JVM gets a new archive and never a stale one (a rebuild also deletes
# the old ones). Every CLI run then starts with -XX:SharedArchiveFile; should the JVM still refuse
# the archive, -Xshare:auto (the default) runs without it, and its CDS log lines, which go to
# standard output, are switched off. A training run or check that fails leaves a .failed marker
# (Maven-style log: sieve-cli/target/sieve-cds.log) and the CLI runs without an archive; it is
# not retried for that jar and java. The short commands (query with keys as arguments, inspect
# without --verify, help and version) also run with -XX:TieredStopAtLevel=1 (C1 only: no C2
# compilations competing for the cores in a run of a few hundred milliseconds); build, compare,
# query on standard input, inspect --verify and report keep full tiered compilation.
#
# Environment: SIEVE_HEAP (the JVM heap; default 6g, 10g for report), SIEVE_MVN_ARGS (extra Maven
# arguments, e.g. -o for offline), SIEVE_JAVA (the java command; default java), SIEVE_CDS=0 (no
# class-data-sharing archive: neither made nor used).
set -euo pipefail
root="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
module=sieve-cli
deps=(sieve-core sieve-range sieve-interop sieve-rocksdb sieve-parquet sieve-orc sieve-tools sieve-cli)
heap="${SIEVE_HEAP:-6g}"
java_opts=()
if [[ "${1:-}" == "report" || ( "${1:-}" == "help" && "${2:-}" == "report" ) ]]; then
  if [[ "$1" == "help" ]]; then
    set -- --help
  else
    shift
  fi
  module=sieve-report
  deps=(sieve-core sieve-range sieve-interop sieve-tools sieve-bench sieve-report)
  heap="${SIEVE_HEAP:-10g}"
  # blocked Bloom queries take their SIMD path (dev.sieve.bloom.VectorLineProbe) only with the
  # incubating Vector API; the report measures the library as a user would run it fastest
  java_opts+=(--add-modules jdk.incubator.vector)
fi
target="$root/$module/target"
jar="$target/$module-all.jar"
stamp="$target/.sieve-build-stamp"

# The jar's identity (size, modification time in ns, inode), which the stamp records.
jar_id() { stat -L -c '%s-%.9Y-%i' "$jar" 2>/dev/null; }

# Stale: no jar, or a pom or a main source of the module or of what it is built from is newer than
# the reference (tests, other modules and the reports do not count). The reference is the stamp
# when it records this very jar: the wrapper built it, and the stamp's time is the build's start,
# so an edit made during the build counts. Otherwise the jar was built by Maven itself (mvn
# package or install), and the jar is the reference: fresh when no source is newer than it.
stale() {
  [[ -f "$jar" ]] || return 0
  local paths=("$root/pom.xml") m ref="$jar" recorded=""
  if [[ -f "$stamp" ]]; then
    read -r recorded <"$stamp" || true
    [[ -n "$recorded" && "$recorded" == "$(jar_id)" ]] && ref="$stamp"
  fi
  for m in "${deps[@]}"; do
    paths+=("$root/$m/pom.xml")
    [[ -d "$root/$m/src/main" ]] && paths+=("$root/$m/src/main")
  done
  [[ -n "$(find "${paths[@]}" -newer "$ref" -print -quit 2>/dev/null)" ]]
}

java="${SIEVE_JAVA:-java}"
cds=""     # the archive for this jar and java, when the CLI uses one
cds_dir="$target/cds"
# The archive's name for the current jar and java ("" when there is none to make: report, or
# SIEVE_CDS=0, or no jar or java to key it on).
cds_name() {
  cds=""
  [[ "$module" == sieve-cli && "${SIEVE_CDS:-1}" != 0 && -f "$jar" ]] || return 0
  local bin="" d key IFS=:
  if [[ "$java" == */* ]]; then
    bin="$java"
  else # the PATH lookup exec will make, without forking a subshell for command -v
    for d in $PATH; do
      if [[ -x "${d:-.}/$java" && ! -d "${d:-.}/$java" ]]; then
        bin="${d:-.}/$java"
        break
      fi
    done
  fi
  [[ -n "$bin" ]] || return 0
  # size, modification time (ns) and inode of the jar and of the java binary (links followed)
  key="$(stat -L -c '%s-%.9Y-%i' "$jar" "$bin" 2>/dev/null)" || return 0
  key="${key//$'\n'/_}"
  cds="$cds_dir/sieve-cli-${key//./}.jsa"
}
cds_missing() { [[ -n "$cds" && ! -f "$cds" && ! -f "$cds.failed" ]]; }
# One training run, then one -Xshare:on check; the archive is moved into place only when both
# pass. Called with the lock held.
cds_make() {
  local log="$target/sieve-cds.log" scratch part="$cds.part.$$"
  mkdir -p "$cds_dir"
  if scratch="$(mktemp -d "${TMPDIR:-/tmp}/sieve-cds.XXXXXX")" &&
    "$java" -Xmx512m -XX:ArchiveClassesAtExit="$part" -cp "$jar" dev.sieve.cli.StartupTraining \
      "$scratch" </dev/null >"$log" 2>&1 &&
    [[ -s "$part" ]] &&
    "$java" -Xshare:on -XX:SharedArchiveFile="$part" -jar "$jar" --version </dev/null >>"$log" 2>&1
  then
    mv -f "$part" "$cds"
  else
    rm -f "$part"
    echo "training run or -Xshare:on check failed; the CLI runs without an archive" >>"$log"
    : >"$cds.failed"
  fi
  [[ -z "${scratch:-}" ]] || rm -rf "$scratch"
}

cds_name
if stale || cds_missing; then
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
    # the stamp records the jar it was made for, and keeps the build's start as its time
    jar_id >"$stamp.id"
    touch -r "$stamp.next" "$stamp.id"
    mv -f "$stamp.id" "$stamp"
    rm -f "$stamp.next"
    rm -rf "$cds_dir" # the archives of the old jar
  fi
  cds_name # the jar may be new (built here or while we waited)
  if cds_missing; then # the new jar's (or this java's) archive, made once
    cds_make
  fi
  exec 9>&- # release the lock; the CLI runs without it
fi

if [[ -n "$cds" && -f "$cds" ]]; then
  java_opts+=(-XX:SharedArchiveFile="$cds" -Xlog:cds=off,cds+dynamic=off)
fi
if [[ "$module" == sieve-cli ]]; then
  # C1 only for the short commands; see the header
  quick=1
  case "${1:-}" in
  build | compare) quick=0 ;;
  inspect) for a in "$@"; do [[ "$a" == --verify ]] && quick=0; done ;;
  query)
    positional=0 dashdash=0
    for a in "${@:2}"; do
      if ((dashdash)) || [[ "$a" != -* ]]; then
        positional=$((positional + 1))
      elif [[ "$a" == -- ]]; then
        dashdash=1
      fi
    done
    ((positional >= 2)) || quick=0 # no key argument: keys from standard input, maybe many
    ;;
  esac
  ((quick)) && java_opts+=(-XX:TieredStopAtLevel=1)
fi
exec "$java" -Xmx"$heap" -XX:+UseParallelGC "${java_opts[@]}" -jar "$jar" "$@"
