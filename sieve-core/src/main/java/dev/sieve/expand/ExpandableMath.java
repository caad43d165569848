package dev.sieve.expand;

import dev.sieve.internal.base.Checks;

/**
 * The model of the {@link ExpandableFilter}: the budget policy that picks each generation's
 * fingerprint length from the exact modelled rate ({@link #budgetBits}, {@link #sizedBits}), the
 * fixed widening schedule (with adds only from the smallest table, the upper end of that policy),
 * and the modelled rate of a given state. {@code ExpandableMathTest} and {@code
 * ExpandableSizingTest} pin the figures quoted in {@link ExpandableFilter}'s class comment.
 *
 * <h2>Why the budget policy keeps the rate at most f</h2>
 *
 * Write {@code L} for {@link #MAX_LOAD}, {@code m} for the modelled rate (the sum over the entries
 * of {@code 2^(−known bits)}), and call generation {@code j} the entries added between two events
 * (doublings, halvings, creation), with {@code r_j} bits in a table of {@code n_j} slots holding
 * {@code p_j · n_j} entries and rate {@code m_j} at the event. The policy picks the smallest {@code
 * r_j}, at least the longest present fingerprint in the table's terms, with
 *
 * <pre>
 *   m_j + 2^(−r_j) · (L · W(K_j) − p_j)  ≤  f,   W(K) = Σ_{i=0..K} 2^(−floor(log2(i+1))),  W ≥ 1.
 * </pre>
 *
 * <ol>
 *   <li>Within generation {@code j}: an entry added contributes {@code 2^(−r_j)/n_j}; a present
 *       entry removed contributed at least that (none knows more bits than a new one: the floor).
 *       At most {@code L · n_j} entries are present at once, so while the table holds {@code u ·
 *       n_j} entries, {@code m ≤ m_j + (u − p_j) · 2^(−r_j) ≤ m_j + (L − p_j) · 2^(−r_j) ≤ f}.
 *   <li>At the next doubling, {@code u ≤ L}, the doubled table holds at least {@code u/2} per slot
 *       ({@code p_{j+1} ≥ u/2}) and {@code m_{j+1} ≤ m_j + (u − p_j) · 2^(−r_j)}. The length {@code
 *       r_j + 1} then satisfies the rule: {@code m_{j+1} + 2^(−r_j−1)(L · W(K−1) − u/2) ≤ m_j +
 *       2^(−r_j) (3u/4 − p_j + L · W(K−1)/2) ≤ m_j + 2^(−r_j) (L · W(K) − p_j)}, since {@code 3u/4
 *       + L · W(K−1)/2 ≤ L (3/4 + W(K−1)/2) ≤ L · W(K)} for {@code K ≥ 1} ({@code W(K) ≥ W(K−1)},
 *       {@code W(K) ≥ 3/2}). So a length always exists, at most one bit longer per doubling, and
 *       {@code m ≤ f} at every moment for any adds and removes of present keys.
 *   <li>A sized start gives the first generation more than the rule would ({@link #sizedBits}: its
 *       worst case {@code L · 2^(−r0)} at most {@code f / (1 + 1/8)}): point 1 holds as it is, and
 *       the {@code f/9} or more left is what the first doubling past the size budgets from (point 2
 *       holds from there on).
 *   <li>A halving keeps every entry's known bits ({@code m} unchanged) and picks the next length by
 *       the same rule for the halved table. A union adds both rates, and may pass {@code f}; then
 *       the rule takes {@code f / 8} as what is left.
 * </ol>
 *
 * The lengths are capped at the widest slot and at 64 known bits; the bound assumes the cap is not
 * reached (it is not for the rates the builder accepts and adds only; removes that empty and refill
 * the table many times over can raise the lengths toward it).
 */
public final class ExpandableMath {
  private ExpandableMath() {}

  /** The load (entries per slot) past which the table doubles. */
  static final double MAX_LOAD = 0.85;

  /**
   * The highest target rate: a filter's void copies take at most its rate's share of the slots, and
   * must stay well below half the load for a doubling to make room.
   */
  static final double MAX_FP_RATE = 0.25;

  /** The smallest table: {@code 2^}{@value} slots. */
  static final int MIN_LOG_SLOTS = 6;

  /** The largest table: {@code 2^}{@value} slots (and the Java array limit on its words). */
  static final int MAX_LOG_SLOTS = 32;

