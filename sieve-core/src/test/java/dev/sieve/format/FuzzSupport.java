package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
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

  /** Two filters read from the same bytes answer alike on hashes derived from the input. */
  static void assertSameAnswers(Filter a, Filter b, byte[] input) {
    SplittableRandom random = new SplittableRandom(input.length * 31L + 7);
    for (int i = 0; i < 64; i++) {
      long h = random.nextLong();
      assertEquals(a.mayContainHash(h), b.mayContainHash(h));
    }
  }
}
