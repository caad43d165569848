package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.AtomicFileWrite;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * The Sieve container: one versioned, checksummed file format for every filter type, read from
 * bytes, streams, buffers or memory-mapped files. {@code docs/format.md} documents it byte by byte;
 * in short, little-endian:
 *
 * <pre>
 * offset  size  field
 *      0     8  magic 89 53 49 45 56 45 0D 0A ("\x89SIEVE\r\n")
 *      8     2  format version, 1
 *     10     2  filter type id ({@link FilterType})
 *     12     4  flags, the key scheme (at most one bit): bit 0 = MIX64 long keys, bit 1 =
 *               IDENTITY long keys, bit 2 = PARQUET_XXH64, bit 8 =
 *               ORC_MURMUR3; none = XXPH3 (KeyScheme); and bit 16 (XXPH3 only):
 *               the keys were added as longs (their 8 big-endian bytes)
 *     16     8  key count
 *     24     8  payload length L
 *     32     4  parameter A (probes, fingerprint bits)
 *     36     4  parameter B (arity, slots per bucket, or 0)
 *     40     8  filter size in bits
 *     48    12  reserved, 0
 *     60     4  CRC32C of bytes 0..59
 *     64     L  payload: the filter's own form (for Bloom: the RocksDB filter block)
 *   64+L     4  CRC32C of the payload
 * </pre>
 *
 * <h2>Safety against hostile input</h2>
 *
 * Every reader checks the magic, version, header checksum, type, flags and reserved bytes, then the
 * payload length against the bytes really there (a stream is read in growing chunks, so a huge
 * claimed length with a short stream fails after reading what is there), then the payload checksum,
 * <em>before</em> it decodes anything; the type's own reader then checks the payload, and the
 * decoded filter must agree with the header's parameters, size and key count. Any failure is a
 * {@link SieveFormatException} naming the byte offset and the reason. A filter is returned only
 * from bytes whose checksums match, so a corrupted filter never silently reports a key it was built
 * with as absent (up to CRC32C's 2^-32 miss rate on random corruption).
 *
 * <p>Another system's filter (its owner hashes its keys) is a {@link KeyFilter}, not a {@link
 * Filter}: the typed reads given its class return it; the untyped reads refuse it.
 *
 * <h2>Zero copy</h2>
 *
 * {@link #wrap(ByteBuffer)} and {@link #map(Path)} query every filter type in place from the buffer
 * or the mapped file, without copying its data onto the heap ({@link #readsInPlace(FilterType)}
 * says so per type; docs/format.md lists the limits: Bloom filters in 1 GiB segments past one
 * buffer's 2 GiB, Ribbon segmented too, the fingerprint filters up to 2 GiB).
 */
public final class SieveFormat {
  /** The magic: {@code 89 53 49 45 56 45 0D 0A}, as PNG's, catching text-mode mangling. */
  public static final long MAGIC = 0x0A0D455645495389L; // the bytes above, read little-endian

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;

  /** The header length; the payload starts here, 64-byte aligned. */
  public static final int HEADER_BYTES = 64;

  /** The length of the payload checksum after the payload. */
  public static final int CHECKSUM_BYTES = 4;

  static final int VERSION_OFFSET = 8;
  static final int TYPE_OFFSET = 10;
  static final int FLAGS_OFFSET = 12;
  static final int KEYS_OFFSET = 16;
  static final int PAYLOAD_LENGTH_OFFSET = 24;
  static final int PARAM_A_OFFSET = 32;
  static final int PARAM_B_OFFSET = 36;
  static final int SIZE_OFFSET = 40;
  static final int RESERVED_OFFSET = 48;
  static final int HEADER_CRC_OFFSET = 60;

  /**
   * Flag bit 0: the filter's {@code long} keys are hashed by {@link
   * dev.sieve.hash.KeyHash#mix64(long)}, not XXPH3 ({@link KeyScheme#MIX64}); the filter read
   * carries that scheme.
   */
  public static final int FLAG_MIX64_LONG_KEYS = 1;

  /**
   * Flag bit 1: the filter's {@code long} keys are their own hashes (an Xor or Binary Fuse filter
   * mixes them with its seed, {@link KeyScheme#IDENTITY}); the filter read carries that scheme.
   */
  public static final int FLAG_IDENTITY_LONG_KEYS = 2;

  /**
   * Flag bit 2: the filter's keys are hashed as Parquet hashes column values ({@link
   * KeyScheme#PARQUET_XXH64}); the filter read carries that scheme.
   */
  public static final int FLAG_PARQUET_XXH64_KEYS = 4;

  /**
   * Flag bit 8: the filter's keys are hashed as Apache ORC's Bloom filters hash column values
   * ({@link KeyScheme#ORC_MURMUR3}); the filter read carries that scheme.
   */
  public static final int FLAG_ORC_MURMUR3_KEYS = 1 << 8;

  /**
   * Flag bit 9: the filter's keys are hashed by Sieve's default where no format fixes the hash
   * ({@link KeyScheme#FAST}: numbers by {@link dev.sieve.hash.KeyHash#mix64(long)}, byte keys and
   * text by XXPH3 of their bytes); the filter read carries that scheme.
   */
  public static final int FLAG_FAST_KEYS = 1 << 9;

  /**
   * Flag bit 16, beside no key-scheme bit (the default scheme, {@link KeyScheme#XXPH3}): the keys
   * were added as {@code long}s, each hashed as its 8 big-endian bytes, as {@code
   * Filter.mayContain(long)} asks. The filter is the same either way; the flag tells a reader (the
   * CLI's {@code query}) to take keys as numbers, since the bytes of the text "42" are not the key
   * 42. Written by {@link #write(KeyFilter, WritableByteChannel, boolean)}; a reader from before
   * this flag refuses it as unknown, while a file without it reads as it always did.
   */
  public static final int FLAG_LONG_KEYS = 1 << 16;

  /** The key-scheme flags (at most one of them is set). */
  static final int SCHEME_FLAGS =
      FLAG_MIX64_LONG_KEYS
          | FLAG_IDENTITY_LONG_KEYS
          | FLAG_PARQUET_XXH64_KEYS
          | FLAG_ORC_MURMUR3_KEYS
          | FLAG_FAST_KEYS;

  /** Every flag this version defines. */
  static final int KNOWN_FLAGS = SCHEME_FLAGS | FLAG_LONG_KEYS;

  /** The largest payload held in one Java array or one buffer. */
  static final long MAX_ARRAY_PAYLOAD = Integer.MAX_VALUE - 8 - HEADER_BYTES - CHECKSUM_BYTES;

  /** Segment size for mapping a file larger than one buffer: 1 GiB. */
  static final int SEGMENT_SHIFT = 30;

  private SieveFormat() {}

  // ---------------------------------------------------------------- writing

  /**
   * {@return the container holding {@code filter}}
   *
   * @param outer the filter (written with the flag of its {@link KeyScheme}, if it has one)
   */
  public static byte[] toBytes(KeyFilter outer) {
    return ContainerWriter.toBytes(outer);
  }

  /**
   * Writes the container holding {@code filter} to {@code out} (not closed, not flushed).
   *
   * @param filter the filter
   * @param out where the container goes; not closed
   */
  public static void write(KeyFilter filter, OutputStream out) throws IOException {
    Objects.requireNonNull(out, "out");
    write(filter, Channels.newChannel(out));
  }

  /**
   * Writes the container holding {@code filter} to {@code out} (not closed). The payload is
   * streamed, so filters larger than one {@code byte[]} (a blocked Bloom or Ribbon filter of
   * several GiB) are written without an in-memory copy.
   *
   * @param outer the filter
   * @param out where the container goes; not closed
   */
  public static void write(KeyFilter outer, WritableByteChannel out) throws IOException {
    ContainerWriter.write(outer, out, false);
  }

  /**
   * {@link #write(KeyFilter, WritableByteChannel)}, recording with {@link #FLAG_LONG_KEYS} that the
   * keys were added as {@code long}s when {@code longKeys} is set.
   *
   * @param outer the filter
   * @param out where the container goes; not closed
   * @param longKeys whether the keys were added as {@code long}s (their 8 big-endian bytes)
   * @throws IllegalArgumentException if {@code longKeys} is set and the filter's key scheme is not
   *     the default (a scheme of its own already says how its keys are hashed)
   */
  public static void write(KeyFilter outer, WritableByteChannel out, boolean longKeys)
      throws IOException {
    ContainerWriter.write(outer, out, longKeys);
  }

  /**
   * Writes the container holding {@code filter} to {@code file}. A regular file (or a missing path)
   * is replaced atomically: the container is written to a new temporary file in the same directory
   * ({@code .NAME.PID-N.tmp}), forced to disk, then renamed over {@code file} ({@link
   * StandardCopyOption#ATOMIC_MOVE}). So {@code file} holds either its old content or the whole new
   * container, never a truncated one, even if the write fails or the process dies; and a reader
   * that mapped the old file keeps reading the old bytes (see {@link #map(Path)}). If {@code file}
   * is a symbolic link, the file it points to is replaced. On a failure the temporary file is
   * deleted. Where the file system cannot rename atomically, the rename falls back to a plain
   * replacing move.
   *
   * <p>Anything else is never replaced: a character or block device, a named pipe (FIFO) or a
   * socket, and a path naming an open descriptor ({@code /dev/stdout}, {@code /proc/self/fd/N}), is
   * opened and the container streamed into it in place (a device node stays a device, a pipe's
   * reader gets the bytes); a directory is refused.
   *
   * @param filter the filter
   * @param file the file, replaced whole; or a device, pipe or descriptor, written in place
   * @throws java.nio.file.FileSystemException if {@code file} is a directory
   */
  public static void write(KeyFilter filter, Path file) throws IOException {
    Objects.requireNonNull(filter, "filter");
    AtomicFileWrite.write(file, out -> write(filter, out));
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads a container from exactly the bytes of {@code bytes}, copying the filter onto the heap.
   *
   * @param bytes a whole container
   * @return the filter
   * @throws SieveFormatException if not one valid container (trailing bytes included) of a Filter
   */
  public static Filter read(byte[] bytes) {
    return (Filter) ContainerReader.read(bytes, "SieveFormat.read(byte[], Class)");
  }

  /**
   * Reads a container of the expected filter class.
   *
   * @param <F> the filter class
   * @param bytes a whole container
   * @param expected the class the container must hold ({@code KeyFilter.class}: any)
   * @return the filter
   * @throws SieveFormatException if the bytes are invalid or hold another filter type
   */
  public static <F extends KeyFilter> F read(byte[] bytes, Class<F> expected) {
    return ContainerReader.as(ContainerReader.read(bytes, null), expected);
  }

  /**
   * Reads one container from {@code in}, leaving the stream just after it (so containers can be
   * concatenated); the stream is not closed. Lengths are never trusted before the bytes are read:
   * the payload is read in chunks that grow as data arrives.
   *
   * @param in the stream, positioned at a container
   * @return the filter
   * @throws SieveFormatException if the stream ends early or holds no valid container of a Filter
   * @throws IOException if reading fails
   */
  public static Filter read(InputStream in) throws IOException {
    return (Filter) ContainerReader.read(in, "SieveFormat.read(InputStream, Class)");
  }

  /**
   * Reads one container of the expected filter class from {@code in} ({@link #read(InputStream)}).
   *
   * @param <F> the filter class
   * @param in the stream, left just after the container
   * @param expected the filter class, e.g. {@code BlockedBloomFilter.class} ({@code Filter.class}
   *     for any of Sieve's own, {@code KeyFilter.class} for any)
   * @return the filter, of that class
   * @throws SieveFormatException if the container is invalid or holds another filter type (the
   *     message names the type it holds)
   * @throws IOException if reading fails
   */
  public static <F extends KeyFilter> F read(InputStream in, Class<F> expected) throws IOException {
    return ContainerReader.as(ContainerReader.read(in, null), expected);
  }

  /**
   * Whether {@link #wrap} and {@link #map} read a filter of {@code type} in place, without copying
   * its data onto the heap (every current type; a type whose form cannot would be copied).
   *
   * @param type the filter type
   * @return whether its payload is read zero-copy
   */
  public static boolean readsInPlace(FilterType type) {
    return TypeForms.of(type).zeroCopy();
  }

  /**
   * Wraps a container held in {@code buffer} from its position to its limit, verifying both
   * checksums. The filter is queried in place, <em>without copying</em> its data (the bytes must
   * not change while the filter is used; {@link #readsInPlace(FilterType)} names the types that
   * do). The buffer's position is not changed.
   *
   * @param buffer a whole container (its remaining bytes)
   * @return the filter, reading the buffer in place
   */
  public static Filter wrap(ByteBuffer buffer) {
    return wrap(buffer, true);
  }

  /**
   * As {@link #wrap(ByteBuffer)}; {@code verifyChecksum=false} skips the payload checksum (the
   * header checksum is always checked), for very large trusted files.
   *
   * @param buffer a whole container (its remaining bytes)
   * @param verifyChecksum whether to check the payload checksum
   * @return the filter, reading the buffer in place
   * @throws SieveFormatException if the buffer holds no valid container of a Filter
   */
  public static Filter wrap(ByteBuffer buffer, boolean verifyChecksum) {
    return (Filter)
        ContainerReader.wrap(buffer, verifyChecksum, "SieveFormat.wrap(ByteBuffer, Class)");
  }

  /**
   * Wraps a container of the expected filter class; see {@link #wrap(ByteBuffer)}.
   *
   * @param <F> the filter class
   * @param buffer a whole container (its remaining bytes)
   * @param expected the class the container must hold ({@code KeyFilter.class} for any)
   * @return the filter, reading the buffer in place
   */
  public static <F extends KeyFilter> F wrap(ByteBuffer buffer, Class<F> expected) {
    return ContainerReader.as(ContainerReader.wrap(buffer, true, null), expected);
  }

  /**
   * Memory-maps a container file read-only and wraps it ({@link #wrap(ByteBuffer)}): a Bloom filter
   * of any size is queried from the page cache without copying it onto the heap, a file over 2 GiB
   * in 1 GiB segments. The payload checksum is verified (one sequential pass over the file).
   *
   * <p><b>The file must not change while the filter is in use.</b> The checks are made once, here;
   * the filter then reads whatever the file holds. A file overwritten in place (zero-filled, say)
   * makes the filter answer "absent" for keys it was built with, silently (or, where the changed
   * bytes send a query past the data's end, throw {@link SieveFormatException}); a file truncated
   * under the mapping makes queries throw {@link InternalError} (the JVM's report of {@code
   * SIGBUS}, an {@link Error}, not a Sieve exception; preventing it would cost a size check per
   * query). Replace container files by writing a new file and renaming it over the old one ({@link
   * #write(KeyFilter, Path)} does): the mapping keeps the old file's pages. Where in-place changes
   * cannot be ruled out, open the file with {@link MappedSieveFile#open(Path)} instead, whose
   * {@link MappedSieveFile#verify()} recomputes the payload checksum of the mapping on demand.
   *
   * @param file the container file
   * @return the filter, reading the mapped file in place
   */
  public static Filter map(Path file) throws IOException {
    return map(file, true);
  }

  /**
   * Maps a container file of the expected filter class ({@link #map(Path)}).
   *
   * @param <F> the filter class
   * @param file the container file
   * @param expected the filter class, e.g. {@code Xor8Filter.class} ({@code KeyFilter.class}: any)
   * @return the filter, of that class, reading the mapped file
   * @throws SieveFormatException if the file is invalid or holds another filter type (the message
   *     names the type it holds)
   * @throws IOException if the file cannot be read
   */
  public static <F extends KeyFilter> F map(Path file, Class<F> expected) throws IOException {
    return ContainerReader.as(
        MappedSieveFile.mapped(file, true, SEGMENT_SHIFT, MAX_ARRAY_PAYLOAD, null), expected);
  }

  /**
   * As {@link #map(Path)}; {@code verifyChecksum=false} skips the payload checksum pass.
   *
   * @param file the container file
   * @param verifyChecksum whether to check the payload checksum
   * @return the filter, reading the mapped file in place
   * @throws SieveFormatException if the file holds no valid container of a Filter
   */
  public static Filter map(Path file, boolean verifyChecksum) throws IOException {
    return map(file, verifyChecksum, SEGMENT_SHIFT, MAX_ARRAY_PAYLOAD);
  }

  /** {@link #map(Path, boolean)} with the segment size and the one-buffer limit as parameters. */
  static Filter map(Path file, boolean verifyChecksum, int segmentShift, long oneBufferLimit)
      throws IOException {
    return (Filter)
        MappedSieveFile.mapped(
            file, verifyChecksum, segmentShift, oneBufferLimit, "SieveFormat.map(Path, Class)");
  }

  /**
   * Reads and validates the header at the start of {@code in} (absolute indexes from its position);
   * {@code available} is the total number of bytes the input holds.
   *
   * @param buffer the input, the header at its position
   * @param available the total number of bytes the input holds
   * @return the validated header
   */
  public static ContainerHeader readHeader(ByteBuffer buffer, long available) {
    return ContainerHeader.read(buffer, available);
  }
}
