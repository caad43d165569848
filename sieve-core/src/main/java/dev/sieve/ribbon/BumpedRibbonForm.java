package dev.sieve.ribbon;

import static dev.sieve.ribbon.BumpedRibbonFilter.MAX_BLOCKS;
import static dev.sieve.ribbon.BumpedRibbonFilter.MAX_LAYERS;
import static dev.sieve.ribbon.BumpedRibbonFilter.VERSION;
import static dev.sieve.ribbon.BumpedRibbonKernel.layerSeed;
import static dev.sieve.ribbon.BumpedRibbonKernel.metaWords;

import dev.sieve.SieveFormatException;
import dev.sieve.internal.PayloadForm;
import dev.sieve.ribbon.BumpedRibbonKernel.Layer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The payload of {@link BumpedRibbonFilter}: its length, writing ({@link #toBytes}) and reading,
 * copied onto the heap or in place ({@link #read}), every field checked once, before anything is
 * allocated from it.
 *
 * <h2>Layout (the payload, all integers little-endian)</h2>
 *
 * <pre>
 * offset 0   u8   payload version (1)
 * offset 1   u8   T1, offset 2 u8 T2: the middle thresholds, 0 &lt; T1 &lt; T2 &lt; 128
 * offset 3   u8   number of layers L (0 for the empty filter, else 1..MAX_LAYERS)
 * offset 4   u32  reserved, 0
 * offset 8   i64  seed
 * offset 16  i64  number of keys (≥ 0; 0 exactly when L = 0)
 * offset 24  L × (i32 number of blocks B ≥ 2, i32 number of 16-byte segments, B..32·B)
 * then per layer: ceil(B / 32) metadata words (2 bits per block, block b at bits 2(b % 32) of word
 *            b / 32; unused bits 0; all 0 in the last layer), then the segments (two words each,
 *            low half first) in Standard Ribbon's interleaved order
 * </pre>
 *
 * The payload is at most one Java array (just under 2 GiB: about 2·10^9 keys at 7 bits), read
 * copied ({@link BumpedRibbonFilter#fromByteArray}) or in place ({@link BumpedRibbonFilter#wrap}).
 */
final class BumpedRibbonForm {

  private static final int HEADER_BYTES = 24;
  private static final int LAYER_DESCRIPTOR_BYTES = 8;

  private BumpedRibbonForm() {}

  /**
   * The length of the payload of these layers (see {@link BumpedRibbonFilter#serializedLength}).
   */
  static long serializedLength(Layer[] layers) {
    long len = HEADER_BYTES + (long) LAYER_DESCRIPTOR_BYTES * layers.length;
    for (Layer l : layers) {
      len += 8L * metaWords(l.numBlocks) + 16L * l.numSegments;
    }
    return len;
  }

  /** The payload of a filter (see {@link BumpedRibbonFilter#toByteArray}). */
  static byte[] toBytes(int t1, int t2, long seed, long numKeys, Layer[] layers) {
    long len = serializedLength(layers);
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException(
          "a Bumped Ribbon payload of " + len + " bytes does not fit one byte[]");
    }
    ByteBuffer b = ByteBuffer.allocate((int) len).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) VERSION).put((byte) t1).put((byte) t2).put((byte) layers.length).putInt(0);
    b.putLong(seed).putLong(numKeys);
    for (Layer l : layers) {
      b.putInt(l.numBlocks).putInt(l.numSegments);
    }
    for (Layer l : layers) {
      for (int i = 0; i < metaWords(l.numBlocks); i++) {
        b.putLong(l.metaWord(i));
      }
      for (int i = 0; i < 2 * l.numSegments; i++) {
        b.putLong(l.word(i));
      }
    }
    return b.array();
  }

  /**
   * Every field is checked before anything is allocated from it; a {@link SieveFormatException}
   * names the offset, the problem and the limit.
   */
  static BumpedRibbonFilter read(ByteBuffer in, boolean inPlace) {
    ByteBuffer b = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int len = b.remaining();
    if (len < HEADER_BYTES) {
      throw new SieveFormatException(
          len, "truncated: " + len + " bytes, a Bumped Ribbon payload has at least 24");
    }
    int version = b.get(0) & 0xFF;
    if (version != VERSION) {
      throw new SieveFormatException(
          0, "unknown Bumped Ribbon payload version " + version + " (only 1 is defined)");
    }
    int t1 = b.get(1) & 0xFF;
    int t2 = b.get(2) & 0xFF;
    if (!(0 < t1 && t1 < t2 && t2 < 128)) {
      throw new SieveFormatException(
          1, "thresholds " + t1 + ", " + t2 + " are not 0 < T1 < T2 < 128");
    }
    int numLayers = b.get(3) & 0xFF;
    if (numLayers > MAX_LAYERS) {
      throw new SieveFormatException(
          3, "number of layers " + numLayers + " is more than " + MAX_LAYERS);
    }
    if (b.getInt(4) != 0) {
      throw new SieveFormatException(4, "reserved bytes 4..7 are not zero");
    }
    long seed = b.getLong(8);
    long numKeys = b.getLong(16);
    if (numKeys < 0) {
      throw new SieveFormatException(16, "number of keys " + numKeys + " is negative");
    }
    if ((numKeys == 0) != (numLayers == 0)) {
      throw new SieveFormatException(
          3,
          numLayers
              + " layers for "
              + numKeys
              + " keys (a filter has layers exactly when it has keys)");
    }
    long at = HEADER_BYTES + (long) LAYER_DESCRIPTOR_BYTES * numLayers;
    if (at > len) {
      throw new SieveFormatException(
          len, "truncated: " + numLayers + " layer descriptors need " + at + " bytes");
    }
    int[] blocks = new int[numLayers];
    int[] segments = new int[numLayers];
    long expected = at;
    for (int i = 0; i < numLayers; i++) {
      int d = HEADER_BYTES + LAYER_DESCRIPTOR_BYTES * i;
      int nb = b.getInt(d);
      int ns = b.getInt(d + 4);
      if (nb < 2 || nb > MAX_BLOCKS) {
        throw new SieveFormatException(
            d, "layer " + i + ": number of blocks " + nb + " is not in [2, " + MAX_BLOCKS + "]");
      }
      if (ns < nb || ns > 32L * nb) {
        throw new SieveFormatException(
            d + 4,
            "layer "
                + i
                + ": "
                + ns
                + " segments over "
                + nb
                + " blocks is not 1 to 32 result columns per block");
      }
      blocks[i] = nb;
      segments[i] = ns;
      expected += 8L * metaWords(nb) + 16L * ns;
      if (expected > len) {
        throw new SieveFormatException(
            len,
            "truncated: the layers need at least " + expected + " bytes, the payload has " + len);
      }
    }
    if (expected != len) {
      throw new SieveFormatException(
          expected, "payload is " + len + " bytes, its layers describe exactly " + expected);
    }
    Layer[] layers = new Layer[numLayers];
    int off = (int) at;
    for (int i = 0; i < numLayers; i++) {
      int nb = blocks[i];
      int words = metaWords(nb);
      for (int w = 0; w < words; w++) {
        long word = b.getLong(off + 8 * w);
        int used = Math.min(32, nb - 32 * w);
        long unusedMask = used == 32 ? 0L : -1L << (2 * used);
        if ((word & unusedMask) != 0) {
          throw new SieveFormatException(
              off + 8 * w, "layer " + i + ": metadata bits past block " + (nb - 1) + " are set");
        }
        if (i == numLayers - 1 && word != 0) {
          throw new SieveFormatException(
              off + 8 * w, "the last layer bumps keys (nonzero threshold) but no layer follows it");
        }
      }
      long ls = layerSeed(seed, i);
      if (inPlace) {
        layers[i] = new Layer(ls, nb, segments[i], b, off);
      } else {
        long[] meta = new long[words];
        for (int w = 0; w < words; w++) {
          meta[w] = b.getLong(off + 8 * w);
        }
        int dataAt = off + 8 * words;
        int ns = segments[i];
        int upper = (int) (((long) ns + nb - 1) / nb);
        long[] data = new long[RibbonProbe.paddedWords(ns, upper)];
        for (int w = 0; w < 2 * ns; w++) {
          data[w] = b.getLong(dataAt + 8 * w);
        }
        layers[i] = new Layer(ls, nb, ns, meta, data);
      }
      off += 8 * words + 16 * segments[i];
    }
    return new BumpedRibbonFilter(seed, numKeys, t1, t2, layers);
  }

  /**
   * The container's payload form (type id 10): this format; parameter A the number of layers, B the
   * number of blocks of layer 0 (0 for the empty filter). Read in place (up to one buffer's 2 GiB).
   * Registered by {@link RibbonFamily}.
   */
  static PayloadForm<BumpedRibbonFilter> payloadForm() {
    return PayloadForm.inPlace(
        BumpedRibbonFilter.class,
        BumpedRibbonFilter::toByteArray,
        BumpedRibbonFilter::numLayers,
        f -> f.numLayers() == 0 ? 0 : f.numBlocks(0),
        (payload, numKeys) -> read(ByteBuffer.wrap(payload), false),
        (payload, numKeys) -> read(payload.slice(), true));
  }
}
