package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.sieve.Filter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;

/**
 * Fuzz target for the Sieve container readers ({@link SieveFormat#read(byte[])}, {@link
 * SieveFormat#read(java.io.InputStream)}, {@link SieveFormat#wrap(ByteBuffer)}). Each input is
 * tried as it is and with both checksums recomputed, so mutations also reach the header checks and
 * every filter type's payload reader behind the checksums. Any exception other than {@link
 * dev.sieve.SieveFormatException} is a finding; so is an accepted input the readers disagree on or
 * that does not re-serialize to the same bytes. The corpus is in {@code
 * src/test/resources/dev/sieve/format/SieveContainerFuzzTestInputs/fuzz/}.
 */
class SieveContainerFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fuzz(byte[] data) {
    check(data);
    check(TestFilters.fixChecksums(data));
  }

  private static void check(byte[] data) {
    Filter heap = FuzzSupport.readOrNull(() -> SieveFormat.read(data));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
    Filter wrapped = FuzzSupport.readOrNull(() -> SieveFormat.wrap(direct));
    Filter streamed =
        FuzzSupport.readOrNull(
            () -> {
              try {
                return SieveFormat.read(new ByteArrayInputStream(data));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    assertEquals(heap == null, wrapped == null, "byte[] and ByteBuffer readers disagree");
    if (heap != null) {
      assertNotNull(streamed, "the stream reader refused a valid container");
      if (heap.sizeInBits() > 0) {
        // the long-keys flag is a note for readers that take keys as text, kept beside the filter:
        // written again when asked for, it gives the same bytes
        boolean longKeys =
            (ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(12)
                    & SieveFormat.FLAG_LONG_KEYS)
                != 0;
        assertArrayEquals(data, bytes(heap, longKeys));
        assertArrayEquals(data, bytes(wrapped, longKeys));
      } else {
        // an empty filter may be stored non-canonically (a Bloom trailer alone): the rewrite is
        // canonical and stable
        byte[] again = SieveFormat.toBytes(heap);
        assertArrayEquals(again, SieveFormat.toBytes(SieveFormat.read(again)));
      }
      FuzzSupport.assertSameAnswers(heap, wrapped, data);
      FuzzSupport.assertSameAnswers(heap, streamed, data);
    }
  }

  private static byte[] bytes(Filter filter, boolean longKeys) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      SieveFormat.write(filter, Channels.newChannel(out), longKeys);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
