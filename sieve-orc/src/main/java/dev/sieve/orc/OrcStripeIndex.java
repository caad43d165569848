package dev.sieve.orc;

import dev.sieve.SieveFormatException;
import dev.sieve.interop.OrcBloomFilter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one stripe's footer and its index streams ({@code ROW_INDEX}, {@code BLOOM_FILTER}, {@code
 * BLOOM_FILTER_UTF8}) into {@link OrcFile.RowGroup}s; see {@link OrcFile} for the layout.
 */
final class OrcStripeIndex {
  private OrcStripeIndex() {}

  static final int ROW_INDEX = 6;
  static final int BLOOM_FILTER = 7;
  static final int BLOOM_FILTER_UTF8 = 8;

  /** The most streams a stripe footer may list. */
  static final int MAX_STREAMS = 1 << 22;

  private record Stream(int kind, int column, long offset, long length) {}

  static List<OrcFile.RowGroup> read(OrcFile file, OrcFile.Stripe stripe) throws IOException {
    long footerOffset = stripe.offset() + stripe.indexLength() + stripe.dataLength();
    byte[] footer = file.section(footerOffset, stripe.footerLength(), "StripeFooter");
    ProtoReader r = new ProtoReader(footer, 0, footer.length, footerOffset, "StripeFooter");
    List<Stream> streams = new ArrayList<>();
    List<Integer> bloomEncodings = new ArrayList<>();
    long at = stripe.offset();
    long end = footerOffset;
    while (r.next()) {
      switch (r.field()) {
        case 1 -> {
          if (streams.size() >= MAX_STREAMS) {
            throw r.error("more than " + MAX_STREAMS + " streams");
          }
          ProtoReader s = r.message("Stream");
          int kind = -1;
          int column = 0;
          long length = 0;
          while (s.next()) {
            switch (s.field()) {
              case 1 -> kind = s.intIn("kind", 0, Integer.MAX_VALUE);
              case 2 -> column = s.intIn("column", 0, Integer.MAX_VALUE);
              case 3 -> length = s.longIn("length", 0, Long.MAX_VALUE / 4);
              default -> s.skip();
            }
          }
          if (length > end - at) {
            throw s.error(
                "stream of "
                    + length
                    + " bytes at "
                    + at
                    + " leaves the stripe (ends at "
                    + end
                    + ")");
          }
          streams.add(new Stream(kind, column, at, length));
          at += length;
        }
        case 2 -> {
          ProtoReader e = r.message("ColumnEncoding");
          int bloom = 0;
          while (e.next()) {
            if (e.field() == 3) {
              bloom = e.intIn("bloomEncoding", 0, Integer.MAX_VALUE);
            } else {
              e.skip();
            }
          }
          bloomEncodings.add(bloom);
        }
        default -> r.skip();
      }
    }
    List<OrcFile.Column> columns = file.columns();
    int stride = file.rowIndexStride();
    long groups = stride == 0 ? 1 : (stripe.rows() + stride - 1) / stride;
    long firstRow = file.firstRowOf(stripe);
    List<OrcFile.RowGroup> out = new ArrayList<>();
    for (OrcFile.Column column : columns) {
      Stream utf8 = find(streams, column.id(), BLOOM_FILTER_UTF8);
      Stream original = find(streams, column.id(), BLOOM_FILTER);
      if (utf8 == null && original == null) {
        continue;
      }
      int encoding = column.id() < bloomEncodings.size() ? bloomEncodings.get(column.id()) : 0;
      boolean useUtf8 = utf8 != null;
      Stream chosen = useUtf8 ? utf8 : original;
      // ORC's BloomFilterIO: an unknown encoding, or UTF-8 timestamps of the original encoding,
      // give no filter (ORC never skips by them)
      boolean usable =
          !useUtf8
              || (encoding <= 1
                  && !(encoding == 0
                      && (column.kind() == OrcFile.Kind.TIMESTAMP
                          || column.kind() == OrcFile.Kind.TIMESTAMP_INSTANT)));
      List<OrcBloomFilter> filters = new ArrayList<>();
      String what = (useUtf8 ? "BLOOM_FILTER_UTF8" : "BLOOM_FILTER") + " of column " + column.id();
      byte[] index = file.section(chosen.offset(), chosen.length(), what);
      ProtoReader bi = new ProtoReader(index, 0, index.length, chosen.offset(), what);
      while (bi.next()) {
        if (bi.field() != 1) {
          bi.skip();
          continue;
        }
        if (filters.size() >= groups) {
          throw bi.error("more Bloom filters than the stripe's " + groups + " row groups");
        }
        filters.add(bloomFilter(bi.message("BloomFilter"), useUtf8));
      }
      if (filters.size() != groups) {
        throw bi.error(
            filters.size() + " Bloom filters for the stripe's " + groups + " row groups");
      }
      List<OrcStats> stats = rowIndex(file, find(streams, column.id(), ROW_INDEX), column, groups);
      for (int g = 0; g < groups; g++) {
        long rows =
            stride == 0 ? stripe.rows() : Math.min(stride, stripe.rows() - (long) g * stride);
        long groupFirst = firstRow + (long) g * stride;
        OrcBloomFilter counted = withKeys(filters.get(g), rows);
        out.add(
            new OrcFile.RowGroup(
                column,
                stripe.index(),
                g,
                groupFirst,
                rows,
                useUtf8,
                usable ? counted : null,
                stats == null ? null : stats.get(g)));
      }
    }
    return out;
  }

