/**
 * Sieve: approximate-membership filters, bit-compatible with RocksDB's built-in filters. The range
 * filters ({@code dev.sieve.range}) and other systems' filters ({@code dev.sieve.interop}) are the
 * modules {@code dev.sieve.range} and {@code dev.sieve.interop} (artifacts sieve-range and
 * sieve-interop).
 */
// "module": the qualified export names modules this one does not read (they read it), which javac
// warns of when they are not on the module path, as they are not while this module compiles
@SuppressWarnings("module")
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
  // the payload forms and shared kernels (Bloom words, key schemes, the family loader), for Sieve's
  // other library modules only, not API: the filter families of sieve-range and sieve-interop, and
  // RocksDB's filter policies in sieve-rocksdb
  exports dev.sieve.internal to
      dev.sieve.range,
      dev.sieve.interop,
      dev.sieve.rocksdb;
  // the helpers below the API, for the same modules: the batch scratch and chunk loop, argument
  // checks, a growable long array, the Murmur3 rounds. They import no other package of Sieve, so
  // the API and the hash functions use them without depending on dev.sieve.internal, which is
  // typed by the API (no package cycle)
  exports dev.sieve.internal.base to
      dev.sieve.range,
      dev.sieve.interop,
      dev.sieve.rocksdb;

  // Each filter family registers its types (class, builder, container form) as a service, so the
  // registry and the container name no filter class: a family in another module (sieve-range,
  // sieve-interop) is one more provider, and a type whose module is absent is reported by the
  // module that provides it. The class path reads the same providers from META-INF/services.
  uses dev.sieve.internal.FilterFamily;

  provides dev.sieve.internal.FilterFamily with
      dev.sieve.bloom.BloomFamily,
      dev.sieve.cuckoo.CuckooFamily,
      dev.sieve.expand.ExpandableFamily,
      dev.sieve.ribbon.RibbonFamily,
      dev.sieve.shard.ShardedFamily,
      dev.sieve.xor.XorFamily;
}
