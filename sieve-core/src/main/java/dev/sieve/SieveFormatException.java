package dev.sieve;

/**
 * Serialized filter bytes (a Sieve container, a RocksDB filter block, an SST file) are corrupt,
 * truncated, of an unknown format or inconsistent. The message names the problem and the byte
 * offset where it was found.
 */
public class SieveFormatException extends SieveException {
  private static final long serialVersionUID = 1L;

  /** The byte offset in the input where the problem was found. */
  private final long offset;

  /**
   * A format error at a byte offset.
   *
   * @param offset the byte offset in the input where the problem was found
   * @param reason what is wrong there
   */
  public SieveFormatException(long offset, String reason) {
    super("at offset " + offset + ": " + reason);
    this.offset = offset;
  }

  /**
   * A format error at a byte offset, with a cause.
   *
   * @param offset the byte offset in the input where the problem was found
   * @param reason what is wrong there
   * @param cause the underlying exception
   */
  public SieveFormatException(long offset, String reason, Throwable cause) {
    super("at offset " + offset + ": " + reason, cause);
    this.offset = offset;
  }

  /**
   * The byte offset in the input where the problem was found.
   *
   * @return the offset
   */
  public long offset() {
    return offset;
  }
}
