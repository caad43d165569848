package dev.sieve.orc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.interop.OrcBloomFilter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Hostile headers, written byte by byte with this test's own protobuf encoder (independent of
 * ProtoReader): every one is a {@link SieveFormatException} naming the field and the limit, before
 * any allocation the field sizes.
 */
class CraftedOrcTest {

  /** A tiny protobuf writer: tags and varints as the wire format defines them. */
  static final class Proto {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Proto varint(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    Proto field(int number, long value) {
      return varint((long) number << 3).varint(value);
    }

    Proto bytes(int number, byte[] b) {
      varint(((long) number << 3) | 2).varint(b.length);
      out.write(b, 0, b.length);
      return this;
    }

    Proto fixed64(int number, long v) {
      varint(((long) number << 3) | 1);
      for (int i = 0; i < 8; i++) {
        out.write((int) (v >>> (8 * i)));
      }
      return this;
    }

    byte[] toBytes() {
      return out.toByteArray();
    }
  }

  /** An ORC file: magic, {@code body}, the footer bytes, a PostScript, its length. */
  static byte[] file(byte[] body, byte[] footer, byte[] postScript) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("ORC".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(body);
    out.writeBytes(footer);
    out.writeBytes(postScript);
    out.write(postScript.length);
    return out.toByteArray();
  }

  static byte[] postScript(long footerLength, int compression) {
    return new Proto()
        .field(1, footerLength)
        .field(2, compression)
        .field(3, 262144)
        .bytes(8000, "ORC".getBytes(StandardCharsets.US_ASCII))
        .toBytes();
  }

  static String fails(byte[] bytes) {
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> OrcFile.of(bytes));
    assertTrue(e.offset() >= 0);
    return e.getMessage();
  }

  @Test
  void aMinimalFileReads() {
    byte[] footer =
        new Proto()
            .bytes(4, new Proto().field(1, 12).field(2, 1).bytes(3, "a".getBytes()).toBytes())
            .bytes(4, new Proto().field(1, 4).toBytes())
            .field(6, 0)
            .field(8, 10000)
            .toBytes();
    OrcFile f = OrcFile.of(file(new byte[0], footer, postScript(footer.length, 0)));
    assertEquals(2, f.columns().size());
    assertEquals("a", f.columns().get(1).name());
    assertEquals(OrcFile.Kind.LONG, f.column("a").kind());
  }

  @Test
  void truncatedAndBadTails() {
    assertTrue(fails(new byte[] {'O', 'R'}).contains("too short"));
    assertTrue(fails("XYZ\0\0".getBytes(StandardCharsets.US_ASCII)).contains("magic"));
    // the PostScript length byte claims more than the file holds
    byte[] ps = postScript(0, 0);
    byte[] f = file(new byte[0], new byte[0], ps);
    f[f.length - 1] = (byte) 200;
    assertTrue(fails(f).contains("PostScript length 200"), fails(f));
    // a truncated PostScript: its last field cut
    byte[] cut = java.util.Arrays.copyOf(ps, ps.length - 2);
    String m = fails(file(new byte[0], new byte[0], cut));
    assertTrue(m.contains("PostScript"), m);
    assertTrue(fails(file(new byte[0], new byte[0], new byte[] {0})).contains("field tag"));
  }

