package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MANIFEST reader on crafted logs: written here by an independent encoder of RocksDB's log
 * format and VersionEdit tags (db/log_writer.cc, db/version_edit.cc EncodeTo), then replayed; and
 * corrupted, truncated and hostile inputs, each refused with a message naming the problem.
 */
class ManifestTest {

  // ------------------------------------------------------------ an encoder, for tests only

  /** A log writer: 32 KiB blocks, 7-byte headers (11 with {@code recyclable}), masked CRC32C. */
  static final class Log {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final boolean recyclable;
    final int logNumber;

    Log(boolean recyclable, int logNumber) {
      this.recyclable = recyclable;
      this.logNumber = logNumber;
    }

    Log() {
      this(false, 0);
    }

    Log add(byte[] payload) {
      int header = recyclable ? 11 : 7;
      int pos = 0;
      boolean begin = true;
      do {
        int left = LogReader.BLOCK_SIZE - out.size() % LogReader.BLOCK_SIZE;
        if (left < header) {
          out.write(new byte[left], 0, left);
          left = LogReader.BLOCK_SIZE;
        }
        int avail = left - header;
        int n = Math.min(avail, payload.length - pos);
        boolean end = pos + n == payload.length;
        int type = begin && end ? 1 : begin ? 2 : end ? 4 : 3;
        physical(recyclable ? type + 4 : type, payload, pos, n);
        pos += n;
        begin = false;
      } while (pos < payload.length);
      return this;
    }

