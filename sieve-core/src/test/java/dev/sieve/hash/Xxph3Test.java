package dev.sieve.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bit-exactness of {@link Xxph3} against RocksDB's {@code Hash64}, and agreement of its three entry
 * points and all buffer kinds.
 */
class Xxph3Test {

  private static final HexFormat HEX = HexFormat.of();

  private static long rocksDbHash64(byte[] data) {
    return Xxph3.hash64(data, 0, data.length, 0);
  }

  /** Every vector of RocksDB util/hash_test.cc {@code HashTest.Hash64SmallValueSchema}. */
  @ParameterizedTest(name = "Hash64({0}) = {1}")
  @CsvSource({
    "'', 5999572062939766020",
    "08, 583283813901344696",
    "17, 16175549975585474943",
    "9a, 16322991629225003903",
    "1c, 13269285487706833447",
    "4d76, 6859542833406258115",
    "52d5, 4919611532550636959",
    "91f7, 14199427467559720719",
    "d627, 12292689282614532691",
    "30460b, 11404699285340020889",
    "56dcd6, 12404347133785524237",
    "d45233, 15853805298481534034",
    "6ab5f4, 16863488758399383382",
    "6753811c, 9010661983527562386",
    "69b8c088, 6611781377647041447",
    "1e84af2d, 15290969111616346501",
    "46dc54be, 7063754590279313623",
    "d07a6eea56, 6384167718754869899",
    "8683d5a4d8, 16874407254108011067",
    "b746bb77ce, 16809880630149135206",
    "6ca8bce599, 1249038833153141148",
    "5c5ee1a07381, 17358142495308219330",
    "085d731ce52e, 4237646583134806322",
    "42fbf252b410, 4373664924115234051",
    "73e1ff569cce, 12012981210634596029",
    "5cbe9775549a52, 5716522398211028826",
    "16823949882b36, 15604531309862565013",
    "5977f0a724f478, 8601330687345614172",
    "d3a57c0ec00207, 8088079329364056942",
    "311b98759622d39a, 9844314944338447628",
    "38d6f72820b48ae9, 10973293517982163143",
    "bb185df41203f799, 9986007080564743219",
    "80d43b3bae22a278, 1729303145008254458",
    "1ab5d0feabc361b299, 13253403748084181481",
    "8e4ac318202f06e63c, 7768754303876232188",
    "b6c0dd053fc4864cef, 12439346786701492",
    "9a5f780daf50e11f55, 10841838338450144690",
    "226f391ff8dd4f521794, 12883919702069153152",
    "32892a75483a4a0269dd, 12692903507676842188",
    "06925cf4880e7e68383e, 6540985900674032620",
    "bd2c6338bfe978b7bf15, 10551812464348219044",
  })
  void hash64SmallValueSchema(String hex, String unsignedDecimal) {
    byte[] key = HEX.parseHex(hex == null ? "" : hex);
    long expected = Long.parseUnsignedLong(unsignedDecimal);
    assertEquals(expected, rocksDbHash64(key));
    assertEquals(expected, KeyHash.hash64(key));
    assertEquals(expected, KeyHash.hash64(ByteBuffer.wrap(key)));
    if (key.length == 8) {
      assertEquals(expected, KeyHash.hash64(ByteBuffer.wrap(key).getLong()));
    }
  }

  /** RocksDB util/hash_test.cc {@code Hash64TestDescriptor}. */
  private static String hash64Descriptor(String repeat, int limit) {
    String mod61Encode = "abcdefghijklmnopqrstuvwxyz123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    byte[] input = repeat.repeat(limit / repeat.length() + 1).getBytes(StandardCharsets.US_ASCII);
    StringBuilder rv = new StringBuilder(limit);
    for (int i = 0; i < limit; i++) {
      long h = Xxph3.hash64(input, 0, i, 0);
      rv.append(mod61Encode.charAt((int) Long.remainderUnsigned(h, 61)));
    }
    return rv.toString();
  }