  /** The most doublings a filter can go through: from the smallest table to the largest. */
  static final int MAX_DOUBLINGS = MAX_LOG_SLOTS - MIN_LOG_SLOTS;

  /**
   * The longest first-generation fingerprint: with the widening of {@value #MAX_DOUBLINGS}
   * doublings and the quotient of the largest table, a key's known bits fill its 64-bit hash.
   */
  static final int MAX_BASE_FINGERPRINT_BITS = 64 - MAX_LOG_SLOTS - 4;

  /**
   * Bits of a slot besides the fingerprint: occupied, run end and the length marker (and, per block
   * of 64 slots, a 16-bit offset: 0.25 bits a slot more, {@link #bitsPerKey}).
   */
  static final int SLOT_OVERHEAD_BITS = 3;

  /**
   * The widening after {@code j} doublings: new entries get {@code floor(log2(j + 1))} more
   * fingerprint bits than at creation (one more after 1, 3, 7, 15 doublings).
   *
   * @param doublings {@code j >= 0}
   * @return the extra bits
   */
  static int widening(int doublings) {
    return 31 - Integer.numberOfLeadingZeros(doublings + 1);
  }

  /**
   * {@code Σ_{j=0..g} 2^(−widening(j))}: the false-positive bound in units of {@code MAX_LOAD ·
   * 2^(−F)}. Each run of doublings in which the widening is the same adds at most 1, so it is at
   * most {@code floor(log2(g + 1)) + 1}; {@value #MAX_DOUBLINGS} doublings give 4.75.
   *
   * @param doublings {@code g >= 0}
   * @return the sum
   */
  static double wideningSum(int doublings) {
    double sum = 0;
    for (int j = 0; j <= doublings; j++) {
      sum += Math.scalb(1.0, -widening(j));
    }
    return sum;
  }

  /**
   * The fingerprint length {@code F} of the entries added before the first doubling: the smallest
   * with {@code MAX_LOAD · 2^(−F) · wideningSum(MAX_DOUBLINGS) <= fpRate}, so that the bound holds
   * however far the filter grows (9 bits at 1%, 12 at 0.1%).
   *
   * @param fpRate the target rate in (0, 1)
   * @return {@code F}
   */
  public static int baseFingerprintBits(double fpRate) {
    Checks.fpRate(fpRate);
    double need = MAX_LOAD * wideningSum(MAX_DOUBLINGS) / fpRate;
    int bits = 1;
    while (Math.scalb(1.0, bits) < need) {
      bits++;
    }
    return bits;
  }

  /**
   * The fingerprint length of the entries added after {@code doublings} doublings under the fixed
   * schedule {@code F + widening(j)} (with adds only, the budget policy of {@link ExpandableFilter}
   * gives at most these lengths, as {@code ExpandableGrowthTest} checks).
   *
   * @param fpRate the target rate
   * @param doublings {@code j >= 0}
   * @return the length in bits
   */
  public static int fingerprintBits(double fpRate, int doublings) {
    return baseFingerprintBits(fpRate) + widening(doublings);
  }

  /**
   * The modelled false-positive rate of a table from its entries: an entry matches a random absent
   * key when the key's hash agrees with its {@code log + r} known hash bits ({@code log} quotient
   * bits, {@code r} fingerprint bits; a void entry knows {@code log} bits), so the expected number
   * of matching entries, an upper bound on the rate, is {@code Σ_h count[h] · 2^(−h)}.
   *
   * @param entriesByKnownBits {@code count[h]}: how many entries know {@code h} bits of their hash
   * @return the modelled rate, at most 1
   */
  public static double modelFpRate(long[] entriesByKnownBits) {
    double sum = 0;
    for (int h = 0; h < entriesByKnownBits.length; h++) {
      sum += Math.scalb((double) entriesByKnownBits[h], -h);
    }
    return Math.min(1.0, sum);
  }

  /**
   * The memory of a table at load {@code load}: {@code (slotBits + 0.25) / load} bits per entry (a
   * block of 64 slots carries a 16-bit offset besides its slots). Just after a doubling the load is
   * half of {@value #MAX_LOAD}, so the memory per key jumps to twice what it was just before (and
   * gains the widening's bit when the width grows).
   *
   * @param slotBits the slot width
   * @param load entries per slot, in (0, 1]
   * @return bits per entry
   */
  public static double bitsPerKey(int slotBits, double load) {
    return (slotBits + (double) ExpandableSlots.OFFSET_BITS / 64) / load;
  }

