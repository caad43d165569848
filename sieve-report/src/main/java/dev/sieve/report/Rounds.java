package dev.sieve.report;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.openjdk.jmh.util.ListStatistics;

/**
 * The report measures in rounds so that a noisy neighbour hits every row alike: each round times
 * every structure once (one short JMH fork per benchmark, or one in-process pass), in a shuffled
 * but deterministic order that changes from round to round; the rounds' iteration scores are then
 * pooled into one {@link Estimate} per figure.
 */
public final class Rounds {
  private Rounds() {}

  /** The confidence level of the error shown with every time, as JMH shows it. */
  public static final double CONFIDENCE = 0.999;

  /**
   * One figure over all rounds.
   *
   * @param mean the mean of every measured iteration of every round
   * @param error the half-width of the {@value #CONFIDENCE} confidence interval of that mean
   *     (Student's t over the pooled iterations, JMH's own definition; {@code NaN} for fewer than
   *     two iterations)
   * @param iterations measured iterations pooled
   * @param roundMeans each round's mean, in round order
   */
  public record Estimate(double mean, double error, int iterations, List<Double> roundMeans) {
    public Estimate {
      roundMeans = List.copyOf(roundMeans);
    }

    /** No measurement. */
    public static final Estimate NONE = new Estimate(Double.NaN, Double.NaN, 0, List.of());

    /** The spread of the round means, (max - min) / mean; {@code NaN} with fewer than two. */
    public double roundSpread() {
      if (roundMeans.size() < 2) {
        return Double.NaN;
      }
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (double m : roundMeans) {
        lo = Math.min(lo, m);
        hi = Math.max(hi, m);
      }
      return (hi - lo) / mean;
    }

    /** This estimate with every figure multiplied by {@code factor} (e.g. per build to per key). */
    public Estimate scaled(double factor) {
      List<Double> r = new ArrayList<>();
      roundMeans.forEach(m -> r.add(m * factor));
      return new Estimate(mean * factor, error * factor, iterations, r);
    }
  }

  /**
   * The order in which round {@code round} visits {@code size} jobs: a permutation of {@code 0 ..
   * size-1}, the same for the same seed and round, different between rounds.
   */
  public static List<Integer> order(int size, long seed, int round) {
    int[] a = new int[size];
    for (int i = 0; i < size; i++) {
      a[i] = i;
    }
    SplittableRandom random = new SplittableRandom(seed + 0x9E3779B97F4A7C15L * (round + 1));
    for (int i = size - 1; i > 0; i--) { // Fisher-Yates
      int j = random.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    List<Integer> order = new ArrayList<>();
    for (int i : a) {
      order.add(i);
    }
    return order;
  }

  /** Reports which job runs now, for the progress bar. */
  @FunctionalInterface
  public interface Progress {
    void running(int round, int rounds, Timer.Job job);
  }

  /**
   * Times every job in {@code rounds} rounds, each round in its own shuffled order, and writes the
   * pooled figures into each job's row.
   */
  public static void run(
      Timer timer, List<Timer.Job> jobs, int rounds, long seed, Progress progress)
      throws Exception {
    if (rounds < 1) {
      throw new IllegalArgumentException("rounds must be positive, got " + rounds);
    }
    List<List<Timer.Sample>> samples = new ArrayList<>();
    jobs.forEach(j -> samples.add(new ArrayList<>()));
    for (int round = 0; round < rounds; round++) {
      for (int i : order(jobs.size(), seed, round)) {
        progress.running(round, rounds, jobs.get(i));
        samples.get(i).add(timer.run(jobs.get(i), seed));
      }
    }
    for (int i = 0; i < jobs.size(); i++) {
      List<double[]> pos = new ArrayList<>();
      List<double[]> neg = new ArrayList<>();
      List<double[]> build = new ArrayList<>();
      for (Timer.Sample s : samples.get(i)) {
        pos.add(s.positiveNs());
        neg.add(s.negativeNs());
        build.add(s.buildNsPerKey());
      }
      jobs.get(i).row().setTimes(combine(pos), combine(neg), combine(build), timer.name());
    }
  }

  /**
   * Re-measures each job once with {@code timer}, only the parts its row is flagged for (the
   * lookups where {@link Row#unsteady} is set, the build where {@link Row#buildUnsteady} is), and
   * keeps the row's other figures: a noisy build costs one build fork, not three forks.
   */
  public static void remeasure(Timer timer, List<Timer.Job> jobs, long seed, Progress progress)
      throws Exception {
    for (Timer.Job job : jobs) {
      Row row = job.row();
      boolean queries = row.unsteady != null;
      boolean build = row.buildUnsteady != null;
      progress.running(0, 1, job);
      Timer.Sample s = timer.run(job, seed, queries, build);
      row.setTimes(
          queries ? combine(List.of(s.positiveNs())) : row.positive,
          queries ? combine(List.of(s.negativeNs())) : row.negative,
          build ? combine(List.of(s.buildNsPerKey())) : row.build,
          timer.name());
    }
  }

  /**
   * Pools the measured iteration scores of every round ({@code perRound.get(r)}) into one figure.
   */
  public static Estimate combine(List<double[]> perRound) {
    ListStatistics all = new ListStatistics();
    List<Double> means = new ArrayList<>();
    for (double[] round : perRound) {
      if (round.length == 0) {
        continue;
      }
      double sum = 0;
      for (double v : round) {
        all.addValue(v);
        sum += v;
      }
      means.add(sum / round.length);
    }
    int count = (int) all.getN();
    if (count == 0) {
      return Estimate.NONE;
    }
    double error = count < 2 ? Double.NaN : all.getMeanErrorAt(CONFIDENCE);
    return new Estimate(all.getMean(), error, count, means);
  }
}
