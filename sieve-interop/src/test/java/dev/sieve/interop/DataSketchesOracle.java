package dev.sieve.interop;

import org.apache.datasketches.memory.Memory;

/**
 * Whether DataSketches itself runs on this JVM: datasketches-memory (under datasketches-java 6.2)
 * initializes only on the JDKs it supports (17 here; on JDK 25 its {@code BaseWritableMemoryImpl}
 * fails in its static initializer), so the tests that ask the owner library skip its half there and
 * say so. Sieve's own DataSketches reader and writer are tested on every JDK against the kept seeds
 * and the Sieve-only checks.
 */
final class DataSketchesOracle {
  private DataSketchesOracle() {}

  private static final boolean RUNS = probe();

  private static boolean probe() {
    try {
      return Memory.wrap(new byte[8]).getCapacity() == 8;
    } catch (Throwable e) { // ExceptionInInitializerError, then NoClassDefFoundError
      return false;
    }
  }

  /** {@return whether the DataSketches library initializes on this JVM} */
  static boolean runs() {
    return RUNS;
  }

  /** The line the skipped tests give. */
  static final String WHY =
      "DataSketches' memory library does not initialize on Java " + Runtime.version().feature();
}
