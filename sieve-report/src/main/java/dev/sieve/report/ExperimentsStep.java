package dev.sieve.report;

import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Workload;
import dev.sieve.console.ProgressBar;
import java.util.List;

/**
 * The report's experiments over {@code --experiment-keys} keys (at most the run's largest n): set
 * bits against probes, block-index reuse, block sizes, the blocked Bloom filter against theory, the
 * FPR sweep over {@code --sweep-bits}, and the build-retry and LSM-policy figures.
 */
final class ExperimentsStep {
  private ExperimentsStep() {}

  static ExperimentResults run(
      ReportCommand c, List<StructureKind> kinds, List<Row> rows, ProgressBar bar) {
    int en = Math.min(c.experimentKeys, ReportArguments.maxN(c));
    Experiments e = new Experiments(Workload.create(en, c.seed), c.experimentQueries);
    bar.step("experiments: set bits vs k");
    List<Experiments.SetBits> setBits = e.setBitsAgainstProbes(10);
    Experiments.BlockedSetBits blockedSetBits = e.blockedSetBits(10);
    bar.advance();
    bar.step("experiments: block index reuse");
    List<Experiments.BlockIndexReuse> reuse = e.blockIndexReuse(10, 6);
    bar.advance();
    bar.step("experiments: block sizes");
    List<Experiments.BlockSize> blockSizes = e.blockSizes(10, 6);
    Experiments.BlockedAgainstTheory theory = e.blockedAgainstTheory(c.bitsPerKey.get(0));
    bar.advance();
    bar.step("experiments: FPR sweep");
    List<Experiments.SweepPoint> sweep =
        e.fprSweep(kinds, c.sweepBits.stream().mapToDouble(Double::doubleValue).toArray());
    bar.advance();
    bar.step("experiments: build retries, LSM policy");
    PolicyFigures.Figures policy = PolicyFigures.figures(rows, en, c.seed);
    ExperimentResults results =
        new ExperimentResults(
            setBits,
            blockedSetBits,
            reuse,
            blockSizes,
            theory,
            policy.buildRetries(),
            policy.lsmPolicy(),
            policy.lsmPolicyNote(),
            sweep);
    bar.advance();
    return results;
  }
}
