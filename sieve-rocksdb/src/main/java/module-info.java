/**
 * Sieve's RocksDB interop: reads filters out of RocksDB block-based SST files and writes RocksDB
 * filter blocks bit for bit ({@code dev.sieve.sst}) under RocksDB's filter policies ({@code
 * dev.sieve.policy}). Depends on sieve-core and, to decompress compressed index blocks when
 * verifying tables, on aircompressor (pure-Java Snappy, LZ4 and Zstandard; an automatic module
 * named after its jar).
 */
// aircompressor ships no module-info; its jar name is stable
@SuppressWarnings("requires-automatic")
module dev.sieve.rocksdb {
  requires transitive dev.sieve.core;
  requires aircompressor;

  exports dev.sieve.sst;
  // RocksDB's filter policies: level choice, Bloom fallback, partition sizing, the LSM report
  exports dev.sieve.policy;
}
