package dev.sieve;

/** The root of Sieve's exception family. */
public class SieveException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message.
   *
   * @param message what went wrong, naming the value and the limit
   */
  public SieveException(String message) {
    super(message);
  }

  /**
   * An exception with a message and a cause.
   *
   * @param message what went wrong
   * @param cause the underlying exception
   */
  public SieveException(String message, Throwable cause) {
    super(message, cause);
  }
}
