package dev.sieve.internal;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyFilter;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The registration of one filter family (a package of filter classes), loaded by {@link
 * java.util.ServiceLoader} through {@link Families}: the rows it provides, each tying a registry
 * type to its filter class, its builder and its container payload form. A family package has one
 * public provider class implementing this, named in sieve-core's {@code module-info} ({@code
 * provides}) and in {@code META-INF/services} (the class path), so that neither the registry nor
 * the container names a filter class: a family whose module is absent is a type without a row,
 * which the registry and the container report by the module that provides it. Not API: this package
 * is not exported.
 */
public interface FilterFamily {

  /** {@return the rows this family provides, one per filter type} */
  List<Row<?>> rows();

  /**
   * One filter type's row.
   *
   * @param <F> the filter class: a {@link Filter} for Sieve's own types, a {@link KeyFilter} alone
   *     for a foreign type (another system's filter, whose keys its owner hashes)
   * @param type the registry type
   * @param filterClass the filter class
   * @param builder the registry's builder at its defaults, or {@code null} for a foreign type
   *     (built by its own class's create method)
   * @param form the container payload form
   * @param beforeWrite what the container writes of a filter: the filter itself, or for a type
   *     whose header and payload must describe one moment while other threads add, its snapshot
   */
  record Row<F extends KeyFilter>(
      FamilyType type,
      Class<F> filterClass,
      Supplier<? extends FilterBuilder<? extends F>> builder,
      PayloadForm<F> form,
      UnaryOperator<F> beforeWrite) {

    /** Checks the row: every part given, and the form being the filter class's. */
    public Row {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(filterClass, "filterClass");
      Objects.requireNonNull(form, "form");
      Objects.requireNonNull(beforeWrite, "beforeWrite");
      if (form.filterClass() != filterClass) {
        throw new IllegalArgumentException(
            "type "
                + type.id()
                + " ("
                + type.cliName()
                + "): the form is "
                + form.filterClass().getName()
                + "'s, the row's class is "
                + filterClass.getName());
      }
    }

    /**
     * A type built from keys by the registry's builder, written as it is.
     *
     * @param <F> the filter class
     * @param type the registry type
     * @param filterClass the filter class
     * @param builder the builder at its defaults
     * @param form the container payload form
     * @return the row
     */
    public static <F extends Filter> Row<F> of(
        FamilyType type,
        Class<F> filterClass,
        Supplier<? extends FilterBuilder<? extends F>> builder,
        PayloadForm<F> form) {
      return new Row<>(type, filterClass, Objects.requireNonNull(builder, "builder"), form, f -> f);
    }

    /**
     * A foreign type (another system's filter in its own form): no registry builder.
     *
     * @param <F> the filter class
     * @param type the registry type
     * @param filterClass the filter class
     * @param form the container payload form
     * @return the row
     */
    public static <F extends KeyFilter> Row<F> foreign(
        FamilyType type, Class<F> filterClass, PayloadForm<F> form) {
      return new Row<>(type, filterClass, null, form, f -> f);
    }

    /**
     * This row, the container writing {@code snapshot} of a filter instead of the filter, so that
     * the header (key count, parameters, size) and the payload are taken from one moment.
     *
     * @param snapshot the filter's snapshot
     * @return the row
     */
    public Row<F> writtenFrom(UnaryOperator<F> snapshot) {
      return new Row<>(type, filterClass, builder, form, snapshot);
    }

    /** {@return what the container writes of {@code filter}, a filter of this row's class} */
    public KeyFilter toWrite(KeyFilter filter) {
      return beforeWrite.apply(filterClass.cast(filter));
    }
  }
}
