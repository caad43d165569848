package dev.sieve.shard;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.internal.ChannelReads;
import dev.sieve.internal.ChannelWrites;
import dev.sieve.internal.Families;
import dev.sieve.internal.PayloadForm;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The container payload of a {@link ShardedFilter} (type id 12), little-endian:
 *
 * <pre>
 * offset     size  field
 *      0        4  shard count S (a power of two, 1..2^16)
 *      4        2  shard type id (a FilterType id: 1, 3, 4, 5, 6 or 7)
 *      6        2  payload version: 1; any other value is refused
 *      8        8  reserved, 0
 *     16     32·S  shard table, per shard: payload offset (8), payload length (8), key count (8),
 *                  the shard's parameter A (4) and parameter B (4), as a container header holds
 *                  them for a filter of the shard's type (probes; Ribbon seed and num_blocks; …)
 *      …        …  the shards' payloads (each as that type's container payload), shard i at its
 *                  table offset: the first at align64(16 + 32·S), each next one at align64 of
 *                  the previous end, zero bytes between; the payload ends with the last shard
 * </pre>
 *
 * Offsets are from the payload's first byte, so each shard starts 64-byte aligned in the file (the
 * payload starts at 64). The layout is canonical: a reader refuses any other offset, non-zero
 * padding or reserved bytes, and trailing bytes. Every shard is then read by its type's codec
 * (zero-copy where the type is), its key count and parameters A and B checked against the table:
 * the second copy that makes an edit of a shard's probe count, Ribbon seed or block count behind
 * recomputed checksums a refusal, as it is in a plain container (whose header holds A and B),
 * instead of a filter answering "absent" for keys it holds.
 */
final class ShardedCodec extends PayloadForm<ShardedFilter> {
  static final int TABLE_OFFSET = 16;
  static final int VERSION_OFFSET = 6;

  /** The payload version written and read: table entries with the shards' parameters A and B. */
  static final int PAYLOAD_VERSION = 1;

  static final int ENTRY_BYTES = 32;
  static final int ALIGN = 64;

  /** The largest payload one byte[] container holds, as {@link SieveFormat}'s limit. */
  static final long MAX_ARRAY_PAYLOAD =
      Integer.MAX_VALUE - 8 - SieveFormat.HEADER_BYTES - SieveFormat.CHECKSUM_BYTES;

  ShardedCodec() {
    super(ShardedFilter.class);
  }

  private static long align(long x) {
    return (x + ALIGN - 1) & -ALIGN;
  }

  private static FilterType shardType(ShardedFilter f) {
    return FilterType.of(f.shard(0));
  }

  /** The shards' payload offsets and lengths: {@code [2i]} offset, {@code [2i+1]} length. */
  private static long[] layout(ShardedFilter f) {
    PayloadForm<Filter> codec = Families.get().filterForm(shardType(f));
    int s = f.shardCount();
    long[] out = new long[2 * s];
    long at = align(TABLE_OFFSET + (long) ENTRY_BYTES * s);
    for (int i = 0; i < s; i++) {
      long len = codec.payloadLength(f.shard(i));
      out[2 * i] = at;
      out[2 * i + 1] = len;
      at = align(at + len);
    }
    return out;
  }

