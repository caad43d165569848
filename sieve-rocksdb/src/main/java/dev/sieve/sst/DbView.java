package dev.sieve.sst;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A whole RocksDB database directory as Sieve sees it: every live SST file with its column family
 * and level (from the {@link Manifest}), each file opened with {@link SstFile} on a bounded thread
 * pool. Without a {@code CURRENT} file it falls back to a scan of the directory's {@code *.sst}
 * files, whose column family and level are then unknown ({@link #source()} says which).
 *
 * <p>A file that cannot be read (missing, truncated, corrupt) does not stop the others: its {@link
 * Table#error()} holds the message and it is left out of every figure. A file whose size differs
 * from the size the MANIFEST records is not read: shorter, it is called truncated. A point lookup
 * still probes such a file ({@link #probeOrder}) and its answer is "maybe" ({@link
 * Table#mayContain}): its keys are unknown, and RocksDB itself would read its data (or fail the
 * read) rather than skip it, so calling its keys absent would be a false negative.
 */
public final class DbView {
  /** Where the list of files came from. */
  public enum Source {
    /** The current MANIFEST, through CURRENT. */
    MANIFEST,
    /** A scan of the directory for {@code *.sst} files: no column families, no levels. */
    DIRECTORY_SCAN
  }

  /** The column family id and level given to files found by a directory scan. */
  public static final int UNKNOWN = -1;

  /** Called after each file is read, from any of the pool's threads. */
  @FunctionalInterface
  public interface Progress {
    void filesRead(int done, int total);
  }

  /**
   * One live SST file.
   *
   * @param columnFamily its column family ({@link #UNKNOWN} id and name "?" after a directory scan)
   * @param meta what the MANIFEST records about it ({@code null} after a directory scan)
   * @param path where it was looked for
   * @param sst the file, or {@code null} if it could not be read
   * @param verified what {@link SstVerifier} verified, or {@code null} if not asked or unreadable
   * @param error why it could not be read (or failed verification), or {@code null}
   */
  public record Table(
      Manifest.ColumnFamily columnFamily,
      Manifest.LiveFile meta,
      Path path,
      SstFile sst,
      SstVerifier.Result verified,
      String error) {

    /** The level, or {@link #UNKNOWN}. */
    public int level() {
      return meta == null ? UNKNOWN : meta.level();
    }

    /** The file name. */
    public String fileName() {
      return path.getFileName().toString();
    }

    /** Whether the file was read ({@link #sst()} is not {@code null}). */
    public boolean readable() {
      return sst != null;
    }

    /**
     * Whether the file's filter lets {@code userKey} through, as a point lookup asks it; {@code
     * true} for a file that could not be read ({@link #error()} says why), whose keys are unknown.
     */
    public boolean mayContain(byte[] userKey) {
      return sst == null || sst.filter().mayContain(userKey);
    }
  }

  private final Path dir;
  private final Source source;
  private final Manifest manifest;
  private final List<Table> tables;

  private DbView(Path dir, Source source, Manifest manifest, List<Table> tables) {
    this.dir = dir;
    this.source = source;
    this.manifest = manifest;
    this.tables = tables;
  }

  /**
   * Reads the database in {@code dir}: the MANIFEST if there is a {@code CURRENT} file, else a
   * directory scan; then every SST file, {@code threads} at a time, each also verified block by
   * block with {@link SstVerifier} when {@code verify} is set (a file that fails is an error).
   *
   * @throws dev.sieve.SieveFormatException if CURRENT or the MANIFEST is malformed
   * @throws IOException if the directory cannot be listed or the MANIFEST read
   */
  public static DbView open(Path dir, int threads, Progress progress) throws IOException {
    return open(dir, threads, false, progress);
  }

  /** {@link #open(Path, int, Progress)}, verifying every block of every file if {@code verify}. */
  public static DbView open(Path dir, int threads, boolean verify, Progress progress)
      throws IOException {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    if (!Files.isDirectory(dir)) {
      throw new NoSuchFileException(dir.toString(), null, "not a directory");
    }
    Source source;
    Manifest manifest = null;
    List<Manifest.ColumnFamily> cfOf = new ArrayList<>();
    List<Manifest.LiveFile> metas = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    if (Files.exists(dir.resolve("CURRENT"))) {
      source = Source.MANIFEST;
      manifest = Manifest.read(dir);
      Map<Integer, Manifest.ColumnFamily> cfs = manifest.columnFamilies();
      for (Manifest.LiveFile f : manifest.liveFiles()) {
        cfOf.add(cfs.get(f.columnFamily()));
        metas.add(f);
        Path p = dir.resolve(f.fileName());
        if (!Files.exists(p)) {
          Path ldb = dir.resolve(f.fileName().replace(".sst", ".ldb"));
          if (Files.exists(ldb)) {
            p = ldb;
          }
        }
        paths.add(p);
      }
    } else {
      source = Source.DIRECTORY_SCAN;
      Manifest.ColumnFamily unknown = new Manifest.ColumnFamily(UNKNOWN, "?", null);
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.getFileName().toString().endsWith(".sst") && Files.isRegularFile(p))
            .sorted()
            .forEach(
                p -> {
                  cfOf.add(unknown);
                  metas.add(null);
                  paths.add(p);
                });
      }
      if (paths.isEmpty()) {
        throw new dev.sieve.SieveFormatException(
            0, "no CURRENT file and no *.sst file: not a RocksDB database directory");
      }
    }
    int n = paths.size();
    Table[] out = new Table[n];
    AtomicInteger done = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, n)));
    try {
      List<Future<?>> futures = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        final int idx = i;
        futures.add(
            pool.submit(
                () -> {
                  Path p = paths.get(idx);
                  SstFile sst = null;
                  SstVerifier.Result verified = null;
                  String error = null;
                  try {
                    Manifest.LiveFile m = metas.get(idx);
                    long size = Files.size(p);
                    if (m != null && size != m.fileSize()) {
                      throw new dev.sieve.SieveFormatException(
                          Math.min(size, m.fileSize()),
                          (size < m.fileSize() ? "truncated: " : "wrong size: ")
                              + "the file has "
                              + size
                              + " bytes, the MANIFEST records "
                              + m.fileSize());
                    }
                    sst = SstFile.open(p);
                    if (verify) {
                      verified = SstVerifier.verify(p);
                    }
                  } catch (NoSuchFileException e) {
                    Manifest.LiveFile m = metas.get(idx);
                    error =
                        m != null && m.pathId() > 0
                            ? "not found (the MANIFEST puts it in db_paths[" + m.pathId() + "])"
                            : "no such file";
                  } catch (IOException | RuntimeException e) {
                    error = String.valueOf(e.getMessage());
                    sst = null;
                  }
                  out[idx] = new Table(cfOf.get(idx), metas.get(idx), p, sst, verified, error);
                  if (progress != null) {
                    progress.filesRead(done.incrementAndGet(), n);
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + dir, e);
    } catch (ExecutionException e) {
      throw new IOException("reading " + dir + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    return new DbView(dir, source, manifest, Collections.unmodifiableList(Arrays.asList(out)));
  }

  public Path dir() {
    return dir;
  }

  public Source source() {
    return source;
  }

  /** The MANIFEST read, or {@code null} after a directory scan. */
  public Manifest manifest() {
    return manifest;
  }

  /** Every live file, by column family id, level and file number (scan: by name). */
  public List<Table> tables() {
    return tables;
  }

  /** The files that could not be read. */
  public List<Table> errors() {
    return tables.stream().filter(t -> t.error() != null).toList();
  }

  /**
   * The files of one column family whose filters a point lookup of {@code userKey} probes, in the
   * order it probes them (RocksDB db/version_set.cc {@code FilePicker}): L0 newest first (by epoch
   * number, then largest sequence number), then one file per deeper level, the one whose key range
   * holds the key. Key ranges are compared in the table's comparator order when it is bytewise or
   * reverse bytewise without timestamps; otherwise every file of the level is returned. As RocksDB,
   * L0 files are range-checked only when more than one level is non-empty or L0 has more than three
   * files. Files that could not be read are included (ranged by the MANIFEST's keys and the column
   * family's comparator where known): their {@link Table#mayContain} answers "maybe".
   */
  public List<Table> probeOrder(int columnFamily, byte[] userKey) {
    List<Table> cf = tables.stream().filter(t -> t.columnFamily().id() == columnFamily).toList();
    int maxLevel = cf.stream().mapToInt(Table::level).max().orElse(-1);
    long nonEmptyLevels = cf.stream().mapToInt(Table::level).distinct().count();
    List<Table> out = new ArrayList<>();
    for (int level = Math.min(0, maxLevel); level <= maxLevel; level++) {
      final int lv = level;
      List<Table> files = new ArrayList<>(cf.stream().filter(t -> t.level() == lv).toList());
      if (files.isEmpty()) {
        continue;
      }
      if (level == 0) {
        files.sort(
            Comparator.comparingLong((Table t) -> t.meta().epochNumber())
                .thenComparingLong(t -> t.meta().largestSeqno())
                .thenComparingLong(t -> t.meta().number())
                .reversed());
        boolean rangeCheck = nonEmptyLevels > 1 || files.size() > 3;
        for (Table t : files) {
          if (!rangeCheck || inRange(t, userKey)) {
            out.add(t);
          }
        }
      } else if (level > 0) {
        for (Table t : files) {
          if (inRange(t, userKey)) {
            out.add(t);
          }
        }
      } else {
        out.addAll(files); // directory scan: no levels, no ranges
      }
    }
    return out;
  }

  private static boolean inRange(Table t, byte[] userKey) {
    if (t.meta() == null) {
      return true;
    }
    String comparator =
        t.sst() != null ? t.sst().properties().comparator() : t.columnFamily().comparator();
    if (comparator == null) {
      return true; // an unreadable file of a column family whose comparator is not recorded
    }
    KeyComparator cmp = KeyComparator.parse(comparator);
    if (!cmp.known() || cmp.timestampBytes() != 0) {
      return true;
    }
    return cmp.compare(userKey, t.meta().smallestUserKey()) >= 0
        && cmp.compare(userKey, t.meta().largestUserKey()) <= 0;
  }
}
