package dev.sieve.format;

/**
 * The validated header of a Sieve container ({@code docs/format.md}).
 *
 * @param version the format version (1)
 * @param type the filter type
 * @param numKeys the key count the filter was written with
 * @param payloadLength the payload's length in bytes
 * @param parameterA the type's first parameter (probes or fingerprint bits)
 * @param parameterB the type's second parameter (arity, slots per bucket, or 0)
 * @param sizeInBits the filter's {@link dev.sieve.Filter#sizeInBits()}
 * @param flags the flags ({@link SieveFormat#FLAG_MIX64_LONG_KEYS}, {@link
 *     SieveFormat#FLAG_IDENTITY_LONG_KEYS})
 */
public record ContainerHeader(
    int version,
    FilterType type,
    long numKeys,
    long payloadLength,
    int parameterA,
    int parameterB,
    long sizeInBits,
    int flags) {

  /**
   * The container's total length: header, payload and the payload checksum.
   *
   * @return the length in bytes
   */
  public long totalLength() {
    return SieveFormat.HEADER_BYTES + payloadLength + SieveFormat.CHECKSUM_BYTES;
  }
}
