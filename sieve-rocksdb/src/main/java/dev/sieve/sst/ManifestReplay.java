package dev.sieve.sst;

import static dev.sieve.sst.Manifest.CUSTOM_EPOCH_NUMBER;
import static dev.sieve.sst.Manifest.CUSTOM_NON_SAFE_IGNORE_MASK;
import static dev.sieve.sst.Manifest.CUSTOM_PATH_ID;
import static dev.sieve.sst.Manifest.CUSTOM_TERMINATE;
import static dev.sieve.sst.Manifest.INTERNAL_KEY_FOOTER;
import static dev.sieve.sst.Manifest.TAG_BLOB_FILE_ADDITION;
import static dev.sieve.sst.Manifest.TAG_BLOB_FILE_ADDITION_DEPRECATED;
import static dev.sieve.sst.Manifest.TAG_BLOB_FILE_GARBAGE;
import static dev.sieve.sst.Manifest.TAG_BLOB_FILE_GARBAGE_DEPRECATED;
import static dev.sieve.sst.Manifest.TAG_COLUMN_FAMILY;
import static dev.sieve.sst.Manifest.TAG_COLUMN_FAMILY_ADD;
import static dev.sieve.sst.Manifest.TAG_COLUMN_FAMILY_DROP;
import static dev.sieve.sst.Manifest.TAG_COMPACT_CURSOR;
import static dev.sieve.sst.Manifest.TAG_COMPARATOR;
import static dev.sieve.sst.Manifest.TAG_DELETED_FILE;
import static dev.sieve.sst.Manifest.TAG_IN_ATOMIC_GROUP;
import static dev.sieve.sst.Manifest.TAG_LAST_SEQUENCE;
import static dev.sieve.sst.Manifest.TAG_LOG_NUMBER;
import static dev.sieve.sst.Manifest.TAG_MAX_COLUMN_FAMILY;
import static dev.sieve.sst.Manifest.TAG_MIN_LOG_NUMBER_TO_KEEP;
import static dev.sieve.sst.Manifest.TAG_NEW_FILE;
import static dev.sieve.sst.Manifest.TAG_NEW_FILE2;
import static dev.sieve.sst.Manifest.TAG_NEW_FILE3;
import static dev.sieve.sst.Manifest.TAG_NEW_FILE4;
import static dev.sieve.sst.Manifest.TAG_NEXT_FILE_NUMBER;
import static dev.sieve.sst.Manifest.TAG_PREV_LOG_NUMBER;
import static dev.sieve.sst.Manifest.TAG_SAFE_IGNORE_MASK;
import static dev.sieve.sst.Manifest.TAG_WAL_ADDITION;
import static dev.sieve.sst.Manifest.TAG_WAL_DELETION;

import dev.sieve.SieveFormatException;
import dev.sieve.sst.Manifest.ColumnFamily;
import dev.sieve.sst.Manifest.LiveFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The replay state of a {@link Manifest}: the VersionEdit records applied in order, each decoded
 * field by field as RocksDB's {@code VersionEdit::DecodeFrom} decodes it, into the live column
 * families and files and the counters RocksDB requires ({@link Manifest#parse} checks them).
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
final class ManifestReplay {
  final Map<Integer, ColumnFamily> cfs = new LinkedHashMap<>();
  final Map<Integer, Map<Long, LiveFile>> files = new TreeMap<>();
  long nextFileNumber;
  long lastSequence;
  boolean hasLogNumber;
  boolean hasNextFileNumber;
  boolean hasLastSequence;

  ManifestReplay() {
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
            throw new SieveFormatException(c.fileOffset(), "NewFile4 path id is not one byte <= 3");
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
