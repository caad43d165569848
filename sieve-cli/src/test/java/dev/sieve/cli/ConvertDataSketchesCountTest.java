package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.datasketches.filters.bloomfilter.BloomFilter;
import org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code convert} of a DataSketches file whose "bits set" field says 0 while its words hold the
 * keys: both targets keep every key, read back by DataSketches itself and by {@code query}.
 */
class ConvertDataSketchesCountTest {
  @TempDir Path dir;

  @Test
  void convertKeepsTheKeysOfAFileWithAZeroBitsSetField() throws IOException {
    BloomFilter ds = BloomFilterBuilder.createByAccuracy(500, 0.01, 3);
    for (long i = 0; i < 500; i++) {
      ds.update("user:" + i);
    }
    byte[] bytes = ds.toByteArray();
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(24, 0);
    Path in = dir.resolve("stale.ds");
    Files.write(in, bytes);

    Path viaSieve = dir.resolve("c.sieve");
    Path back = dir.resolve("back.ds");
    CliRun toSieve = CliRun.of("convert", in.toString(), viaSieve.toString(), "--to", "sieve");
    assertEquals(0, toSieve.status(), toSieve.err());
    CliRun toDs =
        CliRun.of("convert", viaSieve.toString(), back.toString(), "--to", "datasketches");
    assertEquals(0, toDs.status(), toDs.err());

    BloomFilter read = BloomFilter.heapify(Memory.wrap(Files.readAllBytes(back)));
    CliRun q = CliRun.of("query", viaSieve.toString(), "user:0", "user:499");
    assertEquals(0, q.status(), q.err());
    assertEquals("user:0\tmaybe\nuser:499\tmaybe\n", q.out());
    for (long i = 0; i < 500; i++) {
      assertTrue(read.query("user:" + i), "DataSketches reads user:" + i + " back");
    }
  }
}
