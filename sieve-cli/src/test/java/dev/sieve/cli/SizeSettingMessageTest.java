package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.registry.FilterType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A size setting on a type without one says why, in that type's terms: the growable Bloom filter
 * ({@code scalable-bloom}) has no fingerprints, and the sharded filter's size is its shards'. (The
 * registry's one knob is {@code fpRate}; the CLI's {@code --setting} is {@link SizeSettings}.)
 */
class SizeSettingMessageTest {

  /** Each type without a setting, and a phrase its message must carry. */
  private static final Map<FilterType, String> WHY =
      Map.of(
          FilterType.SCALABLE_BLOOM, "grows as keys arrive",
          FilterType.EXPANDABLE, "grows as keys arrive",
          FilterType.SHARDED, "its shards'",
          FilterType.XOR8, "8-bit fingerprints",
          FilterType.BINARY_FUSE8, "8-bit fingerprints",
          FilterType.XOR16, "16-bit fingerprints",
          FilterType.BINARY_FUSE16, "16-bit fingerprints",
          FilterType.ORC_BLOOM, "ORC sizes it from the rate alone",
          FilterType.GRAFITE, "a range filter",
          FilterType.PREFIX_BLOOM_RANGE, "a range filter");

  @Test
  void eachTypeWithoutASizeSettingSaysWhy() {
    int checked = 0;
    for (FilterType t : FilterType.builtIn()) {
      if (SizeSettings.has(t)) {
        continue;
      }
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SizeSettings.builder(t, 10));
      String m = e.getMessage();
      assertTrue(m.startsWith(t.cliName() + " has no size setting"), m);
      assertTrue(m.contains("got 10.0"), m);
      assertTrue(WHY.containsKey(t), "a reason is listed for " + t);
      assertTrue(m.contains(WHY.get(t)), t + ": " + m);
      if (t == FilterType.SCALABLE_BLOOM || t == FilterType.EXPANDABLE || t == FilterType.SHARDED) {
        assertFalse(m.contains("fingerprints are fixed"), m);
      }
      checked++;
    }
    assertEquals(WHY.size(), checked, "every type without a size setting is checked");
  }
}
