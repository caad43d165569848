package dev.sieve.range;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.format.MappedSieveFile;
import dev.sieve.format.SieveFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Grafite container mapped and then zero-filled in place through another channel: every query
 * answers or throws {@link SieveFormatException}, never the buffer's {@code
 * IndexOutOfBoundsException}, and {@link MappedSieveFile#verify()} reports the change.
 */
class GrafiteMappedChangeTest {

  @Test
  void queriesOnAZeroFilledMappingThrowTypedOrAnswer(@TempDir Path dir) throws IOException {
    SplittableRandom rnd = new SplittableRandom(23);
    long[] keys = new long[20_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = (rnd.nextLong() >>> 1) + 8;
    }
    Path file = dir.resolve("grafite.sieve");
    SieveFormat.write(GrafiteFilter.builder().bitsPerKey(16).build(keys), file);
    try (MappedSieveFile mapped = MappedSieveFile.open(file)) {
      GrafiteFilter f = (GrafiteFilter) mapped.filter();
      assertTrue(f.isWrapped());
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        long payloadEnd = ch.size() - SieveFormat.CHECKSUM_BYTES;
        ByteBuffer zeros = ByteBuffer.allocate((int) (payloadEnd - SieveFormat.HEADER_BYTES));
        ch.write(zeros, SieveFormat.HEADER_BYTES);
        ch.force(true);
      }
      int typed = 0;
      for (long k : keys) {
        try {
          f.mayContainRange(k - 3, k + 3);
          f.mayContain(k);
          f.mayContainRanges(new long[] {k}, new long[] {k + 100}, 0, 1, new long[1]);
        } catch (SieveFormatException e) {
          assertTrue(e.getMessage().contains("changed"), e.getMessage());
          typed++;
        }
      }
      assertTrue(typed > 0, "no query noticed the zeroed data");
      assertThrows(SieveFormatException.class, mapped::verify);
    }
  }
}
