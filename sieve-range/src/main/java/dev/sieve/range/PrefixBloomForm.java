package dev.sieve.range;

import dev.sieve.KeyScheme;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.internal.PayloadForm;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The prefix-Bloom range filter's serialized form, the container's payload for {@link
 * PrefixBloomRangeFilter} ({@link Payload}).
 *
 * <p>Little-endian: byte 0 the type tag {@code 0x50}, byte 1 the version ({@value #VERSION}), byte
 * 2 the top level {@code T} (0 to 62), bytes 3-7 reserved (0); bytes 8-15 the distinct keys {@code
 * n}, 16-23 the Bloom entries (distinct level prefixes, {@code n ≤ entries ≤ n·(T + 1)}), 24-31 the
 * seed; then the blocked Bloom filter as a RocksDB FastLocalBloom filter block (its data, then its
 * 5-byte trailer), read by {@link BlockedBloomFilter}'s own checks. Read in place from a buffer.
 */
final class PrefixBloomForm {
  static final int TYPE_TAG = 0x50;
  static final int VERSION = 1;
  static final int HEADER_BYTES = 32;

  /** The most keys a form may claim: far above what one array of prefixes holds. */
  static final long MAX_KEYS = 1L << 40;

  private PrefixBloomForm() {}

  static byte[] write(PrefixBloomRangeFilter f) {
    byte[] block = f.bloom.toRocksDbFilterBlock();
    ByteBuffer out =
        ByteBuffer.allocate(HEADER_BYTES + block.length).order(ByteOrder.LITTLE_ENDIAN);
    out.put((byte) TYPE_TAG).put((byte) VERSION).put((byte) f.topLevel);
    out.put(new byte[5]);
    out.putLong(f.numKeys).putLong(f.bloom.numKeys()).putLong(f.seed);
    out.put(block);
    return out.array();
  }

  static PrefixBloomRangeFilter read(ByteBuffer in, boolean wrap) {
    ByteBuffer b = in.slice().order(ByteOrder.LITTLE_ENDIAN);
    int len = b.remaining();
    if (len < HEADER_BYTES) {
      throw new SieveFormatException(
          len,
          "a prefix-Bloom payload of "
              + len
              + " bytes is shorter than its "
              + HEADER_BYTES
              + "-byte header");
    }
    if ((b.get(0) & 0xFF) != TYPE_TAG) {
      throw new SieveFormatException(0, "type tag " + (b.get(0) & 0xFF) + " is not 0x50");
    }
    if (b.get(1) != VERSION) {
      throw new SieveFormatException(1, "version " + b.get(1) + " is not " + VERSION);
    }
    int t = b.get(2);
    if (t < 0 || t > 62) {
      throw new SieveFormatException(2, "top level " + t + " is outside [0, 62]");
    }
    for (int i = 3; i < 8; i++) {
      if (b.get(i) != 0) {
        throw new SieveFormatException(i, "reserved bytes 3-7 are not 0");
      }
    }
    long n = b.getLong(8);
    long entries = b.getLong(16);
    long seed = b.getLong(24);
    if (n < 0 || n > MAX_KEYS) {
      throw new SieveFormatException(8, "keys " + n + " is outside [0, 2^40]");
    }
    if (entries < n || entries > n * (t + 1)) {
      throw new SieveFormatException(
          16,
          "entries "
              + entries
              + " is outside [keys, keys·(T + 1)] = ["
              + n
              + ", "
              + n * (t + 1)
              + "]");
    }
    ByteBuffer block = b.duplicate().position(HEADER_BYTES).slice();
    BlockedBloomFilter bloom;
    try {
      if (wrap) {
        bloom = BlockedBloomFilter.wrapRocksDbFilterBlock(block, entries);
      } else {
        byte[] copy = new byte[block.remaining()];
        block.get(copy);
        bloom = BlockedBloomFilter.fromRocksDbFilterBlock(copy, entries);
      }
    } catch (SieveFormatException e) {
      throw new SieveFormatException(
          HEADER_BYTES + e.offset(), "the Bloom block: " + e.getMessage(), e);
    }
    if (n > 0 && bloom.numBlocks() == 0) {
      throw new SieveFormatException(HEADER_BYTES, n + " keys but an empty Bloom block");
    }
    return new PrefixBloomRangeFilter(bloom, n, t, seed, KeyScheme.XXPH3);
  }

  /** The container's form of {@link PrefixBloomRangeFilter}, type id 21. */
  static final class Payload extends PayloadForm<PrefixBloomRangeFilter> {
    Payload() {
      super(PrefixBloomRangeFilter.class);
    }

    @Override
    public byte[] payload(PrefixBloomRangeFilter f) {
      return write(f);
    }

    @Override
    public int parameterA(PrefixBloomRangeFilter f) {
      return f.topLevel;
    }

    @Override
    public int parameterB(PrefixBloomRangeFilter f) {
      return f.bloom.numBlocks() == 0 ? 0 : f.bloom.numProbes();
    }

    @Override
    public PrefixBloomRangeFilter read(byte[] payload, long numKeys) {
      return PrefixBloomForm.read(ByteBuffer.wrap(payload), false);
    }

    @Override
    public PrefixBloomRangeFilter wrap(ByteBuffer payload, long numKeys) {
      return PrefixBloomForm.read(payload, true);
    }

    @Override
    public boolean zeroCopy() {
      return true;
    }
  }
}
