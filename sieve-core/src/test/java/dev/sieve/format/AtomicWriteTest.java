package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 item 5 (library part): {@code SieveFormat.write(Filter, Path)} writes a temporary file
 * in the same directory and renames it into place. Before, it truncated the file and rewrote it in
 * place: a reader that had mapped the file then saw a half-written, then a different, container.
 */
class AtomicWriteTest {
  @TempDir Path dir;

  private static long[] keys(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = r.nextLong();
    }
    return k;
  }

  @Test
  void rewritingAMappedFileLeavesTheMappingIntact() throws IOException {
    long[] oldKeys = keys(20_000, 1);
    Path p = dir.resolve("f.sieve");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(oldKeys), p);
    try (MappedSieveFile mapped = MappedSieveFile.open(p)) {
      BlockedBloomFilter next = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(500, 2));
      SieveFormat.write(next, p);
      mapped.verify(); // the mapping still holds the old, intact container
      for (long k : oldKeys) {
        assertTrue(mapped.filter().mayContain(k));
      }
      assertArrayEquals(SieveFormat.toBytes(next), Files.readAllBytes(p));
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<String> names = files.map(f -> f.getFileName().toString()).collect(Collectors.toList());
      assertEquals(List.of("f.sieve"), names, "no temporary file is left");
    }
  }

  @Test
  void aSymbolicLinkIsWrittenThrough() throws IOException {
    Path real = dir.resolve("real.sieve");
    Path link = dir.resolve("link.sieve");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(10, 3)), real);
    Files.createSymbolicLink(link, real.getFileName());
    BlockedBloomFilter f = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(100, 4));
    SieveFormat.write(f, link);
    assertTrue(Files.isSymbolicLink(link), "the link stays a link");
    assertArrayEquals(SieveFormat.toBytes(f), Files.readAllBytes(real));
  }
}
