package dev.sieve.report;

import java.util.List;

/**
 * The experiments behind docs/notes.md, as one run measured them: the tables of the report's
 * experiment section and {@code results.json}'s {@code "experiments"} object (the component names
 * are its keys).
 *
 * @param setBits Q1: set bits and FPR of a standard Bloom filter against k
 * @param blockedSetBits Q1: the blocked Bloom filter at its own k
 * @param blockIndexReuse Q2: the block index from the probe bits or not
 * @param blockSizes Q3: FPR at 64- to 512-bit blocks
 * @param blockedAgainstTheory the blocked Bloom filter against the models
 * @param buildRetries Q4: build failures and retries
 * @param lsmPolicy Q5: the per-level policy priced with measured times
 * @param lsmPolicyNote how Q5 was priced, or why it is missing
 * @param fprSweep the FPR plot's measured points
 */
public record ExperimentResults(
    List<Experiments.SetBits> setBits,
    Experiments.BlockedSetBits blockedSetBits,
    List<Experiments.BlockIndexReuse> blockIndexReuse,
    List<Experiments.BlockSize> blockSizes,
    Experiments.BlockedAgainstTheory blockedAgainstTheory,
    List<BuildRetries.Result> buildRetries,
    List<PolicyFigures.LsmPolicy> lsmPolicy,
    String lsmPolicyNote,
    List<Experiments.SweepPoint> fprSweep) {

  /** No experiments (a run that skipped them, and tests). */
  public static final ExperimentResults NONE =
      new ExperimentResults(
          List.of(), null, List.of(), List.of(), null, List.of(), List.of(), null, List.of());

  /** The same results with {@code sweep} as the FPR sweep. */
  public ExperimentResults withSweep(List<Experiments.SweepPoint> sweep) {
    return new ExperimentResults(
        setBits,
        blockedSetBits,
        blockIndexReuse,
        blockSizes,
        blockedAgainstTheory,
        buildRetries,
        lsmPolicy,
        lsmPolicyNote,
        List.copyOf(sweep));
  }
}
