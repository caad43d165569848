package dev.sieve.interop;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The other systems' filter family's registration, loaded by {@link java.util.ServiceLoader} (named
 * in this module's {@code module-info} and {@code META-INF/services}): the registry rows of its
 * types, each its filter class, builder and container payload form. Not for direct use: it is
 * public only because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class InteropFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public InteropFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.foreign(FilterType.GUAVA_BLOOM, GuavaBloomFilter.class, new GuavaBloomFilter.Payload()),
        Row.foreign(FilterType.SPARK_BLOOM, SparkBloomFilter.class, new SparkBloomFilter.Payload()),
        Row.foreign(
            FilterType.DATASKETCHES_BLOOM,
            DataSketchesBloomFilter.class,
            new DataSketchesBloomFilter.Payload()),
        Row.of(
            FilterType.ORC_BLOOM,
            OrcBloomFilter.class,
            OrcBloomFilter::builder,
            new OrcBloomForm.Payload()),
        Row.foreign(
            FilterType.CASSANDRA_BLOOM,
            CassandraBloomFilter.class,
            new CassandraBloomForm.Payload()));
  }
}
