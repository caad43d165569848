package dev.sieve.bloom;

import static dev.sieve.bloom.ScalableBloomForm.HEADER_BYTES;
import static dev.sieve.bloom.ScalableBloomForm.PAYLOAD_VERSION;
import static dev.sieve.bloom.ScalableBloomForm.STAGE_ENTRY_BYTES;
import static dev.sieve.bloom.ScalableBloomForm.tableEnd;

import dev.sieve.SieveFormatException;
import dev.sieve.math.GrowthMath;
import java.nio.ByteBuffer;

/**
 * The header and stage table of a {@link ScalableBloomForm} payload, checked (everything but the
 * filter blocks): the parameters, each in the range the builder accepts, every stage's entry
 * against the capacity the parameters give it, and the reserved bytes zero.
 */
final class ScalableBloomParameters {
  /** The probe counts a FastLocalBloom block trailer holds: 1 to 30. */
  private static final int MAX_STAGE_PROBES = 30;

  int numStages;
  long initialCapacity;
  double fpRate;
  double growthFactor;
  double tighteningRatio;

  /** The stages' probe counts from their entries. */
  int[] probes;

  /**
   * The filter of these parameters and {@code stages}, read-only and wrapped if {@code inPlace}.
   */
  ScalableBloomFilter filter(ScalableBloomStage[] stages, boolean inPlace) {
    return new ScalableBloomFilter(
        initialCapacity, fpRate, growthFactor, tighteningRatio, stages, inPlace, inPlace);
  }

  /** Checks stage {@code i}'s block against the probe count its entry records. */
  void checkProbes(int i, BlockedBloomFilter filter) {
    if (filter.numProbes() != probes[i]) {
      throw new SieveFormatException(
          HEADER_BYTES + STAGE_ENTRY_BYTES * i + 24,
          "stage "
              + i
              + " entry records "
              + probes[i]
              + " probes, its filter block has "
              + filter.numProbes());
    }
  }

  /** {@code visible} bytes of a payload of {@code length} bytes are in {@code in}. */
  static ScalableBloomParameters read(ByteBuffer in, long visible, long length) {
    if (length < HEADER_BYTES || visible < HEADER_BYTES) {
      throw new SieveFormatException(
          0, "scalable Bloom payload of " + length + " bytes, shorter than its 64-byte header");
    }
    ScalableBloomParameters p = new ScalableBloomParameters();
    int version = in.getInt(0);
    if (version != PAYLOAD_VERSION) {
      throw new SieveFormatException(
          0,
          "scalable Bloom payload version "
              + version
              + " is not supported (this reader reads "
              + PAYLOAD_VERSION
              + ")");
    }
    int m = in.getInt(4);
    if (m < 1 || m > ScalableBloomFilter.MAX_STAGES) {
      throw new SieveFormatException(
          4, "stage count " + m + " outside 1.." + ScalableBloomFilter.MAX_STAGES);
    }
    p.numStages = m;
    p.probes = new int[m];
    p.initialCapacity = in.getLong(8);
    if (p.initialCapacity < 1 || p.initialCapacity > ScalableBloomFilter.MAX_EXPECTED_KEYS) {
      throw new SieveFormatException(
          8,
          "initial capacity "
              + p.initialCapacity
              + " outside 1.."
              + ScalableBloomFilter.MAX_EXPECTED_KEYS);
    }
    p.fpRate = in.getDouble(16);
    if (!(p.fpRate > 0 && p.fpRate < 1)) {
      throw new SieveFormatException(16, "false-positive rate " + p.fpRate + " outside (0, 1)");
    }
    p.growthFactor =
        inRange(
            in.getDouble(24),
            24,
            "growth factor",
            ScalableBloomFilter.MIN_GROWTH_FACTOR,
            ScalableBloomFilter.MAX_GROWTH_FACTOR);
    p.tighteningRatio =
        inRange(
            in.getDouble(32),
            32,
            "tightening ratio",
            ScalableBloomFilter.MIN_TIGHTENING_RATIO,
            ScalableBloomFilter.MAX_TIGHTENING_RATIO);
    for (int z = 40; z < HEADER_BYTES; z++) {
      if (in.get(z) != 0) {
        throw new SieveFormatException(z, "reserved header byte is not zero");
      }
    }
    long tableEnd = tableEnd(m);
    if (tableEnd > length || tableEnd > visible) {
      throw new SieveFormatException(
          4, "a table of " + m + " stages needs " + tableEnd + " bytes, the payload has " + length);
    }
    for (int i = 0; i < m; i++) {
      p.readEntry(in, i);
    }
    for (long z = HEADER_BYTES + (long) STAGE_ENTRY_BYTES * m; z < tableEnd; z++) {
      if (in.get((int) z) != 0) {
        throw new SieveFormatException(z, "padding after the stage table is not zero");
      }
    }
    return p;
  }

  /** Checks stage {@code i}'s entry against the header, recording its probe count. */
  private void readEntry(ByteBuffer in, int i) {
    int entry = HEADER_BYTES + STAGE_ENTRY_BYTES * i;
    long capacity = in.getLong(entry);
    long expected = GrowthMath.scalableStageCapacity(initialCapacity, growthFactor, i);
    if (capacity != expected) {
      throw new SieveFormatException(
          entry, "stage " + i + " capacity " + capacity + ", the parameters give " + expected);
    }
    long keys = in.getLong(entry + 8);
    if (keys < 0 || keys > capacity) {
      throw new SieveFormatException(
          entry + 8, "stage " + i + " key count " + keys + " outside 0.." + capacity);
    }
    long blockLength = in.getLong(entry + 16);
    long minBlock = BlockedBloomFilter.BLOCK_BYTES + BlockedBloomForm.TRAILER_BYTES;
    long maxBlock = BlockedBloomFilter.MAX_DATA_BYTES + BlockedBloomForm.TRAILER_BYTES;
    if (blockLength < minBlock || blockLength > maxBlock) {
      throw new SieveFormatException(
          entry + 16,
          "stage " + i + " block length " + blockLength + " outside " + minBlock + ".." + maxBlock);
    }
    int n = in.getInt(entry + 24);
    if (n < 1 || n > MAX_STAGE_PROBES) {
      throw new SieveFormatException(
          entry + 24, "stage " + i + " probe count " + n + " outside 1.." + MAX_STAGE_PROBES);
    }
    probes[i] = n;
    for (int z = entry + 28; z < entry + STAGE_ENTRY_BYTES; z++) {
      if (in.get(z) != 0) {
        throw new SieveFormatException(z, "reserved byte of stage " + i + " is not zero");
      }
    }
  }

  /** {@return value} if it lies in [min, max] (false for NaN), else the typed error at offset. */
  private static double inRange(double value, int offset, String name, double min, double max) {
    if (!(value >= min && value <= max)) {
      throw new SieveFormatException(
          offset, name + " " + value + " outside [" + min + ", " + max + "]");
    }
    return value;
  }
}