  /**
   * RocksDB util/hash_test.cc {@code HashTest.Hash64LargeValueSchema}: every length 0..429, so
   * every branch up to the 1024-byte block (empty, 1-3, 4-8, 9-16, 17-128, 129-240, long).
   */
  @Test
  void hash64LargeValueSchema() {
    assertEquals(
        "cRhyWsY67B6klRA1udmOuiYuX7IthyGBKqbeosz2hzVglWCmQx8nEdnpkvPfYX56Up2OWOTV"
            + "lTzfAoYwvtqKzjD8E9xttR2unelbXbIV67NUe6bOO23BxaSFRcA3njGu5cUWfgwOqNoTsszp"
            + "uPvKRP6qaUR5VdoBkJUCFIefd7edlNK5mv6JYWaGdwxehg65hTkTmjZoPKxTZo4PLyzbL9U4"
            + "xt12ITSfeP2MfBHuLI2z2pDlBb44UQKVMx27LEoAHsdLp3WfWfgH3sdRBRCHm33UxCM4QmE2"
            + "xJ7gqSvNwTeH7v9GlC8zWbGroyD3UVNeShMLx29O7tH1biemLULwAHyIw8zdtLMDpEJ8m2ic"
            + "l6Lb4fDuuFNAs1GCVUthjK8CV8SWI8Rsz5THSwn5CGhpqUwSZcFknjwWIl5rNCvDxXJqYr",
        hash64Descriptor("foo", 430));
    assertEquals(
        "c1EeRkrzgOYWLA8PuhJrwTePJewoB44WdXYDfhbk3ZxTqqg25WlPExDl7IKIQLJvnA6gJxxn"
            + "9TCSLkFGfJeXehaSS1GBqWSzfhEH4VXiXIUCuxJXxtKXcSC6FrNIQGTZbYDiUOLD6Y5inzrF"
            + "9etwQhXUBanw55xAUdNMFQAm2GjJ6UDWp2mISLiMMkLjANWMKLaZMqaFLX37qB4MRO1ooVRv"
            + "zSvaNRSCLxlggQCasQq8icWjzf3HjBlZtU6pd4rkaUxSzHqmo9oM5MghbU5Rtxg8wEfO7lVN"
            + "5wdMONYecslQTwjZUpO1K3LDf3K3XK6sUXM6ShQQ3RHmMn2acB4YtTZ3QQcHYJSOHn2DuWpa"
            + "Q8RqzX5lab92YmOLaCdOHq1BPsM7SIBzMdLgePNsJ1vvMALxAaoDUHPxoFLO2wx18IXnyX",
        hash64Descriptor("Rocks", 430));
    assertEquals(
        "c1EeRkukbkb28wLTahwD2sfUhZzaBEnF8SVrxnPVB6A7b8CaAl3UKsDZISF92GSq2wDCukOq"
            + "Jgrsp7A3KZhDiLW8dFXp8UPqPxMCRlMdZeVeJ2dJxrmA6cyt99zkQFj7ELbut6jAeVqARFnw"
            + "fnWVXOsaLrq7bDCbMcns2DKvTaaqTCLMYxI7nhtLpFN1jR755FRQFcOzrrDbh7QhypjdvlYw"
            + "cdAMSZgp9JMHxbM23wPSuH6BOFgxejz35PScZfhDPvTOxIy1jc3MZsWrMC3P324zNolO7JdW"
            + "CX2I5UDKjjaEJfxbgVgJIXxtQGlmj2xkO5sPpjULQV4X2HlY7FQleJ4QRaJIB4buhCA4vUTF"
            + "eMFlxCIYUpTCsal2qsmnGOWa8WCcefrohMjDj1fjzSvSaQwlpyR1GZHF2uPOoQagiCpHpm",
        hash64Descriptor("RocksDB", 430));
  }

