package dev.sieve.parquet;

import dev.sieve.SieveFormatException;
import dev.sieve.bloom.SplitBlockBloomFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The split-block Bloom filters of a {@code .parquet} file, read without parquet-java or Hadoop.
 *
 * <h2>Where they are (apache/parquet-format: README "File format", BloomFilter.md)</h2>
 *
 * <ol>
 *   <li>The file starts with {@code PAR1} and ends with the footer length (4 bytes, little-endian)
 *       and {@code PAR1}; the footer before them is the {@code FileMetaData} struct in Thrift
 *       compact encoding ({@link ThriftCompactReader}), read by {@link ParquetFooter}. An encrypted
 *       footer ({@code PARE}) is refused.
 *   <li>{@code FileMetaData.schema} (field 2) is the schema tree flattened depth-first; its leaves
 *       are the columns. {@code FileMetaData.row_groups} (4) lists each row group's column chunks
 *       (RowGroup field 1), and each chunk's {@code ColumnMetaData} (ColumnChunk field 3) gives the
 *       physical type (1), the column's path (3), the number of values (5), the statistics (12:
 *       null_count 3 and distinct_count 4, when the writer stored them) and the filter's place:
 *       {@code bloom_filter_offset} (14) and {@code bloom_filter_length} (15, written since
 *       parquet-format 2.10; older files give only the offset).
 *   <li>At that offset, a {@code BloomFilterHeader} (Thrift compact: numBytes 1, algorithm 2 =
 *       BLOCK, hash 3 = XXHASH, compression 4 = UNCOMPRESSED) and then the bitset of {@code
 *       numBytes} bytes, which {@link SplitBlockBloomFilter#fromParquetBitset} reads.
 * </ol>
 *
 * <h2>Hostile input</h2>
 *
 * Every problem is a {@link SieveFormatException} naming the file offset: bad magic, a footer
 * length past the file (checked before anything is allocated) or over {@link #MAX_FOOTER_BYTES},
 * malformed Thrift (see {@link ThriftCompactReader}), a schema whose child counts do not add up, a
 * filter whose offset or size leaves the file, a size outside Parquet's 32 bytes to 128 MiB, and an
 * algorithm, hash or compression other than the one Parquet defines. Fields Sieve does not use are
 * skipped whatever their type, so files from newer writers read.
 */
public final class ParquetFile {

  /** The largest footer read: 256 MiB. */
  public static final int MAX_FOOTER_BYTES = 256 << 20;

  /** The most bytes a Bloom filter header may take (Parquet's take about 15). */
  static final int MAX_FILTER_HEADER_BYTES = 256;

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  /** Parquet's physical types, by their Thrift enum value. */
  public enum PhysicalType {
    BOOLEAN,
    INT32,
    INT64,
    INT96,
    FLOAT,
    DOUBLE,
    BYTE_ARRAY,
    FIXED_LEN_BYTE_ARRAY
  }

  /**
   * A leaf column of the schema.
   *
   * @param path the names from the root's child down to the leaf
   * @param type the physical type
   * @param typeLength the byte length of a FIXED_LEN_BYTE_ARRAY, else -1
   * @param annotation the logical (or legacy converted) type's name, e.g. {@code STRING}, {@code
   *     DATE}, {@code DECIMAL}; {@code null} when there is none
   */
  public record Column(List<String> path, PhysicalType type, int typeLength, String annotation) {
    /** The path joined with dots, as Parquet tools print it. */
    public String dottedPath() {
      return String.join(".", path);
    }
  }

  /**
   * One column chunk: a column's data in one row group, and where its Bloom filter is.
   *
   * @param rowGroup the row group's index
   * @param column the column
   * @param numValues the number of values in the chunk, nulls included
   * @param nullCount the nulls, or -1 when the writer stored no statistics
   * @param distinctCount the distinct values, or -1 (parquet-java does not store it)
   * @param bloomFilterOffset the filter's file offset, or -1 when the chunk has no filter
   * @param bloomFilterLength header and bitset length, or -1 when not stored
   */
  public record ColumnChunk(
      int rowGroup,
      Column column,
      long numValues,
      long nullCount,
      long distinctCount,
      long bloomFilterOffset,
      int bloomFilterLength) {
    public boolean hasBloomFilter() {
      return bloomFilterOffset >= 0;
    }

    /**
     * The distinct count the filter's model is evaluated at: the stored distinct count where known,
     * else the non-null values (an upper bound on the distinct values), else all values.
     */
    public long distinctUpperBound() {
      if (distinctCount >= 0) {
        return distinctCount;
      }
      return nullCount >= 0 && nullCount <= numValues ? numValues - nullCount : numValues;
    }
  }

  /** A Bloom filter read from the file and its header fields. */
  public record BloomFilter(ColumnChunk chunk, int headerBytes, SplitBlockBloomFilter filter) {}

  /** Random access to the file's bytes. */
  private interface Source {
    long size();

    byte[] read(long offset, int length) throws IOException;
  }

  private final Source source;
  private final List<Column> columns;
  private final List<ColumnChunk> chunks;
  private final int numRowGroups;

  private ParquetFile(Source source, List<Column> columns, List<ColumnChunk> chunks, int groups) {
    this.source = source;
    this.columns = columns;
    this.chunks = chunks;
    this.numRowGroups = groups;
  }

  /**
   * Reads the footer of the file at {@code path}; the filters are read on demand ({@link
   * #bloomFilter}) from the file, which must stay unchanged meanwhile.
   */
  public static ParquetFile open(Path path) throws IOException {
    long size;
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      size = channel.size();
    }
    // each read opens the file: no handle outlives a call, and the object needs no close()
    Source source =
        new Source() {
          @Override
          public long size() {
            return size;
          }

          @Override
          public byte[] read(long offset, int length) throws IOException {
            ByteBuffer out = ByteBuffer.allocate(length);
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
              while (out.hasRemaining()) {
                if (channel.read(out, offset + out.position()) < 0) {
                  throw new SieveFormatException(offset + out.position(), "file ends early");
                }
              }
            }
            return out.array();
          }
        };
    return parse(source);
  }

  /** Reads a whole file held in memory. */
  public static ParquetFile parse(byte[] file) {
    Source source =
        new Source() {
          @Override
          public long size() {
            return file.length;
          }

          @Override
          public byte[] read(long offset, int length) {
            if (offset < 0 || offset + length > file.length) {
              throw new SieveFormatException(
                  Math.max(0, offset), "read of " + length + " bytes past the end of the file");
            }
            return java.util.Arrays.copyOfRange(file, (int) offset, (int) offset + length);
          }
        };
    try {
      return parse(source);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // not reached: memory reads do no I/O
    }
  }

  /** Whether {@code head} starts with Parquet's magic {@code PAR1}. */
  public static boolean hasMagic(byte[] head) {
    return head.length >= 4
        && head[0] == MAGIC[0]
        && head[1] == MAGIC[1]
        && head[2] == MAGIC[2]
        && head[3] == MAGIC[3];
  }

  private static ParquetFile parse(Source src) throws IOException {
    long size = src.size();
    if (size < 12) {
      throw new SieveFormatException(
          0, "a Parquet file has at least 12 bytes (PAR1, footer, length, PAR1); got " + size);
    }
    byte[] head = src.read(0, 4);
    if (!hasMagic(head)) {
      throw new SieveFormatException(0, "not a Parquet file: it does not start with PAR1");
    }
    byte[] tail = src.read(size - 8, 8);
    if (tail[4] == 'P' && tail[5] == 'A' && tail[6] == 'R' && tail[7] == 'E') {
      throw new SieveFormatException(
          size - 4, "the footer is encrypted (PARE); encrypted Parquet files are not supported");
    }
    for (int i = 0; i < 4; i++) {
      if (tail[4 + i] != MAGIC[i]) {
        throw new SieveFormatException(size - 4 + i, "the file does not end with PAR1");
      }
    }
    long footerLen = ByteBuffer.wrap(tail, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    footerLen &= 0xFFFFFFFFL;
    if (footerLen > size - 12) {
      throw new SieveFormatException(
          size - 8,
          "footer length " + footerLen + " exceeds the " + (size - 12) + " bytes the file has");
    }
    if (footerLen > MAX_FOOTER_BYTES) {
      throw new SieveFormatException(
          size - 8, "footer length " + footerLen + " over the limit of " + MAX_FOOTER_BYTES);
    }
    long footerAt = size - 8 - footerLen;
    byte[] footer = src.read(footerAt, (int) footerLen);
    ParquetFooter.Contents contents =
        ParquetFooter.read(new ThriftCompactReader(footer, 0, footer.length, footerAt));
    return new ParquetFile(src, contents.columns(), contents.chunks(), contents.numRowGroups());
  }

  /** The leaf columns of the schema, in schema order. */
  public List<Column> columns() {
    return columns;
  }

  /** Every column chunk of every row group, in file order. */
  public List<ColumnChunk> chunks() {
    return chunks;
  }

  /** The number of row groups. */
  public int numRowGroups() {
    return numRowGroups;
  }

  /** The column whose dotted path is {@code dottedPath}, or {@code null}. */
  public Column column(String dottedPath) {
    for (Column c : columns) {
      if (c.dottedPath().equals(dottedPath)) {
        return c;
      }
    }
    return null;
  }

  /**
   * Reads the Bloom filter of {@code chunk}; its value count is set to {@link
   * ColumnChunk#distinctUpperBound()} so that {@code modelledFpRate()} is the model's rate there.
   *
   * @return {@code null} if the chunk has no filter
   * @throws SieveFormatException if the header or its place in the file is malformed or names an
   *     algorithm, hash or compression other than Parquet's split-block / XXH64 / uncompressed
   */
  public BloomFilter bloomFilter(ColumnChunk chunk) throws IOException {
    if (!chunk.hasBloomFilter()) {
      return null;
    }
    long at = chunk.bloomFilterOffset();
    long size = source.size();
    if (at < 4 || at >= size - 8) {
      throw new SieveFormatException(
          at, "Bloom filter offset " + at + " outside the file's data (" + size + " bytes)");
    }
    int known = chunk.bloomFilterLength();
    int headerWindow;
    if (known >= 0) {
      if (known > SplitBlockBloomFilter.MAX_BYTES + MAX_FILTER_HEADER_BYTES) {
        throw new SieveFormatException(
            at,
            "Bloom filter length "
                + known
                + " over the largest Parquet filter ("
                + SplitBlockBloomFilter.MAX_BYTES
                + " bytes and its header)");
      }
      if (known > size - 8 - at) {
        throw new SieveFormatException(
            at, "Bloom filter length " + known + " at offset " + at + " runs past the file");
      }
      headerWindow = known;
    } else {
      headerWindow = (int) Math.min(MAX_FILTER_HEADER_BYTES, size - 8 - at); // ~15 bytes used
    }
    byte[] headerBytes = source.read(at, headerWindow);
    ThriftCompactReader r = new ThriftCompactReader(headerBytes, 0, headerBytes.length, at);
    int numBytes = BloomFilterHeader.read(r);
    int headerLen = r.position();
    long bitsetAt = at + headerLen;
    if (numBytes < SplitBlockBloomFilter.MIN_BYTES
        || numBytes > SplitBlockBloomFilter.MAX_BYTES
        || numBytes % SplitBlockBloomFilter.BLOCK_BYTES != 0) {
      throw new SieveFormatException(
          at,
          "Bloom filter numBytes "
              + numBytes
              + ": must be a multiple of 32 in [32, "
              + SplitBlockBloomFilter.MAX_BYTES
              + "]");
    }
    if (known >= 0 && (long) headerLen + numBytes != known) {
      throw new SieveFormatException(
          at,
          "Bloom filter header ("
              + headerLen
              + " bytes) and bitset ("
              + numBytes
              + ") disagree with bloom_filter_length "
              + known);
    }
    if (bitsetAt + numBytes > size - 8) {
      throw new SieveFormatException(
          bitsetAt, "Bloom filter bitset of " + numBytes + " bytes runs past the file");
    }
    byte[] bitset =
        known >= 0
            ? java.util.Arrays.copyOfRange(headerBytes, headerLen, known)
            : source.read(bitsetAt, numBytes);
    return new BloomFilter(
        chunk,
        headerLen,
        SplitBlockBloomFilter.fromParquetBitset(bitset, chunk.distinctUpperBound()));
  }
}
