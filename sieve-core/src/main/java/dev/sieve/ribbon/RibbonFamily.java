package dev.sieve.ribbon;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The Ribbon filter family's registration, loaded by {@link java.util.ServiceLoader} (named in
 * sieve-core's {@code module-info} and {@code META-INF/services}): the registry rows of its types,
 * each its filter class, builder and container payload form. Not for direct use: it is public only
 * because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class RibbonFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public RibbonFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.of(
            FilterType.RIBBON,
            Standard128RibbonFilter.class,
            Standard128RibbonFilter::builder,
            RibbonBlockForm.payloadForm()),
        Row.of(
            FilterType.BUMPED_RIBBON,
            BumpedRibbonFilter.class,
            BumpedRibbonFilter::builder,
            BumpedRibbonForm.payloadForm()));
  }
}