  /** The oracle's input: SplitMix64 from state 0x5EED, each output as 8 little-endian bytes. */
  static byte[] splitMixBytes(int length) {
    ByteBuffer out = ByteBuffer.allocate((length + 7) & ~7).order(ByteOrder.LITTLE_ENDIAN);
    long state = 0x5EEDL;
    while (out.hasRemaining()) {
      state += 0x9E3779B97F4A7C15L;
      long z = state;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      out.putLong(z ^ (z >>> 31));
    }
    return Arrays.copyOf(out.array(), length);
  }

  private record OracleRow(long seed, int length, long hash) {}

  private static List<OracleRow> oracleRows() throws IOException {
    List<OracleRow> rows = new ArrayList<>();
    try (InputStream in = Xxph3Test.class.getResourceAsStream("xxph3-rocksdb-oracle.tsv");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        rows.add(
            new OracleRow(
                Long.parseUnsignedLong(f[0], 16),
                Integer.parseInt(f[1]),
                Long.parseUnsignedLong(f[2], 16)));
      }
    }
    return rows;
  }

  /**
   * Seeded and long-input values computed by RocksDB's own C implementation (see the resource
   * file's header): six seeds (0, 1, -1, large odd, 2^63, mixed) times 57 lengths from 0 to 4096,
   * on every branch boundary, block boundary (1024) and tail case.
   */
  @Test
  void matchesRocksDbOracleWithSeeds() throws IOException {
    List<OracleRow> rows = oracleRows();
    assertEquals(342, rows.size(), "oracle table incomplete");
    byte[] data = splitMixBytes(4096);
    assertEquals("b4a9f0039dfdf1097584bf1b16743255", HEX.formatHex(data, 0, 16));
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data);
    for (OracleRow row : rows) {
      String what = "seed " + Long.toHexString(row.seed()) + " length " + row.length();
      assertEquals(row.hash(), Xxph3.hash64(data, 0, row.length(), row.seed()), what);
      assertEquals(row.hash(), Xxph3.hash64(direct, 0, row.length(), row.seed()), what);
    }
  }

  /** RocksDB util/hash_test.cc {@code HashTest.Hash64Misc}, on all four fill bytes. */
  @Test
  void seedAndSizeChangeTheHash() {
    for (byte fill : new byte[] {0, 'a', '1', (byte) 0xff}) {
      byte[] str = new byte[1000];
      Arrays.fill(str, fill);
      for (int size = 0; size <= 1000; size++) {
        long here = Xxph3.hash64(str, 0, size, 0);
        assertEquals(here, KeyHash.hash64(str, 0, size));
        for (long varSeed = 1; varSeed != 0; varSeed <<= 1) {
          assertNotEquals(here, Xxph3.hash64(str, 0, size, varSeed), "size " + size);
        }
        for (int smallerBy = 1; smallerBy <= Math.min(30, size); smallerBy++) {
          assertNotEquals(here, Xxph3.hash64(str, 0, size - smallerBy, 0), "size " + size);
        }
      }
    }
  }

  /** RocksDB util/hash_test.cc {@code HashTest.Hash64Trivial} (its non-thorough setting). */
  @Test
  void trivialInputsHaveNonZeroHalves() {
    for (long seed = 0; seed < 0x10000; seed++) {
      long here = Xxph3.hash64(new byte[0], 0, 0, seed);
      assertNotEquals(0, (int) here);
      assertNotEquals(0, (int) (here >>> 32));
    }
    byte[] input = new byte[2];
    for (int len = 1; len <= 2; len++) {
      for (int i = 0; (i >>> (len * 8)) == 0; i++) {
        input[0] = (byte) i;
        input[1] = (byte) (i >>> 8);
        long here = Xxph3.hash64(input, 0, len, 0);
        assertNotEquals(0, (int) here);
        assertNotEquals(0, (int) (here >>> 32));
      }
    }
  }

  /**
   * For every length 0..1000 on random bytes: a sub-range of a larger array, a copied array, heap
   * buffers (plain, sliced with non-zero array offset, read-only) and direct buffers in both byte
   * orders, all read at a non-zero absolute index, agree; no buffer's position changes.
   */
  @Test
  void allSourcesAgreeForEveryLength() {
    SplittableRandom random = new SplittableRandom(42);
    int pad = 13;
    byte[] big = new byte[1000 + 2 * pad];
    random.nextBytes(big);
    ByteBuffer heap = ByteBuffer.wrap(big.clone());
    ByteBuffer sliced = ByteBuffer.wrap(big.clone(), 3, big.length - 3).slice();
    ByteBuffer readOnly = ByteBuffer.wrap(big.clone()).asReadOnlyBuffer();
    ByteBuffer directLe =
        ByteBuffer.allocateDirect(big.length).order(ByteOrder.LITTLE_ENDIAN).put(big).position(5);
    ByteBuffer directBe =
        ByteBuffer.allocateDirect(big.length).order(ByteOrder.BIG_ENDIAN).put(big).position(7);
    heap.position(9);
    readOnly.position(11);
    for (long seed : new long[] {0, 0x9E3779B97F4A7C15L}) {
      for (int len = 0; len <= 1000; len++) {
        long expected = Xxph3.hash64(Arrays.copyOfRange(big, pad, pad + len), 0, len, seed);
        String what = "length " + len + " seed " + seed;
        assertEquals(expected, Xxph3.hash64(big, pad, len, seed), what);
        assertEquals(expected, Xxph3.hash64(heap, pad, len, seed), what);
        assertEquals(expected, Xxph3.hash64(sliced, pad - 3, len, seed), what);
        assertEquals(expected, Xxph3.hash64(readOnly, pad, len, seed), what);
        assertEquals(expected, Xxph3.hash64(directLe, pad, len, seed), what);
        assertEquals(expected, Xxph3.hash64(directBe, pad, len, seed), what);
      }
    }
    assertEquals(9, heap.position());
    assertEquals(11, readOnly.position());
    assertEquals(5, directLe.position());
    assertEquals(7, directBe.position());
    assertEquals(ByteOrder.BIG_ENDIAN, directBe.order());
  }

  @Test
  void bigEndianLongEqualsHashOfItsEightBytes() {
    SplittableRandom random = new SplittableRandom(7);
    byte[] bytes = new byte[8];
    ByteBuffer view = ByteBuffer.wrap(bytes); // big-endian
    long[] fixed = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L};
    for (int i = 0; i < 20_000; i++) {
      long v = i < fixed.length ? fixed[i] : random.nextLong();
      long seed = (i & 1) == 0 ? 0 : random.nextLong();
      view.putLong(0, v);
      assertEquals(Xxph3.hash64(bytes, 0, 8, seed), Xxph3.hash64BigEndianLong(v, seed));
      if (seed == 0) {
        assertEquals(KeyHash.hash64(bytes), KeyHash.hash64(v));
      }
    }
  }

  @Test
  void rejectsRangesOutsideTheInput() {
    byte[] data = new byte[10];
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(data, 0, -1, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(data, -1, 2, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(data, 5, 6, 0));
    assertThrows(
        IndexOutOfBoundsException.class, () -> Xxph3.hash64(data, Integer.MAX_VALUE, 2, 0));
    ByteBuffer limited = ByteBuffer.allocateDirect(16).limit(10);
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(limited, 8, 3, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(limited, 0, -2, 0));
    ByteBuffer heapLimited = ByteBuffer.allocate(16).limit(10);
    assertThrows(IndexOutOfBoundsException.class, () -> Xxph3.hash64(heapLimited, 4, 7, 0));
    assertTrue(Xxph3.hash64(data, 10, 0, 0) == Xxph3.hash64(new byte[0], 0, 0, 0));
  }
}
