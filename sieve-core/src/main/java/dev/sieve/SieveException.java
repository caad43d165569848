package dev.sieve;

/** The root of Sieve's exception family. */
public class SieveException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SieveException(String message) {
    super(message);
  }

  public SieveException(String message, Throwable cause) {
    super(message, cause);
  }
}