    void physical(int type, byte[] p, int off, int n) {
      int header = recyclable ? 11 : 7;
      byte[] h = new byte[header];
      h[4] = (byte) n;
      h[5] = (byte) (n >>> 8);
      h[6] = (byte) type;
      if (recyclable) {
        LittleEndian.putI32(h, 7, logNumber);
      }
      CRC32C crc = new CRC32C();
      crc.update(h, 6, header - 6);
      crc.update(p, off, n);
      LittleEndian.putI32(h, 0, LogReader.mask((int) crc.getValue()));
      out.write(h, 0, header);
      out.write(p, off, n);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  /** A VersionEdit encoder. */
  static final class Edit {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Edit varint(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    Edit bytes(byte[] b) {
      varint(b.length);
      out.write(b, 0, b.length);
      return this;
    }

    Edit string(String s) {
      return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    Edit tag(int t) {
      return varint(t);
    }

    Edit comparator(String name) {
      return tag(Manifest.TAG_COMPARATOR).string(name);
    }

    Edit cf(int id) {
      return tag(Manifest.TAG_COLUMN_FAMILY).varint(id);
    }

    Edit addCf(String name) {
      return tag(Manifest.TAG_COLUMN_FAMILY_ADD).string(name);
    }

    Edit dropCf() {
      return tag(Manifest.TAG_COLUMN_FAMILY_DROP);
    }

    Edit newFile4(int level, long number, long size, String smallest, String largest) {
      tag(Manifest.TAG_NEW_FILE4).varint(level).varint(number).varint(size);
      bytes(internalKey(smallest, 10)).bytes(internalKey(largest, 20));
      varint(10).varint(20);
      // custom fields: epoch number, a creation time, then terminate
      tag(Manifest.CUSTOM_EPOCH_NUMBER).bytes(new Edit().varint(number).bytes());
      tag(6).bytes(new byte[] {1});
      return tag(Manifest.CUSTOM_TERMINATE);
    }

    Edit deleteFile(int level, long number) {
      return tag(Manifest.TAG_DELETED_FILE).varint(level).varint(number);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  static byte[] internalKey(String user, long seq) {
    byte[] u = user.getBytes(StandardCharsets.UTF_8);
    byte[] k = Arrays.copyOf(u, u.length + 8);
    long packed = seq << 8 | 1;
    for (int i = 0; i < 8; i++) {
      k[u.length + i] = (byte) (packed >>> (8 * i));
    }
    return k;
  }

  /** An edit with the entries RocksDB requires in a MANIFEST: log, next file, last sequence. */
  static byte[] required() {
    return new Edit()
        .tag(Manifest.TAG_LOG_NUMBER)
        .varint(4)
        .tag(Manifest.TAG_NEXT_FILE_NUMBER)
        .varint(100)
        .tag(Manifest.TAG_LAST_SEQUENCE)
        .varint(99)
        .bytes();
  }

  static Manifest parse(byte[] log) {
    return Manifest.parse("MANIFEST-000001", log);
  }

  static byte[] base() {
    return new Log()
        .add(
            new Edit()
                .comparator("leveldb.BytewiseComparator")
                .tag(Manifest.TAG_LOG_NUMBER)
                .varint(4)
                .tag(3)
                .varint(10)
                .bytes())
        .add(new Edit().cf(1).addCf("users").comparator("leveldb.BytewiseComparator").bytes())
        .add(
            new Edit()
                .newFile4(0, 7, 1000, "a", "m")
                .newFile4(1, 5, 2000, "b", "z")
                .tag(Manifest.TAG_LAST_SEQUENCE)
                .varint(99)
                .bytes())
        .add(new Edit().cf(1).newFile4(2, 8, 3000, "k1", "k9").bytes())
        .bytes();
  }

  // ------------------------------------------------------------ replay

  @Test
  void replaysColumnFamiliesFilesLevelsAndKeyRanges() {
    Manifest m = parse(base());
    assertEquals(
        List.of("default", "users"),
        m.columnFamilies().values().stream().map(Manifest.ColumnFamily::name).toList());
    assertEquals("leveldb.BytewiseComparator", m.columnFamilies().get(1).comparator());
    assertEquals(3, m.liveFiles().size());
    Manifest.LiveFile f = m.liveFiles().get(0);
    assertEquals(0, f.columnFamily());
    assertEquals(0, f.level());
    assertEquals(7, f.number());
    assertEquals("000007.sst", f.fileName());
    assertEquals(1000, f.fileSize());
    assertArrayEquals("a".getBytes(StandardCharsets.UTF_8), f.smallestUserKey());
    assertArrayEquals("m".getBytes(StandardCharsets.UTF_8), f.largestUserKey());
    assertEquals(7, f.epochNumber());
    assertEquals(20, f.largestSeqno());
    assertEquals(1, m.liveFiles().get(2).columnFamily());
    assertEquals(2, m.liveFiles().get(2).level());
    assertEquals(99, m.lastSequence());
    assertEquals(10, m.nextFileNumber());
    assertEquals(4, m.edits());
    assertNull(m.note());
  }

  @Test
  void deletionsMovesAndDropsApply() {
    byte[] b = base();
    // re-encode: the base edits, then a trivial move of file 5 from L1 to L3 and a drop of users
    Manifest before = parse(b);
    assertEquals(3, before.liveFiles().size());
    byte[] more =
        new Log()
            .add(new Edit().deleteFile(1, 5).newFile4(3, 5, 2000, "b", "z").bytes())
            .add(new Edit().deleteFile(0, 7).bytes())
            .add(new Edit().cf(1).dropCf().bytes())
            .bytes();
    byte[] all = concatLogs(b, more);
    Manifest m = parse(all);
    assertEquals(
        List.of("default"),
        m.columnFamilies().values().stream().map(Manifest.ColumnFamily::name).toList());
    assertEquals(1, m.liveFiles().size());
    assertEquals(3, m.liveFiles().get(0).level());
    assertEquals(5, m.liveFiles().get(0).number());
  }

  /** Appends the second log's records after the first's (re-encoded, so blocks stay aligned). */
  static byte[] concatLogs(byte[] a, byte[] b) {
    Log out = new Log();
    for (LogReader.Record r : LogReader.read(a).records()) {
      out.add(r.payload());
    }
    for (LogReader.Record r : LogReader.read(b).records()) {
      out.add(r.payload());
    }
    return out.bytes();
  }

  @Test
  void recordsSpanningBlocksAreReassembled() {
    Edit big = new Edit();
    for (int i = 0; i < 2000; i++) { // ~2000 × 45 bytes: three 32 KiB blocks
      big.newFile4(1 + i % 3, 100 + i, 5000, String.format("k%05d", i), String.format("k%05da", i));
    }
    byte[] log =
        new Log()
            .add(new Edit().comparator("leveldb.BytewiseComparator").bytes())
            .add(big.bytes())
            .add(required())
            .bytes();
    assertTrue(log.length > 2 * LogReader.BLOCK_SIZE);
    Manifest m = parse(log);
    assertEquals(2000, m.liveFiles().size());
    assertEquals(3, m.edits());
  }

  @Test
  void recyclableRecordsAreReadAndStaleOnesEndTheLog() {
    byte[] fresh = concatRecyclable(base(), 42);
    assertEquals(3, parse(fresh).liveFiles().size());
    // a record of the file's previous life (another log number) ends the log, as in RocksDB
    Log stale = new Log(true, 41);
    for (LogReader.Record r :
        LogReader.read(new Log().add(new Edit().deleteFile(0, 7).bytes()).bytes()).records()) {
      stale.add(r.payload());
    }
    byte[] both = new byte[fresh.length + stale.bytes().length];
    System.arraycopy(fresh, 0, both, 0, fresh.length);
    System.arraycopy(stale.bytes(), 0, both, fresh.length, stale.bytes().length);
    assertEquals(3, parse(both).liveFiles().size(), "the stale deletion was not applied");
  }

  static byte[] concatRecyclable(byte[] plainLog, int logNumber) {
    Log out = new Log(true, logNumber);
    for (LogReader.Record r : LogReader.read(plainLog).records()) {
      out.add(r.payload());
    }
    return out.bytes();
  }

  @Test
  void safeToIgnoreTagsAreSkippedAndUnknownRequiredTagsRefused() {
    byte[] ignorable =
        new Log()
            .add(required())
            .add(
                new Edit()
                    .tag(Manifest.TAG_SAFE_IGNORE_MASK + 500)
                    .bytes(new byte[] {1, 2, 3})
                    .tag(Manifest.TAG_DB_ID)
                    .string("db-id")
                    .newFile4(1, 9, 10, "a", "b")
                    .bytes())
            .bytes();
    assertEquals(1, parse(ignorable).liveFiles().size());
    byte[] required = new Log().add(new Edit().tag(8).varint(1).bytes()).bytes();
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> parse(required));
    assertTrue(e.getMessage().contains("unknown VersionEdit tag 8"), e.getMessage());
  }

  @Test
  void newFile4CustomFields() {
    Edit e = new Edit();
    e.tag(Manifest.TAG_NEW_FILE4).varint(1).varint(9).varint(10);
    e.bytes(internalKey("a", 1)).bytes(internalKey("b", 2)).varint(1).varint(2);
    e.tag(40).bytes(new byte[] {9, 9}); // unknown, safe to ignore (bit 6 clear)
    e.tag(Manifest.CUSTOM_PATH_ID).bytes(new byte[] {2});
    e.tag(Manifest.CUSTOM_TERMINATE);
    Manifest m = parse(new Log().add(required()).add(e.bytes()).bytes());
    assertEquals(2, m.liveFiles().get(0).pathId());

    Edit bad = new Edit();
    bad.tag(Manifest.TAG_NEW_FILE4).varint(1).varint(9).varint(10);
    bad.bytes(internalKey("a", 1)).bytes(internalKey("b", 2)).varint(1).varint(2);
    bad.tag(64 + 30).bytes(new byte[] {1});
    bad.tag(Manifest.CUSTOM_TERMINATE);
    SieveFormatException x =
        assertThrows(SieveFormatException.class, () -> parse(new Log().add(bad.bytes()).bytes()));
    assertTrue(x.getMessage().contains("not safe to ignore"), x.getMessage());
  }

  // ------------------------------------------------------------ corruption

  @Test
  void aFlippedByteIsAChecksumMismatchNamingTheOffset() {
    byte[] log = base();
    log[20] ^= 0x10;
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> parse(log));
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    assertEquals(0, e.offset());
  }

  @Test
  void aTruncatedTailIsIgnoredWithANoteAsRocksDbDoes() {
    byte[] log = base();
    Manifest whole = parse(log);
    Manifest cut = parse(Arrays.copyOf(log, log.length - 3));
    assertEquals(whole.edits() - 1, cut.edits());
    assertNotNull(cut.note());
    assertTrue(cut.note().contains("cut short"), cut.note());
    List<LogReader.Record> records = LogReader.read(log).records();
    long last = records.get(records.size() - 1).offset();
    Manifest header = parse(Arrays.copyOf(log, (int) last + 3)); // inside the last header
    assertEquals(whole.edits() - 1, header.edits());
    assertTrue(header.note().contains("truncated record header"), header.note());
  }

  @Test
  void hugeAndImpossibleLengthsAreClearErrors() {
    // a record length past its block, not at the end of the file
    byte[] log = new byte[LogReader.BLOCK_SIZE + 100];
    byte[] first = new Log().add(new byte[] {1}).bytes();
    System.arraycopy(first, 0, log, 0, first.length);
    log[first.length + 4] = (byte) 0xFF;
    log[first.length + 5] = (byte) 0xFF;
    log[first.length + 6] = 1;
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> LogReader.read(log));
    assertTrue(e.getMessage().contains("overruns its 32 KiB block"), e.getMessage());

    // a string length of 2^32 - 1 inside an edit
    byte[] edit = new Edit().tag(Manifest.TAG_COMPARATOR).varint(0xFFFFFFFFL).bytes();
    SieveFormatException s =
        assertThrows(SieveFormatException.class, () -> parse(new Log().add(edit).bytes()));
    assertTrue(s.getMessage().contains("bytes needed"), s.getMessage());

    // a 10-byte varint64 overflowing 64 bits
    byte[] over = new Edit().tag(Manifest.TAG_LAST_SEQUENCE).bytes();
    byte[] v = Arrays.copyOf(over, over.length + 10);
    Arrays.fill(v, over.length, v.length, (byte) 0xFF);
    assertThrows(SieveFormatException.class, () -> parse(new Log().add(v).bytes()));

    // a level beyond any tree
    byte[] lv = new Edit().deleteFile(5000, 1).bytes();
    SieveFormatException l =
        assertThrows(SieveFormatException.class, () -> parse(new Log().add(lv).bytes()));
    assertTrue(l.getMessage().contains("level 5000"), l.getMessage());
  }

  @Test
  void fragmentsOutOfOrderAndUnknownRecordTypesAreRefused() {
    Log l = new Log();
    l.physical(LogReader.MIDDLE, new byte[] {1, 2}, 0, 2);
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> LogReader.read(l.bytes()));
    assertTrue(e.getMessage().contains("without a FIRST"), e.getMessage());

    Log u = new Log();
    u.physical(12, new byte[] {1}, 0, 1);
    e = assertThrows(SieveFormatException.class, () -> LogReader.read(u.bytes()));
    assertTrue(e.getMessage().contains("unknown log record type 12"), e.getMessage());

    Log ignorable = new Log();
    ignorable.physical(LogReader.SAFE_IGNORE_MASK | 20, new byte[] {1}, 0, 1);
    ignorable.add(new Edit().newFile4(1, 3, 1, "a", "b").bytes()).add(required());
    assertEquals(1, parse(ignorable.bytes()).liveFiles().size());
  }

  @Test
  void anEmptyManifestOrAFileOfZerosIsRefused() {
    assertThrows(SieveFormatException.class, () -> parse(new byte[0]));
    assertThrows(SieveFormatException.class, () -> parse(new byte[70_000]));
  }

  @Test
  void currentPointsToTheManifest(@TempDir Path dir) throws Exception {
    assertThrows(NoSuchFileException.class, () -> Manifest.read(dir));
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000003\n");
    Files.write(dir.resolve("MANIFEST-000003"), base());
    assertEquals(3, Manifest.read(dir).liveFiles().size());
    Files.writeString(dir.resolve("CURRENT"), "../../etc/passwd\n");
    SieveFormatException e = assertThrows(SieveFormatException.class, () -> Manifest.read(dir));
    assertTrue(e.getMessage().contains("not a MANIFEST-NNNNNN"), e.getMessage());
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000003");
    assertThrows(SieveFormatException.class, () -> Manifest.read(dir));
  }

  /**
   * The fuzz corpus's crafted seeds were written by a separate encoder
   * (ManifestFuzzTestInputs/make-seeds.py, with its own CRC32C): the reader agrees with it.
   */
  @Test
  void readsLogsWrittenByAnIndependentEncoder() throws Exception {
    byte[] log;
    try (var in =
        ManifestTest.class.getResourceAsStream(
            "ManifestFuzzTestInputs/fuzz/recyclable-cf-add-drop")) {
      log = in.readAllBytes();
    }
    Manifest m = parse(log);
    assertEquals(
        List.of("default", "users"),
        m.columnFamilies().values().stream().map(Manifest.ColumnFamily::name).toList());
    assertEquals(
        List.of(
            "LiveFile[cf=0, L3, 000009.sst]",
            "LiveFile[cf=1, L1, 000005.sst]",
            "LiveFile[cf=1, L2, 000006.sst]"),
        m.liveFiles().stream().map(Object::toString).toList());
    try (var in =
        ManifestTest.class.getResourceAsStream("ManifestFuzzTestInputs/fuzz/spanning-blocks")) {
      log = in.readAllBytes();
    }
    m = parse(log);
    assertEquals(1500, m.liveFiles().size());
    assertEquals(2000, m.nextFileNumber());
    assertEquals(
        1499, m.liveFiles().stream().mapToLong(Manifest.LiveFile::epochNumber).max().getAsLong());
  }
}
