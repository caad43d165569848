package dev.sieve.expand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * A stateful property: arbitrary interleavings of add, remove (of a present key), union (with a
 * filter of other keys, of any size), compact (its rate and entries unchanged), shrink to fit (a
 * re-fit only within f / 1.125, and smaller), copy and a round trip through the Sieve container
 * (read from its bytes, or wrapped from a direct buffer; the filter read goes on), against a
 * multiset model ({@code HashMap} of key to copies). After every step every key of the model is
 * present (no false negative, ever; by the single lookup, and every fourth step by the batch form),
 * the key count is the model's, and the modelled rate is at most the target (times one plus the
 * number of unions, each of which adds the other filter's rate, or four times it for a hinted other
 * filter whose slot count is not this one's times a power of two). A high target rate (10%: 6-bit
 * fingerprints) makes the fingerprints run out within a few doublings, so void entries are
 * exercised.
 */
class ExpandablePropertyTest {

  enum Kind {
    ADD,
    REMOVE,
    UNION,
    COPY,
    SERIALIZE,
    COMPACT,
    SHRINK
  }

  /** Each union adds the other filter's rate and void copies: a few keep the rate below 1. */
  static final int MAX_UNIONS = 6;

  record Op(Kind kind, int key, int size) {}

  static long hashOf(int key) {
    long h = key * 0x9E37_79B9_7F4A_7C15L + 0x632B_E59B_D9B4_E019L;
    h = (h ^ (h >>> 31)) * 0xBF58_476D_1CE4_E5B9L;
    return h ^ (h >>> 29);
  }

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Kind> kinds =
        Arbitraries.frequency(
            Tuple.of(60, Kind.ADD),
            Tuple.of(25, Kind.REMOVE),
            Tuple.of(1, Kind.UNION),
            Tuple.of(3, Kind.COPY),
            Tuple.of(3, Kind.SERIALIZE),
            Tuple.of(2, Kind.COMPACT),
            Tuple.of(1, Kind.SHRINK));
    return Combinators.combine(
            kinds, Arbitraries.integers().between(0, 5000), Arbitraries.integers().between(0, 600))
        .as(Op::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(1500);
  }

  @Provide
  Arbitrary<Double> rates() {
    return Arbitraries.of(0.1, 0.01);
  }

