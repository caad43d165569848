package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each experimental probe form answers exactly as the library's filter, present and absent. */
class ProbeFormsTest {

  @Test
  void everyFormAnswersAsTheFilter() {
    SplittableRandom random = new SplittableRandom(7);
    for (double bitsPerKey : new double[] {10, 16, 4}) {
      long[] keys = random.longs(20_000).toArray();
      BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(bitsPerKey).build(keys);
      for (ProbeForms.Form form : ProbeForms.Form.values()) {
        ProbeForms.Rows rows = new ProbeForms.Rows(filter, form);
        for (long key : keys) {
          assertTrue(rows.mayContain(key), form + " lost a key at " + bitsPerKey + " bits/key");
        }
        int maybes = 0;
        for (int i = 0; i < 100_000; i++) {
          long absent = random.nextLong();
          boolean answer = rows.mayContain(absent);
          assertEquals(filter.mayContain(absent), answer, form + " key " + absent);
          maybes += answer ? 1 : 0;
        }
        // some absent keys answer "maybe", so agreement on them is not vacuous
        assertTrue(maybes > 0 && maybes < 50_000, form + ": " + maybes + " false positives");
      }
    }
  }

  @Test
  void everyFormIsAStructureRow() {
    for (ProbeForms.Form form : ProbeForms.Form.values()) {
      String name = "blocked-bloom-form-" + form.name().toLowerCase(java.util.Locale.ROOT);
      assertTrue(
          Structures.all().stream().anyMatch(k -> k.name().equals(name)), name + " is registered");
    }
  }
}
