/**
 * Sieve's RocksDB interop: reads filters out of RocksDB block-based SST files and writes RocksDB
 * filter blocks bit for bit ({@code dev.sieve.sst}). Depends on sieve-core only.
 */
module dev.sieve.rocksdb {
  requires transitive dev.sieve.core;

  exports dev.sieve.sst;
}
