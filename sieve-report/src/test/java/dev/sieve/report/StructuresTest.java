package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import dev.sieve.bench.Membership;
import dev.sieve.bench.RawRandomRead;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Structures;
import dev.sieve.bench.Workload;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every adapter keeps the contract on the benchmark's own keys and reports sane sizes. */
class StructuresTest {
  private static final int N = 5_000;
  private static final Workload WORKLOAD = Workload.create(N, 1234);

  static List<StructureKind> kinds() {
    return Structures.all();
  }

  @Test
  void registryHasEveryFamilyAndUniqueNames() {
    Set<String> names = new HashSet<>();
    Set<Family> families = new HashSet<>();
    for (StructureKind k : Structures.all()) {
      assertTrue(names.add(k.name()), k.name());
      families.add(k.family());
      assertEquals(k, Structures.byName(k.name()));
    }
    assertEquals(Set.of(Family.values()), families);
    assertTrue(
        names.containsAll(
            List.of(
                "sieve-blocked-bloom",
                "guava-bloom",
                "fastfilter-blocked-bloom",
                "java-hashset",
                "sorted-array",
                "java-treeset",
                "fastutil-hashset",
                "raw-read-1x")));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Structures.byName("nope"));
    assertTrue(e.getMessage().contains("sieve-blocked-bloom"), e.getMessage());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void buildLeavesKeysAloneAndHasNoFalseNegatives(StructureKind kind) {
    long[] keys = WORKLOAD.keys();
    long[] before = keys.clone();
    Membership m = kind.build(keys, 10);
    assertArrayEquals(before, keys, "build must not modify the key array");
    long bits = m.sizeInBits();
    assertTrue(bits >= 0 || bits == -1, "size " + bits);
    if (kind.family() == Family.LIMIT) {
      return;
    }
    for (long key : keys) {
      assertTrue(m.mayContain(key), kind.name() + " false negative for " + key);
    }
  }

  /**
   * Absent keys: exact sets never say "maybe"; every filter's rate at its 8-to-20 bits/key setting
   * is under 3.5% by its model (Cuckoo8 the highest, ~2.9%), so over 20,000 absent keys more than
   * 6% false positives is a > 8-sigma event for a correct filter.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void absentKeysAreRejectedAtTheExpectedRate(StructureKind kind) {
    if (kind.family() == Family.LIMIT) {
      return;
    }
    Membership m = kind.build(WORKLOAD.keys(), 10);
    long[] absent = WORKLOAD.absentQueries(20_000);
    int fp = 0;
    for (long key : absent) {
      if (m.mayContain(key)) {
        fp++;
      }
    }
    if (kind.family() == Family.EXACT) {
      assertEquals(0, fp, kind.name());
      assertEquals(0.0, m.modelFpRate());
    } else {
      assertTrue(fp < 0.06 * absent.length, kind.name() + ": " + fp + " false positives");
    }
  }

  @Test
  void rawReadHasTheBlockedBloomFootprint() {
    long words = RawRandomRead.blockedBloomWords(N, 10);
    Membership bloom = Structures.byName("sieve-blocked-bloom").build(WORKLOAD.keys(), 10);
    assertEquals(bloom.sizeInBits(), words * 64);
    Membership one = Structures.byName("raw-read-1x").build(WORKLOAD.keys(), 10);
    Membership ten = Structures.byName("raw-read-10x").build(WORKLOAD.keys(), 10);
    assertEquals(words * 64, one.sizeInBits());
    assertEquals(10 * words * 64, ten.sizeInBits());
    // every index in range: extreme keys do not throw
    one.mayContain(-1L);
    one.mayContain(0L);
    ten.mayContain(Long.MIN_VALUE);
    assertThrows(IllegalArgumentException.class, () -> RawRandomRead.ofWords(0));
  }

  @Test
  void selectByFamilyAndName() {
    List<StructureKind> exact = RowSets.select(List.of("exact", "raw-read-1x"));
    assertEquals(5, exact.size());
    assertTrue(
        exact.stream().allMatch(k -> k.family() == Family.EXACT || k.name().equals("raw-read-1x")));
    assertFalse(RowSets.select(List.of("all")).isEmpty());
  }
}
