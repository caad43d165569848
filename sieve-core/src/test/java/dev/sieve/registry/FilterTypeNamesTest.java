package dev.sieve.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 item 13: the registry's constant for Standard128 Ribbon was {@code RIBBON_128} while the
 * type is {@code ribbon} everywhere else (its {@code cliName}, the CLI, the container docs,
 * RocksDB's {@code ribbonfilter}). Every constant's name is now its registry name in upper case;
 * the old alias left with the registry's move to its own package (issue 22).
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
