package dev.sieve.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.RangeFamily;
import dev.sieve.registry.FilterType;
import dev.sieve.registry.MissingFamilyException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-range's filter family: its rows resolve to its provider, and with the provider taken away
 * (the loader seeing the families of a path without sieve-range) its types are refused by the
 * registry and by every container read with a typed exception naming the type and the module, the
 * other families unaffected; put back, the same bytes read. (sieve-core's {@code FamiliesTest}
 * checks the same refusal on its own test class path, where sieve-range is really absent.)
 */
class RangeFamiliesTest {

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
  void theRangeRowsResolveToTheRangeFamily() {
    for (FilterType t : List.of(FilterType.GRAFITE, FilterType.PREFIX_BLOOM_RANGE)) {
      FilterFamily.Row<?> row = Families.get().row(t);
      assertNotNull(row, t.name());
      assertSame(t, row.type(), t.name());
      assertTrue(t.isPresent(), t.name());
      assertEquals("dev.sieve:sieve-range", t.artifact());
      assertEquals(row.filterClass(), t.filterClass(), t.name());
      assertEquals(t, FilterType.forClass(t.filterClass()), t.name());
      assertSame(Families.get().form(t), row.form(), t.name());
      assertSame(RangeFamily.class, providerOf(t).getClass(), t.name());
    }
  }

  /** The provider on this class path whose rows include {@code type}. */
  private static FilterFamily providerOf(FilterType type) {
    for (FilterFamily f :
        ServiceLoader.load(FilterFamily.class, FilterFamily.class.getClassLoader())) {
      if (f.rows().stream().anyMatch(r -> r.type() == type)) {
        return f;
      }
    }
    throw new AssertionError("no provider for " + type);
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
    // sieve-core's six families (this module's test class path has no sieve-interop)
    assertEquals(6, withoutRange.size(), withoutRange.toString());
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
