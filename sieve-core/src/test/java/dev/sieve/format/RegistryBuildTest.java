package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.KeyedFilter;
import dev.sieve.MergeableFilter;
import dev.sieve.MutableFilter;
import dev.sieve.MutableFilterBuilder;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every filter type of the registry ({@link FilterType}) is built from every key form — {@code
 * String}, {@code long}, {@code int}, {@code byte[]} and a custom-encoder key type — through the
 * registry and through its class's own builder; the same keys give the same filter bytes whatever
 * form carries them, and no key is reported absent. The golden files pin that long keys give the
 * bytes they gave before the typed API ({@link SieveFormatGoldenTest}).
 */
class RegistryBuildTest {

  /** A composite key type with its own encoder: tenant as 8 big-endian bytes, then the name. */
  record User(long tenant, String name) {}

  static final KeyEncoder<User> USERS = (u, sink) -> sink.putLong(u.tenant()).putUtf8(u.name());

  private static byte[] userBytes(User u) {
    byte[] name = u.name().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + name.length).putLong(u.tenant()).put(name).array();
  }

  private static final int N = 3000;

  private static String[] strings() {
    String[] out = new String[N];
    for (int i = 0; i < N; i++) {
      out[i] = "user:" + i + (i % 3 == 0 ? "-é✓\uD83D\uDE00" : i % 7 == 0 ? "\uD800" : "");
    }
    return out;
  }

  private static byte[][] utf8(String[] strings) {
    byte[][] out = new byte[strings.length][];
    for (int i = 0; i < strings.length; i++) {
      out[i] = strings[i].getBytes(StandardCharsets.UTF_8);
    }
    return out;
  }

  private static void assertSameFilter(Filter expected, Filter actual, String what) {
    assertArrayEquals(SieveFormat.toBytes(expected), SieveFormat.toBytes(actual), what);
  }

  /** The types whose fingerprint width fixes their size (the sharded one: its shards'). */
  private static final Set<FilterType> FIXED_WIDTH =
      Set.of(
          FilterType.XOR8,
          FilterType.XOR16,
          FilterType.BINARY_FUSE8,
          FilterType.BINARY_FUSE16,
          FilterType.SHARDED);

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void stringKeysGiveTheFilterOfTheirUtf8Bytes(FilterType type) {
    String[] strings = strings();
    byte[][] bytes = utf8(strings);
    Filter expected = TestFilters.builder(type).build(bytes);
    assertSameFilter(expected, TestFilters.builder(type).build(strings), type + " String[]");
    assertSameFilter(
        expected,
        TestFilters.builder(type).build(Arrays.asList(strings), KeyEncoder.UTF8),
        type + " Iterable<String>");
    assertSameFilter(
        expected,
        TestFilters.builder(type).build(Arrays.stream(strings), KeyEncoder.UTF8),
        type + " Stream<String>");
    KeyedFilter<CharSequence> typed = expected.keyed(KeyEncoder.UTF8);
    long[] bits = new long[(N + 63) / 64];
    assertEquals(N, expected.mayContainBatch(strings, 0, N, bits), type + " String batch");
    for (int i = 0; i < N; i++) {
      assertTrue(expected.mayContain(strings[i]), type + " " + strings[i]);
      assertTrue(typed.mayContain(new StringBuilder(strings[i])), type + " " + strings[i]);
      assertTrue(expected.mayContain(bytes[i]), type + " bytes " + i);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void longIntAndCustomKeysGiveTheFilterOfTheirBytes(FilterType type) {
    // under XXPH3 a number is its bytes; under the type's own default (FAST where no format fixes
    // the hash) a number is hashed as a number, and a custom key as its bytes under both
    longIntAndCustomKeys(type, KeyScheme.XXPH3);
    KeyScheme own = TestFilters.builder(type).keyScheme();
    if (own != KeyScheme.XXPH3) {
      longIntAndCustomKeys(type, own);
    }
  }

  private static void longIntAndCustomKeys(FilterType type, KeyScheme scheme) {
    long[] longs = new SplittableRandom(11).longs(N).toArray();
    List<Long> boxed = new ArrayList<>();
    List<Integer> ints = new ArrayList<>();
    List<User> users = new ArrayList<>();
    byte[][] longBytes = new byte[N][];
    byte[][] intBytes = new byte[N][];
    byte[][] userBytes = new byte[N][];
    for (int i = 0; i < N; i++) {
      boxed.add(longs[i]);
      ints.add((int) longs[i]);
      users.add(new User(longs[i] >>> 40, "name-" + i));
      longBytes[i] = ByteBuffer.allocate(8).putLong(longs[i]).array();
      intBytes[i] = ByteBuffer.allocate(4).putInt((int) longs[i]).array();
      userBytes[i] = userBytes(users.get(i));
    }
    java.util.function.Supplier<FilterBuilder<? extends Filter>> builder =
        () -> TestFilters.builder(type).keyScheme(scheme);
    Filter fromLongs = builder.get().build(longs);
    Filter fromInts = builder.get().build(ints, KeyEncoder.INT);
    if (scheme == KeyScheme.XXPH3) {
      assertSameFilter(builder.get().build(longBytes), fromLongs, type + " long as 8 bytes");
      assertSameFilter(builder.get().build(intBytes), fromInts, type + " int");
    } else {
      // FAST: a number is not its bytes, and an int is the long of the same value
      assertFalse(
          Arrays.equals(
              SieveFormat.toBytes(builder.get().build(longBytes)), SieveFormat.toBytes(fromLongs)),
          type + " long and its 8 bytes are two keys under " + scheme);
      long[] widened = ints.stream().mapToLong(Integer::longValue).toArray();
      assertSameFilter(builder.get().build(widened), fromInts, type + " int as its long");
    }
    assertSameFilter(fromLongs, builder.get().build(boxed, KeyEncoder.LONG), type + " Long");
    Filter fromUsers = builder.get().build(users.stream(), USERS);
    assertSameFilter(builder.get().build(userBytes), fromUsers, type + " User");

    KeyedFilter<User> typedUsers = fromUsers.keyed(USERS);
    User[] userArray = users.toArray(new User[0]);
    long[] bits = new long[(N + 63) / 64];
    assertEquals(N, typedUsers.mayContainBatch(userArray, 0, N, bits), type + " User batch");
    for (int i = 0; i < N; i++) {
      assertTrue(fromLongs.mayContain(longs[i]), type + " long " + i);
      assertTrue(fromInts.mayContainInt((int) longs[i]), type + " int " + i);
      assertTrue(fromInts.keyed(KeyEncoder.INT).mayContain(ints.get(i)), type + " Integer " + i);
      assertTrue(typedUsers.mayContain(users.get(i)), type + " user " + i);
      assertTrue(fromUsers.mayContain(users.get(i), USERS), type + " user " + i);
    }
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void theRegistryAndTheClassBuilderAreOne(FilterType type) throws Exception {
    Method own = type.filterClass().getMethod("builder");
    FilterBuilder<?> classBuilder = (FilterBuilder<?>) own.invoke(null);
    FilterBuilder<? extends Filter> registryBuilder = type.builder();
    assertSame(classBuilder.getClass(), registryBuilder.getClass());
    long[] keys = new SplittableRandom(5).longs(2000).toArray();
    Filter a = registryBuilder.build(keys);
    Filter b = classBuilder.build(keys);
    assertSame(type.filterClass(), a.getClass());
    assertSameFilter(a, b, type + " registry vs class builder");
    assertSame(type, FilterType.forName(type.cliName()));
    assertSame(type, FilterType.of(a));
    // and the registry reads what it names
    Filter read =
        SieveFormat.read(
            new ByteArrayInputStream(SieveFormat.toBytes(a)), TestTypes.filterClass(type));
    assertSameFilter(a, read, type + " read back");
  }

  @Test
  void namesAreStableAndUnique() {
    Set<String> names = new HashSet<>();
    for (FilterType t : FilterType.values()) {
      assertTrue(names.add(t.cliName()), t.cliName());
      assertTrue(t.cliName().matches("[a-z0-9-]+"), t.cliName());
    }
    assertEquals(
        List.of(
            "blocked-bloom",
            "standard-bloom",
            "ribbon",
            "xor8",
            "xor16",
            "binary-fuse8",
            "binary-fuse16",
            "cuckoo",
            "split-block-bloom",
            "bumped-ribbon",
            "scalable-bloom",
            "sharded",
            "expandable",
            "guava-bloom",
            "spark-bloom",
            "datasketches-bloom",
            "orc-bloom",
            "cassandra-bloom",
            "grafite",
            "prefix-bloom-range",
            "two-word-bloom"),
        Arrays.stream(FilterType.values()).map(FilterType::cliName).toList());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FilterType.forName("bloom"));
    assertTrue(e.getMessage().contains("blocked-bloom"), e.getMessage());
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void traitsMatchWhatTheClassesDo(FilterType type) throws Exception {
    Class<?> cls = type.filterClass();
    assertEquals(MutableFilter.class.isAssignableFrom(cls), type.isMutable(), type + " mutable");
    assertEquals(
        MergeableFilter.class.isAssignableFrom(cls), type.isMergeable(), type + " mergeable");
    // a mergeable type has union; the expandable filter has one too, but is not a MergeableFilter
    // (its union doubles the table and adds rates: neither exact nor safe beside other threads)
    assertEquals(
        hasMethod(cls, "union", cls),
        type.isMergeable() || type == FilterType.EXPANDABLE,
        type + " has union");
    assertEquals(
        hasMethod(cls, "toRocksDbFilterBlock"), type.isRocksDbCompatible(), type + " RocksDB");
    if (type.isMutable()) {
      MutableFilterBuilder<? extends MutableFilter> b = type.mutableBuilder();
      MutableFilter empty = b.expectedKeys(500).fpRate(0.02).create();
      assertFalse(empty.mayContain("absent"));
      assertTrue(empty.add("present"));
      assertTrue(empty.mayContain("present"));
      assertTrue(empty.mayContain("present".getBytes(StandardCharsets.UTF_8)));
    } else {
      assertThrows(UnsupportedOperationException.class, type::mutableBuilder);
      Filter built = type.builder().build(new long[] {1, 2, 3});
      assertThrows(UnsupportedOperationException.class, () -> built.keyed(KeyEncoder.LONG).add(4L));
    }
    if (type != FilterType.SHARDED) {
      // shardable: ShardedFilter holds it (the registry's trait is the shard-class list)
      List<Filter> one = List.of(type.builder().build(new long[] {1, 2, 3}));
      if (type.isShardable()) {
        assertEquals(1, ShardedFilter.of(one).shards().size(), type + " shardable");
      } else {
        assertThrows(IllegalArgumentException.class, () -> ShardedFilter.of(one), type + "");
      }
    }
    if (type.isRocksDbCompatible() || type.isMutable()) {
      // hashed exactly as RocksDB (or Parquet, or a Bloom filter) does: no seed to set
      assertThrows(UnsupportedOperationException.class, () -> type.builder().seed(99));
    } else {
      type.builder().seed(99); // the static Sieve-format filters take a seed
    }
  }

  /**
   * Every mergeable type unions the same way: same shape, every key of both present after, the copy
   * independent; a different shape is an {@link IllegalArgumentException} naming both.
   */
  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  @SuppressWarnings({"unchecked", "rawtypes"})
  void mergeableTypesUnionAndCopyAlike(FilterType type) {
    if (!type.isMergeable()) {
      return;
    }
    MergeableFilter a = (MergeableFilter) type.mutableBuilder().expectedKeys(2000).create();
    MergeableFilter b = (MergeableFilter) type.mutableBuilder().expectedKeys(2000).create();
    for (int i = 0; i < 1000; i++) {
      a.add("a" + i);
      b.add("b" + i);
    }
    MergeableFilter before = (MergeableFilter) a.copy();
    a.union(b);
    for (int i = 0; i < 1000; i++) {
      assertTrue(a.mayContain("a" + i) && a.mayContain("b" + i), type + " union lost " + i);
    }
    assertTrue(a.numKeys() >= 1900, type + " union count " + a.numKeys());
    int stillAbsent = 0;
    for (int i = 0; i < 1000; i++) {
      stillAbsent += before.mayContain("b" + i) ? 0 : 1;
    }
    assertTrue(stillAbsent > 900, type + ": the copy changed with the original");
    MergeableFilter other = (MergeableFilter) type.mutableBuilder().expectedKeys(100_000).create();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> a.union(other));
    assertTrue(e.getMessage().contains("different shapes"), e.getMessage());
  }

  private static boolean hasMethod(Class<?> cls, String name, Class<?>... params) {
    try {
      cls.getMethod(name, params);
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }

  /**
   * {@code fpRate(f)} means the same in every class: the modelled rate of the filter built for the
   * keys is at most {@code f} (Ribbon within 10%: its column split rounds to whole blocks), and the
   * measured rate agrees with the model to 5 standard deviations of 200,000 absent queries, plus
   * 15% for the model. A fixed-width filter rejects a rate below its own, naming it.
   */
  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void fpRateMeansTheSameInEveryClass(FilterType type) {
    double target = 0.01;
    long[] keys = new SplittableRandom(21).longs(20_000).map(k -> k >>> 1).toArray();
    Filter f = type.builder().fpRate(target).build(keys);
    // the Ribbons' fractional result bits interpolate the rate between two whole widths
    double slack = type == FilterType.RIBBON || type == FilterType.BUMPED_RIBBON ? 1.1 : 1.0 + 1e-9;
    assertTrue(f.modelledFpRate() <= target * slack, type + " models " + f.modelledFpRate());
    int queries = 200_000;
    int fp = 0;
    for (int i = 0; i < queries; i++) {
      fp += f.mayContain(Long.MIN_VALUE | (i * 0x9E3779B97F4A7C15L)) ? 1 : 0;
    }
    double measured = (double) fp / queries;
    double p = f.modelledFpRate();
    double sd = Math.sqrt(p * (1 - p) / queries);
    assertTrue(
        Math.abs(measured - p) <= 5 * sd + 0.15 * p,
        type + ": measured " + measured + " vs modelled " + p);
    if (FIXED_WIDTH.contains(type)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> type.builder().fpRate(1e-9));
      assertTrue(e.getMessage().contains("1.0E-9"), e.getMessage());
    }
  }
}
