package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 item 13: the registry's constant for Standard128 Ribbon was {@code RIBBON_128} while the
 * type is {@code ribbon} everywhere else (its {@code cliName}, the CLI, the container docs,
 * RocksDB's {@code ribbonfilter}). Every constant's name is now its registry name in upper case,
 * and the old name stays as an alias of the same constant.
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
  @SuppressWarnings("deprecation")
  void ribbonAndItsOldName() {
    assertSame(FilterType.RIBBON, FilterType.forName("ribbon"));
    assertSame(FilterType.RIBBON, FilterType.RIBBON_128);
    assertSame(FilterType.RIBBON, FilterType.valueOf("RIBBON"));
    assertEquals(3, FilterType.RIBBON.id(), "the container id never changes");
  }
}
