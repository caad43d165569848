package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sieve.SieveFormatException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Corrupt, truncated and foreign files on SSTs written by rocksdbjni: flipped bits in the filter
 * block and in the footer are caught by the checksums with a {@link SieveFormatException} naming
 * the offset; no corruption anywhere ever yields another exception or a false negative.
 */
class CorruptionTest {
  @TempDir static Path dir;
  static List<byte[]> keys;
  static byte[] fv7;
  static byte[] fv5;

  @BeforeAll
  static void write() throws Exception {
    keys = RocksDbOracle.randomKeys(new Random(99), 4000, false, 24);
    fv7 =
        Files.readAllBytes(RocksDbOracle.writeSst(dir, "fv7", keys, RocksDbOracle.Spec.bloom(10)));
    fv5 =
        Files.readAllBytes(
            RocksDbOracle.writeSst(
                dir,
                "fv5",
                keys,
                RocksDbOracle.Spec.bloom(10)
                    .formatVersion(5)
                    .checksum(org.rocksdb.ChecksumType.kCRC32c)));
  }

  @Test
  void everyBitFlipInTheFilterBlockIsCaughtByItsChecksum() {
    for (byte[] file : new byte[][] {fv7, fv5}) {
      BlockHandle h = SstFile.parse(file).filter().handle();
      // every bit of the trailer and of the block's first and last 64 bytes, and a sample inside
      Random rnd = new Random(1);
      for (int trial = 0; trial < 2000; trial++) {
        long span = h.size() + Footer.BLOCK_TRAILER_BYTES;
        long pos =
            trial < 1024
                ? (trial / 8 < 64 ? trial / 8 : span - 128 + trial / 8)
                : (long) (rnd.nextDouble() * span);
        int bit = trial < 1024 ? trial % 8 : rnd.nextInt(8);
        byte[] bad = file.clone();
        bad[(int) (h.offset() + pos)] ^= (byte) (1 << bit);
        SieveFormatException e =
            assertThrows(SieveFormatException.class, () -> SstFile.parse(bad), "flip at " + pos);
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        assertEquals(h.offset(), e.offset());
      }
    }
  }

  @Test
  void everyBitFlipInAFormatVersion7FooterIsCaught() {
    int footer = fv7.length - Footer.ENCODED_LENGTH;
    for (int pos = footer; pos < fv7.length; pos++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] bad = fv7.clone();
        bad[pos] ^= (byte) (1 << bit);
        int p = pos;
        SieveFormatException e =
            assertThrows(SieveFormatException.class, () -> SstFile.parse(bad), "flip at " + p);
        assertTrue(e.offset() >= footer || p < footer + 1, e.getMessage());
        if (p >= footer + 5 && p < footer + 41 && !(p >= footer + 9 && p < footer + 13)) {
          // the checksum field itself, the metaindex size and the padding: the footer checksum
          assertTrue(
              e.getMessage().contains("footer checksum mismatch")
                  || e.getMessage().contains("reserved"),
              e.getMessage());
        }
      }
    }
  }

  @Test
  void footerChecksumMismatchNamesTheFooterOffset() {
    byte[] bad = fv7.clone();
    int footer = fv7.length - Footer.ENCODED_LENGTH;
    bad[footer + 20] ^= 1; // unchecked padding: only the footer checksum sees it
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> SstFile.parse(bad));
    assertEquals(footer, e.offset());
    assertTrue(e.getMessage().contains("footer checksum mismatch"), e.getMessage());
  }

  @Test
  void truncatedFilesAreRefused() {
    for (byte[] file : new byte[][] {fv7, fv5}) {
      for (int len : new int[] {0, 1, 52, 53, 54, 100, file.length / 2, file.length - 1}) {
        byte[] cut = java.util.Arrays.copyOf(file, len);
        assertThrows(SieveFormatException.class, () -> SstFile.parse(cut), "length " + len);
      }
    }
  }

  @Test
  void foreignFilesAreRefusedWithTheMagicNamed() {
    Random rnd = new Random(3);
    for (int i = 0; i < 50; i++) {
      byte[] junk = new byte[rnd.nextInt(4000)];
      rnd.nextBytes(junk);
      SieveFormatException e = assertThrows(SieveFormatException.class, () -> SstFile.parse(junk));
      assertTrue(e.getMessage().contains("magic") || e.getMessage().contains("too short"));
    }
    byte[] plain = fv7.clone();
    long plainMagic = Footer.PLAIN_MAGIC;
    for (int b = 0; b < 8; b++) {
      plain[plain.length - 8 + b] = (byte) (plainMagic >>> (8 * b));
    }
    assertTrue(
        assertThrows(SieveFormatException.class, () -> SstFile.parse(plain))
            .getMessage()
            .contains("plain table"));
  }

  @Test
  void randomCorruptionAnywhereNeverCrashesNorLosesAKey() {
    Random rnd = new Random(5);
    int refused = 0;
    for (int trial = 0; trial < 600; trial++) {
      byte[] file = trial % 2 == 0 ? fv7 : fv5;
      byte[] bad = file.clone();
      int flips = 1 + rnd.nextInt(3);
      for (int f = 0; f < flips; f++) {
        bad[rnd.nextInt(bad.length)] ^= (byte) (1 << rnd.nextInt(8));
      }
      SstFile sst;
      try {
        sst = SstFile.parse(bad);
      } catch (SieveFormatException e) {
        refused++;
        continue;
      } catch (RuntimeException e) {
        fail("trial " + trial + ": " + e, e);
        return;
      }
      // parsed: then the filter must still hold every key (a flip in unread data blocks)
      for (byte[] k : keys) {
        assertTrue(sst.filter().mayContain(k), "trial " + trial + ": false negative");
      }
    }
    assertTrue(refused > 0, "some flips must hit checked bytes");
  }
}
