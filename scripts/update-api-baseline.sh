#!/usr/bin/env bash
# Accepts the current public API of the published modules as the new baseline that
# `mvn verify` (profile api-compat, japicmp) compares every build with. Run it only for an
# intended API change, commit the seven jars with that change, and list the change in
# CHANGELOG.md under Public API Changes (and in sieve-rocksdb's ApiSurfaceTest golden file). See
# docs/api.md.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(sieve-core sieve-range sieve-interop sieve-rocksdb sieve-parquet sieve-spark sieve-orc)
mvn -B -q -Dsieve.wrapper -DskipTests -Dspotless.check.skip=true package \
  -pl "$(IFS=,; echo "${modules[*]}")" -am
# the parent's own <version>, the first one after <artifactId>sieve-parent</artifactId>
version=$(sed -n '/<artifactId>sieve-parent<\/artifactId>/,/<\/version>/s:.*<version>\(.*\)</version>.*:\1:p' pom.xml)
for m in "${modules[@]}"; do
  mkdir -p "$m/src/api"
  cp "$m/target/$m-$version.jar" "$m/src/api/baseline.jar"
  echo "baseline: $m/src/api/baseline.jar"
done