  @Test
  void hugeLengthsAreRefusedBeforeAllocation() {
    String m = fails(file(new byte[0], new byte[0], postScript(1L << 40, 0)));
    assertTrue(m.contains("footerLength") && m.contains("outside"), m);
    m = fails(file(new byte[0], new byte[0], postScript(1000, 0)));
    assertTrue(m.contains("footerLength 1000 exceeds"), m);
    // a compression block size over the limit
    byte[] ps = new Proto().field(1, 0).field(2, 1).field(3, 1L << 31).toBytes();
    m = fails(file(new byte[0], new byte[0], ps));
    assertTrue(m.contains("compressionBlockSize"), m);
    // an unknown compression kind
    m = fails(file(new byte[0], new byte[0], postScript(0, 99)));
    assertTrue(m.contains("compression 99 outside"), m);
    // a footer whose nested Type claims a length past its bytes
    byte[] footer = new Proto().varint((4 << 3) | 2).varint(1L << 33).toBytes();
    m = fails(file(new byte[0], footer, postScript(footer.length, 0)));
    assertTrue(m.contains("Type length") && m.contains("exceeds"), m);
    // a ZLIB footer whose chunk header claims more than there is
    byte[] chunk = {(byte) 0xFE, (byte) 0xFF, 0x7F, 1, 2};
    m = fails(file(new byte[0], chunk, postScript(chunk.length, 1)));
    assertTrue(m.contains("chunk length"), m);
    // a stored chunk larger than the block size
    byte[] ps2 = new Proto().field(1, 12).field(2, 1).field(3, 4).toBytes();
    byte[] stored = {(byte) ((9 << 1) | 1), 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    m = fails(file(new byte[0], stored, ps2));
    assertTrue(m.contains("exceeds the block size"), m);
  }

  @Test
  void negativeAndCyclicCountsAreRefused() {
    // a stripe offset as a 10-byte varint of -1
    byte[] stripe = new Proto().field(1, -1L).toBytes();
    byte[] footer = new Proto().bytes(3, stripe).toBytes();
    String m = fails(file(new byte[0], footer, postScript(footer.length, 0)));
    assertTrue(m.contains("offset") && m.contains("outside"), m);
    // a type naming itself as its child
    byte[] types = new Proto().bytes(4, new Proto().field(1, 12).field(2, 0).toBytes()).toBytes();
    m = fails(file(new byte[0], types, postScript(types.length, 0)));
    assertTrue(m.contains("names child 0"), m);
    // a stripe past the file's data
    byte[] far =
        new Proto()
            .bytes(3, new Proto().field(1, 3).field(2, 10).field(3, 1L << 40).field(4, 5).toBytes())
            .toBytes();
    m = fails(file(new byte[0], far, postScript(far.length, 0)));
    assertTrue(m.contains("leaves the file"), m);
  }

  @Test
  void hostileBloomFilterMessages() {
    // numHashFunctions over the limit, zero, and a 10-byte -1
    for (long k : new long[] {OrcBloomFilter.MAX_PROBES + 1L, 0, -1L}) {
      byte[] msg = new Proto().field(1, k).fixed64(2, 1).toBytes();
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class,
              () -> OrcStripeIndex.bloomFilter(new ProtoReader(msg, 0, msg.length, 0, "B"), false));
      assertTrue(e.getMessage().contains("numHashFunctions"), e.getMessage());
    }
    // a utf8bitset that is not whole words, and one whose length runs past the message
    byte[] odd = new Proto().field(1, 3).bytes(3, new byte[13]).toBytes();
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> OrcStripeIndex.bloomFilter(new ProtoReader(odd, 0, odd.length, 0, "B"), true));
    assertTrue(e.getMessage().contains("whole number of 64-bit words"), e.getMessage());
    byte[] huge = new Proto().field(1, 3).varint((3 << 3) | 2).varint(Integer.MAX_VALUE).toBytes();
    e =
        assertThrows(
            SieveFormatException.class,
            () -> OrcStripeIndex.bloomFilter(new ProtoReader(huge, 0, huge.length, 0, "B"), true));
    assertTrue(e.getMessage().contains("utf8bitset length"), e.getMessage());
    // no words at all, and a group (wire type 3)
    byte[] none = new Proto().field(1, 3).toBytes();
    assertThrows(
        SieveFormatException.class,
        () -> OrcStripeIndex.bloomFilter(new ProtoReader(none, 0, none.length, 0, "B"), false));
    byte[] group = {(byte) ((2 << 3) | 3)};
    e =
        assertThrows(
            SieveFormatException.class,
            () -> OrcStripeIndex.bloomFilter(new ProtoReader(group, 0, 1, 0, "B"), false));
    assertTrue(e.getMessage().contains("wire type 3"), e.getMessage());
  }
}
