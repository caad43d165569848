#!/usr/bin/env bash
# Sieve on Spark against Spark's own Bloom filter, side by side in one local Spark run.
# usage: sieve-spark/bench.sh [keys, default 10000000] [master, default local[2]]
# (heap: SIEVE_SPARK_HEAP, default 8g). Builds sieve-core and sieve-spark in the reactor (no install).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# one reactor run: sieve-core resolves to its target/classes (nothing is installed)
mvn -q -B -pl sieve-spark -am -DskipTests -Dspotless.check.skip=true test-compile \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
flags="$(sed -n 's:.*<spark.jvm.flags>\(.*\)</spark.jvm.flags>.*:\1:p' sieve-spark/pom.xml)"
# shellcheck disable=SC2086 # the flags are split into words on purpose
exec java -Xmx"${SIEVE_SPARK_HEAP:-8g}" $flags \
  -cp "sieve-spark/target/test-classes:sieve-spark/target/classes:$(cat sieve-spark/target/bench.classpath)" \
  dev.sieve.spark.SparkFilterBench "$@"
