/**
 * Sieve's Parquet interop: reads the split-block Bloom filters stored in {@code .parquet} files
 * ({@code dev.sieve.parquet.ParquetFile}, with its own minimal reader of the footer's Thrift
 * compact metadata). The filters it returns are sieve-core's {@code
 * dev.sieve.bloom.SplitBlockBloomFilter}, so sieve-core is required transitively; nothing else is
 * needed at run time (parquet-java and Hadoop are test dependencies only).
 */
module dev.sieve.parquet {
  requires transitive dev.sieve.core;

  exports dev.sieve.parquet;
}
