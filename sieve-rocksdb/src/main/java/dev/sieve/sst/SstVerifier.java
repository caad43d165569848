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
 * verified without decompressing them. To find the data blocks the index must be decoded, which
 * Sieve can only do when the index blocks are stored uncompressed (RocksDB compresses them when the
 * table's compression is on and {@code enable_index_compression} is true, the default) and hold
 * plain block handles (not {@code kBinarySearchWithFirstKey}); otherwise the index's own checksum
 * is verified and {@link Result#note()} says the data blocks were not reached.
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
      filter = 1 + f.partitions().size(); // verified when the filter was read
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
    byte[] top = reader.readAny(index, "index block");
    long indexBlocks = 1;
    long data = 0;
    if (top == null) {
      return new Result(
          data,
          indexBlocks,
          meta,
          filter,
          "the index block is compressed: its checksum is verified, but Sieve does not decompress,"
              + " so the data blocks were not reached");
    }
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
        byte[] part = reader.readAny(ph, "index partition " + i);
        indexBlocks++;
        if (part == null) {
          note =
              "index partitions are compressed: their checksums are verified, but Sieve does not"
                  + " decompress, so the data blocks were not reached";
          continue;
        }
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
}
