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
 * <p>The VersionEdit records, their tags and the replay are {@link ManifestReplay}'s: an unknown
 * tag that is not safe to ignore is an error, and a MANIFEST none of whose records holds a log
 * number, a next file number or a last sequence number is refused ({@link
 * IncompleteManifestException}), as RocksDB refuses them.
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
    ManifestReplay s = new ManifestReplay();
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