  /**
   * The slots of a table of shape {@code (log, mant)}: {@code 2^log} when {@code mant} is 0, else
   * {@code (256 + mant) · 2^(log − 8)} (a right-sized start from a key-count hint, {@code log >=
   * 8}); a doubling keeps {@code mant} and adds 1 to {@code log}.
   */
  static long slots(int log, int mant) {
    return mant == 0 ? 1L << log : (256L + mant) << (log - 8);
  }

  /** {@return the most entries a table of {@code slots} slots holds: at load {@value #MAX_LOAD}} */
  static long maxEntries(long slots) {
    return (long) Math.floor(MAX_LOAD * slots);
  }

  /** The most slots a table can have: shape {@code (MAX_LOG_SLOTS, 255)}. */
  static final long MAX_SLOTS = slots(MAX_LOG_SLOTS, 255);

  /**
   * The share of a sized filter's budget kept back for growth past its size: a filter built for a
   * key count (a hint, or the keys given) gives its first generation the longest fingerprints whose
   * worst-case rate is at most {@code f / (1 + }{@value}{@code )}, so that growing past that count
   * still finds a length (at a cost in bits, {@link #budgetBits}).
   */
  static final double SIZED_RESERVE = 0.125;

  /**
   * The fingerprint length of a sized filter's first generation: the smallest {@code r} with {@code
   * MAX_LOAD · 2^(−r) · (1 + SIZED_RESERVE) ≤ fpRate}. At the size it was built for (load {@value
   * #MAX_LOAD}) its modelled rate is {@code MAX_LOAD · 2^(−r)}, in {@code (f / 2.25, f / 1.125]}: 7
   * bits (0.66%) at 1%, 10 bits (0.083%) at 0.1%.
   *
   * @param fpRate the target rate
   * @return the length in bits
   */
  static int sizedBits(double fpRate) {
    int bits = 1;
    while (!(MAX_LOAD * (1 + SIZED_RESERVE) * Math.scalb(1.0, -bits) <= fpRate)) {
      bits++;
    }
    return bits;
  }

  /**
   * The budget policy: the fingerprint length of the entries added from now on (until the next
   * doubling or halving) in a table of {@code 2^log} to {@code 2^(log+1)} slots whose present
   * entries have the modelled rate {@code presentRate} and fill {@code presentLoad} of the slots.
   * It is the smallest {@code r}, at least {@code floor}, with
   *
   * <pre>
   *   presentRate + 2^(−r) · (MAX_LOAD · wideningSum(MAX_LOG_SLOTS − log) − presentLoad)  ≤  fpRate:
   * </pre>
   *
   * {@code 2^(−r) · (MAX_LOAD − presentLoad)} is the most the current generation can add (it fills
   * at most the slots left, and no entry it may displace by removes is matched less often), the
   * rest the reserve that keeps {@code r + 1} feasible at the next doubling ({@link
   * ExpandableFilter}'s class comment has the induction). {@code floor} is the longest present
   * fingerprint in this table's terms, so that no new entry is matched more often than one present.
   * Capped at the widest slot and the 64 hash bits. When the present rate is at or past the target
   * (after a {@link ExpandableFilter#union}, the only way there), {@code SIZED_RESERVE · fpRate} is
   * taken as left: each generation then adds at most {@code SIZED_RESERVE · fpRate}, and new
   * entries keep lengths near the sized ones.
   *
   * @param fpRate the target rate
   * @param presentRate the modelled rate of the entries present, in [0, 1]
   * @param presentLoad the entries present per slot, in [0, 1]
   * @param log log2 of the slots, rounded down
   * @param floor the shortest length allowed
   * @return the fingerprint length in bits, at least 1
   */
  static int budgetBits(double fpRate, double presentRate, double presentLoad, int log, int floor) {
    // past the target (only a union gets there: the rates of both add up) new entries are
    // budgeted as if a sized filter's reserve were left, so that the rate grows by at most that
    // per generation instead of new entries taking the widest slots
    double left = presentRate < fpRate ? fpRate - presentRate : fpRate * SIZED_RESERVE;
    double need = MAX_LOAD * wideningSum(Math.max(0, MAX_LOG_SLOTS - log)) - presentLoad;
    int cap = Math.min(ExpandableSlots.MAX_WIDTH - SLOT_OVERHEAD_BITS, 64 - log);
    int bits = Math.max(1, Math.min(floor, cap));
    while (bits < cap && !(Math.scalb(need, -bits) <= left)) {
      bits++;
    }
    return bits;
  }
}
