package dev.sieve.expand;

/**
 * The growth of an {@link ExpandableFilter}: doubling its table (with the budget policy's choice of
 * the next generation's fingerprint length, {@link ExpandableMath#budgetBits}), rebuilding it with
 * wider slots, and the union of two filters of different sizes. Static passes over the filter's
 * package-private state; the loops over the slots are {@link ExpandableKernel}'s.
 *
 * <h2>Void entries</h2>
 *
 * A generation's fingerprints run out after {@code r_j} more doublings. Such a void entry matches
 * every key of its run; at the next doubling it cannot tell which of the two new runs its key goes
 * to, so it is <b>duplicated into both</b> (as the Aleph filter does), each copy void. That never
 * gives a false negative, and the two copies in a table twice the size match as often as one did,
 * so {@code m} does not change. The copies take slots: the void copies are at most a fraction
 * {@code m ≤ f} of the slots. Merging filters adds up their rates and their void copies; a table
 * whose void copies pass half of its load after a doubling (merged rates adding up to about 0.42)
 * throws {@link IllegalStateException} rather than grow without end.
 */
final class ExpandableGrowth {
  private ExpandableGrowth() {}

  /** {@return the words of {@code slots} slots of {@code width} bits, or a typed refusal} */
  static int wordCount(long slots, int width) {
    if (width > ExpandableSlots.MAX_WIDTH) {
      throw new IllegalArgumentException(
          "slots of " + width + " bits exceed the widest, " + ExpandableSlots.MAX_WIDTH);
    }
    long words = ExpandableSlots.wordsFor(slots, width);
    if (words > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a table of " + slots + " slots of " + width + " bits exceeds a Java array");
    }
    return (int) words;
  }

  /**
   * {@return the smallest table shape that holds {@code keys} entries at load {@value
   * ExpandableMath#MAX_LOAD}, as {@code log << 8 | mant}: a power of two up to 256 slots, beyond
   * that {@code keys / 0.85} rounded up to 9 significant bits}
   */
  static int shapeFor(long keys) {
    if (keys > ExpandableMath.maxEntries(ExpandableMath.MAX_SLOTS)) {
      throw new IllegalArgumentException(
          keys
              + " keys exceed the largest table, "
              + ExpandableMath.maxEntries(ExpandableMath.MAX_SLOTS));
    }
    int log = ExpandableMath.MIN_LOG_SLOTS;
    while (log < 8 && keys > ExpandableMath.maxEntries(1L << log)) {
      log++;
    }
    if (keys <= ExpandableMath.maxEntries(1L << log)) {
      return log << 8;
    }
    long need = (long) Math.ceil(keys / ExpandableMath.MAX_LOAD);
    log = 63 - Long.numberOfLeadingZeros(need);
    long unit = 1L << (log - 8);
    long m = (need + unit - 1) / unit; // in [256, 512]
    while (ExpandableMath.maxEntries(m * unit) < keys) {
      m++;
    }
    if (m >= 512) {
      return (log + 1) << 8;
    }
    return log << 8 | (int) (m - 256);
  }

  /**
   * Makes room for {@code entries} more at the highest load: starts a doubling ({@link
   * ExpandableMigration}, moved on by the writes after it) when they do not fit. A doubling under
   * way that would not end before the next is due (never, for one entry per write: see there) is
   * ended first.
   */
  static void ensureRoom(ExpandableFilter f, long entries) {
    while (f.used + ExpandableMigration.pending(f) + entries > ExpandableMath.maxEntries(f.slots)) {
      ExpandableMigration.finish(f);
      if (f.used + entries > ExpandableMath.maxEntries(f.slots)) {
        begin(f);
      }
    }
  }

  /** Doubles the table at once: a doubling begun and ended ({@link #begin}). */
  static void expand(ExpandableFilter f) {
    ExpandableMigration.finish(f);
    begin(f);
    ExpandableMigration.finish(f);
  }

