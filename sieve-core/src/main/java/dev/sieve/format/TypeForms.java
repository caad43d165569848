package dev.sieve.format;

import static dev.sieve.format.SieveFormat.TYPE_OFFSET;

import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.Families;
import dev.sieve.internal.FilterFamily;
import dev.sieve.internal.PayloadForm;
import dev.sieve.registry.FilterType;
import dev.sieve.registry.MissingFamilyException;

/**
 * The payload form of a registry type: its family's ({@link Families}), the sharded type's included
 * (the shard family's nesting). The one way the container reaches a form: a read goes format →
 * registry (id to type) → family form → filter, and nothing calls back into this package.
 */
final class TypeForms {
  private TypeForms() {}

  /** {@return the payload form of {@code type}, whose family is present} */
  static PayloadForm<KeyFilter> of(FilterType type) {
    return Families.get().form(type);
  }

  /**
   * Refuses a container of a type whose family is absent, at the header's type field, before any
   * payload is read.
   *
   * @throws SieveFormatException naming the type and its module, caused by a {@link
   *     MissingFamilyException}
   */
  static void requirePresent(FilterType type) {
    if (Families.get().row(type) == null) {
      MissingFamilyException missing = new MissingFamilyException(type);
      throw new SieveFormatException(TYPE_OFFSET, missing.getMessage(), missing);
    }
  }

  /**
   * {@return what is written of {@code filter}, a filter of {@code type}: itself, or the snapshot
   * its family takes so that the header and the payload describe one moment while others add}
   */
  static KeyFilter toWrite(FilterType type, KeyFilter filter) {
    FilterFamily.Row<?> row = Families.get().row(type);
    return row == null ? filter : row.toWrite(filter);
  }
}
