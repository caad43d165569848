package dev.sieve.json;

/**
 * A document that is not JSON: what is wrong and where. An {@link IllegalArgumentException}, so a
 * caller that reads a file can name the file and pass the problem on in one message.
 */
public final class JsonFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String problem;
  private final int offset;

  /**
   * @param problem what is wrong, e.g. {@code "unterminated string"}
   * @param offset the index of the character (a UTF-16 index into the text) where it was found
   */
  public JsonFormatException(String problem, int offset) {
    super("JSON: " + problem + " at character " + offset);
    this.problem = problem;
    this.offset = offset;
  }

  /** {@return what is wrong, without the position} */
  public String problem() {
    return problem;
  }

  /** {@return the index of the character where the problem was found} */
  public int offset() {
    return offset;
  }
}
