package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.bloom.ScalableBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path a growable filter over 2 GiB takes through {@link SieveFormat#map}: every stage mapped
 * in segments, forced here with 1 KiB segments and a one-buffer limit of 0.
 */
class ScalableBloomMapTest {
  @TempDir Path dir;

  @Test
  void aFilterLargerThanOneBufferIsMappedStageByStage() throws IOException {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(300).create();
    long[] keys = new SplittableRandom(5).longs(20_000).toArray();
    for (long k : keys) {
      filter.add(k);
    }
    Path file = dir.resolve("grown.sieve");
    SieveFormat.write(filter, file);
    ScalableBloomFilter mapped = (ScalableBloomFilter) SieveFormat.map(file, true, 10, 0);
    assertTrue(mapped.isWrapped());
    assertEquals(filter.numStages(), mapped.numStages());
    assertEquals(filter.numKeys(), mapped.numKeys());
    for (long k : keys) {
      assertTrue(mapped.mayContain(k));
    }
    SplittableRandom random = new SplittableRandom(6);
    for (int i = 0; i < 20_000; i++) {
      long h = random.nextLong();
      assertEquals(filter.mayContainHash(h), mapped.mayContainHash(h));
    }
    assertArrayEquals(Files.readAllBytes(file), SieveFormat.toBytes(mapped));

    // a non-zero padding byte after stage 0, and a broken trailer, refused at their file offsets
    // (checksums skipped, so the structural checks are reached)
    byte[] bytes = Files.readAllBytes(file);
    int payload = SieveFormat.HEADER_BYTES;
    int firstBlock = payload + 64 + 64 * ((32 * filter.numStages() + 63) / 64);
    long blockLength = filter.stageSizeInBits(0) / 8 + 5;
    byte[] padded = bytes.clone();
    padded[(int) (firstBlock + blockLength)] = 1;
    Files.write(file, padded);
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, false, 10, 0));
    assertEquals(firstBlock + blockLength, e.offset(), e.getMessage());
    byte[] trailer = bytes.clone();
    trailer[(int) (firstBlock + blockLength - 5)] = 0x7F;
    Files.write(file, trailer);
    e = assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, false, 10, 0));
    assertEquals(firstBlock + blockLength - 5, e.offset(), e.getMessage());
  }
}
