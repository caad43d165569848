package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Structures;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rounds: deterministic shuffled orders, every job once per round, pooled estimates. */
class RoundsTest {

  @Test
  void orderIsADeterministicPermutationThatChangesPerRound() {
    List<Integer> a = Rounds.order(30, 42, 0);
    assertEquals(a, Rounds.order(30, 42, 0));
    assertEquals(30, new HashSet<>(a).size());
    assertTrue(a.stream().allMatch(i -> i >= 0 && i < 30));
    assertNotEquals(a, Rounds.order(30, 42, 1));
    assertNotEquals(a, Rounds.order(30, 43, 0));
    assertEquals(List.of(), Rounds.order(0, 42, 0));
  }

  @Test
  void combinePoolsEveryIterationOfEveryRound() {
    // round means 2 and 4; pooled mean 3; sample sd of {1,3,3,5} = sqrt(8/3)
    Rounds.Estimate e = Rounds.combine(List.of(new double[] {1, 3}, new double[] {3, 5}));
    assertEquals(3.0, e.mean(), 1e-12);
    assertEquals(4, e.iterations());
    assertEquals(List.of(2.0, 4.0), e.roundMeans());
    assertEquals(2.0 / 3.0, e.roundSpread(), 1e-12);
    // 99.9% two-sided Student t with 3 degrees of freedom is 12.924
    double expected = 12.924 * Math.sqrt(8.0 / 3.0) / Math.sqrt(4);
    assertEquals(expected, e.error(), 1e-3);
    Rounds.Estimate perKey = e.scaled(0.5);
    assertEquals(1.5, perKey.mean(), 1e-12);
    assertEquals(e.error() / 2, perKey.error(), 1e-12);
  }

  @Test
  void combineOfNothingOrOneIsNotAnError() {
    assertTrue(Double.isNaN(Rounds.combine(List.of()).mean()));
    assertTrue(Double.isNaN(Rounds.combine(List.of(new double[0])).mean()));
    Rounds.Estimate one = Rounds.combine(List.of(new double[] {7}));
    assertEquals(7, one.mean());
    assertTrue(Double.isNaN(one.error()));
  }

  /** A timer that records the order it is called in and returns scores derived from the call. */
  private static final class RecordingTimer implements Timer {
    final List<String> calls = new ArrayList<>();

    @Override
    public Sample run(Job job, long seed) {
      int round = (int) calls.stream().filter(c -> c.equals(job.kind().name())).count();
      calls.add(job.kind().name());
      double base = job.row().n + round; // round 0: n, round 1: n + 1
      return new Sample(
          new double[] {base, base + 2}, new double[] {2 * base}, new double[] {base / 10});
    }

    @Override
    public String name() {
      return "recording";
    }

    @Override
    public String describe() {
      return "test";
    }
  }

  @Test
  void runVisitsEveryJobOncePerRoundInterleavedAndWritesPooledFigures() throws Exception {
    List<Timer.Job> jobs = new ArrayList<>();
    List<String> names = List.of("sieve-blocked-bloom", "fastfilter-blocked-bloom", "raw-read-1x");
    for (int i = 0; i < names.size(); i++) {
      Row row = new Row();
      row.name = names.get(i);
      row.n = 100 * (i + 1);
      jobs.add(new Timer.Job(Structures.byName(names.get(i)), row));
    }
    RecordingTimer timer = new RecordingTimer();
    List<Integer> progressRounds = new ArrayList<>();
    Rounds.run(timer, jobs, 3, 7, (round, of, job) -> progressRounds.add(round));
    assertEquals(9, timer.calls.size());
    for (int round = 0; round < 3; round++) {
      // each round holds every structure once before the next round starts
      assertEquals(
          new HashSet<>(names), new HashSet<>(timer.calls.subList(3 * round, 3 * round + 3)));
      List<String> expected = new ArrayList<>();
      for (int i : Rounds.order(3, 7, round)) {
        expected.add(names.get(i));
      }
      assertEquals(expected, timer.calls.subList(3 * round, 3 * round + 3));
    }
    assertEquals(List.of(0, 0, 0, 1, 1, 1, 2, 2, 2), progressRounds);
    Row first = jobs.get(0).row();
    // positives: {100,102}, {101,103}, {102,104} -> mean 102; round means 101, 102, 103
    assertEquals(102.0, first.positiveNs, 1e-12);
    assertEquals(List.of(101.0, 102.0, 103.0), first.positive.roundMeans());
    assertEquals(6, first.positive.iterations());
    assertEquals(2 * 101.0, first.negativeNs, 1e-12);
    assertEquals(10.1, first.buildNsPerKey, 1e-12);
    assertTrue(first.positiveNsError > 0);
    assertEquals("recording", first.timer);
    assertEquals(202.0, jobs.get(1).row().positiveNs, 1e-12);
  }

  @Test
  void roundsMustBePositive() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Rounds.run(new RecordingTimer(), List.of(), 0, 1, (r, o, j) -> {}));
  }
}
