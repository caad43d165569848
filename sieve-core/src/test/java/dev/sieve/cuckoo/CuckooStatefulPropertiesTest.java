package dev.sieve.cuckoo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * A stateful property: random sequences of add, delete, delete-of-a-never-added-key and query run
 * against a Cuckoo filter and a multiset model ({@code HashMap} of key to copies). After every
 * step: every key with copies in the model is present (no false negatives), the stored count equals
 * the model's total, a failed add left the bytes unchanged, and a delete of a never-added key that
 * the filter does not report present returns {@code false} and changes nothing.
 *
 * <p>Tables are small (1 to 24 buckets) so that adds hit full buckets, long kick chains and full
 * tables; widths 4, 8, 12 and 16 cover lanes that straddle 64-bit words (12 bits: 48-bit buckets).
 */
class CuckooStatefulPropertiesTest {

  enum Kind {
    ADD,
    REMOVE_ADDED,
    REMOVE_NEVER_ADDED,
    QUERY
  }

  record Op(Kind kind, int key) {}

  /** Keys 0..39 may be added; keys 1000.. are never added. Both are mixed into 64-bit hashes. */
  static long hashOf(int key) {
    long h = key * 0x9E37_79B9_7F4A_7C15L + 0x632B_E59B_D9B4_E019L;
    h = (h ^ (h >>> 31)) * 0xBF58_476D_1CE4_E5B9L;
    return h ^ (h >>> 29);
  }

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Kind> kinds =
        Arbitraries.frequency(
            net.jqwik.api.Tuple.of(6, Kind.ADD),
            net.jqwik.api.Tuple.of(3, Kind.REMOVE_ADDED),
            net.jqwik.api.Tuple.of(2, Kind.REMOVE_NEVER_ADDED),
            net.jqwik.api.Tuple.of(1, Kind.QUERY));
    return Combinators.combine(kinds, Arbitraries.integers().between(0, 39))
        .as(Op::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(400);
  }

  @Property(tries = 400)
  void behavesLikeAMultiset(
      @ForAll("operations") List<Op> ops,
      @ForAll @IntRange(min = 1, max = 24) int buckets,
      @ForAll("widths") int fingerprintBits) {
    CuckooFilter filter = CuckooBuild.withBuckets(buckets, fingerprintBits);
    Map<Integer, Integer> model = new HashMap<>();
    long total = 0;
    int step = 0;
    for (Op op : ops) {
      step++;
      switch (op.kind()) {
        case ADD:
          {
            byte[] before = filter.toByteArray();
            if (filter.addHash(hashOf(op.key()))) {
              model.merge(op.key(), 1, Integer::sum);
              total++;
            } else {
              assertArrayEquals(before, filter.toByteArray(), "a failed add changed the table");
              Statistics.label("failed add").collect(true);
            }
            break;
          }
        case REMOVE_ADDED:
          {
            Integer copies = model.get(op.key());
            if (copies != null) {
              assertTrue(filter.removeHash(hashOf(op.key())), "delete of an added key failed");
              total--;
              if (copies == 1) {
                model.remove(op.key());
              } else {
                model.put(op.key(), copies - 1);
              }
            }
            break;
          }
        case REMOVE_NEVER_ADDED:
          {
            long h = hashOf(1000 + op.key());
            if (!filter.mayContainHash(h)) {
              byte[] before = filter.toByteArray();
              assertFalse(filter.removeHash(h), "delete of a never-added key reported success");
              assertArrayEquals(before, filter.toByteArray(), "delete of an absent key changed it");
            } else {
              // a false positive: deleting it would remove an added key's copy (documented)
              Statistics.label("never-added key was a false positive").collect(true);
            }
            break;
          }
        case QUERY:
          assertEquals(
              model.containsKey(op.key()) || filter.mayContainHash(hashOf(op.key())),
              filter.mayContainHash(hashOf(op.key())),
              "an added, not deleted key must be present");
          break;
      }
      assertEquals(total, filter.numKeys(), "stored count at step " + step);
      for (int key : model.keySet()) {
        if (!filter.mayContainHash(hashOf(key))) {
          throw new AssertionError(
              "false negative for key " + key + " at step " + step + ": " + op);
        }
      }
    }
    CuckooFilter copy = CuckooForm.read(filter.toByteArray());
    assertEquals(filter, copy);
    for (int key : model.keySet()) {
      assertTrue(copy.mayContainHash(hashOf(key)));
    }
  }

  @Provide
  Arbitrary<Integer> widths() {
    return Arbitraries.of(4, 8, 12, 16);
  }
}
