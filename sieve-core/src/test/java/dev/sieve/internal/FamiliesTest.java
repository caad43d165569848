package dev.sieve.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.RangeFamily;
import dev.sieve.registry.FilterType;
import dev.sieve.registry.MissingFamilyException;
import dev.sieve.xor.Xor8Filter;
import dev.sieve.xor.XorFamily;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filter families: every registry row has its family's provider in sieve-core, a type is
 * registered once, and a type whose family is absent (the loader seeing no provider for it, as on a
 * path without the module that provides it) is refused by the registry and by every container read
 * with a typed exception naming the type and the module.
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
      FilterFamily.Row<?> row = Families.get().row(t);
      assertNotNull(row, t.name());
      assertSame(t, row.type(), t.name());
      assertTrue(t.isPresent(), t.name());
      assertEquals(row.filterClass(), t.filterClass(), t.name());
      assertEquals(t, FilterType.forClass(t.filterClass()), t.name());
      assertEquals(t.isForeign(), row.builder() == null, t.name());
      assertSame(Families.get().form(t), row.form(), t.name());
      assertTrue(
          Set.of("dev.sieve:sieve-core", "dev.sieve:sieve-range", "dev.sieve:sieve-interop")
              .contains(t.artifact()),
          t.artifact());
      seen.add(t);
    }
    assertEquals(EnumSet.allOf(FilterType.class), seen);
    assertEquals("dev.sieve:sieve-range", FilterType.GRAFITE.artifact());
    assertEquals("dev.sieve:sieve-interop", FilterType.ORC_BLOOM.artifact());
    assertEquals("dev.sieve:sieve-core", FilterType.XOR8.artifact());
  }

  @Test
  void aBuiltFilterIsOfItsRowsClassAndTheIdentityTraitDecidesTheScheme() {
    long[] keys = keys(500);
    for (FilterType t : FilterType.builtIn()) {
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
            () -> new Families(List.of(new XorFamily(), new RangeFamily(), new XorFamily())));
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
            IllegalStateException.class, () -> new Families(List.of(new RangeFamily(), xor8Twice)));
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
                    castForm(Families.get().form(GrafiteFilter.class))));
    assertTrue(e.getMessage().contains("GrafiteFilter's"), e.getMessage());
  }

  @SuppressWarnings("unchecked")
  private static PayloadForm<Xor8Filter> castForm(PayloadForm<?> form) {
    return (PayloadForm<Xor8Filter>) form;
  }

  @Test
  void aTypeWhoseFamilyIsAbsentIsRefusedByTheRegistryAndEveryRead(@TempDir Path dir)
      throws IOException {
    byte[] grafite = SieveFormat.toBytes(FilterType.GRAFITE.builder().build(keys(300)));
    byte[] xor8 = SieveFormat.toBytes(FilterType.XOR8.builder().build(keys(300)));
    Path file = Files.write(dir.resolve("grafite.sieve"), grafite);
    List<FilterFamily> withoutRange = new ArrayList<>();
    for (FilterFamily f : ServiceLoader.load(FilterFamily.class, getClass().getClassLoader())) {
      if (!(f instanceof RangeFamily)) {
        withoutRange.add(f);
      }
    }
    assertEquals(7, withoutRange.size(), withoutRange.toString());
    Families before = Families.swap(new Families(withoutRange));
    try {
      assertFalse(FilterType.GRAFITE.isPresent());
      assertNull(FilterType.forClass(GrafiteFilter.class));
      for (Executable registry :
          List.<Executable>of(
              FilterType.GRAFITE::builder,
              FilterType.GRAFITE::filterClass,
              FilterType.PREFIX_BLOOM_RANGE::builder)) {
        MissingFamilyException e = assertThrows(MissingFamilyException.class, registry);
        assertTrue(e.getMessage().contains("is provided by dev.sieve:sieve-range"), e.getMessage());
      }
      assertEquals(
          GRAFITE_ABSENT,
          assertThrows(MissingFamilyException.class, FilterType.GRAFITE::builder).getMessage());
      for (Executable read :
          List.<Executable>of(
              () -> SieveFormat.read(grafite),
              () -> SieveFormat.read(new ByteArrayInputStream(grafite)),
              () -> SieveFormat.wrap(ByteBuffer.wrap(grafite)),
              () -> SieveFormat.map(file))) {
        SieveFormatException e = assertThrows(SieveFormatException.class, read);
        assertEquals(10, e.offset(), e.getMessage()); // the header's type id
        assertEquals("at offset 10: " + GRAFITE_ABSENT, e.getMessage());
        MissingFamilyException cause = assertInstanceOf(MissingFamilyException.class, e.getCause());
        assertEquals(FilterType.GRAFITE, cause.type());
      }
      // the other families are unaffected
      assertEquals(FilterType.XOR8, FilterType.of(SieveFormat.read(xor8)));
    } finally {
      Families.swap(before);
    }
    assertEquals(FilterType.GRAFITE, FilterType.of(SieveFormat.read(grafite)));
  }
}
