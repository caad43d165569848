package dev.sieve.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import dev.sieve.range.GrafiteFilter;
import dev.sieve.range.RangeFamily;
import dev.sieve.registry.FilterType;
import dev.sieve.testing.AbsentFamilies;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-range's filter family: its rows resolve to its provider, and with the provider taken away
 * (the loader seeing the families of a path without sieve-range) its types are refused by the
 * registry and by every container read with a typed exception naming the type and the module, the
 * other families unaffected; put back, the same bytes read. (sieve-core's {@code FamiliesTest}
 * checks the same refusal on its own test class path, where sieve-range is really absent.)
 */
class RangeFamiliesTest {

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
    byte[] prefix = SieveFormat.toBytes(FilterType.PREFIX_BLOOM_RANGE.builder().build(keys(300)));
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
      assertNull(FilterType.forClass(GrafiteFilter.class));
      AbsentFamilies.assertRefused(FilterType.GRAFITE, grafite, dir);
      AbsentFamilies.assertRefused(FilterType.PREFIX_BLOOM_RANGE, prefix, dir);
    } finally {
      Families.swap(before);
    }
    assertEquals(FilterType.GRAFITE, FilterType.of(SieveFormat.read(grafite)));
  }
}
