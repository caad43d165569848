/** Sieve: approximate-membership filters, bit-compatible with RocksDB's built-in filters. */
module dev.sieve.core {
  // optional: the SIMD blocked Bloom probe, used only when the JVM runs with
  // --add-modules jdk.incubator.vector (dev.sieve.bloom.VectorLineProbe)
  requires static jdk.incubator.vector;

  exports dev.sieve;
  exports dev.sieve.hash;
  exports dev.sieve.math;
  exports dev.sieve.bloom;
  // ribbon (branch ribbon)
  exports dev.sieve.ribbon;

  // branch family: Xor, Binary Fuse and Cuckoo filters
  exports dev.sieve.xor;
  exports dev.sieve.cuckoo;
  // branch format: the Sieve container
  exports dev.sieve.format;
  // RocksDB's filter policies: level choice, Bloom fallback, LSM report
  exports dev.sieve.policy;
  // branch spark: sharded static filters
  exports dev.sieve.shard;
}
