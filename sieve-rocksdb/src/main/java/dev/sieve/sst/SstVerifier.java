package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Verifies the checksum of every block of a block-based SST file, as RocksDB's {@code
 * VerifyChecksum} does: every meta block named in the metaindex (properties, filter or filter
 * partition index, range deletions, compression dictionary…), the filter partitions, the index
 * block (and, for a partitioned index, its partitions), and every data block the index points to.
 *
 * <p>A block's checksum covers its stored bytes and compression type, so compressed blocks are
 * verified without decompressing them. To find the data blocks the index must be decoded: index
 * blocks (the index, or a partitioned index's top level and partitions) that RocksDB stored
 * compressed (it does when the table's compression is on and {@code enable_index_compression} is
 * true, the default) are decompressed by {@link BlockDecompressor} (Snappy, Zlib, LZ4/LZ4HC, ZSTD
 * with RocksDB's built-in framing). The data blocks are not reached, and {@link Result#note()} says
 * why, when an index block uses a compression Sieve does not decompress (BZip2, Xpress, a custom
 * compression manager) or holds first keys ({@code kBinarySearchWithFirstKey}); the index blocks'
 * own checksums are still verified. A compressed index block that does not decompress is an error
 * naming the block and its offset.
 */
public final class SstVerifier {
  /**
   * The property holding the index type as a fixed32 (0 binary, 1 hash, 2 two-level, 3 with first
   * key).
   */
  static final String INDEX_TYPE = "rocksdb.block.based.table.index.type";

  private SstVerifier() {}

  /**
   * What was verified.
   *
   * @param dataBlocks data blocks verified
   * @param indexBlocks index blocks verified (the index, and its partitions)
   * @param metaBlocks meta blocks verified (metaindex included)
   * @param filterBlocks filter blocks verified (full filter, or partitions and their index)
   * @param note why some blocks were not reached, or {@code null} when every block was
   */
  public record Result(
      long dataBlocks, long indexBlocks, long metaBlocks, long filterBlocks, String note) {

    /** All blocks verified. */
    public long blocks() {
      return dataBlocks + indexBlocks + metaBlocks + filterBlocks;
    }
  }

  /**
   * Verifies every block of the SST at {@code file}.
   *
   * @throws SieveFormatException at the first bad block, naming it and its offset
   */
  public static Result verify(Path file) throws IOException {
    SstFile sst = SstFile.open(file); // footer, metaindex, properties, filter blocks verified
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      SstFile.BlockReader reader =
          new SstFile.BlockReader(
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
              sst.footer());
      return verify(sst, reader);
    }
  }

  static Result verify(SstFile sst, SstFile.BlockReader reader) {
    Footer footer = sst.footer();
    long meta = 1; // the metaindex, verified when the file was opened
    long filter = 0;
    SstFilter f = sst.filter();
    if (f.handle() != null) {
      filter = 1L + f.partitions().size(); // verified when the filter was read
    }
    BlockHandle index = footer.indexHandle();
    for (var e : sst.metaIndex().entrySet()) {
      String name = e.getKey();
      if (name.equals("rocksdb.index")) {
        index = e.getValue();
        continue;
      }
      if (f.handle() != null && e.getValue().offset() == f.handle().offset()) {
        continue; // counted with the filter
      }
      reader.readAny(e.getValue(), "meta block '" + name + "'");
      meta++;
    }
    if (index == null) {
      throw new SieveFormatException(
          footer.metaindexHandle().offset(), "format_version >= 6 metaindex has no rocksdb.index");
    }
    TableProperties p = sst.properties();
    // a fixed32 (BlockBasedTablePropertiesCollector), not a decimal string like the others
    byte[] it = p.raw().get(INDEX_TYPE);
    long indexType = it != null && it.length == 4 ? LittleEndian.u32(it, 0) : 0;
    boolean delta = p.indexValueIsDeltaEncoded();
    String manager = customCompressionManager(sst);
    SstFile.BlockReader.Stored topStored = reader.readStored(index, "index block");
    long indexBlocks = 1;
    long data = 0;
    String why = undecodable(topStored, manager, "the index block is");
    if (why != null) {
      return new Result(
          data,
          indexBlocks,
          meta,
          filter,
          why + ": its checksum is verified, but the data blocks were not reached");
    }
    byte[] top = contents(topStored, index, "index block");
    if (indexType == 3) {
      return new Result(
          data,
          indexBlocks,
          meta,
          filter,
          "the index holds first keys (kBinarySearchWithFirstKey), which Sieve does not decode:"
              + " the data blocks were not reached");
    }
    List<KeyValueBlock.Entry> entries =
        KeyValueBlock.decode(top, index.offset(), "index block", true, delta);
    String note = null;
    if (indexType == 2) {
      // two-level: the top-level entries point to index partitions (same value encoding)
      for (int i = 0; i < entries.size(); i++) {
        BlockHandle ph = entries.get(i).handle();
        SstFile.BlockReader.Stored stored = reader.readStored(ph, "index partition " + i);
        indexBlocks++;
        String partWhy = undecodable(stored, manager, "index partitions are");
        if (partWhy != null) {
          note =
              partWhy
                  + ": their checksums are verified, but the data blocks behind them were not"
                  + " reached";
          continue;
        }
        byte[] part = contents(stored, ph, "index partition " + i);
        for (KeyValueBlock.Entry d :
            KeyValueBlock.decode(part, ph.offset(), "index partition " + i, true, delta)) {
          reader.readAny(d.handle(), "data block at " + d.handle().offset());
          data++;
        }
      }
    } else {
      for (KeyValueBlock.Entry d : entries) {
        reader.readAny(d.handle(), "data block at " + d.handle().offset());
        data++;
      }
    }
    return new Result(data, indexBlocks, meta, filter, note);
  }

  /**
   * {@code null} when the table's compressed blocks use RocksDB's built-in framing ({@code
   * compress_format_version} 2), else the compression manager named by {@code
   * rocksdb.compression_name} (format_version ≥ 7: {@code "<compatibility name>;<types>;…"}).
   */
  private static String customCompressionManager(SstFile sst) {
    if (sst.formatVersion() < 7) {
      return null;
    }
    byte[] raw = sst.properties().raw().get("rocksdb.compression_name");
    if (raw == null || raw.length == 0) {
      return null; // RocksDB reads such a table with the built-in decompressor
    }
    String name = new String(raw, java.nio.charset.StandardCharsets.UTF_8);
    int sep = name.indexOf(';');
    String manager = sep < 0 ? name : name.substring(0, sep);
    // empty when the table was written without compression
    return manager.isEmpty() || manager.equals("BuiltinV2") ? null : manager;
  }

  /**
   * Why a stored index block cannot be decoded ({@code what}: its subject and verb, "the index
   * block is"), or {@code null} when it can.
   */
  private static String undecodable(
      SstFile.BlockReader.Stored stored, String customManager, String what) {
    int type = stored.compressionType();
    if (type == 0) {
      return null;
    }
    if (customManager != null) {
      return what
          + " compressed by the compression manager '"
          + customManager
          + "', which Sieve does not decompress";
    }
    if (!BlockDecompressor.supports(type)) {
      return what
          + " compressed with "
          + BlockDecompressor.name(type)
          + ", which Sieve does not decompress";
    }
    return null;
  }

  private static byte[] contents(SstFile.BlockReader.Stored stored, BlockHandle h, String what) {
    return stored.compressionType() == 0
        ? stored.bytes()
        : BlockDecompressor.decompress(stored.compressionType(), stored.bytes(), h.offset(), what);
  }
}
