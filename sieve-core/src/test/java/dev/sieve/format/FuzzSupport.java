package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.registry.FilterType;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/** The contract every fuzz target checks: a reader returns a filter or a typed format error. */
final class FuzzSupport {
  private FuzzSupport() {}

  /**
   * Runs {@code reader}: a {@link SieveFormatException} (with an offset that is not negative) gives
   * {@code null}; any other exception propagates and is a finding.
   */
  static <F> F readOrNull(Supplier<F> reader) {
    try {
      return reader.get();
    } catch (SieveFormatException e) {
      if (e.offset() < 0) {
        throw new AssertionError("negative offset in " + e.getMessage(), e);
      }
      return null;
    }
  }

  /**
   * Whether {@code container} holds a payload of a version this code reads but no longer writes
   * (sharded payload version 0, scalable, expandable and Grafite payload version 1): re-serializing
   * it gives the current version, so its bytes are not expected back, only a container that reads
   * back the same.
   */
  static boolean isLegacyPayload(byte[] container) {
    if (container.length < SieveFormat.HEADER_BYTES + 8) {
      return false;
    }
    java.nio.ByteBuffer b =
        java.nio.ByteBuffer.wrap(container).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int type = b.getShort(SieveFormat.TYPE_OFFSET) & 0xFFFF;
    int p = SieveFormat.HEADER_BYTES;
    if (type == FilterType.SHARDED.id()) {
      return (b.getShort(p + ShardedCodec.VERSION_OFFSET) & 0xFFFF)
          == ShardedCodec.LEGACY_PAYLOAD_VERSION;
    }
    if (type == FilterType.EXPANDABLE.id()) {
      return (container[p + 1] & 0xFF) < 3; // payload v1 or v2, converted and written as v3
    }
    if (type == FilterType.GRAFITE.id()) {
      return (container[p + 1] & 0xFF) == 1; // payload v1, written back as v2
    }
    return type == FilterType.SCALABLE_BLOOM.id() && b.getInt(p) == 1;
  }

  /**
   * A filter read from a legacy payload ({@link #isLegacyPayload}) re-serializes to a container
   * that reads back to the same bytes and the same answers.
   */
  static void assertUpgradesStably(Filter read, byte[] input) {
    byte[] upgraded = SieveFormat.toBytes(read);
    Filter again = SieveFormat.read(upgraded);
    org.junit.jupiter.api.Assertions.assertArrayEquals(upgraded, SieveFormat.toBytes(again));
    assertSameAnswers(read, again, input);
  }

  /** Two filters read from the same bytes answer alike on hashes derived from the input. */
  static void assertSameAnswers(Filter a, Filter b, byte[] input) {
    SplittableRandom random = new SplittableRandom(input.length * 31L + 7);
    for (int i = 0; i < 64; i++) {
      long h = random.nextLong();
      assertEquals(a.mayContainHash(h), b.mayContainHash(h));
    }
  }
}
