package dev.sieve.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's rows by {@link RowKey}, each key's rows in the run's order (one per bits/key setting).
 */
final class RowIndex {
  private final Map<RowKey, List<Row>> rows = new HashMap<>();

  RowIndex(List<Row> all) {
    for (Row r : all) {
      rows.computeIfAbsent(RowKey.of(r), k -> new ArrayList<>()).add(r);
    }
  }

  /**
   * The row of {@code structure} on {@code path} at {@code n}: the one measured at {@code
   * bitsPerKey} if there is one, else the first (kinds without a size setting); empty for a {@code
   * null} structure.
   */
  Optional<Row> find(String structure, int n, RowKey.Path path, double bitsPerKey) {
    if (structure == null) {
      return Optional.empty();
    }
    List<Row> same = rows.getOrDefault(new RowKey(structure, n, path), List.of());
    return same.stream()
        .filter(r -> r.bitsPerKeySetting == bitsPerKey)
        .findFirst()
        .or(() -> same.stream().findFirst());
  }

  /** The first row of {@code structure} on {@code path} at {@code n}, whatever its bits/key. */
  Optional<Row> first(String structure, int n, RowKey.Path path) {
    return structure == null
        ? Optional.empty()
        : rows.getOrDefault(new RowKey(structure, n, path), List.of()).stream().findFirst();
  }

  /** Whether any row is timed through a fast hash, on whatever path. */
  boolean anyFastHash() {
    return rows.keySet().stream().anyMatch(RowKey::fastHash);
  }
}
