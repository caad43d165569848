package dev.sieve;

/**
 * A key asked or added by a {@link KeyScheme} the filter does not hash by (byte or text keys on a
 * filter of {@code long} keys), or two filters of different key schemes combined: an error, where
 * an answer would be a silent miss.
 */
public class KeySchemeException extends SieveException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with its message.
   *
   * @param message what was refused, naming the filter's scheme and what it accepts
   */
  public KeySchemeException(String message) {
    super(message);
  }
}
