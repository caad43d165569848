package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.internal.FilterFamily.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The filter families present, loaded once, on first use, with {@link ServiceLoader} from
 * sieve-core's class loader: on the module path the providers its {@code module-info} names, on the
 * class path those {@code META-INF/services/dev.sieve.internal.FilterFamily} lists. The registry
 * resolves a type's class and builder here, the container its payload form and the key schemes the
 * trait a filter's class carries. Two rows for one type id, or for one filter class, fail the load
 * with both providers named (and every later use, the same way). Not API: this package is not
 * exported.
 */
public final class Families {
  private static final Object LOCK = new Object();

  /** The families loaded; {@code null} until the first use, or after a load that failed. */
  private static volatile Families loaded;

  private final Map<Integer, Row<?>> byId = new HashMap<>();
  private final Map<Integer, String> providerOf = new HashMap<>();
  private final Map<Class<?>, Row<?>> byClass = new HashMap<>();

  /**
   * The registry of the rows of {@code families}.
   *
   * @throws IllegalStateException if two rows are for one type id or one filter class
   */
  Families(Iterable<? extends FilterFamily> families) {
    for (FilterFamily family : families) {
      String provider = family.getClass().getName();
      for (Row<?> row : family.rows()) {
        int id = row.type().id();
        if (byId.containsKey(id)) {
          throw new IllegalStateException(
              "filter type "
                  + id
                  + " ("
                  + row.type().cliName()
                  + ") is registered twice: by "
                  + providerOf.get(id)
                  + " and by "
                  + provider);
        }
        Row<?> sameClass = byClass.get(row.filterClass());
        if (sameClass != null) {
          throw new IllegalStateException(
              row.filterClass().getName()
                  + " is registered for two filter types: "
                  + sameClass.type().cliName()
                  + " (by "
                  + providerOf.get(sameClass.type().id())
                  + ") and "
                  + row.type().cliName()
                  + " (by "
                  + provider
                  + ")");
        }
        byId.put(id, row);
        providerOf.put(id, provider);
        byClass.put(row.filterClass(), row);
      }
    }
  }

  /** {@return the families present, loaded on the first call} */
  public static Families get() {
    Families f = loaded;
    if (f == null) {
      synchronized (LOCK) {
        f = loaded;
        if (f == null) {
          f =
              new Families(
                  ServiceLoader.load(FilterFamily.class, FilterFamily.class.getClassLoader()));
          loaded = f;
        }
      }
    }
    return f;
  }

  /**
   * Replaces the families loaded, for a test in this package that sees the registry as a path
   * without some family would (a family's module absent); {@code null} reloads on the next use.
   *
   * @return the families replaced, {@code null} if none were loaded yet
   */
  static Families swap(Families replacement) {
    synchronized (LOCK) {
      Families before = loaded;
      loaded = replacement;
      return before;
    }
  }

  /** {@return the row of {@code type}, or {@code null} if no family present provides it} */
  public Row<?> row(FamilyType type) {
    return byId.get(type.id());
  }

  /** {@return the row whose filter class is {@code cls}, or {@code null} if there is none} */
  public Row<?> rowOf(Class<?> cls) {
    return byClass.get(cls);
  }

  /**
   * The payload form of the filter class {@code cls}.
   *
   * @throws IllegalArgumentException if no family present registers the class
   */
  @SuppressWarnings("unchecked")
  public <F extends KeyFilter> PayloadForm<F> form(Class<F> cls) {
    Row<?> row = byClass.get(cls);
    if (row == null) {
      throw new IllegalArgumentException(cls.getName() + " is no registered filter type's class");
    }
    return (PayloadForm<F>) row.form();
  }

  /**
   * The payload form of {@code type}.
   *
   * @throws IllegalStateException naming the type and the module that provides it, if absent
   */
  @SuppressWarnings("unchecked")
  public PayloadForm<KeyFilter> form(FamilyType type) {
    Row<?> row = row(type);
    if (row == null) {
      throw new IllegalStateException(notPresent(type));
    }
    return (PayloadForm<KeyFilter>) row.form();
  }

  /**
   * The payload form of {@code type}, whose filters are {@link Filter}s (a type Sieve builds, as a
   * sharded filter's shards are).
   *
   * @throws IllegalStateException naming the type and the module that provides it, if absent, or
   *     naming the class if the type's filters are not {@link Filter}s (a foreign type)
   */
  @SuppressWarnings("unchecked")
  public PayloadForm<Filter> filterForm(FamilyType type) {
    PayloadForm<KeyFilter> form = form(type);
    if (!Filter.class.isAssignableFrom(form.filterClass())) {
      throw new IllegalStateException(
          "type "
              + type.id()
              + " ("
              + type.cliName()
              + "): "
              + form.filterClass().getName()
              + " is not a Filter");
    }
    return (PayloadForm<Filter>) (PayloadForm<?>) form;
  }

  /**
   * Whether {@code filter} is of a type whose keys may be given as their own hashes ({@link
   * FamilyType#isIdentitySafe()}); a class no family registers is not. (A builder answers for
   * itself: {@code FilterBuilder.isIdentitySafe()}.)
   */
  public boolean isIdentitySafe(Filter filter) {
    Row<?> row = byClass.get(filter.getClass());
    return row != null && row.type().isIdentitySafe();
  }

  /**
   * {@return the message for a type whose family is absent: "type 20 (grafite) is provided by
   * dev.sieve:sieve-range, which is not on the class or module path"}
   */
  public static String notPresent(FamilyType type) {
    return "type "
        + type.id()
        + " ("
        + type.cliName()
        + ") is provided by "
        + type.artifact()
        + ", which is not on the class or module path";
  }
}
