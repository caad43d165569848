package dev.sieve.cuckoo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins the exact bytes and answers of a fixed sequence of operations (adds to the first failure, so
 * kicks and their undo; deletes; adds-if-absent; single and batch queries; heap, wrapped and
 * version-0 filters) at widths whose buckets do and do not straddle words. The digests were taken
 * before the cuckoo filter's code was split into kernel and form, so a change to the packing, the
 * addressing, the kick order or the form shows here.
 */
class CuckooBytesPinTest {

  @ParameterizedTest
  @CsvSource({
    "4, 37, 918d3164fa8d6003b20358d55e75a0cb",
    "5, 37, ad1484cdb4ba8f06b7c51571b9f287d5",
    "8, 50, 19586ff3bf530797149b365af2b13e64",
    "12, 263, de6c43c29145b911d9f5d9857e1670d7",
    "13, 101, 3732a28e081727b808e3be95cf227fbd",
    "16, 64, e6a7376c435462a12a1b727973d8e58d",
  })
  void sameBytesAndAnswers(int fingerprintBits, int buckets, String expected) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    for (int version = 0; version <= 1; version++) {
      CuckooFilter f = CuckooFilter.withBuckets(buckets, fingerprintBits);
      if (version == 0) {
        byte[] b = f.toByteArray();
        b[3] = 0;
        f = CuckooForm.read(b);
      }
      SplittableRandom r = new SplittableRandom(fingerprintBits * 1000L + buckets + version);
      long[] added = new long[8 * buckets + 8];
      int n = 0;
      while (n < added.length) {
        long h = (n % 3 == 0) ? n : r.nextLong(); // low-entropy hashes too
        boolean ok = f.addHash(h);
        md.update((byte) (ok ? 1 : 0));
        if (!ok) {
          break;
        }
        added[n++] = h;
      }
      md.update(f.toByteArray());
      for (int i = 0; i < n; i += 3) {
        md.update((byte) (f.removeHash(added[i]) ? 1 : 0));
        md.update((byte) (f.removeHash(r.nextLong()) ? 1 : 0));
      }
      for (int i = 0; i < buckets; i++) {
        md.update((byte) (f.addHashIfAbsent(i % 2 == 0 ? added[i % n] : r.nextLong()) ? 1 : 0));
      }
      byte[] bytes = f.toByteArray();
      md.update(bytes);
      long[] queries = new long[1000];
      for (int i = 0; i < queries.length; i++) {
        queries[i] = i % 2 == 0 ? added[i % n] : r.nextLong();
      }
      CuckooFilter wrapped = CuckooForm.wrap(ByteBuffer.wrap(bytes));
      for (CuckooFilter g : new CuckooFilter[] {f, wrapped, f.copy(), wrapped.copy()}) {
        long[] bits = new long[(queries.length + 63) / 64];
        g.mayContainHashes(queries, 0, queries.length, bits);
        for (int i = 0; i < queries.length; i++) {
          boolean one = g.mayContainHash(queries[i]);
          assertEquals(one, (bits[i >>> 6] >>> (i & 63) & 1) != 0, "batch and single agree");
          md.update((byte) (one ? 1 : 0));
        }
        md.update(ByteBuffer.allocate(32).putLong(g.numKeys()).putInt(g.hashCode()).array());
      }
    }
    String digest = HexFormat.of().formatHex(md.digest()).substring(0, 32);
    assertEquals(expected, digest);
  }
}
