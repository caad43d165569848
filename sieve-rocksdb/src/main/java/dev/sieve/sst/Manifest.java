package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A RocksDB database's current version, replayed from its MANIFEST: the column families (name, id,
 * comparator) and every live SST file with its level and key range. Spec map with file:line
 * references into RocksDB's source: docs/manifest.md.
 *
 * <h2>Where it is (file/filename.cc, db/version_set.cc)</h2>
 *
 * {@code CURRENT} holds the name of the current MANIFEST ({@code MANIFEST-NNNNNN}) and a newline.
 * The MANIFEST is a log ({@link LogReader}) of VersionEdit records; replaying them in order gives
 * the current version. Table files are {@code NNNNNN.sst} (six digits at least) in the database
 * directory (or in one of its {@code db_paths}, by the file's path id).
 *
 * <h2>VersionEdit (db/version_edit.h, db/version_edit.cc {@code DecodeFrom})</h2>
 *
 * A sequence of (varint32 tag, fields). The tags read here: comparator (1, string), log number (2),
 * next file number (3), last sequence (4), compact cursor (5: level, internal key), deleted file
 * (6: level, file number), new file (7, 100, 102 and 103 = NewFile4: level, number, [path id for
 * 102,] file size, smallest and largest internal keys, [smallest and largest sequence,] and for
 * NewFile4 custom fields (tag, length-prefixed value) up to tag 1; a custom tag with bit 6 set that
 * is not known is an error, others are skipped), prev log number (9), min log number to keep (10),
 * column family (200: the id of the family the whole edit applies to; RocksDB writes it after the
 * edit's files, db/version_edit.cc EncodeTo), column family add (201: name), drop (202), max column
 * family (203), atomic group (300: remaining entries), blob file addition and garbage (400, 401),
 * and the forward-compatible tags above {@code kTagSafeIgnoreMask} (2^13): the old-style WAL
 * addition and deletion and blob tags (not length-prefixed) are decoded, every other tag with the
 * mask bit is a length-prefixed value and is skipped. A tag without the mask bit that is not known
 * is an error ("unknown tag"), as in RocksDB.
 *
 * <p>Replaying: a new file is added to its column family's level, a deleted file removed from it
 * (in that order within one edit, as VersionBuilder applies deletions before additions of the same
 * edit; deleting a file that is not live on that level is corruption, as in RocksDB); an edit with
 * "add" creates the column family with the edit's id and name, one with "drop" removes it and its
 * files. The default column family (id 0, "default") exists from the start. A MANIFEST none of
 * whose records holds a log number, a next file number or a last sequence number is refused as
 * RocksDB refuses it ({@link IncompleteManifestException}): a MANIFEST cut short after its first
 * records would otherwise read as a database with fewer files, or none.
 */
public final class Manifest {
  /** The largest MANIFEST Sieve reads into memory (RocksDB rolls it over at 1 GiB by default). */
  public static final long MAX_MANIFEST_BYTES = 1L << 30;

  /** The bytes of an internal key's footer: 7 bytes of sequence number and 1 of value type. */
  public static final int INTERNAL_KEY_FOOTER = 8;

  static final int TAG_COMPARATOR = 1;
  static final int TAG_LOG_NUMBER = 2;
  static final int TAG_NEXT_FILE_NUMBER = 3;
  static final int TAG_LAST_SEQUENCE = 4;
  static final int TAG_COMPACT_CURSOR = 5;
  static final int TAG_DELETED_FILE = 6;
  static final int TAG_NEW_FILE = 7;
  static final int TAG_PREV_LOG_NUMBER = 9;
  static final int TAG_MIN_LOG_NUMBER_TO_KEEP = 10;
  static final int TAG_NEW_FILE2 = 100;
  static final int TAG_NEW_FILE3 = 102;
  static final int TAG_NEW_FILE4 = 103;
  static final int TAG_COLUMN_FAMILY = 200;
  static final int TAG_COLUMN_FAMILY_ADD = 201;
  static final int TAG_COLUMN_FAMILY_DROP = 202;
  static final int TAG_MAX_COLUMN_FAMILY = 203;
  static final int TAG_IN_ATOMIC_GROUP = 300;
  static final int TAG_BLOB_FILE_ADDITION = 400;
  static final int TAG_BLOB_FILE_GARBAGE = 401;
  static final int TAG_SAFE_IGNORE_MASK = 1 << 13;
  static final int TAG_DB_ID = TAG_SAFE_IGNORE_MASK + 1;
  static final int TAG_BLOB_FILE_ADDITION_DEPRECATED = TAG_SAFE_IGNORE_MASK + 2;
  static final int TAG_BLOB_FILE_GARBAGE_DEPRECATED = TAG_SAFE_IGNORE_MASK + 3;
  static final int TAG_WAL_ADDITION = TAG_SAFE_IGNORE_MASK + 4;
  static final int TAG_WAL_DELETION = TAG_SAFE_IGNORE_MASK + 5;

  static final int CUSTOM_TERMINATE = 1;
  static final int CUSTOM_NON_SAFE_IGNORE_MASK = 1 << 6;

  /** NewFile4 custom tags RocksDB knows (db/version_edit.h NewFileCustomTag), kPathId = 65. */
  static final int CUSTOM_PATH_ID = CUSTOM_NON_SAFE_IGNORE_MASK + 1;

  static final int CUSTOM_EPOCH_NUMBER = 13;

  /**
   * A column family.
   *
   * @param id its id (0 = default)
   * @param name its name
   * @param comparator the comparator name from the MANIFEST ({@code null} if never recorded)
   */
  public record ColumnFamily(int id, String name, String comparator) {}

  /**
   * A live SST file.
   *
   * @param columnFamily the id of its column family
   * @param level its level
   * @param number its file number ({@code NNNNNN.sst})
   * @param pathId the index of the {@code db_paths} entry it is in (0: the database directory)
   * @param fileSize its size in bytes
   * @param smallest its smallest internal key
   * @param largest its largest internal key
   * @param smallestSeqno the smallest sequence number in it
   * @param largestSeqno the largest sequence number in it
   * @param epochNumber its epoch number (0 when not recorded), the L0 order from RocksDB 7.10
   */
  @SuppressWarnings("ArrayRecordComponent") // key bytes held as read, no copy
  public record LiveFile(
      int columnFamily,
      int level,
      long number,
      int pathId,
      long fileSize,
      byte[] smallest,
      byte[] largest,
      long smallestSeqno,
      long largestSeqno,
      long epochNumber) {

    LiveFile withColumnFamily(int cf) {
      return new LiveFile(
          cf,
          level,
          number,
          pathId,
          fileSize,
          smallest,
          largest,
          smallestSeqno,
          largestSeqno,
          epochNumber);
    }

    /** The file name, {@code NNNNNN.sst}. */
    public String fileName() {
      return String.format(java.util.Locale.ROOT, "%06d.sst", number);
    }

    /** The smallest user key (the internal key without its 8-byte footer). */
    public byte[] smallestUserKey() {
      return Arrays.copyOf(smallest, smallest.length - INTERNAL_KEY_FOOTER);
    }

    /** The largest user key. */
    public byte[] largestUserKey() {
      return Arrays.copyOf(largest, largest.length - INTERNAL_KEY_FOOTER);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof LiveFile other && other.number == number;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(number);
    }

    @Override
    public String toString() {
      return "LiveFile[cf=" + columnFamily + ", L" + level + ", " + fileName() + "]";
    }
  }

  private final String manifestName;
  private final Map<Integer, ColumnFamily> columnFamilies;
  private final List<LiveFile> liveFiles;
  private final long nextFileNumber;
  private final long lastSequence;
  private final int edits;
  private final String note;

  private Manifest(
      String manifestName,
      Map<Integer, ColumnFamily> columnFamilies,
      List<LiveFile> liveFiles,
      long nextFileNumber,
      long lastSequence,
      int edits,
      String note) {
    this.manifestName = manifestName;
    this.columnFamilies = columnFamilies;
    this.liveFiles = liveFiles;
    this.nextFileNumber = nextFileNumber;
    this.lastSequence = lastSequence;
    this.edits = edits;
    this.note = note;
  }

  /**
   * Reads the current MANIFEST of the database in {@code dbDir}, through {@code CURRENT}.
   *
   * @throws NoSuchFileException if there is no {@code CURRENT} file, or no MANIFEST of the name it
   *     holds (the exception's file is then the MANIFEST's path)
   * @throws IncompleteManifestException if the MANIFEST lacks an entry RocksDB requires
   * @throws SieveFormatException if {@code CURRENT} or the MANIFEST is malformed
   */
  public static Manifest read(Path dbDir) throws IOException {
    Path current = dbDir.resolve("CURRENT");
    byte[] cur = readBounded(current, 4096);
    String name = new String(cur, StandardCharsets.UTF_8);
    if (!name.endsWith("\n")) {
      throw new SieveFormatException(cur.length, "CURRENT does not end with a newline");
    }
    name = name.substring(0, name.length() - 1);
    if (!name.matches("MANIFEST-[0-9]+")) {
      throw new SieveFormatException(0, "CURRENT names '" + name + "', not a MANIFEST-NNNNNN file");
    }
    Path manifestFile = dbDir.resolve(name);
    if (!Files.exists(manifestFile)) {
      throw new NoSuchFileException(
          manifestFile.toString(), null, "CURRENT names " + name + ", which is not there");
    }
    byte[] manifest = readBounded(manifestFile, MAX_MANIFEST_BYTES);
    return parse(name, manifest);
  }

  private static byte[] readBounded(Path file, long limit) throws IOException {
    long size = Files.size(file);
    if (size > limit) {
      throw new SieveFormatException(
          0, file.getFileName() + " is " + size + " bytes, more than the limit of " + limit);
    }
    return Files.readAllBytes(file);
  }

  /**
   * Replays a MANIFEST held in memory.
   *
   * @throws IncompleteManifestException if no record holds a log number, a next file number or a
   *     last sequence number (RocksDB refuses such a MANIFEST)
   * @throws SieveFormatException if a record is malformed
   */
  public static Manifest parse(String manifestName, byte[] manifest) {
    LogReader.Result log = LogReader.read(manifest);
    State s = new State();
    int n = 0;
    for (LogReader.Record r : log.records()) {
      s.apply(r);
      n++;
    }
    if (n == 0) {
      throw new SieveFormatException(0, "MANIFEST holds no VersionEdit record");
    }
    List<String> missing = new ArrayList<>();
    if (!s.hasLogNumber) {
      missing.add("log_file_number");
    }
    if (!s.hasNextFileNumber) {
      missing.add("next_file_number");
    }
    if (!s.hasLastSequence) {
      missing.add("last_sequence");
    }
    if (!missing.isEmpty()) {
      throw new IncompleteManifestException(manifest.length, manifestName, missing, log.tailNote());
    }
    List<LiveFile> files = new ArrayList<>();
    for (Map.Entry<Integer, Map<Long, LiveFile>> e : s.files.entrySet()) {
      if (s.cfs.containsKey(e.getKey())) {
        files.addAll(e.getValue().values());
      }
    }
    files.sort(
        Comparator.comparingInt(LiveFile::columnFamily)
            .thenComparingInt(LiveFile::level)
            .thenComparingLong(LiveFile::number));
    return new Manifest(
        manifestName,
        Collections.unmodifiableMap(new TreeMap<>(s.cfs)),
        Collections.unmodifiableList(files),
        s.nextFileNumber,
        s.lastSequence,
        n,
        log.tailNote());
  }

  /** Replay state. */
  private static final class State {
    final Map<Integer, ColumnFamily> cfs = new LinkedHashMap<>();
    final Map<Integer, Map<Long, LiveFile>> files = new TreeMap<>();
    long nextFileNumber;
    long lastSequence;
    boolean hasLogNumber;
    boolean hasNextFileNumber;
    boolean hasLastSequence;

    State() {
      cfs.put(0, new ColumnFamily(0, "default", null));
    }

    // multi-statement arms with shared state; statement form kept
    @SuppressWarnings("StatementSwitchToExpressionSwitch")
    void apply(LogReader.Record r) {
      byte[] p = r.payload();
      ByteCursor c = new ByteCursor(p, 0, p.length, r.offset());
      int cf = 0;
      String comparator = null;
      String addName = null;
      boolean drop = false;
      List<long[]> deleted = new ArrayList<>();
      List<LiveFile> added = new ArrayList<>();
      while (c.remaining() > 0) {
        int tag = (int) c.varint32("VersionEdit tag");
        switch (tag) {
          case TAG_COMPARATOR:
            comparator = string(c, "comparator name");
            break;
          case TAG_LOG_NUMBER:
            c.varint64("log number");
            hasLogNumber = true;
            break;
          case TAG_PREV_LOG_NUMBER:
          case TAG_MIN_LOG_NUMBER_TO_KEEP:
            c.varint64("log number");
            break;
          case TAG_NEXT_FILE_NUMBER:
            nextFileNumber = c.varint64("next file number");
            hasNextFileNumber = true;
            break;
          case TAG_LAST_SEQUENCE:
            lastSequence = c.varint64("last sequence");
            hasLastSequence = true;
            break;
          case TAG_MAX_COLUMN_FAMILY:
            c.varint32("max column family");
            break;
          case TAG_COMPACT_CURSOR:
            level(c);
            internalKey(c, "compact cursor");
            break;
          case TAG_DELETED_FILE:
            {
              int level = level(c);
              long number = c.varint64("deleted file number");
              deleted.add(new long[] {level, number});
              break;
            }
          case TAG_NEW_FILE:
          case TAG_NEW_FILE2:
          case TAG_NEW_FILE3:
          case TAG_NEW_FILE4:
            added.add(newFile(c, tag)); // its family is the edit's, known at the edit's end
            break;
          case TAG_COLUMN_FAMILY:
            cf = (int) c.varint32("column family id");
            break;
          case TAG_COLUMN_FAMILY_ADD:
            addName = string(c, "column family name");
            break;
          case TAG_COLUMN_FAMILY_DROP:
            drop = true;
            break;
          case TAG_IN_ATOMIC_GROUP:
            c.varint32("atomic group remaining entries");
            break;
          case TAG_BLOB_FILE_ADDITION:
          case TAG_BLOB_FILE_ADDITION_DEPRECATED:
            c.varint64("blob file number");
            c.varint64("blob count");
            c.varint64("blob bytes");
            string(c, "blob checksum method");
            string(c, "blob checksum value");
            blobCustomFields(c);
            break;
          case TAG_BLOB_FILE_GARBAGE:
          case TAG_BLOB_FILE_GARBAGE_DEPRECATED:
            c.varint64("blob file number");
            c.varint64("garbage blob count");
            c.varint64("garbage blob bytes");
            blobCustomFields(c);
            break;
          case TAG_WAL_ADDITION:
            c.varint64("WAL number");
            while (true) {
              long t = c.varint32("WAL addition tag");
              if (t == 1) {
                break;
              } else if (t == 2) {
                c.varint64("WAL synced size");
              } else {
                throw new SieveFormatException(c.fileOffset(), "unknown WAL addition tag " + t);
              }
            }
            break;
          case TAG_WAL_DELETION:
            c.varint64("WAL number");
            break;
          default:
            if ((tag & TAG_SAFE_IGNORE_MASK) == 0) {
              throw new SieveFormatException(
                  c.fileOffset(),
                  "unknown VersionEdit tag "
                      + tag
                      + " (not marked safe to ignore: bit 2^13 unset); a newer RocksDB wrote it?");
            }
            long len = c.varint32("length of ignorable tag " + tag);
            c.take(len, "value of ignorable tag " + tag);
        }
      }
      if (comparator != null) {
        ColumnFamily old = cfs.get(cf);
        if (old != null) {
          cfs.put(cf, new ColumnFamily(cf, old.name(), comparator));
        }
      }
      if (addName != null) {
        if (cfs.containsKey(cf)) {
          throw new SieveFormatException(
              r.offset(), "column family " + cf + " ('" + addName + "') added twice");
        }
        cfs.put(cf, new ColumnFamily(cf, addName, comparator));
        files.put(cf, new TreeMap<>());
      }
      if (drop) {
        if (cf == 0) {
          throw new SieveFormatException(r.offset(), "the default column family is dropped");
        }
        cfs.remove(cf);
        files.remove(cf);
        return;
      }
      if (!deleted.isEmpty() || !added.isEmpty()) {
        if (!cfs.containsKey(cf)) {
          throw new SieveFormatException(
              r.offset(), "VersionEdit changes files of column family " + cf + ", never added");
        }
        Map<Long, LiveFile> m = files.computeIfAbsent(cf, k -> new TreeMap<>());
        for (long[] d : deleted) {
          LiveFile f = m.get(d[1]);
          if (f == null || f.level() != d[0]) {
            // RocksDB's VersionBuilder::ApplyFileDeletion refuses this too (Corruption)
            throw new SieveFormatException(
                r.offset(),
                "VersionEdit deletes table file #"
                    + d[1]
                    + " from level "
                    + d[0]
                    + " of column family "
                    + cf
                    + (f == null ? ", where it is not live" : ", but it is on level " + f.level()));
          }
          m.remove(d[1]);
        }
        for (LiveFile f : added) {
          m.put(f.number(), f.withColumnFamily(cf));
        }
      }
    }

    private static int level(ByteCursor c) {
      long level = c.varint32("level");
      if (level > 1000) {
        // RocksDB takes any level and checks it against num_levels later; no real tree has 1000
        throw new SieveFormatException(c.fileOffset(), "level " + level + " is more than 1000");
      }
      return (int) level;
    }

    private static String string(ByteCursor c, String what) {
      long len = c.varint32(what + " length");
      int at = c.take(len, what);
      return new String(c.data(), at, (int) len, StandardCharsets.UTF_8);
    }

    private static byte[] internalKey(ByteCursor c, String what) {
      long len = c.varint32(what + " length");
      int at = c.take(len, what);
      if (len < INTERNAL_KEY_FOOTER) {
        throw new SieveFormatException(
            c.fileOffset(), what + " of " + len + " bytes is shorter than an internal key footer");
      }
      return Arrays.copyOfRange(c.data(), at, at + (int) len);
    }

    private static void blobCustomFields(ByteCursor c) {
      while (true) {
        long t = c.varint32("blob custom field tag");
        if (t == 1) {
          return;
        }
        if ((t & CUSTOM_NON_SAFE_IGNORE_MASK) != 0) {
          throw new SieveFormatException(
              c.fileOffset(), "blob custom field " + t + " is marked forward incompatible");
        }
        long len = c.varint32("blob custom field length");
        c.take(len, "blob custom field");
      }
    }

    private static LiveFile newFile(ByteCursor c, int tag) {
      int level = level(c);
      long number = c.varint64("file number");
      int pathId = 0;
      if (tag == TAG_NEW_FILE3) {
        long p = c.varint32("path id");
        if (p > 3) {
          throw new SieveFormatException(c.fileOffset(), "path id " + p + " is more than 3");
        }
        pathId = (int) p;
      }
      long fileSize = c.varint64("file size");
      byte[] smallest = internalKey(c, "smallest key");
      byte[] largest = internalKey(c, "largest key");
      long smallestSeqno = 0;
      long largestSeqno = 0;
      long epoch = 0;
      if (tag != TAG_NEW_FILE) {
        smallestSeqno = c.varint64("smallest sequence");
        largestSeqno = c.varint64("largest sequence");
      }
      if (tag == TAG_NEW_FILE4) {
        while (true) {
          long custom = c.varint32("NewFile4 custom tag");
          if (custom == CUSTOM_TERMINATE) {
            break;
          }
          long len = c.varint32("NewFile4 custom field length");
          int at = c.take(len, "NewFile4 custom field " + custom);
          if (custom == CUSTOM_PATH_ID) {
            if (len != 1 || (c.data()[at] & 0xFF) > 3) {
              throw new SieveFormatException(
                  c.fileOffset(), "NewFile4 path id is not one byte <= 3");
            }
            pathId = c.data()[at];
          } else if (custom == CUSTOM_EPOCH_NUMBER) {
            ByteCursor f =
                new ByteCursor(c.data(), at, at + (int) len, c.fileOffset() - c.position());
            epoch = f.varint64("epoch number");
          } else if (custom > 17 && (custom & CUSTOM_NON_SAFE_IGNORE_MASK) != 0) {
            throw new SieveFormatException(
                c.fileOffset(),
                "NewFile4 custom field "
                    + custom
                    + " is unknown and not safe to ignore (bit 6 set); a newer RocksDB wrote it?");
          }
        }
      }
      return new LiveFile(
          0,
          level,
          number & 0x3FFFFFFFFFFFFFFFL,
          pathId,
          fileSize,
          smallest,
          largest,
          smallestSeqno,
          largestSeqno,
          epoch);
    }
  }

  /** The MANIFEST's file name, e.g. {@code MANIFEST-000005}. */
  public String manifestName() {
    return manifestName;
  }

  /** Live column families by id. */
  public Map<Integer, ColumnFamily> columnFamilies() {
    return columnFamilies;
  }

  /** Live SST files, by column family id, level and file number. */
  public List<LiveFile> liveFiles() {
    return liveFiles;
  }

  public long nextFileNumber() {
    return nextFileNumber;
  }

  public long lastSequence() {
    return lastSequence;
  }

  /** The number of VersionEdit records replayed. */
  public int edits() {
    return edits;
  }

  /** A note on an incomplete last record that was ignored, or {@code null}. */
  public String note() {
    return note;
  }
}
