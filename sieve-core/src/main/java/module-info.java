/** Sieve: approximate-membership filters, bit-compatible with RocksDB's built-in filters. */
module dev.sieve.core {
  // The SIMD Bloom probes (dev.sieve.bloom.VectorLineProbe, SplitBlockVectorProbe) use
  // jdk.incubator.vector when the JVM runs with --add-modules jdk.incubator.vector. Not required
  // here, not even `requires static` (that made javac warn "using incubating module(s)" in every
  // consumer module's build): dev.sieve.bloom.VectorGate adds the read edge at run time, and
  // sieve-core's own compilation adds the module (its pom).

  exports dev.sieve;
  exports dev.sieve.hash;
  exports dev.sieve.math;
  exports dev.sieve.bloom;
  // Ribbon filters
  exports dev.sieve.ribbon;
  // Xor, Binary Fuse and Cuckoo filters
  exports dev.sieve.xor;
  exports dev.sieve.cuckoo;
  // the Sieve container
  exports dev.sieve.format;
  // the registry of filter types
  exports dev.sieve.registry;
  // sharded static filters
  exports dev.sieve.shard;
  // the expandable fingerprint filter (grows, deletes, merges)
  exports dev.sieve.expand;
  // readers and writers of other systems' filters (ORC, Guava, Spark, DataSketches)
  exports dev.sieve.interop;
  // range filters (Grafite, the prefix-Bloom baseline)
  exports dev.sieve.range;
  // shared internals for Sieve's own modules only (not API): RocksDB's filter policies in
  // sieve-rocksdb build on them
  exports dev.sieve.internal to
      dev.sieve.rocksdb;

  // Each filter family registers its types (class, builder, container form) as a service, so the
  // registry and the container name no filter class: a family in another module is one more
  // provider, and a type whose module is absent is reported by the module that provides it. The
  // class path reads the same providers from META-INF/services.
  uses dev.sieve.internal.FilterFamily;

  provides dev.sieve.internal.FilterFamily with
      dev.sieve.bloom.BloomFamily,
      dev.sieve.cuckoo.CuckooFamily,
      dev.sieve.expand.ExpandableFamily,
      dev.sieve.interop.InteropFamily,
      dev.sieve.range.RangeFamily,
      dev.sieve.ribbon.RibbonFamily,
      dev.sieve.shard.ShardedFamily,
      dev.sieve.xor.XorFamily;
}
