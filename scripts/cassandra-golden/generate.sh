#!/usr/bin/env bash
# Regenerates the Cassandra Filter.db golden files that CassandraFilterGoldenTest reads, with
# Cassandra's own FilterFactory, BloomFilter and serializer (CassandraFilterGolden.java). Each
# version's cassandra-all jar and the few libraries its filter code touches are fetched from Maven
# Central with `mvn dependency:copy`; Cassandra is not a build dependency of Sieve.
#   3.11.17: the legacy layout (SSTable versions before "na")
#   4.1.5, 5.0.2: the current layout ("na" and later)
# For each version and each (keys, fp chance): <version>-<keys>-<fp>-Filter.db holding the text
# keys "key-0".."key-<keys-1>", and <version>-<keys>-<fp>-answers.txt, Cassandra's isPresent for
# the absent keys "probe-0".."probe-1999" ('1' maybe, '0' absent).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../sieve-interop/src/test/resources/dev/sieve/interop/cassandra"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fetch() { mvn -B -q dependency:copy -Dartifact="$1" -DoutputDirectory="$2"; }
for dep in org.slf4j:slf4j-api:1.7.36 com.google.guava:guava:27.0-jre \
    com.github.jbellis:jamm:0.3.2 io.netty:netty-all:4.1.58.Final net.java.dev.jna:jna:5.6.0 \
    com.boundary:high-scale-lib:1.0.6 org.jctools:jctools-core:3.1.0 \
    com.github.ben-manes.caffeine:caffeine:2.9.2 org.apache.commons:commons-lang3:3.11 \
    com.fasterxml.jackson.core:jackson-databind:2.13.2 \
    com.fasterxml.jackson.core:jackson-core:2.13.2 \
    com.fasterxml.jackson.core:jackson-annotations:2.13.2 \
    com.fasterxml.jackson.datatype:jackson-datatype-jsr310:2.13.2 \
    com.vdurmont:semver4j:3.1.0; do
  fetch "$dep" "$work/deps"
done
deps="$(ls "$work"/deps/*.jar | tr '\n' :)"
mkdir -p "$out"
for version in 3.11.17 4.1.5 5.0.2; do
  fetch "org.apache.cassandra:cassandra-all:$version" "$work/$version"
  jar="$work/$version/cassandra-all-$version.jar"
  javac -nowarn -cp "$jar" -d "$work/classes-$version" "$here/CassandraFilterGolden.java"
  for shape in "1000 0.01" "300 0.1"; do
    set -- $shape
    # 5.0 reaches into the JDK's direct buffers, as its own launcher allows
    java --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
      --add-opens java.base/java.nio=ALL-UNNAMED \
      -cp "$work/classes-$version:$jar:$deps" CassandraFilterGolden \
      "$out/$version-$1-$2" "$1" "$2" 2000
  done
done
ls -l "$out"
