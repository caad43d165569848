package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A RocksDB block-based SST file, read as far as its filter: the footer, the metaindex, the table
 * properties and the filter blocks, each verified against its block checksum.
 *
 * <h2>Layout (RocksDB table/block_based/block_based_table_builder.cc, table/format.cc)</h2>
 *
 * <pre>
 *  data blocks … | filter (full, or partitions then their index) | index | ...
 *  | properties block | metaindex block | footer (53 bytes)
 * </pre>
 *
 * Every block is followed by a 5-byte trailer: its compression type (0 for every block Sieve reads:
 * RocksDB never compresses filter, properties or metaindex blocks) and its checksum ({@link
 * ChecksumType}; plus the context modifier from format_version 6). The metaindex maps names to
 * block handles: {@code rocksdb.properties}, {@code fullfilter.<policy>} or {@code
 * partitionedfilter.<policy>} (RocksDB's built-in policies all write {@code
 * rocksdb.BuiltinBloomFilter}), from format_version 6 also {@code rocksdb.index}.
 *
 * <p>Everything is read eagerly; the object keeps no file open. All problems are reported as {@link
 * SieveFormatException} with the file offset where they were found.
 */
public final class SstFile {
  /** The metaindex key of the table properties ({@code rocksdb.stats} in very old files). */
  public static final String PROPERTIES_BLOCK = "rocksdb.properties";

  private static final String OLD_PROPERTIES_BLOCK = "rocksdb.stats";
  private static final String FULL_FILTER_PREFIX = "fullfilter.";
  private static final String PARTITIONED_FILTER_PREFIX = "partitionedfilter.";
  private static final String OBSOLETE_FILTER_PREFIX = "filter.";
  private static final int MAX_BLOCK_BYTES = Integer.MAX_VALUE - 64;

  /** Reads {@code len} bytes at file offset {@code off}. */
  interface Source {
    byte[] read(long off, int len) throws IOException;
  }

  private final long fileSize;
  private final Footer footer;
  private final Map<String, BlockHandle> metaIndex;
  private final TableProperties properties;
  private final SstFilter filter;

  private SstFile(Source source, long fileSize) throws IOException {
    this.fileSize = fileSize;
    if (fileSize < Footer.ENCODED_LENGTH) {
      throw new SieveFormatException(
          0,
          "file of "
              + fileSize
              + " bytes is too short to be an SST file (the footer alone is "
              + Footer.ENCODED_LENGTH
              + " bytes): truncated, or not an SST file");
    }
    this.footer =
        Footer.decode(
            source.read(fileSize - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH), fileSize);
    BlockReader reader = new BlockReader(source, footer);
    byte[] meta = reader.read(footer.metaindexHandle(), "metaindex block");
    Map<String, BlockHandle> m = new LinkedHashMap<>();
    for (KeyValueBlock.Entry e :
        KeyValueBlock.decode(
            meta, footer.metaindexHandle().offset(), "metaindex block", true, false)) {
      m.put(new String(e.key(), StandardCharsets.UTF_8), e.handle());
    }
    this.metaIndex = Collections.unmodifiableMap(m);
    BlockHandle ph =
        m.containsKey(PROPERTIES_BLOCK) ? m.get(PROPERTIES_BLOCK) : m.get(OLD_PROPERTIES_BLOCK);
    if (ph == null) {
      throw new SieveFormatException(
          footer.metaindexHandle().offset(), "metaindex has no rocksdb.properties block");
    }
    byte[] props = reader.read(ph, "properties block");
    Map<String, byte[]> p = new LinkedHashMap<>();
    for (KeyValueBlock.Entry e :
        KeyValueBlock.decode(props, ph.offset(), "properties block", false, false)) {
      byte[] v = new byte[e.valueLen()];
      System.arraycopy(props, e.valueOff(), v, 0, v.length);
      p.put(new String(e.key(), StandardCharsets.UTF_8), v);
    }
    this.properties = new TableProperties(p, ph.offset());
    this.filter = locateFilter(reader);
  }

