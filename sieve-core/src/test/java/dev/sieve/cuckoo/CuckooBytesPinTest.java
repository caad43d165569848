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
 * kicks and their undo; deletes; adds-if-absent; single and batch queries; heap and wrapped
 * filters) at widths whose buckets do and do not straddle words, so a change to the packing, the
 * addressing, the kick order or the form shows here.
 */
class CuckooBytesPinTest {

  @ParameterizedTest
  @CsvSource({
    "4, 37, 78b90901afc2e6666d0537d65b74241b",
    "5, 37, 4ff344cf6a25f1d25068f9543885897f",
    "8, 50, 19817f1fa79630eff375213893b16497",
    "12, 263, 687ab043c575fe52c4818cf60d6f121e",
    "13, 101, 3d1cfade117a3e50693429d546490976",
    "16, 64, a3f7210aaabd15590f927d70833c81b7",
  })
  void sameBytesAndAnswers(int fingerprintBits, int buckets, String expected) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    CuckooFilter f = CuckooBuild.withBuckets(buckets, fingerprintBits);
    SplittableRandom r = new SplittableRandom(fingerprintBits * 1000L + buckets + 1);
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
    String digest = HexFormat.of().formatHex(md.digest()).substring(0, 32);
    assertEquals(expected, digest);
  }
}
