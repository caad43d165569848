package dev.sieve.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Every registry constant's name is its registry name in upper case: Standard128 Ribbon is {@code
 * RIBBON}, as the type is {@code ribbon} everywhere else (its {@code cliName}, the CLI, the
 * container docs, RocksDB's {@code ribbonfilter}); there is no {@code RIBBON_128} alias.
 */
class FilterTypeNamesTest {
  @Test
  void everyConstantIsNamedAsItsRegistryName() {
    for (FilterType t : FilterType.values()) {
      assertEquals(
          t.cliName(), t.name().toLowerCase(Locale.ROOT).replace('_', '-'), "constant " + t);
    }
  }

  @Test
  void ribbonIsNamedRibbon() {
    assertSame(FilterType.RIBBON, FilterType.forName("ribbon"));
    assertSame(FilterType.RIBBON, FilterType.valueOf("RIBBON"));
    assertEquals(3, FilterType.RIBBON.id(), "the container id never changes");
  }
}
