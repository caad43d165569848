package dev.sieve.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Row names the report and the acceptance check refer to, and how key counts are printed. */
public final class Names {
  private Names() {}

  /** Sieve's blocked Bloom filter (RocksDB's FastLocalBloom layout). */
  public static final String BLOCKED = "sieve-blocked-bloom";

  /** Sieve's Standard128 Ribbon filter. */
  public static final String RIBBON = "sieve-ribbon";

  /** The marker in a row name of a fast-hash variant (one 64-bit mixer instead of XXPH3). */
  public static final String FAST_HASH = "fasthash";

  /** Diagnostic rows (bench-only variants) are shown but never recommended or checked. */
  static boolean isDiagnostic(Row r) {
    return r.description != null && r.description.startsWith("diagnostic:");
  }

  /**
   * The row of {@code name} at {@code n} built at {@code b} bits/key, else its first row at {@code
   * n} (kinds without a size setting).
   */
  static Optional<Row> find(List<Row> rows, String name, int n, double b) {
    Optional<Row> exact =
        rows.stream()
            .filter(r -> r.name.equals(name) && r.n == n && r.bitsPerKeySetting == b)
            .findFirst();
    return exact.isPresent()
        ? exact
        : rows.stream().filter(r -> r.name.equals(name) && r.n == n).findFirst();
  }

  /** {@code 10^k} for a power of ten, else the number with separators. */
  public static String nLabel(long n) {
    int k = 0;
    long p = 1;
    while (p < n) {
      p *= 10;
      k++;
    }
    return p == n && k > 0 ? "10^" + k : String.format(Locale.ROOT, "%,d", n);
  }
}
