package dev.sieve.registry;

import dev.sieve.SieveException;
import dev.sieve.internal.Families;

/**
 * A filter type's family (its filter class, builder and container form) is not on the class or
 * module path: the message names the type and the Maven module that provides it, e.g. "type 20
 * (grafite) is provided by dev.sieve:sieve-range, which is not on the class or module path". A
 * container holding such a type is refused with a {@code SieveFormatException} at its type field
 * whose cause is this exception.
 */
public class MissingFamilyException extends SieveException {
  private static final long serialVersionUID = 1L;

  /** The type whose family is absent. */
  private final FilterType type;

  /**
   * The exception for {@code type}.
   *
   * @param type the type whose family is absent
   */
  public MissingFamilyException(FilterType type) {
    super(Families.notPresent(type));
    this.type = type;
  }

  /**
   * The type whose family is absent.
   *
   * @return the type
   */
  public FilterType type() {
    return type;
  }
}
