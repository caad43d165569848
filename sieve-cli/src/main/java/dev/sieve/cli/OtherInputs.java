package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.format.ContainerHeader;
import dev.sieve.format.SieveFormat;
import dev.sieve.sst.FilterBlock;
import dev.sieve.sst.FilterBlockReader;
import dev.sieve.sst.FilterKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code inspect} and {@code query} on the inputs that are not SSTs: Sieve's own container ({@code
 * .sieve}, {@link SieveFormat}) and a raw RocksDB filter block as {@code sieve build} writes it.
 */
final class OtherInputs {
  private OtherInputs() {}

  /** The largest raw filter block read into memory (RocksDB caps a filter at 4 GiB; Java at 2). */
  static final long MAX_BLOCK_BYTES = Integer.MAX_VALUE - 64;

  static Map<String, String> describeContainer(Path file) throws IOException {
    Filter f = SieveFormat.map(file);
    ContainerHeader h;
    try (var ch = java.nio.channels.FileChannel.open(file)) {
      ByteBuffer head = ByteBuffer.allocate(SieveFormat.HEADER_BYTES);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill
      }
      head.flip();
      h = SieveFormat.readHeader(head, ch.size());
    }
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString("sieve container"));
    m.put("file_size", Long.toString(Files.size(file)));
    m.put("container_version", Integer.toString(h.version()));
    m.put("filter_type", SstCliSupport.jsonString(h.type().toString()));
    m.put("filter_class", SstCliSupport.jsonString(f.getClass().getSimpleName()));
    m.put("num_keys", Long.toString(f.numKeys()));
    m.put("filter_bytes", Long.toString(f.sizeInBytes()));
    m.put("bits_per_key", SstCliSupport.jsonNumber(f.bitsPerKey()));
    m.put("flags", Integer.toString(h.flags()));
    m.put("modelled_fpr", SstCliSupport.jsonNumber(f.modelledFpRate()));
    m.put("note", SstCliSupport.jsonString("checksums verified (header and payload CRC32C)"));
    return m;
  }

  static FilterBlock readBlock(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BLOCK_BYTES) {
      throw new SieveFormatException(
          0, "filter block of " + size + " bytes is larger than the limit of " + MAX_BLOCK_BYTES);
    }
    return FilterBlockReader.read(Files.readAllBytes(file), 0);
  }

  static Map<String, String> describeBlock(Path file) throws IOException {
    FilterBlock b = readBlock(file);
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString("filter block"));
    m.put("file_size", Long.toString(Files.size(file)));
    m.put("filter_kind", SstCliSupport.jsonString(b.kind().label()));
    m.put("filter_bytes", Integer.toString(b.blockBytes()));
    m.put("filter_bits", Long.toString(b.sizeInBits()));
    if (b.kind() == FilterKind.FAST_LOCAL_BLOOM || b.kind() == FilterKind.LEGACY_BLOOM) {
      m.put("num_probes", Integer.toString(b.numProbes()));
    }
    if (b.kind() == FilterKind.RIBBON) {
      m.put("ribbon_seed", Integer.toString(b.ribbonSeed()));
      m.put("ribbon_blocks", Integer.toString(b.ribbonBlocks()));
      m.put("ribbon_result_bits", SstCliSupport.jsonNumber(b.ribbonResultBits()));
    }
    m.put(
        "note",
        SstCliSupport.jsonString(
            b.note() != null
                ? b.note()
                : "a raw block records no key count: no bits/key or modelled FPR; no checksum"));
    return m;
  }
}
