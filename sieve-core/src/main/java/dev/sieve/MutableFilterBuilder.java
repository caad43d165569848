package dev.sieve;

import dev.sieve.internal.base.Checks;

/**
 * The builder of a {@link MutableFilter}: everything {@link FilterBuilder} does, plus {@link
 * #expectedKeys(long)} and {@link #create()}, an empty filter sized for that many keys at the
 * configured rate or size setting, to be filled with {@code add}. A build from keys sizes for the
 * keys given and ignores {@code expectedKeys}.
 *
 * @param <F> the filter type built
 */
public abstract class MutableFilterBuilder<F extends MutableFilter> extends FilterBuilder<F> {
  /** The default of {@link #expectedKeys(long)}. */
  public static final long DEFAULT_EXPECTED_KEYS = 1000;

  private long expectedKeys = DEFAULT_EXPECTED_KEYS;

  /** A builder whose filters hash by {@link KeyScheme#XXPH3} unless a scheme is set. */
  protected MutableFilterBuilder() {}

  /**
   * A builder whose filters hash by {@code defaultScheme} unless a scheme is set ({@link
   * FilterBuilder#FilterBuilder(KeyScheme)}).
   *
   * @param defaultScheme the type's default scheme
   */
  protected MutableFilterBuilder(KeyScheme defaultScheme) {
    super(defaultScheme);
  }

  /**
   * The number of keys {@link #create()} sizes for (default {@value #DEFAULT_EXPECTED_KEYS}).
   * Adding more is allowed; the rate then rises past the target, which {@link
   * Filter#expectedFpRate()} reports.
   *
   * @param expectedKeys at least 0
   * @return this builder
   */
  public MutableFilterBuilder<F> expectedKeys(long expectedKeys) {
    this.expectedKeys = Checks.count("expected keys", expectedKeys, Long.MAX_VALUE);
    return this;
  }

  /**
   * The {@link #expectedKeys(long)} setting.
   *
   * @return the number of keys {@link #create()} sizes for
   */
  public long expectedKeys() {
    return expectedKeys;
  }

  /**
   * An empty filter sized for {@link #expectedKeys(long)} keys at the configured rate or size.
   *
   * @return a new, empty filter
   * @throws IllegalArgumentException if that size is past the type's limit (the message names it)
   */
  public final F create() {
    return schemed(createEmpty());
  }

  /**
   * The empty filter {@link #create()} returns, before the builder's {@link #keyScheme()} is set on
   * it.
   *
   * @return a new, empty filter
   */
  protected abstract F createEmpty();

  @Override
  public MutableFilterBuilder<F> keyScheme(KeyScheme scheme) {
    super.keyScheme(scheme);
    return this;
  }

  @Override
  public abstract MutableFilterBuilder<F> fpRate(double fpRate);
}
