package dev.sieve.expand;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The expandable filter family's registration, loaded by {@link java.util.ServiceLoader} (named in
 * sieve-core's {@code module-info} and {@code META-INF/services}): the registry rows of its types,
 * each its filter class, builder and container payload form. Not for direct use: it is public only
 * because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class ExpandableFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public ExpandableFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.of(
            FilterType.EXPANDABLE,
            ExpandableFilter.class,
            ExpandableFilter::builder,
            new ExpandablePayload()));
  }
}
