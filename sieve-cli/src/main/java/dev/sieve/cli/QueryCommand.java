package dev.sieve.cli;

import dev.sieve.interop.ForeignFormat;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sieve query FILE [KEY...]}: asks an SST file's filter about keys, or, for a database,
 * every filter a point lookup would probe, per column family ({@link DbQuery}); also a Parquet
 * file's column, a Sieve container (by its recorded key scheme) and a raw filter block.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Asks a filter about keys: of an SST file, a database directory, a Parquet file, a Sieve"
          + " container (.sieve) or a raw filter block.",
      "An SST file's filter is asked as RocksDB's point lookup does (a prefix-only filter is"
          + " asked for the key's prefix).",
      "Prints KEY<TAB>maybe or KEY<TAB>absent for each key given, or for each line of standard"
          + " input when no key is given.",
      "An ORC file (magic ORC) takes a COLUMN (dotted name) and values, read as the column's"
          + " type (integers, dates as yyyy-mm-dd, doubles, text, binary as UTF-8), and prints"
          + " VALUE<TAB>maybe|absent<TAB>the STRIPE:ROWGROUP pairs ORC's reader reads for"
          + " column = value (row index statistics, then the Bloom filter).",
      "A Parquet file (PAR1) takes a COLUMN (dotted path) and values, parsed for the column's"
          + " type (INT32, INT64, FLOAT, DOUBLE; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY as UTF-8, or"
          + " hex with --hex), and prints VALUE<TAB>maybe|absent<TAB>the row groups a Parquet"
          + " reader's Bloom filter check would still read.",
      "Keys are UTF-8 text unless --hex, --long or --int say otherwise: --long 42 is the key of"
          + " 8 big-endian bytes that Filter.mayContain(42L) asks for, not the 2-byte text \"42\"."
          + " A Sieve container that records a long-key scheme (MIX64 or IDENTITY, flags 1 or 2)"
          + " takes its keys as decimal longs by itself; one of Parquet's scheme (flag 4) hashes"
          + " --long and --int keys as Parquet's INT64 and INT32 values. A numeric-looking text key that answers"
          + " absent gets a one-line note on stderr.",
      "Given a database directory, prints for each key and column family"
          + " KEY<TAB>CF<TAB>maybe|absent<TAB>the files a point lookup probes, level by level (L0"
          + " newest first, then the one file per level whose key range holds the key), each with"
          + " its filter's answer (L1:000012.sst=maybe). A file of the database that cannot be"
          + " read (missing, truncated, corrupt) answers unreadable and counts as maybe: a key it"
          + " may hold is never called absent; stderr names the file and the exit status is 1.",
      "Exit status: 0 ok, 1 bad file (also when a database file could not be read, its keys"
          + " answered maybe), 2 bad usage."
    })
public final class QueryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description =
          "an SST file, a RocksDB database directory, a .parquet file, a Sieve container or a"
              + " raw filter block")
  Path file;

  @Parameters(
      index = "1..*",
      paramLabel = "KEY",
      description =
          "keys (UTF-8 text, or hex with --hex); none: one a line on stdin, read as build"
              + " --keys reads its file (strict UTF-8, line numbers in errors, no empty line"
              + " unless --allow-empty-key)")
  List<String> keys = new ArrayList<>();

  @Option(
      names = "--allow-empty-key",
      description = "on stdin, an empty line is the empty key instead of an error")
  boolean allowEmptyKey;

  @Option(
      names = "--accept-always-true",
      description =
          "a raw filter block whose trailer RocksDB does not know (truncated, damaged, not a"
              + " filter) is read as RocksDB reads it, an always-true filter answering maybe for"
              + " every key, instead of refused (exit status 1)")
  boolean acceptAlwaysTrue;

  @Option(names = "--hex", description = "keys are hex bytes (e.g. 6b6579 or 0x6b6579)")
  boolean hex;

  @Option(
      names = "--long",
      description =
          "keys are decimal longs: the key is its 8 big-endian bytes (Filter.mayContain(long))")
  boolean asLong;

  @Option(
      names = "--int",
      description = "keys are decimal ints: the key is its 4 big-endian bytes (mayContainInt)")
  boolean asInt;

  @Option(
      names = "--format",
      paramLabel = "NAME",
      description =
          "read FILE as another system's filter form: guava (BloomFilter.writeTo), spark (the"
              + " sketch BloomFilter V1/V2, bloom_filter_agg), datasketches, cassandra (an"
              + " SSTable's Filter.db, 4.0+) or cassandra3 (Cassandra 3.x's, every 8 bytes"
              + " reversed); by default recognized by its structure or, for Cassandra, its"
              + " *-Filter.db name: the SSTable version in <version>-<gen>-big-Filter.db picks"
              + " the layout (ma..me: cassandra3; before ma, Cassandra 2.x's probe order, refused);"
              + " the bytes alone cannot tell the two layouts apart (read as 4.0+). --long and --int keys are then asked as the"
              + " owner's long entry point (Guava's longFunnel: 8 little-endian bytes; Spark's"
              + " putLong; Cassandra's bigint and int partition keys: big-endian)")
  String format;

  @Override
  public Integer call() throws Exception {
    KeyForm form;
    try {
      form = KeyForm.of(hex, asLong, asInt);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (format == null && ParquetCliSupport.isParquet(file)) { // FILE.parquet COLUMN VALUE...
      if (asLong || asInt) {
        throw new ParameterException(
            spec.commandLine(),
            "--long and --int do not apply to a Parquet file: the column's type decides how"
                + " values are read");
      }
      return ParquetCliSupport.query(spec.commandLine(), file, keys, hex);
    }
    if (OrcCliSupport.isOrc(file)) { // FILE.orc COLUMN VALUE...
      if (asLong || asInt || hex) {
        throw new ParameterException(
            spec.commandLine(),
            "--long, --int and --hex do not apply to an ORC file: the column's type decides how"
                + " values are read");
      }
      return OrcCliSupport.query(spec.commandLine(), file, keys);
    }
    QueryCore core =
        new QueryCore(file, keys, spec.commandLine().getOut(), spec.commandLine().getErr());
    core.acceptAlwaysTrue = acceptAlwaysTrue;
    if (format != null) {
      try {
        core.format = ForeignFormat.named(format);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
      }
    }
    try {
      int status = core.queryFilter(form, hex, asInt, allowEmptyKey);
      return status != QueryCore.DATABASE ? status : queryDb(core, core.decode(form, false), form);
    } catch (QueryCore.Usage e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private int queryDb(QueryCore core, List<byte[]> decoded, KeyForm form)
      throws java.io.IOException {
    dev.sieve.sst.DbView db =
        DbCommands.open(spec.commandLine(), "query", file, DbCommands.defaultThreads(), false);
    if (db == null) {
      return SstCliSupport.BAD_FILE;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        core.seen(keys.get(i), DbQuery.query(out, db, keys.get(i), decoded.get(i)), form);
      }
    } else {
      KeyLines lines = new KeyLines(System.in, form, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          core.seen(lines.text(), DbQuery.query(out, db, lines.text(), key), form);
        }
      } catch (KeyLines.BadLine e) {
        return core.badStdin(e);
      }
    }
    out.flush();
    core.noteNumericAbsent();
    return DbCommands.reportErrors(spec.commandLine(), "query", db);
  }
}
