package dev.sieve.xor;

import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.FilterFamily.Row;
import dev.sieve.registry.FilterType;
import java.util.List;

/**
 * The Xor and Binary Fuse filter family's registration, loaded by {@link java.util.ServiceLoader}
 * (named in sieve-core's {@code module-info} and {@code META-INF/services}): the registry rows of
 * its types, each its filter class, builder and container payload form. Not for direct use: it is
 * public only because a service provider must be.
 */
@SuppressWarnings("exports") // FilterFamily: the module's own registration interface, not API
public final class XorFamily implements FilterFamily {
  /** The provider, as {@link java.util.ServiceLoader} creates it. */
  public XorFamily() {}

  @Override
  public List<Row<?>> rows() {
    return List.of(
        Row.of(
            FilterType.XOR8,
            Xor8Filter.class,
            Xor8Filter::builder,
            FingerprintFilter.payloadForm(Xor8Filter.class, Xor8Filter.FORM)),
        Row.of(
            FilterType.XOR16,
            Xor16Filter.class,
            Xor16Filter::builder,
            FingerprintFilter.payloadForm(Xor16Filter.class, Xor16Filter.FORM)),
        Row.of(
            FilterType.BINARY_FUSE8,
            BinaryFuse8Filter.class,
            BinaryFuse8Filter::builder,
            FingerprintFilter.payloadForm(BinaryFuse8Filter.class, BinaryFuse8Filter.FORM)),
        Row.of(
            FilterType.BINARY_FUSE16,
            BinaryFuse16Filter.class,
            BinaryFuse16Filter::builder,
            FingerprintFilter.payloadForm(BinaryFuse16Filter.class, BinaryFuse16Filter.FORM)));
  }
}
