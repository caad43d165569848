package dev.sieve.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.cuckoo.CuckooFamily;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.format.TestTypes;
import dev.sieve.registry.FilterType;
import dev.sieve.testing.AbsentFamilies;
import dev.sieve.xor.Xor8Filter;
import dev.sieve.xor.XorFamily;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The filter families: every registry row of sieve-core has its family's provider here, a type is
 * registered once, and a type whose family is absent (sieve-core's test class path has neither
 * sieve-range nor sieve-interop) is refused by the registry and by every container read with a
 * typed exception naming the type and the module. (sieve-range's {@code RangeFamiliesTest} takes
 * its family away and puts it back.)
 */
class FamiliesTest {

  private static final String GRAFITE_ABSENT =
      "type 20 (grafite) is provided by dev.sieve:sieve-range, which is not on the class or module"
          + " path";

  private static long[] keys(int n) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = i * 0x9E3779B97F4A7C15L + 11;
    }
    return k;
  }

  @Test
  void everyRowResolvesToItsFamilyInTheCore() {
    Set<FilterType> seen = EnumSet.noneOf(FilterType.class);
    for (FilterType t : FilterType.values()) {
      assertTrue(
          Set.of("dev.sieve:sieve-core", "dev.sieve:sieve-range", "dev.sieve:sieve-interop")
              .contains(t.artifact()),
          t.artifact());
      FilterFamily.Row<?> row = Families.get().row(t);
      if (!t.artifact().equals("dev.sieve:sieve-core")) {
        // the modules beside sieve-core are not on its test class path
        assertNull(row, t.name());
        assertFalse(t.isPresent(), t.name());
        continue;
      }
      assertNotNull(row, t.name());
      assertSame(t, row.type(), t.name());
      assertTrue(t.isPresent(), t.name());
      assertEquals(row.filterClass(), t.filterClass(), t.name());
      assertEquals(t, FilterType.forClass(t.filterClass()), t.name());
      assertEquals(t.isForeign(), row.builder() == null, t.name());
      assertSame(Families.get().form(t), row.form(), t.name());
      seen.add(t);
    }
    assertTrue(seen.contains(FilterType.XOR8), seen.toString());
    assertEquals("dev.sieve:sieve-range", FilterType.GRAFITE.artifact());
    assertEquals("dev.sieve:sieve-range", FilterType.PREFIX_BLOOM_RANGE.artifact());
    assertEquals("dev.sieve:sieve-interop", FilterType.ORC_BLOOM.artifact());
    for (FilterType foreign :
        List.of(
            FilterType.GUAVA_BLOOM,
            FilterType.SPARK_BLOOM,
            FilterType.DATASKETCHES_BLOOM,
            FilterType.CASSANDRA_BLOOM)) {
      assertEquals("dev.sieve:sieve-interop", foreign.artifact(), foreign.name());
    }
    assertEquals("dev.sieve:sieve-core", FilterType.XOR8.artifact());
  }

  @Test
  void aBuiltFilterIsOfItsRowsClassAndTheIdentityTraitDecidesTheScheme() {
    long[] keys = keys(500);
    for (FilterType t : TestTypes.builtIn()) {
      Filter f = t.builder().build(keys);
      assertEquals(t, FilterType.of(f), t.name());
      FilterBuilder<? extends Filter> b = t.builder();
      if (t.isIdentitySafe()) {
        b.keyScheme(KeyScheme.IDENTITY);
        assertEquals(KeyScheme.IDENTITY, b.build(keys).keyScheme(), t.name());
      } else {
        assertThrows(
            IllegalArgumentException.class, () -> b.keyScheme(KeyScheme.IDENTITY), t.name());
        assertThrows(
            IllegalArgumentException.class, () -> f.withKeyScheme(KeyScheme.IDENTITY), t.name());
      }
    }
  }

  @Test
  void aTypeRegisteredTwiceFailsTheLoadNamingBothProviders() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> new Families(List.of(new XorFamily(), new CuckooFamily(), new XorFamily())));
    assertEquals(
        "filter type 4 (xor8) is registered twice: by dev.sieve.xor.XorFamily and by"
            + " dev.sieve.xor.XorFamily",
        e.getMessage());
  }

  @Test
  void aFilterClassRegisteredForTwoTypesFailsTheLoad() {
    PayloadForm<Xor8Filter> form = Families.get().form(Xor8Filter.class);
    FilterFamily xor8Twice =
        () ->
            List.of(
                FilterFamily.Row.of(FilterType.XOR8, Xor8Filter.class, Xor8Filter::builder, form),
                FilterFamily.Row.of(FilterType.XOR16, Xor8Filter.class, Xor8Filter::builder, form));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> new Families(List.of(new CuckooFamily(), xor8Twice)));
    assertTrue(
        e.getMessage().startsWith("dev.sieve.xor.Xor8Filter is registered for two filter types"),
        e.getMessage());
  }

  @Test
  void aRowWhoseFormIsAnotherClasssIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                FilterFamily.Row.of(
                    FilterType.XOR8,
                    Xor8Filter.class,
                    Xor8Filter::builder,
                    castForm(Families.get().form(CuckooFilter.class))));
    assertTrue(e.getMessage().contains("CuckooFilter's"), e.getMessage());
  }

  @SuppressWarnings("unchecked")
  private static PayloadForm<Xor8Filter> castForm(PayloadForm<?> form) {
    return (PayloadForm<Xor8Filter>) form;
  }

  /** A container of a type whose family is absent: one the container fuzz target keeps. */
  private static byte[] seed(String name) throws IOException {
    try (InputStream in =
        FamiliesTest.class.getResourceAsStream(
            "/dev/sieve/format/SieveContainerFuzzTestInputs/fuzz/" + name)) {
      assertNotNull(in, name);
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @CsvSource({
    "seed-grafite-40, GRAFITE, dev.sieve:sieve-range",
    "seed-prefix_bloom_range-5, PREFIX_BLOOM_RANGE, dev.sieve:sieve-range",
    "seed-orc_bloom-40, ORC_BLOOM, dev.sieve:sieve-interop"
  })
  void aTypeWhoseFamilyIsAbsentIsRefusedByTheRegistryAndEveryRead(
      String seed, FilterType type, String artifact, @TempDir Path dir) throws IOException {
    // a real container of the type, written where its module was present
    byte[] bytes = seed(seed);
    assertEquals(artifact, type.artifact());
    if (type == FilterType.GRAFITE) {
      assertEquals(GRAFITE_ABSENT, AbsentFamilies.absentMessage(type));
    }
    AbsentFamilies.assertRefused(type, bytes, dir);
  }
}