  @Property(tries = 150)
  void neverAFalseNegative(
      @ForAll("operations") List<Op> ops,
      @ForAll("rates") double fpRate,
      @ForAll("hints") long hint) {
    ExpandableFilterBuilder b = ExpandableFilter.builder().fpRate(fpRate);
    if (hint > 0) {
      b.expectedKeys(hint);
    }
    ExpandableFilter filter = b.create();
    Map<Integer, Integer> model = new HashMap<>();
    List<Integer> present = new ArrayList<>();
    long total = 0;
    int unions = 0;
    int step = 0;
    for (Op op : ops) {
      step++;
      switch (op.kind()) {
        case ADD -> {
          // a batch of 1 to 64 keys (repeats included), so that filters grow through doublings
          for (int i = 0; i <= op.size() % 64; i++) {
            int key = op.key() * 16 + i;
            assertTrue(filter.addHash(hashOf(key)));
            model.merge(key, 1, Integer::sum);
            present.add(key);
            total++;
          }
        }
        case REMOVE -> {
          if (present.isEmpty()) {
            continue;
          }
          int key = present.remove(op.key() % present.size());
          assertTrue(filter.removeHash(hashOf(key)), "step " + step + ": a present key is found");
          model.merge(key, -1, Integer::sum);
          model.remove(key, 0);
          total--;
        }
        case UNION -> {
          if (unions >= MAX_UNIONS) {
            continue;
          }
          // at 1%, every other union is with a hinted filter: a slot count that need not be a
          // power of two times this one's (its entries are covered, at most 4x their rate)
          ExpandableFilterBuilder ob = ExpandableFilter.builder().fpRate(fpRate);
          boolean across = fpRate == 0.01 && op.size() % 2 == 1;
          if (across) {
            ob.expectedKeys(op.key() + 1L);
          }
          ExpandableFilter other = ob.create();
          for (int i = 0; i < op.size(); i++) {
            int key = 1_000_000 + op.key() * 7 + i;
            other.addHash(hashOf(key));
            model.merge(key, 1, Integer::sum);
            present.add(key);
          }
          ExpandableFilter before = other.copy();
          filter.union(other);
          assertEquals(before, other, "union leaves its argument unchanged");
          total += op.size();
          unions += across ? 4 : 1;
        }
        case COPY -> {
          ExpandableFilter copy = filter.copy();
          assertNotSame(filter, copy);
          assertEquals(filter, copy);
          assertEquals(filter.hashCode(), copy.hashCode());
          filter.addHash(hashOf(-1)); // the original changes, the copy does not
          filter = copy;
        }
        case SERIALIZE -> {
          byte[] bytes = SieveFormat.toBytes(filter);
          ExpandableFilter read;
          if (op.size() % 2 == 0) {
            read = SieveFormat.read(bytes, ExpandableFilter.class);
          } else {
            ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            read = SieveFormat.wrap(direct, ExpandableFilter.class).copy();
          }
          assertEquals(filter, read, "step " + step + ": the container round trip");
          assertEquals(filter.modelledFpRate(), read.modelledFpRate(), "step " + step);
          assertEquals(filter.voidEntries(), read.voidEntries(), "step " + step);
          filter = read;
        }
        case COMPACT -> {
          double rate = filter.modelledFpRate();
          long entries = filter.entries();
          int halvings = filter.compact();
          assertEquals(entries, filter.entries(), "step " + step + ": compact keeps every entry");
          assertEquals(rate, filter.modelledFpRate(), 1e-12 * rate, "step " + step);
          assertTrue(halvings == 0 || !ExpandableGrowth.canHalve(filter), "step " + step);
          Statistics.label("compact halved").collect(halvings > 0);
        }
        case SHRINK -> {
          double rate = filter.modelledFpRate();
          long bits = filter.sizeInBits();
          boolean refitted = filter.shrinkToFit();
          if (refitted) {
            assertTrue(rate <= fpRate / 1.125, "step " + step + ": refitted past the rate");
            assertTrue(
                filter.modelledFpRate() <= fpRate / 1.125 + 1e-12,
                "step " + step + ": " + filter.modelledFpRate());
            assertTrue(filter.sizeInBits() < bits, "step " + step + ": a re-fit is smaller");
            assertTrue(filter.load() <= ExpandableMath.MAX_LOAD, "step " + step);
          } else {
            assertTrue(filter.modelledFpRate() <= rate + 1e-12 * rate, "step " + step);
          }
          Statistics.label("shrink refitted").collect(refitted);
        }
      }
      assertEquals(total, filter.numKeys(), "step " + step);
      long[] batch = new long[model.size()];
      int k = 0;
      for (int key : model.keySet()) {
        assertTrue(filter.mayContainHash(hashOf(key)), "step " + step + ": key " + key);
        batch[k++] = hashOf(key);
      }
      // the batch form too, every fourth step and at the end: every present key (two passes)
      if (step % 4 == 0 || step == ops.size()) {
        assertEquals(
            batch.length,
            filter.mayContainHashes(batch, 0, batch.length, new long[(batch.length + 63) >>> 6]),
            "step " + step + ": the batch form");
      }
      assertTrue(
          filter.modelledFpRate() <= fpRate * (1 + unions) + 1e-12,
          "step " + step + ": " + filter.modelledFpRate());
      assertTrue(filter.load() <= ExpandableMath.MAX_LOAD);
    }
    Statistics.label("void entries").collect(filter.voidEntries() > 0);
    Statistics.label("doublings").collect(Math.min(filter.doublings(), 8));
    // removing every key leaves only void copies of removed keys, if any
    for (int key : present) {
      assertTrue(filter.removeHash(hashOf(key)));
    }
    assertEquals(0, filter.numKeys());
  }

  @Provide
  Arbitrary<Long> hints() {
    return Arbitraries.of(0L, 1L, 500L, 5000L);
  }
}