  private static ByteBuffer tableBytes(ShardedFilter f, long[] layout) {
    int s = f.shardCount();
    ByteBuffer b =
        ByteBuffer.allocate(TABLE_OFFSET + ENTRY_BYTES * s).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0, s);
    b.putShort(4, (short) shardType(f).id());
    b.putShort(VERSION_OFFSET, (short) PAYLOAD_VERSION);
    PayloadForm<Filter> codec = Families.get().filterForm(shardType(f));
    for (int i = 0; i < s; i++) {
      int e = TABLE_OFFSET + ENTRY_BYTES * i;
      b.putLong(e, layout[2 * i]);
      b.putLong(e + 8, layout[2 * i + 1]);
      b.putLong(e + 16, f.shard(i).numKeys());
      b.putInt(e + 24, codec.parameterA(f.shard(i)));
      b.putInt(e + 28, codec.parameterB(f.shard(i)));
    }
    return b;
  }

  @Override
  public long payloadLength(ShardedFilter f) {
    long[] l = layout(f);
    int last = f.shardCount() - 1;
    return l[2 * last] + l[2 * last + 1];
  }

  @Override
  public byte[] payload(ShardedFilter f) {
    long length = payloadLength(f);
    if (length > MAX_ARRAY_PAYLOAD) {
      throw new IllegalStateException(
          "a sharded payload of " + length + " bytes does not fit one byte[]; write it to a file");
    }
    long[] l = layout(f);
    byte[] out = new byte[(int) length];
    ByteBuffer table = tableBytes(f, l);
    table.get(0, out, 0, table.capacity());
    PayloadForm<Filter> codec = Families.get().filterForm(shardType(f));
    for (int i = 0; i < f.shardCount(); i++) {
      byte[] p = codec.payload(f.shard(i));
      System.arraycopy(p, 0, out, (int) l[2 * i], p.length);
    }
    return out;
  }

  @Override
  public void writePayload(ShardedFilter f, WritableByteChannel out) throws IOException {
    long[] l = layout(f);
    ByteBuffer table = tableBytes(f, l);
    ChannelWrites.writeFully(out, table);
    long at = table.capacity();
    PayloadForm<Filter> codec = Families.get().filterForm(shardType(f));
    for (int i = 0; i < f.shardCount(); i++) {
      if (l[2 * i] > at) {
        ChannelWrites.writeFully(out, ByteBuffer.allocate((int) (l[2 * i] - at)));
      }
      codec.writePayload(f.shard(i), out);
      at = l[2 * i] + l[2 * i + 1];
    }
  }

  @Override
  public int parameterA(ShardedFilter f) {
    return shardType(f).id();
  }

  @Override
  public int parameterB(ShardedFilter f) {
    return f.shardCount();
  }

  @Override
  public boolean zeroCopy() {
    return true;
  }

  /** The validated table of a payload of {@code payloadLength} bytes. */
  @SuppressWarnings("ArrayRecordComponent") // internal table; arrays by design, never compared
  private record Table(
      FilterType type, long[] offsets, long[] lengths, long[] keys, int[] paramA, int[] paramB) {}

  /**
   * Reads and checks the table; {@code head} holds at least the payload's first {@code min(L, 16 +
   * 24·2^16)} bytes (all of the table if it fits the payload).
   */
  private static Table readTable(ByteBuffer head, long payloadLength) {
    ByteBuffer b = head.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    if (payloadLength < TABLE_OFFSET) {
      throw new SieveFormatException(
          0, "sharded payload of " + payloadLength + " bytes, shorter than its 16-byte head");
    }
    int s = b.getInt(0);
    if (s < 1 || s > ShardedFilter.MAX_SHARDS || Integer.bitCount(s) != 1) {
      throw new SieveFormatException(
          0,
          "shard count " + s + " is not a power of two in [1, " + ShardedFilter.MAX_SHARDS + "]");
    }
    int typeId = b.getShort(4) & 0xFFFF;
    FilterType type = FilterType.forId(typeId);
    if (type == null || !type.isShardable()) {
      throw new SieveFormatException(
          4,
          "shard type id "
              + typeId
              + " is not a static filter type a sharded filter holds (1, 3, 4, 5, 6, 7)");
    }
    int version = b.getShort(VERSION_OFFSET) & 0xFFFF;
    if (version != PAYLOAD_VERSION) {
      throw new SieveFormatException(
          VERSION_OFFSET,
          "sharded payload version "
              + version
              + " is not supported (this reader reads "
              + PAYLOAD_VERSION
              + ")");
    }
    for (int i = VERSION_OFFSET + 2; i < TABLE_OFFSET; i++) {
      if (b.get(i) != 0) {
        throw new SieveFormatException(i, "reserved sharded payload byte is not zero");
      }
    }
    long tableEnd = TABLE_OFFSET + (long) ENTRY_BYTES * s;
    if (tableEnd > payloadLength) {
      throw new SieveFormatException(
          TABLE_OFFSET,
          "a table of "
              + s
              + " shards needs "
              + tableEnd
              + " bytes, the payload has "
              + payloadLength);
    }
    long[] offsets = new long[s];
    long[] lengths = new long[s];
    long[] keys = new long[s];
    int[] paramA = new int[s];
    int[] paramB = new int[s];
    long expected = align(tableEnd);
    for (int i = 0; i < s; i++) {
      int e = TABLE_OFFSET + ENTRY_BYTES * i;
      long off = b.getLong(e);
      long len = b.getLong(e + 8);
      long k = b.getLong(e + 16);
      if (off != expected) {
        throw new SieveFormatException(
            e, "shard " + i + " at payload offset " + off + ", expected " + expected);
      }
      if (len < 0 || len > payloadLength - off) {
        throw new SieveFormatException(
            e + 8,
            "shard "
                + i
                + " of "
                + len
                + " bytes at "
                + off
                + " does not fit the payload of "
                + payloadLength);
      }
      if (k < 0) {
        throw new SieveFormatException(e + 16, "shard " + i + " has a negative key count " + k);
      }
      offsets[i] = off;
      lengths[i] = len;
      keys[i] = k;
      paramA[i] = b.getInt(e + 24);
      paramB[i] = b.getInt(e + 28);
      expected = align(off + len);
    }
    long end = offsets[s - 1] + lengths[s - 1];
    if (end != payloadLength) {
      throw new SieveFormatException(
          end,
          "the last shard ends at " + end + " but the payload has " + payloadLength + " bytes");
    }
    return new Table(type, offsets, lengths, keys, paramA, paramB);
  }

  private static void checkPadding(ByteBuffer payload, Table t) {
    long at = TABLE_OFFSET + (long) ENTRY_BYTES * t.offsets.length;
    for (int i = 0; i < t.offsets.length; i++) {
      for (long p = at; p < t.offsets[i]; p++) {
        if (payload.get((int) p) != 0) {
          throw new SieveFormatException(p, "padding byte before shard " + i + " is not zero");
        }
      }
      at = t.offsets[i] + t.lengths[i];
    }
  }

  /** Decodes shard {@code i} and checks its key count, rebasing a format error's offset. */
  private static Filter decodeShard(Table t, int i, ShardDecoder decoder) throws IOException {
    Filter f;
    try {
      f = decoder.decode(Families.get().filterForm(t.type), t.offsets[i], t.lengths[i], t.keys[i]);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(
          t.offsets[i] + e.offset(), "in shard " + i + ", " + e.getMessage(), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new SieveFormatException(
          t.offsets[i], "shard " + i + " (" + t.type + ") rejected: " + e.getMessage(), e);
    }
    int entry = TABLE_OFFSET + ENTRY_BYTES * i;
    if (f.numKeys() != t.keys[i]) {
      throw new SieveFormatException(
          entry + 16,
          "shard " + i + " table key count " + t.keys[i] + ", its payload holds " + f.numKeys());
    }
    int a = Families.get().filterForm(t.type).parameterA(f);
    if (a != t.paramA[i]) {
      throw new SieveFormatException(
          entry + 24,
          "shard " + i + " table parameter A " + t.paramA[i] + ", its payload says " + a);
    }
    int b = Families.get().filterForm(t.type).parameterB(f);
    if (b != t.paramB[i]) {
      throw new SieveFormatException(
          entry + 28,
          "shard " + i + " table parameter B " + t.paramB[i] + ", its payload says " + b);
    }
    return f;
  }

  @FunctionalInterface
  private interface ShardDecoder {
    Filter decode(PayloadForm<Filter> codec, long offset, long length, long numKeys)
        throws IOException;
  }

  private static ShardedFilter assemble(Table t, ShardDecoder decoder) throws IOException {
    List<Filter> shards = new ArrayList<>(t.offsets.length);
    for (int i = 0; i < t.offsets.length; i++) {
      shards.add(decodeShard(t, i, decoder));
    }
    return ShardedFilter.of(shards);
  }

  @Override
  public ShardedFilter read(byte[] payload, long numKeys) {
    ByteBuffer b = ByteBuffer.wrap(payload);
    Table t = readTable(b, payload.length);
    checkPadding(b, t);
    try {
      return assemble(
          t,
          (codec, off, len, keys) ->
              codec.read(Arrays.copyOfRange(payload, (int) off, (int) (off + len)), keys));
    } catch (IOException e) {
      throw new IllegalStateException(e); // no I/O on a byte[]
    }
  }

  @Override
  public ShardedFilter wrap(ByteBuffer payload, long numKeys) {
    ByteBuffer b = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
    Table t = readTable(b, b.remaining());
    checkPadding(b, t);
    try {
      return assemble(
          t,
          (codec, off, len, keys) ->
              codec.wrap(b.duplicate().position((int) off).limit((int) (off + len)).slice(), keys));
    } catch (IOException e) {
      throw new IllegalStateException(e); // no I/O on a buffer
    }
  }

  @Override
  public ShardedFilter mapLarge(
      FileChannel channel, long payloadOffset, long payloadLength, int shift, long numKeys)
      throws IOException {
    // the checks report payload-relative offsets, as read() and wrap() do; a mapped file's
    // errors name file offsets, as the other types' mapLarge do
    try {
      return mapShards(channel, payloadOffset, payloadLength, shift);
    } catch (SieveFormatException e) {
      throw new SieveFormatException(payloadOffset + e.offset(), e.getMessage(), e);
    }
  }

  private ShardedFilter mapShards(
      FileChannel channel, long payloadOffset, long payloadLength, int shift) throws IOException {
    int headBytes =
        (int) Math.min(payloadLength, TABLE_OFFSET + (long) ENTRY_BYTES * ShardedFilter.MAX_SHARDS);
    ByteBuffer head = ChannelReads.readSmall(channel, payloadOffset, headBytes);
    Table t = readTable(head, payloadLength);
    long at = TABLE_OFFSET + (long) ENTRY_BYTES * t.offsets.length;
    for (int i = 0; i < t.offsets.length; i++) {
      int pad = (int) (t.offsets[i] - at);
      ByteBuffer padding = ChannelReads.readSmall(channel, payloadOffset + at, pad);
      for (int p = 0; p < pad; p++) {
        if (padding.get(p) != 0) {
          throw new SieveFormatException(at + p, "padding byte before shard " + i + " is not zero");
        }
      }
      at = t.offsets[i] + t.lengths[i];
    }
    return assemble(
        t,
        (codec, off, len, keys) -> {
          if (len <= MAX_ARRAY_PAYLOAD) {
            return codec.wrap(
                channel.map(FileChannel.MapMode.READ_ONLY, payloadOffset + off, len), keys);
          }
          try {
            return codec.mapLarge(channel, payloadOffset + off, len, shift, keys);
          } catch (SieveFormatException e) {
            // mapLarge names file offsets: make it shard-relative, as decodeShard expects
            throw new SieveFormatException(e.offset() - payloadOffset - off, e.getMessage(), e);
          }
        });
  }
}