  /**
   * Begins a doubling: the top fingerprint bit of every entry becomes its low quotient bit; the
   * next generation's fingerprint length is chosen from the budget left ({@link
   * ExpandableMath#budgetBits}), the slots widened when it needs more bits.
   */
  static void begin(ExpandableFilter f) {
    if (f.log >= ExpandableMath.MAX_LOG_SLOTS) {
      throw new IllegalStateException(
          "the table is full at its largest size, " + f.slots + " slots");
    }
    int bits = nextBits(f);
    ExpandableMigration.begin(f, Math.max(f.width, bits + ExpandableMath.SLOT_OVERHEAD_BITS), bits);
    long voidCopies = f.entriesByKnownBits[f.log] + 2 * ExpandableMigration.pending(f);
    if (voidCopies > ExpandableMath.maxEntries(f.slots) / 2) {
      // void copies double with the table: past half the load they leave a doubling little room,
      // and growing further cannot lower their share
      throw new IllegalStateException(
          "saturated: void entries fill "
              + voidCopies
              + " of "
              + f.slots
              + " slots after a doubling (modelled rate "
              + f.modelledFpRate()
              + "); merged filters whose rates add up to about "
              + ExpandableMath.MAX_LOAD / 2
              + " do this");
    }
  }

  /**
   * The fingerprint length a doubling begun now gives the next generation: the rate is the same
   * after the doubling, and the entries after it are known (void ones twice), so the budget is read
   * before it.
   */
  static int nextBits(ExpandableFilter f) {
    long after = f.used + f.entriesByKnownBits[f.log];
    return ExpandableMath.budgetBits(
        f.fpRate,
        f.modelledFpRate(),
        (double) after / ExpandableMath.slots(f.log + 1, f.mant),
        f.log + 1,
        longestFingerprint(f, f.log + 1));
  }

  /** Rebuilds the table with {@code 2^newLog}-scaled slots (the same or twice) of a new width. */
  static void rebuild(ExpandableFilter f, int newLog, int newWidth) {
    long newSlots = ExpandableMath.slots(newLog, f.mant);
    long[] next = new long[wordCount(newSlots, newWidth)];
    f.used = ExpandableWrites.rebuild(f.heap, f.slots, f.width, next, newSlots, newWidth);
    if (newLog == f.log + 1) {
      // void entries (knowing exactly log bits) were duplicated; every other entry keeps its count
      f.entriesByKnownBits[newLog] += 2 * f.entriesByKnownBits[f.log];
      f.entriesByKnownBits[f.log] = 0;
    }
    f.words = next;
    f.heap = new ExpandableSlots.Heap(next);
    f.log = newLog;
    f.slots = newSlots;
    f.width = newWidth;
  }

  /**
   * {@return whether {@code f}'s table can be halved: a smaller shape exists, the entries fit it at
   * load at most {@value ExpandableMath#MAX_LOAD}, and the longest fingerprint, one bit longer,
   * fits the widest slot}
   */
  static boolean canHalve(ExpandableFilter f) {
    int min = f.mant == 0 ? ExpandableMath.MIN_LOG_SLOTS : 8;
    return f.log > min
        && f.used <= ExpandableMath.maxEntries(ExpandableMath.slots(f.log - 1, f.mant))
        && longestFingerprint(f, f.log - 1) + ExpandableMath.SLOT_OVERHEAD_BITS
            <= ExpandableSlots.MAX_WIDTH;
  }

  /**
   * Halves the table ({@link #halveTable}): every entry keeps its known hash bits, so the modelled
   * rate is unchanged; the slots are as wide as the longest fingerprint now needs, and the next
   * generation's length is the budget policy's for the halved table.
   */
  static void halve(ExpandableFilter f) {
    int newLog = f.log - 1;
    long newSlots = ExpandableMath.slots(newLog, f.mant);
    int longest = longestFingerprint(f, newLog);
    int bits =
        ExpandableMath.budgetBits(
            f.fpRate, f.modelledFpRate(), (double) f.used / newSlots, newLog, longest);
    int newWidth = Math.max(longest, bits) + ExpandableMath.SLOT_OVERHEAD_BITS;
    long[] next = new long[wordCount(newSlots, newWidth)];
    long written = halveTable(f.heap, f.slots, f.width, next, newWidth);
    if (written != f.used) {
      throw new IllegalStateException(written + " entries halved, " + f.used + " counted");
    }
    f.words = next;
    f.heap = new ExpandableSlots.Heap(next);
    f.log = newLog;
    f.slots = newSlots;
    f.width = newWidth;
    f.newBits = bits;
    f.startLog = Math.min(f.startLog, newLog);
  }

