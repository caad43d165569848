package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.PayloadForms;
import dev.sieve.registry.FilterType;

/**
 * The payload form of a registry type: its family's form ({@link PayloadForms}, by the class the
 * registry names), or for {@link FilterType#SHARDED} the container's own nesting ({@link
 * ShardedCodec}). The one way the container reaches a form: a read goes format → registry (id to
 * type) → family form → filter, and nothing calls back into this package.
 */
final class TypeForms {
  private static final ShardedCodec SHARDED = new ShardedCodec();

  private TypeForms() {}

  /** {@return the payload form of {@code type}} */
  @SuppressWarnings("unchecked")
  static PayloadForm<Filter> of(FilterType type) {
    PayloadForm<? extends Filter> form =
        type == FilterType.SHARDED ? SHARDED : PayloadForms.form(type.filterClass());
    return (PayloadForm<Filter>) form;
  }
}
