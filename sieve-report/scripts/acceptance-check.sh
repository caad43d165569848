#!/usr/bin/env bash
# Holds a report's results.json to Sieve's acceptance goals (dev.sieve.report.AcceptanceCheck):
# the blocked Bloom filter's batch and single lookups against FastFilter's BlockedBloom, Xor8 and
# Binary Fuse 8 against FastFilter's Xor8, Ribbon against the blocked Bloom filter, the fastest
# Bloom filter without a JVM flag, space and build cost, and the range filters. One line per goal;
# exit status 1 if one is missed. It measures nothing: run the report first, at the key counts the
# goals are stated for, e.g.
#   ./sieve report --n 1000000,10000000 --filters full --range-keys 10000000
# Usage: sieve-report/scripts/acceptance-check.sh [results.json (default report/results.json)]
# Environment: JAR (default sieve-report/target/sieve-report-all.jar, built by ./sieve report).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar="${JAR:-$root/sieve-report/target/sieve-report-all.jar}"
exec java -cp "$jar" dev.sieve.report.AcceptanceCheck "$@"
