package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mapped container changed underneath. {@code verify()} recomputes the payload checksum of the
 * mapping on demand and reports a changed byte, a zero-filled payload, a rewritten header or
 * checksum, and a truncation (as a {@link SieveFormatException}, not an {@link InternalError}); a
 * file replaced by rename leaves the mapping intact.
 */
class MappedSieveFileTest {
  @TempDir Path dir;

  private static long[] keys(int n) {
    SplittableRandom r = new SplittableRandom(5);
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = r.nextLong();
    }
    return k;
  }

  private Path written(Filter f, String name) throws IOException {
    Path p = dir.resolve(name);
    SieveFormat.write(f, p);
    return p;
  }

  private static void overwrite(Path p, long at, byte[] bytes) throws IOException {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(bytes), at);
    }
  }

  @Test
  void verifyFindsAChangedPayloadByte() throws IOException {
    long[] keys = keys(10_000);
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys), "b.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p)) {
      m.verify();
      long len = Files.size(p);
      overwrite(p, 64 + 100, new byte[] {(byte) 0x5A});
      SieveFormatException e = assertThrows(SieveFormatException.class, m::verify);
      assertEquals(len - 4, e.offset(), e.getMessage());
      assertTrue(e.getMessage().contains("changed underneath"), e.getMessage());
    }
  }

  /** Zero-filling the payload in place: the mapped filter loses keys silently; verify() says so. */
  @Test
  void zeroFilledPayloadLosesKeysAndVerifySaysSo() throws IOException {
    long[] keys = keys(10_000);
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys), "z.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p)) {
      Filter f = m.filter(BlockedBloomFilter.class);
      assertTrue(f.mayContain(keys[0]));
      overwrite(p, 64, new byte[(int) Files.size(p) - 64 - 4 - 5]);
      assertFalse(f.mayContain(keys[0]), "the mapping shows the zeroed file: a false negative");
      assertThrows(SieveFormatException.class, m::verify);
    }
  }

  @Test
  void verifyFindsAHeaderOrChecksumRewrite() throws IOException {
    CuckooFilter c = CuckooFilter.createWithFingerprintBits(1000, 12);
    for (long k : keys(1000)) {
      c.add(k);
    }
    Path p = written(c, "c.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p)) {
      m.verify();
      overwrite(p, 20, new byte[] {1});
      assertEquals(20, assertThrows(SieveFormatException.class, m::verify).offset());
    }
    Path q = written(c, "c2.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(q)) {
      long end = Files.size(q);
      overwrite(q, end - 4, new byte[4]);
      assertEquals(end - 4, assertThrows(SieveFormatException.class, m::verify).offset());
    }
  }

  @Test
  void truncationIsReportedNotAnInternalError() throws IOException {
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(50_000)), "t.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p)) {
      long size = Files.size(p);
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
        ch.truncate(size / 2);
      }
      SieveFormatException e = assertThrows(SieveFormatException.class, m::verify);
      assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }
  }

  /** Replace-by-rename, the recommended way: the old mapping keeps its bytes and verifies. */
  @Test
  void replaceByRenameLeavesTheMappingIntact() throws IOException {
    long[] keys = keys(10_000);
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys), "r.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p)) {
      Path next = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(3)), "next.sieve");
      Files.move(next, p, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      m.verify();
      for (long k : keys) {
        assertTrue(m.filter().mayContain(k));
      }
      assertEquals(3, SieveFormat.map(p).numKeys(), "the path now names the new file");
    }
  }

  /** Opened without the checksum pass, verify() later finds corruption that was already there. */
  @Test
  void uncheckedOpenThenVerify() throws IOException {
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(1000)), "u.sieve");
    overwrite(p, 70, new byte[] {(byte) 0xFF});
    assertThrows(SieveFormatException.class, () -> MappedSieveFile.open(p).close());
    try (MappedSieveFile m = MappedSieveFile.open(p, false)) {
      assertThrows(SieveFormatException.class, m::verify);
    }
    MappedSieveFile closed =
        MappedSieveFile.open(written(CuckooFilter.createWithFingerprintBits(10, 8), "e.sieve"));
    closed.close();
    assertThrows(IllegalStateException.class, closed::verify);
    assertEquals(0, closed.filter().numKeys(), "the filter outlives close()");
  }

  /** The segmented path (payload over one buffer), with 4 KiB segments standing in for 1 GiB. */
  @Test
  void segmentedMappingVerifies() throws IOException {
    Path p = written(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(20_000)), "s.sieve");
    try (MappedSieveFile m = MappedSieveFile.open(p, true, 12, 1000)) {
      assertTrue(m.filter().mayContain(keys(1)[0]));
      m.verify();
      overwrite(p, 64 + 3 * 4096 + 1, new byte[] {(byte) 0x77});
      assertThrows(SieveFormatException.class, m::verify);
    }
  }
}
