package dev.sieve.bench;

/** What a structure under test is, for grouping and for the ratios of the report. */
public enum Family {
  /** A Sieve filter. */
  SIEVE("sieve"),
  /** Another library's filter (Guava, FastFilter). */
  PEER("peer"),
  /** An exact set: no false positives, many more bytes. */
  EXACT("exact"),
  /** The physical limit: one random 64-bit read per lookup, no filter logic at all. */
  LIMIT("limit");

  private final String label;

  Family(String label) {
    this.label = label;
  }

  /** The lower-case label used in tables and JSON. */
  public String label() {
    return label;
  }
}
