package dev.sieve.xor;

import dev.sieve.Filter;
import java.util.function.Function;

/** The six static xor-type filter configurations, built and (de)serialized uniformly in tests. */
enum StaticFilterKind {
  XOR8(
      8,
      h -> Xor8Filter.builder().buildFromHashes(h),
      f -> ((Xor8Filter) f).toByteArray(),
      Xor8Filter::fromByteArray),
  XOR16(
      16,
      h -> Xor16Filter.builder().buildFromHashes(h),
      f -> ((Xor16Filter) f).toByteArray(),
      Xor16Filter::fromByteArray),
  FUSE8_3(
      8,
      h -> BinaryFuse8Filter.builder().buildFromHashes(h),
      f -> ((BinaryFuse8Filter) f).toByteArray(),
      BinaryFuse8Filter::fromByteArray),
  FUSE8_4(
      8,
      h -> BinaryFuse8Filter.builder().arity(4).buildFromHashes(h),
      f -> ((BinaryFuse8Filter) f).toByteArray(),
      BinaryFuse8Filter::fromByteArray),
  FUSE16_3(
      16,
      h -> BinaryFuse16Filter.builder().buildFromHashes(h),
      f -> ((BinaryFuse16Filter) f).toByteArray(),
      BinaryFuse16Filter::fromByteArray),
  FUSE16_4(
      16,
      h -> BinaryFuse16Filter.builder().arity(4).buildFromHashes(h),
      f -> ((BinaryFuse16Filter) f).toByteArray(),
      BinaryFuse16Filter::fromByteArray);

  final int fingerprintBits;
  private final Function<long[], Filter> builder;
  private final Function<Filter, byte[]> writer;
  private final Function<byte[], Filter> reader;

  StaticFilterKind(
      int fingerprintBits,
      Function<long[], Filter> builder,
      Function<Filter, byte[]> writer,
      Function<byte[], ? extends Filter> reader) {
    this.fingerprintBits = fingerprintBits;
    this.builder = builder;
    this.writer = writer;
    this.reader = reader::apply;
  }

  /** Builds from the hashes; the array is not modified. */
  Filter build(long[] hashes) {
    return builder.apply(hashes);
  }

  byte[] toBytes(Filter f) {
    return writer.apply(f);
  }

  Filter fromBytes(byte[] bytes) {
    return reader.apply(bytes);
  }
}
