package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.report.ReportWriter.Ratios;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The ratio figures of the rows of one run: to the raw random read of the same n and bits/key
 * setting, and to the best peer at the same n.
 */
final class RowRatios {
  private final List<Row> rows;
  private final RowIndex index;

  RowRatios(List<Row> rows) {
    this.rows = rows;
    this.index = new RowIndex(rows);
  }

  /**
   * The ratio figures of {@code r}; {@code NaN} wherever {@code r} or the row it is divided by is
   * flagged by the steady-state guard (no ratio from a flagged row).
   */
  Ratios of(Row r) {
    Predicate<Row> lookups = x -> !x.excluded();
    Predicate<Row> builds = x -> !x.buildExcluded();
    double raw = r.excluded() ? Double.NaN : rawRead(r);
    double nan = Double.NaN;
    return new Ratios(
        r.positiveNs / raw,
        r.negativeNs / raw,
        r.excluded() ? nan : r.positiveNs / bestPeer(r.n, x -> x.positiveNs, lookups),
        r.excluded() ? nan : r.negativeNs / bestPeer(r.n, x -> x.negativeNs, lookups),
        r.buildExcluded() ? nan : r.buildNsPerKey / bestPeer(r.n, x -> x.buildNsPerKey, builds),
        r.overheadMeasured() / bestPeer(r.n, Row::overheadMeasured, x -> true));
  }

  /** The raw random read's negative-lookup time at r's n, {@code NaN} if absent or flagged. */
  private double rawRead(Row r) {
    return index
        .find(SteadyState.RAW_READ, r.n, RowKey.Path.SINGLE, r.bitsPerKeySetting)
        .filter(x -> !x.excluded())
        .map(x -> x.negativeNs)
        .orElse(Double.NaN);
  }

  /** The best peer's figure at n, from the peers whose figure is {@code usable} (not flagged). */
  private double bestPeer(int n, ToDoubleFunction<Row> f, Predicate<Row> usable) {
    OptionalDouble best =
        rows.stream()
            .filter(x -> x.family == Family.PEER && x.n == n)
            .filter(usable)
            .mapToDouble(f)
            .filter(v -> !Double.isNaN(v))
            .min();
    return best.orElse(Double.NaN);
  }
}
