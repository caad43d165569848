package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * No false negatives under every key scheme, for every registry type: a filter built (or, for a
 * mutable type, filled) with a scheme holds every key it was given, asked singly, in a batch,
 * through its keyed view and after a container round trip; byte and text keys too where the scheme
 * defines them. Key sets: random, sequential (where a weak mixer shows), all zero, few distinct.
 */
class KeySchemePropertyTest {

  @Provide
  Arbitrary<long[]> longKeySets() {
    Arbitrary<long[]> random = Arbitraries.longs().array(long[].class).ofMaxSize(2000);
    Arbitrary<long[]> sequential =
        Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, 3000))
            .as(
                (start, n) -> {
                  long[] keys = new long[n];
                  for (int i = 0; i < n; i++) {
                    keys[i] = start + i;
                  }
                  return keys;
                });
    Arbitrary<long[]> zeros = Arbitraries.integers().between(0, 300).map(long[]::new);
    return Arbitraries.oneOf(random, sequential, zeros);
  }

  @Provide
  Arbitrary<FilterType> types() {
    return Arbitraries.of(TestTypes.builtIn());
  }

  @Provide
  Arbitrary<KeyScheme> schemes() {
    return Arbitraries.of(KeyScheme.values());
  }

  @Property(tries = 200)
  void everySchemeHoldsItsLongKeys(
      @ForAll("types") FilterType type,
      @ForAll("schemes") KeyScheme scheme,
      @ForAll("longKeySets") long[] keys) {
    if (scheme == KeyScheme.IDENTITY && !KeySchemeContainerTest.mixesItself(type)) {
      return; // refused at the builder (KeySchemeContainerTest)
    }
    List<Filter> filters = new ArrayList<>();
    if (type == FilterType.CUCKOO) {
      MutableFilter cuckoo =
          type.mutableBuilder().expectedKeys(4L * keys.length + 16).keyScheme(scheme).create();
      for (long key : keys) {
        cuckoo.add(key);
      }
      filters.add(cuckoo);
    } else {
      filters.add(TestFilters.builder(type).keyScheme(scheme).build(keys));
      filters.add(
          TestFilters.builder(type)
              .keyScheme(scheme)
              .build(Arrays.stream(keys).boxed().toList(), KeyEncoder.LONG));
      // a typed Long key is the scheme's long key (Parquet: little-endian INT64 bytes)
      assertEquals(
          java.util.HexFormat.of().formatHex(SieveFormat.toBytes(filters.get(0))),
          java.util.HexFormat.of().formatHex(SieveFormat.toBytes(filters.get(1))),
          type + " " + scheme + ": long[] and Long keys built different filters");
    }
    if (type.isMutable() && type != FilterType.CUCKOO) {
      MutableFilter m =
          type.mutableBuilder().expectedKeys(Math.max(1, keys.length)).keyScheme(scheme).create();
      for (long key : keys) {
        m.add(key);
      }
      filters.add(m);
    }
    for (Filter f : new ArrayList<>(filters)) {
      filters.add(SieveFormat.read(SieveFormat.toBytes(f)));
    }
    long[] bits = new long[(keys.length + 63) / 64];
    for (Filter f : filters) {
      assertEquals(scheme, f.keyScheme(), type + " " + f);
      for (long key : keys) {
        assertTrue(f.mayContain(key), () -> type + " " + scheme + " lost " + key);
        assertTrue(f.keyed(KeyEncoder.LONG).mayContain(key), () -> type + " keyed " + key);
      }
      long distinctMaybes = f.mayContainBatch(keys, 0, keys.length, bits);
      assertEquals(keys.length, distinctMaybes, type + " " + scheme + " batch");
    }
  }

  @Property(tries = 100)
  void everyByteSchemeHoldsItsTextKeys(
      @ForAll("types") FilterType type,
      @ForAll List<@net.jqwik.api.constraints.StringLength(max = 40) String> keys) {
    if (type == FilterType.CUCKOO) {
      return; // a Cuckoo filter's multiset behaviour is covered by its own properties
    }
    for (KeyScheme scheme : new KeyScheme[] {KeyScheme.XXPH3, KeyScheme.PARQUET_XXH64}) {
      Filter f = TestFilters.builder(type).keyScheme(scheme).build(keys, KeyEncoder.UTF8);
      Filter back = SieveFormat.read(SieveFormat.toBytes(f));
      CharSequence[] array = keys.toArray(new CharSequence[0]);
      long[] bits = new long[(array.length + 63) / 64];
      for (Filter g : new Filter[] {f, back}) {
        for (String key : keys) {
          assertTrue(g.mayContain(key), () -> type + " " + scheme + " lost " + key);
          assertTrue(g.mayContain(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        assertEquals(array.length, g.mayContainBatch(array, 0, array.length, bits));
      }
    }
  }
}
