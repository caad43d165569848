package dev.sieve.bloom;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The Bloom filter family's registration, loaded by {@link java.util.ServiceLoader} (named in
 * sieve-core's {@code module-info} and {@code META-INF/services}): the registry rows of its types,
 * each its filter class, builder and container payload form. Not for direct use: it is public only
 * because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class BloomFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public BloomFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.of(
            FilterType.BLOCKED_BLOOM,
            BlockedBloomFilter.class,
            BlockedBloomFilter::builder,
            BlockedBloomForm.payloadForm()),
        Row.of(
            FilterType.STANDARD_BLOOM,
            StandardBloomFilter.class,
            StandardBloomFilter::builder,
            StandardBloomForm.payloadForm()),
        Row.of(
            FilterType.SPLIT_BLOCK_BLOOM,
            SplitBlockBloomFilter.class,
            SplitBlockBloomFilter::builder,
            SplitBlockForm.payloadForm()),
        Row.of(
                FilterType.SCALABLE_BLOOM,
                ScalableBloomFilter.class,
                ScalableBloomFilter::builder,
                ScalableBloomForm.payloadForm())
            // header and payload from one moment while other threads add
            .writtenFrom(ScalableBloomFilter::snapshot),
        Row.of(
            FilterType.TWO_WORD_BLOOM,
            TwoWordBloomFilter.class,
            TwoWordBloomFilter::builder,
            TwoWordBloomForm.payloadForm()));
  }
}