  /**
   * Opens and reads the SST file at {@code path}.
   *
   * @param path the file
   * @return the file's footer, properties and filter
   * @throws IOException if the file cannot be read
   */
  public static SstFile open(Path path) throws IOException {
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = ch.size();
      return new SstFile(
          (off, len) -> {
            ByteBuffer buf = ByteBuffer.allocate(len);
            while (buf.hasRemaining()) {
              int r = ch.read(buf, off + buf.position());
              if (r < 0) {
                throw new SieveFormatException(off + buf.position(), "unexpected end of file");
              }
            }
            return buf.array();
          },
          size);
    }
  }

  /**
   * Reads an SST file held in memory.
   *
   * @param file the file's bytes
   * @return the file's footer, properties and filter
   */
  public static SstFile parse(byte[] file) {
    try {
      return new SstFile(
          (off, len) -> {
            byte[] out = new byte[len];
            System.arraycopy(file, (int) off, out, 0, len);
            return out;
          },
          file.length);
    } catch (IOException e) {
      throw new AssertionError("in-memory reads do not fail", e);
    }
  }

  private SstFilter locateFilter(BlockReader reader) {
    String fullKey = null;
    String partitionedKey = null;
    String obsoleteKey = null;
    for (String k : metaIndex.keySet()) {
      if (k.startsWith(FULL_FILTER_PREFIX) && fullKey == null) {
        fullKey = k;
      } else if (k.startsWith(PARTITIONED_FILTER_PREFIX) && partitionedKey == null) {
        partitionedKey = k;
      } else if (k.startsWith(OBSOLETE_FILTER_PREFIX) && obsoleteKey == null) {
        obsoleteKey = k;
      }
    }
    long entries = properties.numFilterEntries().orElse(properties.numEntries());
    PrefixExtractor prefix = PrefixExtractor.parse(properties.prefixExtractor());
    if (fullKey != null) {
      BlockHandle h = metaIndex.get(fullKey);
      byte[] block = reader.read(h, "filter block");
      FilterBlock fb = FilterBlockReader.read(block, entries);
      return SstFilter.full(
          fullKey.substring(FULL_FILTER_PREFIX.length()), h, fb, properties, prefix);
    }
    if (partitionedKey != null) {
      BlockHandle h = metaIndex.get(partitionedKey);
      byte[] index = reader.read(h, "filter partition index");
      List<KeyValueBlock.Entry> parts =
          KeyValueBlock.decode(
              index,
              h.offset(),
              "filter partition index",
              true,
              properties.indexValueIsDeltaEncoded());
      if (parts.isEmpty()) {
        throw new SieveFormatException(h.offset(), "filter partition index has no entries");
      }
      boolean internalKeys = !properties.indexKeyIsUserKey();
      long totalBytes = 0;
      for (KeyValueBlock.Entry e : parts) {
        totalBytes += e.handle().size();
      }
      SstFilter.Partition[] out = new SstFilter.Partition[parts.size()];
      for (int i = 0; i < out.length; i++) {
        KeyValueBlock.Entry e = parts.get(i);
        byte[] key = e.key();
        if (internalKeys) {
          if (key.length < 8) {
            throw new SieveFormatException(
                h.offset(),
                "filter partition index key " + i + " is shorter than an internal key footer");
          }
          key = java.util.Arrays.copyOf(key, key.length - 8);
        }
        // the format stores no per-partition key count: apportion the keys by size for the model
        long keys =
            totalBytes == 0 ? 0 : Math.round((double) entries * e.handle().size() / totalBytes);
        FilterBlock fb =
            e.handle().size() == 0
                ? FilterBlockReader.read(new byte[0], 0)
                : FilterBlockReader.read(reader.read(e.handle(), "filter partition " + i), keys);
        out[i] = new SstFilter.Partition(key, e.handle(), fb);
      }
      return SstFilter.partitioned(
          partitionedKey.substring(PARTITIONED_FILTER_PREFIX.length()), h, out, properties, prefix);
    }
    return SstFilter.none(obsoleteKey, properties, prefix);
  }

  /** Reads block contents and verifies the block trailer. */
  static final class BlockReader {
    private final Source source;
    private final Footer footer;

    BlockReader(Source source, Footer footer) {
      this.source = source;
      this.footer = footer;
    }

    byte[] read(BlockHandle h, String what) {
      byte[] contents = readAny(h, what);
      if (contents == null) {
        throw new SieveFormatException(
            h.offset() + h.size(),
            what + " is compressed; RocksDB stores filter and meta blocks uncompressed");
      }
      return contents;
    }

    /**
     * Reads a block and verifies its trailer's checksum (which covers the stored, possibly
     * compressed, bytes and the compression type); returns its contents, or {@code null} if it is
     * compressed (see {@link #readStored} for the stored bytes of a compressed block).
     */
    byte[] readAny(BlockHandle h, String what) {
      Stored s = readStored(h, what);
      return s.compressionType() == 0 ? s.bytes() : null;
    }

    /**
     * A block as stored, its checksum verified.
     *
     * @param bytes the stored bytes (compressed unless {@code compressionType} is 0), trailer
     *     excluded
     * @param compressionType the trailer's compression type byte (RocksDB's {@code
     *     CompressionType}, 0 for none)
     */
    @SuppressWarnings("ArrayRecordComponent") // block bytes held as read, no copy
    record Stored(byte[] bytes, int compressionType) {}

    /**
     * Reads a block and verifies its trailer's checksum; returns its stored bytes, compressed or
     * not, with the trailer's compression type.
     */
    Stored readStored(BlockHandle h, String what) {
      long end = h.offset() + h.size() + Footer.BLOCK_TRAILER_BYTES;
      if (h.offset() < 0
          || h.size() < 0
          || h.size() > MAX_BLOCK_BYTES
          || end < 0
          || end > footer.footerOffset()) {
        // report where the handle points when that is inside the file, else the footer it came from
        long at =
            h.offset() >= 0 && h.offset() <= footer.footerOffset()
                ? h.offset()
                : footer.footerOffset();
        throw new SieveFormatException(
            at,
            what
                + " handle "
                + h
                + " (with its 5-byte trailer) lies outside the file's blocks, which end at "
                + footer.footerOffset()
                + (h.offset() >= 0 && h.size() >= 0 && end > footer.footerOffset()
                    ? ": the file is truncated (shorter than the blocks its index points to) or"
                        + " the handle is corrupt"
                    : ""));
      }
      int size = (int) h.size();
      byte[] raw;
      try {
        raw = source.read(h.offset(), size + Footer.BLOCK_TRAILER_BYTES);
      } catch (IOException e) {
        throw new SieveFormatException(h.offset(), what + ": read failed: " + e.getMessage(), e);
      }
      ChecksumType type = footer.checksumType();
      if (type != ChecksumType.NONE) {
        int stored = LittleEndian.i32(raw, size + 1);
        int computed =
            type.blockChecksum(raw, 0, size, raw[size])
                + ChecksumType.contextModifier(footer.baseContextChecksum(), h.offset());
        if (stored != computed) {
          throw new SieveFormatException(
              h.offset(),
              what
                  + " checksum mismatch ("
                  + type.label()
                  + ": stored 0x"
                  + Integer.toHexString(stored)
                  + ", computed 0x"
                  + Integer.toHexString(computed)
                  + "): the block or its trailer is corrupt");
        }
      }
      int compression = raw[size] & 0xFF;
      byte[] contents = new byte[size];
      System.arraycopy(raw, 0, contents, 0, size);
      return new Stored(contents, compression);
    }
  }

  /** {@return the file's size in bytes} */
  public long fileSize() {
    return fileSize;
  }

  /** {@return the file's footer} */
  public Footer footer() {
    return footer;
  }

  /** {@return the table's format_version, from the footer} */
  public int formatVersion() {
    return footer.formatVersion();
  }

  /** {@return the block checksum type, from the footer} */
  public ChecksumType checksumType() {
    return footer.checksumType();
  }

  /** {@return meta block names to handles, in file order} */
  public Map<String, BlockHandle> metaIndex() {
    return metaIndex;
  }

  /** {@return the table's properties} */
  public TableProperties properties() {
    return properties;
  }

  /** {@return the table's filter; kind {@link FilterKind#NONE} if it has none} */
  public SstFilter filter() {
    return filter;
  }
}
