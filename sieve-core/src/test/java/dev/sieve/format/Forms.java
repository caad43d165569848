package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.internal.Families;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;

/** The package-private per-class forms, for the tests of the container and its fuzz targets. */
final class Forms {
  private Forms() {}

  @SuppressWarnings("unchecked")
  static <F extends Filter> byte[] toBytes(F filter) {
    PayloadForm<F> form = Families.get().form((Class<F>) filter.getClass());
    return form.payload(filter);
  }

  static <F extends Filter> F read(Class<F> cls, byte[] bytes) {
    return read(cls, bytes, 0);
  }

  static <F extends Filter> F read(Class<F> cls, byte[] bytes, long numKeys) {
    return Families.get().form(cls).read(bytes, numKeys);
  }

  static <F extends Filter> F wrap(Class<F> cls, ByteBuffer bytes) {
    return wrap(cls, bytes, 0);
  }

  static <F extends Filter> F wrap(Class<F> cls, ByteBuffer bytes, long numKeys) {
    return Families.get().form(cls).wrap(bytes, numKeys);
  }
}
