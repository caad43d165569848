package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.Filter;
import dev.sieve.xor.BinaryFuse16Filter;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor16Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.function.Function;

/**
 * Fuzz target for the four readers of the Xor/Binary Fuse form ({@code Xor8Filter.fromByteArray},
 * {@code Xor16Filter}, {@code BinaryFuse8Filter}, {@code BinaryFuse16Filter}): each input goes to
 * all four; each gives a typed error or a filter that re-serializes to the same bytes, and at most
 * one accepts (the type tag in byte 0 differs).
 */
class XorFuseFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    int accepted = 0;
    accepted += check(data, b -> Forms.read(Xor8Filter.class, b), Forms::toBytes);
    accepted += check(data, b -> Forms.read(Xor16Filter.class, b), Forms::toBytes);
    accepted += check(data, b -> Forms.read(BinaryFuse8Filter.class, b), Forms::toBytes);
    accepted += check(data, b -> Forms.read(BinaryFuse16Filter.class, b), Forms::toBytes);
    assertTrue(accepted <= 1, "more than one reader accepted the same bytes");
  }

  private static <F extends Filter> int check(
      byte[] data, Function<byte[], F> reader, Function<F, byte[]> writer) {
    F filter = FuzzSupport.readOrNull(() -> reader.apply(data));
    if (filter == null) {
      return 0;
    }
    assertArrayEquals(data, writer.apply(filter));
    FuzzSupport.assertSameAnswers(filter, filter, data); // queries must not throw
    return 1;
  }
}
