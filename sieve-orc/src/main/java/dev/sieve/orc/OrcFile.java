package dev.sieve.orc;

import dev.sieve.SieveFormatException;
import dev.sieve.interop.OrcBloomFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * The Bloom filters of an Apache ORC file, read without orc-core or Hadoop: a row per column,
 * stripe and row group, each an {@link OrcBloomFilter} that answers exactly as ORC's reader.
 *
 * <h2>Where they are (ORC specification v1, "File Tail", "Stripes", "Indexes")</h2>
 *
 * <ol>
 *   <li>The file starts with {@code ORC}; its last byte is the length of the {@code PostScript}
 *       (protobuf, never compressed) before it, which gives the compression, its block size, the
 *       footer's length and the writer version. The {@code Footer} before the PostScript
 *       (compressed, {@link OrcCodec}) lists the stripes (offset, index, data and footer lengths,
 *       rows), the types (a pre-order tree: ids, kinds, children, field names), the row count and
 *       the row index stride (rows per row group).
 *   <li>Each stripe ends with its {@code StripeFooter}, which lists the stripe's streams in order
 *       (kind, column, length: their offsets are the running sum from the stripe's start) and each
 *       column's encoding ({@code bloomEncoding}: 1 for UTF-8 strings and UTC timestamps).
 *   <li>A {@code BLOOM_FILTER_UTF8} (kind 8) or older {@code BLOOM_FILTER} (kind 7) stream of a
 *       column is a {@code BloomFilterIndex}: one {@code BloomFilter} per row group ({@code
 *       numHashFunctions}, and the words as {@code utf8bitset} bytes or a repeated fixed64 {@code
 *       bitset}). The {@code ROW_INDEX} stream (kind 6) holds each row group's column statistics
 *       (min, max, has-null).
 * </ol>
 *
 * As ORC's {@code BloomFilterIO}: a UTF-8 stream is preferred where a column has both; one with an
 * unknown {@code bloomEncoding} (over 1), or of a timestamp column with encoding 0, is not used
 * (ORC does not, so it never skips by it).
 *
 * <h2>Hostile input</h2>
 *
 * Every problem is a {@link SieveFormatException} naming the file offset and the field: bad magic,
 * a PostScript, footer, stripe or stream that leaves the file (checked before anything is read or
 * allocated), lengths over {@link #MAX_METADATA_BYTES}, a block size over {@link #MAX_BLOCK_SIZE},
 * malformed protobuf ({@link ProtoReader}), a type tree whose children do not come after their
 * parent, a filter outside {@link OrcBloomFilter}'s limits, and an unknown compression.
 */
public final class OrcFile {

  /** The most bytes any one metadata section (footer, stripe footer, index stream) may take. */
  public static final int MAX_METADATA_BYTES = 256 << 20;

  /** The largest compression block accepted (ORC's default is 256 KiB). */
  public static final int MAX_BLOCK_SIZE = 64 << 20;

  /** The most columns (types) accepted. */
  public static final int MAX_TYPES = 1 << 20;

  private static final byte[] MAGIC = "ORC".getBytes(StandardCharsets.US_ASCII);

  /** ORC's compression kinds, by their protobuf enum value. */
  public enum Compression {
    NONE,
    ZLIB,
    SNAPPY,
    LZO,
    LZ4,
    ZSTD,
    BROTLI
  }

  /** ORC's type kinds, by their protobuf enum value. */
  public enum Kind {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    STRING,
    BINARY,
    TIMESTAMP,
    LIST,
    MAP,
    STRUCT,
    UNION,
    DECIMAL,
    DATE,
    VARCHAR,
    CHAR,
    TIMESTAMP_INSTANT,
    GEOMETRY,
    GEOGRAPHY;

    /** Whether ORC hashes the column's values as longs (integers, dates, booleans). */
    public boolean isInteger() {
      return this == BOOLEAN
          || this == BYTE
          || this == SHORT
          || this == INT
          || this == LONG
          || this == DATE;
    }

    /** Whether ORC hashes the column's values as doubles. */
    public boolean isFloating() {
      return this == FLOAT || this == DOUBLE;
    }

    /** Whether ORC hashes the column's values as UTF-8 text (decimals as their string). */
    public boolean isText() {
      return this == STRING || this == VARCHAR || this == CHAR || this == DECIMAL;
    }
  }

  /**
   * A column (an ORC type id; 0 is the root struct).
   *
   * @param id the type id
   * @param name the dotted path of field names from the root ({@code ""} for the root)
   * @param kind the type kind
   */
  public record Column(int id, String name, Kind kind) {}

  /**
   * A stripe.
   *
   * @param index its position
   * @param offset its file offset
   * @param indexLength the index streams' bytes
   * @param dataLength the data streams' bytes
   * @param footerLength the stripe footer's bytes
   * @param rows its rows
   */
  public record Stripe(
      int index, long offset, long indexLength, long dataLength, long footerLength, long rows) {}

  /**
   * One row group's statistics and Bloom filter for a column.
   *
   * @param column the column
   * @param stripe the stripe's index
   * @param rowGroup the row group's index within the stripe
   * @param firstRow the first row of the group in the file
   * @param rows the rows in the group
   * @param utf8 whether the filter came from a {@code BLOOM_FILTER_UTF8} stream
   * @param filter the filter ({@code null} when the column has none ORC would use)
   * @param stats the row group's statistics from the row index, or {@code null}
   */
  public record RowGroup(
      Column column,
      int stripe,
      int rowGroup,
      long firstRow,
      long rows,
      boolean utf8,
      OrcBloomFilter filter,
      OrcStats stats) {}

  private final FileChannel channel;
  private final byte[] bytes;
  private final long size;
  private final Compression compression;
  private final int blockSize;
  private final int writerVersion;
  private final long numberOfRows;
  private final int rowIndexStride;
  private final List<Column> columns;
  private final List<Stripe> stripes;
  private final OrcCodec codec;

  private OrcFile(FileChannel channel, byte[] bytes) throws IOException {
    this.channel = channel;
    this.bytes = bytes;
    this.size = bytes != null ? bytes.length : channel.size();
    if (size < MAGIC.length + 1) {
      throw new SieveFormatException(0, "an ORC file of " + size + " bytes is too short");
    }
    byte[] head = read(0, MAGIC.length);
    if (!Arrays.equals(head, MAGIC)) {
      throw new SieveFormatException(0, "not an ORC file: no 'ORC' magic at the start");
    }
    int psLen = read(size - 1, 1)[0] & 0xFF;
    if (psLen == 0 || psLen + 1L > size - MAGIC.length) {
      throw new SieveFormatException(
          size - 1, "PostScript length " + psLen + " does not fit the file of " + size + " bytes");
    }
    long psOffset = size - 1 - psLen;
    byte[] ps = read(psOffset, psLen);
    ProtoReader r = new ProtoReader(ps, 0, psLen, psOffset, "PostScript");
    long footerLength = -1;
    Compression comp = Compression.NONE;
    long block = 256 * 1024;
    int writer = 0;
    String magic = null;
    while (r.next()) {
      switch (r.field()) {
        case 1 -> footerLength = r.longIn("footerLength", 0, MAX_METADATA_BYTES);
        case 2 -> comp = enumValue(Compression.values(), r, "compression");
        case 3 -> block = r.longIn("compressionBlockSize", 1, MAX_BLOCK_SIZE);
        case 6 -> writer = (int) r.uint32("writerVersion");
        case 8000 -> magic = r.string("magic");
        default -> r.skip();
      }
    }
    if (magic != null && !magic.equals("ORC")) {
      throw new SieveFormatException(psOffset, "PostScript magic is '" + magic + "', not 'ORC'");
    }
    if (footerLength < 0) {
      throw new SieveFormatException(psOffset, "PostScript has no footerLength");
    }
    if (footerLength > psOffset - MAGIC.length) {
      throw new SieveFormatException(
          psOffset,
          "footerLength "
              + footerLength
              + " exceeds the "
              + (psOffset - MAGIC.length)
              + " bytes before the PostScript");
    }
    this.compression = comp;
    this.blockSize = (int) block;
    this.writerVersion = writer;
    this.codec = new OrcCodec(comp, blockSize);
    long footerOffset = psOffset - footerLength;
    byte[] raw = read(footerOffset, (int) footerLength);
    byte[] footer =
        codec.decompress(raw, 0, raw.length, footerOffset, MAX_METADATA_BYTES, "Footer");
    // offsets inside decompressed bytes are reported at the section's start
    ProtoReader f = new ProtoReader(footer, 0, footer.length, footerOffset, "Footer");
    OrcFooter parsed = OrcFooter.read(f, footerOffset);
    this.numberOfRows = parsed.numberOfRows();
    this.rowIndexStride = parsed.rowIndexStride();
    this.stripes = parsed.stripes();
    this.columns = parsed.columns();
    long dataEnd = footerOffset;
    for (Stripe s : stripes) {
      long end = s.offset() + s.indexLength() + s.dataLength() + s.footerLength();
      if (s.offset() < MAGIC.length || end > dataEnd || end < s.offset()) {
        throw new SieveFormatException(
            footerOffset,
            "stripe "
                + s.index()
                + " at "
                + s.offset()
                + " ("
                + (end - s.offset())
                + " bytes) leaves the file's data ("
                + MAGIC.length
                + " to "
                + dataEnd
                + ")");
      }
    }
  }

  /** Reads the metadata of the ORC file at {@code path}; index streams are read on demand. */
  public static OrcFile open(Path path) throws IOException {
    FileChannel ch = FileChannel.open(path, StandardOpenOption.READ);
    try {
      return new OrcFile(ch, null);
    } catch (RuntimeException | IOException e) {
      ch.close();
      throw e;
    }
  }

  /** Reads the metadata of an ORC file held in {@code bytes} (not copied: do not change them). */
  public static OrcFile of(byte[] bytes) {
    try {
      return new OrcFile(null, bytes);
    } catch (IOException e) {
      throw new IllegalStateException("no I/O on an array", e);
    }
  }

  /** Closes the file (nothing for an array). */
  public void close() throws IOException {
    if (channel != null) {
      channel.close();
    }
  }

  private byte[] read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new SieveFormatException(
          Math.max(0, offset), length + " bytes at " + offset + " leave the file of " + size);
    }
    if (bytes != null) {
      return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
    }
    ByteBuffer b = ByteBuffer.allocate(length);
    while (b.hasRemaining()) {
      if (channel.read(b, offset + b.position()) < 0) {
        throw new SieveFormatException(offset + b.position(), "file ends early");
      }
    }
    return b.array();
  }

  /** The enum constant whose protobuf value the next field holds, checked against the range. */
  static <E extends Enum<E>> E enumValue(E[] values, ProtoReader r, String name) {
    return values[r.intIn(name, 0, values.length - 1)];
  }

  public Compression compression() {
    return compression;
  }

  public int compressionBlockSize() {
    return blockSize;
  }

  /** {@return the PostScript's writer version (ORC's {@code OrcFile.WriterVersion} id)} */
  public int writerVersion() {
    return writerVersion;
  }

  public long numberOfRows() {
    return numberOfRows;
  }

  /** {@return rows per row group (0: the stripe is one group, no row index)} */
  public int rowIndexStride() {
    return rowIndexStride;
  }

  /** {@return every column, the root struct (id 0) first} */
  public List<Column> columns() {
    return columns;
  }

  public List<Stripe> stripes() {
    return stripes;
  }

  /** {@return the column whose dotted name is {@code name}} */
  public Column column(String name) {
    for (Column c : columns) {
      if (c.id() > 0 && c.name().equals(name)) {
        return c;
      }
    }
    StringBuilder known = new StringBuilder();
    for (Column c : columns) {
      if (c.id() > 0) {
        known.append(known.length() == 0 ? "" : ", ").append(c.name());
      }
    }
    throw new IllegalArgumentException("no column '" + name + "' (columns: " + known + ")");
  }

  /**
   * The row groups of one stripe for every column that has a Bloom filter stream, in column order
   * and then row group order.
   *
   * @param stripeIndex the stripe
   * @return the row groups
   * @throws IOException on a read error
   * @throws SieveFormatException on malformed metadata
   */
  public List<RowGroup> rowGroups(int stripeIndex) throws IOException {
    return OrcStripeIndex.read(this, stripes.get(stripeIndex));
  }

  /** The bytes of a section of the stripe, decompressed. */
  byte[] section(long offset, long length, String what) throws IOException {
    if (length > MAX_METADATA_BYTES) {
      throw new SieveFormatException(
          offset, what + " of " + length + " bytes exceeds the limit of " + MAX_METADATA_BYTES);
    }
    byte[] raw = read(offset, (int) length);
    return codec.decompress(raw, 0, raw.length, offset, MAX_METADATA_BYTES, what);
  }

  long firstRowOf(Stripe stripe) {
    long first = 0;
    for (Stripe s : stripes) {
      if (s.index() == stripe.index()) {
        return first;
      }
      first += s.rows();
    }
    return first;
  }
}
