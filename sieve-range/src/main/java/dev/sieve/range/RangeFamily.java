package dev.sieve.range;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The range filter family's registration, loaded by {@link java.util.ServiceLoader} (named in this
 * module's {@code module-info} and {@code META-INF/services}): the registry rows of its types, each
 * its filter class, builder and container payload form. Not for direct use: it is public only
 * because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class RangeFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public RangeFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.of(
            FilterType.GRAFITE,
            GrafiteFilter.class,
            GrafiteFilter::builder,
            new GrafiteForm.Payload()),
        Row.of(
            FilterType.PREFIX_BLOOM_RANGE,
            PrefixBloomRangeFilter.class,
            PrefixBloomRangeFilter::builder,
            new PrefixBloomForm.Payload()));
  }
}
