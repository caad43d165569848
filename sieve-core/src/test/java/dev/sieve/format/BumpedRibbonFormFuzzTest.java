package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.KeyScheme;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.BumpedRibbonRawForm;
import java.nio.ByteBuffer;

/**
 * Fuzz target for {@link BumpedRibbonRawForm#read} and {@link BumpedRibbonRawForm#wrap} (the
 * payload without the container): a typed error from both, or a filter both readers agree on and
 * that re-serializes to the same bytes.
 */
class BumpedRibbonFormFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    BumpedRibbonFilter filter =
        FuzzSupport.readOrNull(() -> BumpedRibbonRawForm.read(data, KeyScheme.XXPH3));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    BumpedRibbonFilter wrapped =
        FuzzSupport.readOrNull(() -> BumpedRibbonRawForm.wrap(direct, KeyScheme.XXPH3));
    assertEquals(filter == null, wrapped == null, "copying and wrapping readers disagree");
    if (filter == null) {
      return;
    }
    assertArrayEquals(data, BumpedRibbonRawForm.bytes(filter));
    assertArrayEquals(data, BumpedRibbonRawForm.bytes(wrapped));
    FuzzSupport.assertSameAnswers(filter, wrapped, data);
    filter.modelledFpRate();
  }
}
