package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.PayloadForms;
import java.nio.ByteBuffer;

/** The package-private per-class forms, for the tests of the container and its fuzz targets. */
final class Forms {
  private Forms() {}

  /** The class's container payload form, or null while it still registers the old byte form. */
  private static <F extends Filter> PayloadForm<F> payloadForm(Class<F> cls) {
    try {
      return PayloadForms.form(cls);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  static <F extends Filter> byte[] toBytes(F filter) {
    PayloadForm<F> form = payloadForm((Class<F>) filter.getClass());
    return form != null
        ? form.payload(filter)
        : PayloadForms.of((Class<F>) filter.getClass()).write(filter);
  }

  static <F extends Filter> F read(Class<F> cls, byte[] bytes) {
    return read(cls, bytes, 0);
  }

  static <F extends Filter> F read(Class<F> cls, byte[] bytes, long numKeys) {
    PayloadForm<F> form = payloadForm(cls);
    return form != null ? form.read(bytes, numKeys) : PayloadForms.of(cls).read(bytes, numKeys);
  }

  static <F extends Filter> F wrap(Class<F> cls, ByteBuffer bytes) {
    return wrap(cls, bytes, 0);
  }

  static <F extends Filter> F wrap(Class<F> cls, ByteBuffer bytes, long numKeys) {
    PayloadForm<F> form = payloadForm(cls);
    return form != null ? form.wrap(bytes, numKeys) : PayloadForms.of(cls).wrap(bytes, numKeys);
  }
}
