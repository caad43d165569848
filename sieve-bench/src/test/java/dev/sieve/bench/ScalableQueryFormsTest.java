package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.format.SieveFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The experiment's query forms give the library's answers (moved from sieve-core). */
class ScalableQueryFormsTest {

  /** The three query forms (stage loop, two passes, branch-free) give the same answers. */
  @Test
  void everyQueryFormAnswersAlike() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(64).create();
    SplittableRandom random = new SplittableRandom(21);
    long[] added = random.longs(30_000).toArray();
    for (long h : added) {
      filter.addHash(h);
    }
    assertTrue(filter.numStages() >= 9);
    ScalableQueryForms forms = ScalableQueryForms.of(filter);
    assertEquals(filter.numStages(), forms.numStages());
    int maybe = 0;
    for (int i = 0; i < 300_000; i++) {
      long h = i < added.length ? added[i] : random.nextLong();
      boolean answer = filter.mayContainHash(h);
      assertEquals(answer, forms.twoPassMayContain(h), "hash " + h);
      assertEquals(answer, forms.branchFreeMayContain(h), "hash " + h);
      maybe += answer ? 1 : 0;
    }
    assertTrue(maybe >= added.length && maybe < added.length + 3_000, "maybe: " + maybe);
  }

  @Test
  void aFilterWithOneStageAndOneReadBackAnswerAlike() {
    ScalableBloomFilter one = ScalableBloomFilter.builder().expectedKeys(1000).create();
    for (long k = 0; k < 500; k++) {
      one.add(k);
    }
    assertEquals(1, one.numStages());
    ScalableBloomFilter read = (ScalableBloomFilter) SieveFormat.read(SieveFormat.toBytes(grown()));
    for (ScalableBloomFilter filter : new ScalableBloomFilter[] {one, read}) {
      ScalableQueryForms forms = ScalableQueryForms.of(filter);
      SplittableRandom random = new SplittableRandom(5);
      for (int i = 0; i < 50_000; i++) {
        long h = random.nextLong();
        assertEquals(filter.mayContainHash(h), forms.twoPassMayContain(h));
        assertEquals(filter.mayContainHash(h), forms.branchFreeMayContain(h));
      }
    }
  }

  private static ScalableBloomFilter grown() {
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(100).create();
    new SplittableRandom(3).longs(5_000).forEach(filter::addHash);
    return filter;
  }

  @Test
  void queryFormNames() {
    assertEquals(ScalableQueryForms.LOOP, ScalableQueryForms.form("loop"));
    assertEquals(ScalableQueryForms.TWO_PASS, ScalableQueryForms.form("twopass"));
    assertEquals(ScalableQueryForms.BRANCH_FREE, ScalableQueryForms.form("branchfree"));
    assertThrows(IllegalArgumentException.class, () -> ScalableQueryForms.form("vector"));
  }
}
