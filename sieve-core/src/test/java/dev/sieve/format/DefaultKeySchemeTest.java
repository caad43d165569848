package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The builders' default key scheme: {@link KeyScheme#FAST} exactly for the types whose format fixes
 * no hash, the owner's XXPH3 for the others; FAST's definition (numbers by {@link KeyHash#mix64},
 * bytes and text by XXPH3); and a default filter answering every key kind it was given, before and
 * after a container round trip, which carries the scheme's flag.
 */
class DefaultKeySchemeTest {

  /** Every built-in type's default, written out: a new type must be placed here by hand. */
  private static final Map<FilterType, KeyScheme> DEFAULTS = new EnumMap<>(FilterType.class);

  static {
    for (FilterType t :
        List.of(
            FilterType.TWO_WORD_BLOOM,
            FilterType.STANDARD_BLOOM,
            FilterType.SCALABLE_BLOOM,
            FilterType.XOR8,
            FilterType.XOR16,
            FilterType.BINARY_FUSE8,
            FilterType.BINARY_FUSE16,
            FilterType.CUCKOO,
            FilterType.EXPANDABLE,
            FilterType.BUMPED_RIBBON,
            FilterType.SHARDED)) {
      DEFAULTS.put(t, KeyScheme.FAST);
    }
    // RocksDB's (blocked Bloom, Standard128 Ribbon), Parquet's and ORC's layouts, and the range
    // filters, whose long keys are values: the owner's hash stays
    for (FilterType t :
        List.of(
            FilterType.BLOCKED_BLOOM,
            FilterType.RIBBON,
            FilterType.SPLIT_BLOCK_BLOOM,
            FilterType.ORC_BLOOM,
            FilterType.GRAFITE,
            FilterType.PREFIX_BLOOM_RANGE)) {
      DEFAULTS.put(t, KeyScheme.XXPH3);
    }
  }

  @ParameterizedTest
  @MethodSource("builtIn")
  void eachTypesDefaultIsFastExactlyWhereNoFormatFixesTheHash(FilterType type) {
    assertTrue(DEFAULTS.containsKey(type), type + " has no expected default here");
    assertEquals(DEFAULTS.get(type), type.builder().keyScheme(), type.cliName());
    if (type.isMutable()) {
      assertEquals(DEFAULTS.get(type), type.mutableBuilder().create().keyScheme(), type.cliName());
    }
    // the setter still overrides the default, both ways
    assertEquals(KeyScheme.XXPH3, type.builder().keyScheme(KeyScheme.XXPH3).keyScheme());
    assertEquals(KeyScheme.FAST, type.builder().keyScheme(KeyScheme.FAST).keyScheme());
  }

  /** The types Sieve builds whose family is on this run's class path. */
  static Stream<FilterType> builtIn() {
    return FilterType.builtIn().stream().filter(FilterType::isPresent);
  }

  static Stream<FilterType> fastTypes() {
    return builtIn().filter(t -> DEFAULTS.get(t) == KeyScheme.FAST);
  }

  @Test
  void fastHashesNumbersByTheMixerAndBytesByXxph3() {
    SplittableRandom random = new SplittableRandom(31);
    long[] keys = new long[1000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i < 100 ? i - 50 : random.nextLong();
    }
    long[] batch = new long[keys.length];
    KeyScheme.FAST.hash(keys, 0, keys.length, batch, 0);
    for (int i = 0; i < keys.length; i++) {
      long k = keys[i];
      assertEquals(KeyHash.mix64(k), KeyScheme.FAST.hash(k), "long " + k);
      assertEquals(KeyScheme.MIX64.hash(k), KeyScheme.FAST.hash(k), "as MIX64, long " + k);
      assertEquals(KeyHash.mix64(k), batch[i], "batch, long " + k);
      assertEquals(KeyHash.mix64(k), KeyScheme.FAST.hash(k, KeyEncoder.LONG), "Long " + k);
      int n = (int) k;
      assertEquals(KeyHash.mix64(n), KeyScheme.FAST.hashInt(n), "int " + n);
      assertEquals(KeyHash.mix64(n), KeyScheme.FAST.hash(n, KeyEncoder.INT), "Integer " + n);
      double d = Double.longBitsToDouble(k);
      long dBits = Double.doubleToRawLongBits(d);
      assertEquals(KeyHash.mix64(dBits), KeyScheme.FAST.hashDouble(d), "double " + d);
      assertEquals(KeyHash.mix64(dBits), KeyScheme.FAST.hash(d, KeyEncoder.DOUBLE), "Double");
      float f = Float.intBitsToFloat(n);
      long fBits = Float.floatToRawIntBits(f);
      assertEquals(KeyHash.mix64(fBits), KeyScheme.FAST.hashFloat(f), "float " + f);
      assertEquals(KeyHash.mix64(fBits), KeyScheme.FAST.hash(f, KeyEncoder.FLOAT), "Float");

      byte[] bytes = ByteBuffer.allocate(8).putLong(k).array();
      byte[] shortKey = new byte[i % 40];
      random.nextBytes(shortKey);
      for (byte[] b : new byte[][] {bytes, shortKey}) {
        long xxph3 = KeyHash.hash64(b);
        assertEquals(xxph3, KeyScheme.FAST.hash(b, 0, b.length));
        assertEquals(xxph3, KeyScheme.FAST.hash(ByteBuffer.wrap(b)));
        assertEquals(xxph3, KeyScheme.FAST.hash(b, KeyEncoder.BYTES));
        assertEquals(KeyScheme.XXPH3.hash(b, 0, b.length), KeyScheme.FAST.hash(b, 0, b.length));
      }
      String text = "key-" + k + "-\u00e9\u4e2d";
      long utf8 = KeyHash.hash64(text.getBytes(StandardCharsets.UTF_8));
      assertEquals(utf8, KeyScheme.FAST.hash(text), text);
      assertEquals(utf8, KeyScheme.FAST.hash(text, KeyEncoder.UTF8), text);
      // a number and its bytes are two keys under FAST (one under XXPH3)
      assertNotEquals(KeyScheme.FAST.hash(k), KeyScheme.FAST.hash(bytes, 0, 8), "long " + k);
      assertEquals(KeyScheme.XXPH3.hash(k), KeyScheme.XXPH3.hash(bytes, 0, 8), "long " + k);
    }
    // an encoder of its own is hashed by the bytes it writes
    KeyEncoder<Long> own = (key, sink) -> sink.putLong(key);
    assertEquals(KeyHash.hash64(42L), KeyScheme.FAST.hash(42L, own));
    assertEquals(SieveFormat.FLAG_FAST_KEYS, KeyScheme.FAST.containerFlag());
    assertEquals(1 << 9, SieveFormat.FLAG_FAST_KEYS);
    assertFalse(KeyScheme.FAST.longKeysOnly());
  }

  /**
   * A filter built by the default builder answers every {@code long}, {@code byte[]} and {@code
   * String} key it was built from, and a mutable one every kind of key added (numbers of every
   * width, bytes, buffers, text, typed keys), before and after a container round trip, which
   * records FAST (flag bit 9) and gives it back.
   */
  @ParameterizedTest
  @MethodSource("fastTypes")
  void aDefaultFilterAnswersEveryKeyKindBeforeAndAfterARoundTrip(FilterType type) {
    SplittableRandom random = new SplittableRandom(type.id());
    int n = 2000;
    long[] longs = random.longs(n).toArray();
    byte[][] bytes = new byte[n][];
    String[] strings = new String[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = new byte[1 + random.nextInt(30)];
      random.nextBytes(bytes[i]);
      strings[i] = "user:" + random.nextLong();
    }
    List<Filter> filters = new ArrayList<>();
    Filter fromLongs = type.builder().build(longs);
    Filter fromBytes = type.builder().build(bytes);
    Filter fromStrings = type.builder().build(strings);
    for (Filter f : List.of(fromLongs, fromBytes, fromStrings)) {
      assertEquals(KeyScheme.FAST, f.keyScheme(), type.cliName());
      filters.add(f);
      filters.addAll(roundTrips(type, f));
    }
    for (int r = 0; r < filters.size(); r += 4) {
      for (int i = 0; i < n; i++) {
        for (int j = r; j < r + 4; j++) {
          Filter f = filters.get(j);
          boolean ok =
              r == 0
                  ? f.mayContain(longs[i]) && f.mayContain(longs[i], KeyEncoder.LONG)
                  : r == 4
                      ? f.mayContain(bytes[i]) && f.mayContain(ByteBuffer.wrap(bytes[i]))
                      : f.mayContain(strings[i])
                          && f.mayContain(strings[i].getBytes(StandardCharsets.UTF_8));
          assertTrue(ok, type.cliName() + " reading " + (j - r) + " lost key " + i);
        }
      }
    }
    if (type.isMutable()) {
      MutableFilter m = type.mutableBuilder().expectedKeys(8L * n).create();
      assertEquals(KeyScheme.FAST, m.keyScheme());
      for (int i = 0; i < n; i++) {
        m.add(longs[i]);
        m.add(bytes[i]);
        m.add(strings[i]);
        m.addInt((int) longs[i]);
        m.addDouble(Double.longBitsToDouble(longs[i] >>> 2));
      }
      List<Filter> readings = new ArrayList<>(List.of(m));
      readings.addAll(roundTrips(type, m));
      for (Filter f : readings) {
        for (int i = 0; i < n; i++) {
          int asInt = (int) longs[i];
          assertTrue(
              f.mayContain(longs[i])
                  && f.mayContain(bytes[i])
                  && f.mayContain(strings[i])
                  && f.mayContainInt(asInt)
                  && f.mayContain((long) asInt) // the long of the same value: one key
                  && f.mayContain(asInt, KeyEncoder.INT)
                  && f.mayContainDouble(Double.longBitsToDouble(longs[i] >>> 2)),
              type.cliName() + " lost added key " + i);
        }
      }
    }
  }

  /** The container of {@code f} read back from bytes, wrapped, and read as its class. */
  private static List<Filter> roundTrips(FilterType type, Filter f) {
    byte[] container = SieveFormat.toBytes(f);
    assertEquals(
        SieveFormat.FLAG_FAST_KEYS,
        ByteBuffer.wrap(container).order(ByteOrder.LITTLE_ENDIAN).getInt(12),
        type.cliName() + " flags");
    List<Filter> out =
        List.of(
            SieveFormat.read(container),
            SieveFormat.wrap(ByteBuffer.wrap(container)),
            SieveFormat.read(container, f.getClass()));
    for (Filter back : out) {
      assertSame(f.getClass(), back.getClass());
      assertEquals(KeyScheme.FAST, back.keyScheme(), type.cliName() + " read back");
    }
    return out;
  }
}
