/**
 * Sieve's ORC interop: reads the Bloom filters stored in Apache ORC files ({@code
 * dev.sieve.orc.OrcFile}, with its own minimal reader of ORC's protobuf metadata). The filters it
 * returns are sieve-interop's {@code dev.sieve.interop.OrcBloomFilter}, so that module (and with it
 * sieve-core) is required transitively; aircompressor (pure Java) decompresses SNAPPY, LZO, LZ4 and
 * ZSTD metadata. orc-core and Hadoop are test dependencies only.
 */
@SuppressWarnings("requires-automatic")
module dev.sieve.orc {
  requires transitive dev.sieve.core;
  requires transitive dev.sieve.interop;
  requires aircompressor;

  exports dev.sieve.orc;
}