  private static OrcBloomFilter withKeys(OrcBloomFilter f, long rows) {
    return OrcBloomFilter.fromBitset(f.bitset(), f.numHashFunctions(), rows);
  }

  private static List<OrcStats> rowIndex(
      OrcFile file, Stream stream, OrcFile.Column column, long groups) throws IOException {
    if (stream == null) {
      return null;
    }
    String what = "ROW_INDEX of column " + column.id();
    byte[] bytes = file.section(stream.offset(), stream.length(), what);
    ProtoReader r = new ProtoReader(bytes, 0, bytes.length, stream.offset(), what);
    List<OrcStats> out = new ArrayList<>();
    while (r.next()) {
      if (r.field() != 1) {
        r.skip();
        continue;
      }
      if (out.size() >= groups) {
        throw r.error("more row index entries than the stripe's " + groups + " row groups");
      }
      ProtoReader e = r.message("RowIndexEntry");
      OrcStats stats = null;
      while (e.next()) {
        if (e.field() == 2) {
          stats = OrcStats.read(e.message("ColumnStatistics"));
        } else {
          e.skip();
        }
      }
      out.add(stats);
    }
    return out.size() == groups ? out : null;
  }

  private static Stream find(List<Stream> streams, int column, int kind) {
    for (Stream s : streams) {
      if (s.column() == column && s.kind() == kind) {
        return s;
      }
    }
    return null;
  }

  /**
   * One {@code BloomFilter} message: numHashFunctions and, as ORC reads it, the utf8bitset of a
   * {@code BLOOM_FILTER_UTF8} stream or the bitset words of a {@code BLOOM_FILTER} stream.
   */
  static OrcBloomFilter bloomFilter(ProtoReader r, boolean utf8Stream) {
    int k = -1;
    long[] words = new long[0];
    int count = 0;
    byte[] utf8 = null;
    while (r.next()) {
      switch (r.field()) {
        case 1 -> k = r.intIn("numHashFunctions", 1, OrcBloomFilter.MAX_PROBES);
        case 2 -> {
          long[] more = r.repeatedFixed64("bitset");
          if ((long) count + more.length > OrcBloomFilter.MAX_WORDS) {
            throw r.error("bitset of more than " + OrcBloomFilter.MAX_WORDS + " words");
          }
          if (count + more.length > words.length) {
            int need = count + more.length;
            // doubles, but never past what the message's bytes left could still hold (8 a word)
            int cap =
                (int) Math.min((long) need + r.remaining() / 8, Math.max(16L, 2L * words.length));
            words = java.util.Arrays.copyOf(words, Math.max(need, cap));
          }
          System.arraycopy(more, 0, words, count, more.length);
          count += more.length;
        }
        case 3 -> utf8 = r.bytes("utf8bitset");
        default -> r.skip();
      }
    }
    if (k < 0) {
      throw r.error("BloomFilter has no numHashFunctions");
    }
    try {
      if (utf8Stream) {
        if (utf8 == null) {
          throw r.error("BloomFilter of a UTF-8 stream has no utf8bitset");
        }
        return OrcBloomFilter.fromUtf8Bitset(utf8, k, 0);
      }
      return OrcBloomFilter.fromBitset(java.util.Arrays.copyOf(words, count), k, 0);
    } catch (SieveFormatException e) {
      throw r.error(e.getMessage());
    }
  }
}
