package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.expand.ExpandableFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.Families;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An expandable filter whose payload passes one 2 GiB buffer, written to a container file (the
 * payload streamed: it fits no {@code byte[]}) and memory-mapped in 1 GiB segments, the real path
 * of {@link SieveFormat#map(Path)}: a table sized from a hint of 1.75·10^9 keys (a 2.9 GB payload,
 * 1.35 times one buffer) holding 2·10^6 keys. The mapped filter must report every key, including
 * those whose blocks lie past the first 2 GiB and so in the second and third segments, answer
 * exactly as the heap filter on 10^6 random hashes, and fail the checksum pass after one flipped
 * byte in its last segment. The small-segment path (8 B to 4 KiB segments, in CI) is {@code
 * ExpandableMapTest}'s and {@code dev.sieve.expand.ExpandableSegmentsTest}'s.
 *
 * <p>Tagged {@code scale} ({@code mvn -B test -pl sieve-core -am -Pscale
 * -Dtest=ExpandableMappedOver2GiBScaleTest}); heap: about 3 GB (the heap filter); disk: a 2.9 GB
 * file in the temporary directory; time: minutes (the write, the checksum, and the form's checks,
 * which read every slot).
 */
@Tag("scale")
class ExpandableMappedOver2GiBScaleTest {
  private static final long HINT = 1_750_000_000L;
  private static final int KEYS = 2_000_000;

  @TempDir Path dir;

  @Test
  void aPayloadOver2GiBIsWrittenStreamedAndMappedInSegments() throws IOException {
    ExpandableFilter heap = ExpandableFilter.builder().fpRate(0.01).expectedKeys(HINT).create();
    long[] hashes = new long[KEYS];
    for (int i = 0; i < KEYS; i++) {
      hashes[i] = KeyHash.hash64((long) i);
      heap.addHash(hashes[i]);
    }
    long payloadLength = Families.get().form(ExpandableFilter.class).payloadLength(heap);
    assertTrue(
        payloadLength > SieveFormat.MAX_ARRAY_PAYLOAD, payloadLength + " bytes: not past 2 GiB");
    assertThrows(IllegalStateException.class, () -> SieveFormat.toBytes(heap));
    Path file = dir.resolve("big.sieve");
    SieveFormat.write(heap, file);
    assertEquals(
        SieveFormat.HEADER_BYTES + payloadLength + SieveFormat.CHECKSUM_BYTES, Files.size(file));

    ExpandableFilter mapped = SieveFormat.map(file, ExpandableFilter.class);
    assertEquals(heap.sizeInBits(), mapped.sizeInBits());
    assertEquals(heap.numKeys(), mapped.numKeys());
    assertEquals(heap.modelledFpRate(), mapped.modelledFpRate());
    assertThrows(UnsupportedOperationException.class, () -> mapped.add(1L));
    long beyond2GiB = 0;
    for (long h : hashes) {
      assertTrue(mapped.mayContainHash(h), "false negative in the mapped file");
      // the key's block lies at about the fraction h / 2^64 of the table
      double at = unsignedFraction(h) * payloadLength;
      if (at >= 1L << 31) {
        beyond2GiB++;
      }
    }
    assertTrue(beyond2GiB > KEYS / 20, beyond2GiB + " keys beyond the first 2 GiB");
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 1_000_000; i++) {
      long h = random.nextLong();
      assertEquals(heap.mayContainHash(h), mapped.mayContainHash(h));
    }
    // one flipped byte in the last segment fails the checksum pass
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1}), SieveFormat.HEADER_BYTES + payloadLength - 100);
    }
    assertThrows(SieveFormatException.class, () -> SieveFormat.map(file));
  }

  /** {@return {@code h / 2^64}, {@code h} unsigned} */
  private static double unsignedFraction(long h) {
    return (h >>> 11) * 0x1.0p-53;
  }
}
