package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Every two-word probe form answers every key as the library's filter over the same words, before
 * and after the forms are compiled (the loop runs each form long enough for C2).
 */
class TwoWordProbeFormsTest {

  @Test
  void everyFormAnswersAsTheLibrary() {
    KeyStream stream = KeyStream.of(50_000, 17);
    Membership library = StreamedStructures.byName("sieve-two-word-bloom").build(stream, 10);
    long[] present = stream.presentQueries(20_000);
    long[] absent = stream.absentQueries(200_000);
    for (TwoWordProbeForms.Form form : TwoWordProbeForms.Form.values()) {
      assertNotNull(TwoWordProbeForms.byRowName(form.rowName()));
      Membership m = StreamedStructures.byName(form.rowName()).build(stream, 10);
      assertEquals(library.sizeInBits(), m.sizeInBits());
      int falsePositives = 0;
      // several rounds: the first runs interpreted, the later ones compiled
      for (int round = 0; round < 8; round++) {
        for (long k : present) {
          assertTrue(m.mayContain(k), form + " lost a key");
        }
        for (long k : absent) {
          boolean hit = m.mayContain(k);
          assertEquals(library.mayContain(k), hit, form + " on " + k);
          falsePositives += round == 0 && hit ? 1 : 0;
        }
      }
      assertTrue(
          falsePositives > 0 && falsePositives < absent.length / 50, form + ": " + falsePositives);
    }
  }

  @Test
  void theFormsNeedThreeBitsPerWord() {
    KeyStream stream = KeyStream.of(1000, 1);
    assertThrows(
        IllegalArgumentException.class,
        () -> StreamedStructures.byName("two-word-form-copy").build(stream, 6));
  }
}
