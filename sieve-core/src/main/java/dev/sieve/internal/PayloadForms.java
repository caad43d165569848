package dev.sieve.internal;

import dev.sieve.Filter;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container payload forms of the filter classes, reachable inside the module only: each family
 * registers its package-private {@link PayloadForm} here from its filter class's static
 * initializer, and the container ({@code dev.sieve.format}) finds a type's form by the class the
 * registry ({@code dev.sieve.registry.FilterType}) names. Public persistence is the container and
 * the interop forms (RocksDB blocks, the Parquet bitset); this package is not exported.
 */
public final class PayloadForms {
  private PayloadForms() {}

  private static final Map<Class<?>, PayloadForm<?>> FORMS = new ConcurrentHashMap<>();

  /**
   * Registers a filter class's container payload form (from the class's static initializer).
   *
   * @param form the form; its {@link PayloadForm#filterClass()} is the key
   */
  public static void register(PayloadForm<?> form) {
    FORMS.put(form.filterClass(), form);
  }

  /**
   * The container payload form of {@code cls}, initializing the class (which registers it) if need
   * be.
   *
   * @throws IllegalArgumentException if the class registers none
   */
  @SuppressWarnings("unchecked")
  public static <F extends Filter> PayloadForm<F> form(Class<F> cls) {
    Objects.requireNonNull(cls, "cls");
    PayloadForm<?> form = FORMS.get(cls);
    if (form == null) {
      try {
        Class.forName(cls.getName(), true, cls.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      form = FORMS.get(cls);
    }
    if (form == null) {
      throw new IllegalArgumentException(cls.getName() + " registers no container payload form");
    }
    return (PayloadForm<F>) form;
  }
}
