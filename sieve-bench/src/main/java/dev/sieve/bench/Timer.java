package dev.sieve.bench;

/** Measures the build and query times of one structure and writes them into its row. */
public interface Timer {
  /** Fills {@code row}'s build/positive/negative times for {@code kind} at the row's n and b. */
  void time(StructureKind kind, Row row, long seed) throws Exception;

  /** A one-line description for the report (engine, iterations). */
  String describe();
}
