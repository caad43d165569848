package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.internal.ChannelReads;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * A container file memory-mapped read-only, with the filter that queries it in place and an
 * on-demand {@link #verify()} of the mapped bytes. {@link SieveFormat#map(Path)} returns the filter
 * alone; open a {@code MappedSieveFile} when the file may change underneath (another process, a
 * faulty disk, an operator) and the process should be able to check it.
 *
 * <h2>Files changed underneath a mapping</h2>
 *
 * A mapping shows the file's current bytes, not the bytes that were checked when it was mapped:
 *
 * <ul>
 *   <li><b>Overwritten in place</b> (bytes rewritten, or zero-filled): the filter answers from the
 *       new bytes without noticing. Zeroed or changed data makes it answer "absent" for keys it was
 *       built with: silent false negatives. Where the changed bytes send a query's walk past the
 *       data's end (a Grafite filter's Elias–Fano index), the query throws {@link
 *       dev.sieve.SieveFormatException} instead.
 *   <li><b>Truncated</b>: a query that touches a page past the new end of file gets {@code SIGBUS},
 *       which the JVM turns into {@link InternalError} (an {@link Error}, not a Sieve exception);
 *       Java cannot prevent this without a file-size check per query.
 *   <li><b>Replaced by rename</b> ({@code write to a temporary file, then rename it over the old
 *       one}, as {@link SieveFormat#write(KeyFilter, Path)} does): safe. The mapping keeps the old
 *       file's pages until the mapping is dropped; the new file is seen by the next {@code open}.
 * </ul>
 *
 * So: replace container files by rename, never in place, and call {@link #verify()} (periodically,
 * or after any suspected change) where in-place changes cannot be excluded. {@code verify()} reads
 * the mapping once (CRC32C runs at several GB/s).
 *
 * <p>The handle keeps the file open (to compare its size) until {@link #close()}; the filter stays
 * usable after {@code close()} (the mapping lives until it is garbage-collected), but {@code
 * verify()} then throws {@link IllegalStateException}.
 */
public final class MappedSieveFile implements AutoCloseable {
  private static final int VERIFY_CHUNK = 1 << 20;

  private final Path file;
  private final FileChannel channel;
  private final KeyFilter filter;
  private final long size;
  private final byte[] header;
  private final ByteBuffer headerView;
  private final ByteBuffer[] payload;
  private final ByteBuffer checksumView;
  private final int payloadCrc;

  private MappedSieveFile(
      Path file,
      FileChannel channel,
      KeyFilter filter,
      long size,
      byte[] header,
      ByteBuffer headerView,
      ByteBuffer[] payload,
      ByteBuffer checksumView,
      int payloadCrc) {
    this.file = file;
    this.channel = channel;
    this.filter = filter;
    this.size = size;
    this.header = header;
    this.headerView = headerView;
    this.payload = payload;
    this.checksumView = checksumView;
    this.payloadCrc = payloadCrc;
  }

  /**
   * Maps {@code file} read-only and reads the container in place, verifying both checksums, as
   * {@link SieveFormat#map(Path)} does.
   *
   * @param file the container file
   * @return the mapped container
   * @throws IOException if the file cannot be opened or mapped
   * @throws SieveFormatException if the file is not one valid container
   */
  public static MappedSieveFile open(Path file) throws IOException {
    return open(file, true);
  }

  /**
   * As {@link #open(Path)}; {@code verifyChecksum=false} skips the payload checksum pass at open
   * (the header checksum and the structure are always checked), for example to {@link #verify()}
   * later, off the critical path.
   *
   * @param file the container file
   * @param verifyChecksum whether to check the payload checksum now
   * @return the mapped container
   * @throws IOException if the file cannot be opened or mapped
   */
  public static MappedSieveFile open(Path file, boolean verifyChecksum) throws IOException {
    return open(file, verifyChecksum, SieveFormat.SEGMENT_SHIFT, SieveFormat.MAX_ARRAY_PAYLOAD);
  }

  /** {@link #open(Path, boolean)} with the segment size and the one-buffer limit as parameters. */
  static MappedSieveFile open(
      Path file, boolean verifyChecksum, int segmentShift, long oneBufferLimit) throws IOException {
    return open(file, verifyChecksum, segmentShift, oneBufferLimit, null);
  }

  /**
   * {@link #open(Path, boolean, int, long)}, refusing another system's filter at its header where
   * {@code filterOnly} names the typed read to use instead ({@link ContainerReader}).
   */
  static MappedSieveFile open(
      Path file, boolean verifyChecksum, int segmentShift, long oneBufferLimit, String filterOnly)
      throws IOException {
    Objects.requireNonNull(file, "file");
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
    try {
      long size = ch.size();
      ByteBuffer head =
          ChannelReads.readSmall(ch, 0, (int) Math.min(size, SieveFormat.HEADER_BYTES));
      ContainerHeader h = ContainerHeader.read(head, size);
      TypeForms.requirePresent(h.type());
      ContainerReader.requireFilter(h.type(), filterOnly);
      h.checkTotal(size);
      long payloadEnd = SieveFormat.HEADER_BYTES + h.payloadLength();
      KeyFilter filter;
      ByteBuffer headerView;
      ByteBuffer[] payload;
      ByteBuffer checksumView;
      if (h.payloadLength() <= oneBufferLimit) {
        ByteBuffer whole = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        filter = ContainerReader.wrap(whole, verifyChecksum, null);
        headerView = whole.duplicate().position(0).limit(SieveFormat.HEADER_BYTES).slice();
        payload =
            new ByteBuffer[] {
              whole.duplicate().position(SieveFormat.HEADER_BYTES).limit((int) payloadEnd).slice()
            };
        checksumView = whole.duplicate().position((int) payloadEnd).slice();
      } else {
        headerView = ch.map(FileChannel.MapMode.READ_ONLY, 0, SieveFormat.HEADER_BYTES);
        payload =
            ChannelReads.mapSegments(ch, SieveFormat.HEADER_BYTES, h.payloadLength(), segmentShift);
        ContainerReader.checkPayloadHead(h, payload[0]);
        checksumView =
            ch.map(FileChannel.MapMode.READ_ONLY, payloadEnd, SieveFormat.CHECKSUM_BYTES);
        if (verifyChecksum) {
          Crc32c.check(payloadEnd, crc(payload), storedCrc(checksumView));
        }
        try {
          filter =
              TypeForms.of(h.type())
                  .mapLarge(
                      ch, SieveFormat.HEADER_BYTES, h.payloadLength(), segmentShift, h.numKeys());
        } catch (IllegalArgumentException e) {
          throw new SieveFormatException(
              SieveFormat.HEADER_BYTES, "payload rejected: " + e.getMessage(), e);
        }
        ContainerReader.checkAgainstHeader(h, filter);
        filter = ContainerReader.withFlags(h, filter);
      }
      byte[] headerBytes = new byte[SieveFormat.HEADER_BYTES];
      head.duplicate().position(0).get(headerBytes);
      return new MappedSieveFile(
          file,
          ch,
          filter,
          size,
          headerBytes,
          headerView,
          payload,
          checksumView,
          storedCrc(checksumView));
    } catch (IOException | RuntimeException | Error e) {
      ch.close();
      throw e;
    }
  }

  /**
   * The filter, querying the mapped file in place.
   *
   * @return the filter
   * @throws SieveFormatException if the file holds another system's filter, which is a {@link
   *     KeyFilter} and not a {@link Filter} ({@link #filter(Class)} reads it)
   */
  public Filter filter() {
    if (filter instanceof Filter f) {
      return f;
    }
    ContainerReader.requireFilter(FilterType.of(filter), "MappedSieveFile.filter(Class)");
    throw new IllegalStateException("a " + filter.getClass().getName() + " read as a Filter");
  }

  /**
   * The filter of a file mapped, opened and closed again ({@link SieveFormat#map(Path)}: the
   * mapping outlives the handle); {@code filterOnly} as {@link ContainerReader}'s reads take it.
   */
  static KeyFilter mapped(
      Path file, boolean verifyChecksum, int segmentShift, long oneBufferLimit, String filterOnly)
      throws IOException {
    try (MappedSieveFile m = open(file, verifyChecksum, segmentShift, oneBufferLimit, filterOnly)) {
      return m.filter;
    }
  }

  /**
   * The filter as the expected class.
   *
   * @param <F> the filter class
   * @param expected the class the file must hold ({@code KeyFilter.class} for any)
   * @return the filter
   * @throws SieveFormatException if the container holds another filter type
   */
  public <F extends KeyFilter> F filter(Class<F> expected) {
    if (!expected.isInstance(filter)) {
      throw new SieveFormatException(
          10,
          "the container holds a "
              + filter.getClass().getSimpleName()
              + ", expected "
              + expected.getSimpleName());
    }
    return expected.cast(filter);
  }

  /**
   * The path the file was opened from.
   *
   * @return the path
   */
  public Path file() {
    return file;
  }

  /**
   * The payload's CRC32C as stored in the file when it was opened.
   *
   * @return the checksum
   */
  public int payloadChecksum() {
    return payloadCrc;
  }

  /**
   * Checks that the mapped bytes are still the container that was opened: the file (the one mapped,
   * not whatever the path names now) has its original size, the 64 header bytes are unchanged, the
   * stored payload checksum is unchanged, and the CRC32C of the mapped payload, recomputed now,
   * matches it. Reads the whole mapping once. After a successful {@code verify()} the filter
   * answered from intact bytes up to the moment of the check.
   *
   * @throws SieveFormatException naming the byte offset and what changed, if anything did
   * @throws IllegalStateException after {@link #close()}
   * @throws IOException if the file's size cannot be read
   */
  public void verify() throws IOException {
    if (!channel.isOpen()) {
      throw new IllegalStateException("verify() after close(): " + file);
    }
    long now = channel.size();
    if (now != size) {
      throw new SieveFormatException(
          Math.min(now, size),
          "the mapped file changed underneath: it was "
              + size
              + " bytes and is now "
              + now
              + (now < size ? " (truncated; queries past the end throw InternalError)" : ""));
    }
    try {
      byte[] current = new byte[SieveFormat.HEADER_BYTES];
      headerView.duplicate().get(current);
      for (int i = 0; i < current.length; i++) {
        if (current[i] != header[i]) {
          throw new SieveFormatException(
              i, "the mapped file changed underneath: header byte " + i + " differs");
        }
      }
      long payloadEnd = size - SieveFormat.CHECKSUM_BYTES;
      int stored = storedCrc(checksumView);
      if (stored != payloadCrc) {
        throw new SieveFormatException(
            payloadEnd, "the mapped file changed underneath: its payload checksum was rewritten");
      }
      int computed = crc(payload);
      if (computed != payloadCrc) {
        throw new SieveFormatException(
            payloadEnd,
            "the mapped file changed underneath (or was corrupt when opened unchecked): payload"
                + " CRC32C 0x"
                + Integer.toHexString(computed)
                + ", stored 0x"
                + Integer.toHexString(payloadCrc));
      }
    } catch (InternalError e) {
      // a page past a concurrent truncation: report it as the changed file it is
      throw new SieveFormatException(
          0, "the mapped file changed underneath: a page could not be read (truncated?)", e);
    }
  }

  /** CRC32C over the buffers, copied to the heap in chunks (a fault then surfaces here). */
  private static int crc(ByteBuffer[] buffers) {
    CRC32C crc = new CRC32C();
    byte[] chunk = new byte[VERIFY_CHUNK];
    for (ByteBuffer b : buffers) {
      ByteBuffer in = b.duplicate();
      while (in.hasRemaining()) {
        int n = Math.min(chunk.length, in.remaining());
        in.get(chunk, 0, n);
        crc.update(chunk, 0, n);
      }
    }
    return (int) crc.getValue();
  }

  private static int storedCrc(ByteBuffer checksum) {
    return checksum.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(0);
  }

  /** Closes the file; the filter stays usable, {@link #verify()} does not. */
  @Override
  public void close() throws IOException {
    channel.close();
  }

  @Override
  public String toString() {
    return "MappedSieveFile{" + file + ", " + size + " bytes, " + filter + "}";
  }
}