  /**
   * Writes every entry of {@code src} ({@code n} slots, {@code n} even) into the empty table {@code
   * dst} of {@code n / 2} slots of {@code newWidth} bits: the low quotient bit becomes the entry's
   * top fingerprint bit (a void entry gets that one bit), so every entry knows the same hash bits
   * as before. Entry by entry through {@link ExpandableWrites#insert}, in quotient order: the
   * halved runs need not fit where the doubled layout's {@code Appender} would put them (a cluster
   * before the pass's start can wrap round onto it), and an insert shifts what it must.
   *
   * @return the number of entries written
   */
  static long halveTable(ExpandableSlots.Words src, long n, int width, long[] dst, int newWidth) {
    ExpandableSlots.Heap out = new ExpandableSlots.Heap(dst);
    long half = n / 2;
    long[] count = {0};
    ExpandableWrites.forEachRun(
        src,
        n,
        width,
        (q, first, length) -> {
          long bit = q & 1;
          for (int k = 0; k < length; k++) {
            long v = ExpandableKernel.valueAt(src, width, (first + k) % n);
            int r = ExpandableKernel.length(v);
            long fp = v & ((1L << r) - 1);
            ExpandableWrites.insert(
                out, half, newWidth, q >>> 1, (1L << (r + 1)) | (bit << r) | fp);
            count[0]++;
          }
        });
    return count[0];
  }

  /**
   * {@return the fingerprint length of the present entry of {@code f} that knows the most hash
   * bits, in a table of {@code 2^atLog} slots; 0 when there is none}
   */
  static int longestFingerprint(ExpandableFilter f, int atLog) {
    for (int h = f.entriesByKnownBits.length - 1; h > atLog; h--) {
      if (f.entriesByKnownBits[h] > 0) {
        return h - atLog;
      }
    }
    return 0;
  }

  /** {@link ExpandableFilter#union}: the checks of scheme and mutability are the caller's. */
  static void union(ExpandableFilter f, ExpandableFilter other) {
    if (other.fpRate != f.fpRate) {
      throw new IllegalArgumentException(
          "cannot merge filters of different target rates: " + f.fpRate + " and " + other.fpRate);
    }
    // a snapshot: other may be f
    ExpandableSlots.Words src = new ExpandableSlots.Heap(ExpandableOps.heapWords(other));
    int otherLog = other.log;
    long otherSlots = other.slots;
    int srcWidth = other.width;
    long otherKeys = other.numKeys;
    boolean aligned = other.mant == f.mant;
    while (f.slots < otherSlots) {
      expand(f);
    }
    int needWidth = srcWidth - (f.log - otherLog) + (aligned ? 0 : 1);
    if (needWidth > f.width) {
      rebuild(f, f.log, Math.min(needWidth, ExpandableSlots.MAX_WIDTH));
    }
    ExpandableWrites.forEachRun(
        src,
        otherSlots,
        srcWidth,
        (q, first, length) -> {
          for (int k = 0; k < length; k++) {
            long v = ExpandableKernel.valueAt(src, srcWidth, (first + k) % otherSlots);
            if (aligned) {
              insertExpanded(f, q, v, otherLog);
            } else {
              ExpandableCover.insertCovering(f, q, v, otherSlots);
            }
          }
        });
    f.numKeys += otherKeys;
  }

  /**
   * Inserts an entry of a table {@code 2^(f.log − fromLog)} times smaller, expanded to this table's
   * size: its top fingerprint bits become quotient bits; where they run out, it is void and goes to
   * every run its known bits allow.
   */
  private static void insertExpanded(ExpandableFilter f, long q, long value, int fromLog) {
    int r = ExpandableKernel.length(value);
    int d = f.log - fromLog;
    while (f.used + (r >= d ? 1 : 1L << (d - r)) > ExpandableMath.maxEntries(f.slots)) {
      expand(f);
      d = f.log - fromLog;
    }
    long bits = value & ((1L << r) - 1);
    if (r >= d) {
      long newQ = (q << d) | (bits >>> (r - d));
      long newValue = (1L << (r - d)) | (bits & ((1L << (r - d)) - 1));
      insertEntry(f, newQ, newValue);
    } else {
      long prefix = ((q << r) | bits) << (d - r);
      for (long c = 0; c < (1L << (d - r)); c++) {
        insertEntry(f, prefix | c, 1);
      }
    }
  }

  static void insertEntry(ExpandableFilter f, long q, long value) {
    if (ExpandableDuplicates.saturated(f.heap, f.slots, f.width, q, value)) {
      return; // the run keeps a bounded number of copies of one entry
    }
    ExpandableWrites.insert(f.heap, f.slots, f.width, q, value);
    f.used++;
    f.entriesByKnownBits[f.log + ExpandableKernel.length(value)]++;
  }
}
