package dev.sieve.cli;

import dev.sieve.sst.SstFile;
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
 * {@code sieve query FILE.sst|DBDIR [KEY...]}: asks an SST file's filter about keys, or, for a
 * database, every filter a point lookup would probe, per column family ({@link DbCommands}).
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Asks the filter of a RocksDB SST file about user keys, as RocksDB's point lookup does"
          + " (a prefix-only filter is asked for the key's prefix).",
      "Prints KEY<TAB>maybe or KEY<TAB>absent for each key given, or for each line of standard"
          + " input when no key is given.",
      "A Parquet file (PAR1) takes a COLUMN (dotted path) and values, parsed for the column's"
          + " type (INT32, INT64, FLOAT, DOUBLE; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY as UTF-8, or"
          + " hex with --hex), and prints VALUE<TAB>maybe|absent<TAB>the row groups a Parquet"
          + " reader's Bloom filter check would still read.",
      "Given a database directory, prints for each key and column family"
          + " KEY<TAB>CF<TAB>maybe|absent<TAB>the files a point lookup probes, level by level (L0"
          + " newest first, then the one file per level whose key range holds the key), each with"
          + " its filter's answer (L1:000012.sst=maybe).",
      "Exit status: 0 ok, 1 bad file, 2 bad usage."
    })
public final class QueryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE.sst|DBDIR",
      description = "the SST file, or a RocksDB database directory")
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

  @Option(names = "--hex", description = "keys are hex bytes (e.g. 6b6579 or 0x6b6579)")
  boolean hex;

  @Override
  public Integer call() throws Exception {
    if (ParquetCliSupport.isParquet(file)) { // FILE.parquet COLUMN VALUE...
      return ParquetCliSupport.query(spec.commandLine(), file, keys, hex);
    }
    List<byte[]> decoded = new ArrayList<>();
    for (String k : keys) {
      try {
        decoded.add(SstCliSupport.decodeKey(k, hex));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }
    dev.sieve.KeyFilter filter;
    try {
      switch (InputKind.of(file)) {
        case DATABASE:
          return queryDb(decoded);
        case SIEVE_CONTAINER:
          filter = dev.sieve.format.SieveFormat.map(file);
          break;
        case FILTER_BLOCK:
          filter = OtherInputs.readBlock(file);
          break;
        default:
          filter = SstFile.open(file).filter();
      }
    } catch (Exception e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "query", file.toString(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        print(out, keys.get(i), filter.mayContain(decoded.get(i)));
      }
    } else {
      KeyLines lines = new KeyLines(System.in, hex, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          print(out, lines.text(), filter.mayContain(key));
        }
      } catch (KeyLines.BadLine e) {
        out.flush();
        spec.commandLine().getErr().println("sieve query: stdin " + e.getMessage());
        spec.commandLine().getErr().flush();
        return SstCliSupport.BAD_FILE;
      }
    }
    out.flush();
    return 0;
  }

  private int queryDb(List<byte[]> decoded) throws java.io.IOException {
    dev.sieve.sst.DbView db =
        DbCommands.open(spec.commandLine(), "query", file, DbCommands.defaultThreads(), false);
    if (db == null) {
      return SstCliSupport.BAD_FILE;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        DbCommands.query(out, db, keys.get(i), decoded.get(i));
      }
    } else {
      KeyLines lines = new KeyLines(System.in, hex, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          DbCommands.query(out, db, lines.text(), key);
        }
      } catch (KeyLines.BadLine e) {
        out.flush();
        spec.commandLine().getErr().println("sieve query: stdin " + e.getMessage());
        spec.commandLine().getErr().flush();
        return SstCliSupport.BAD_FILE;
      }
    }
    out.flush();
    return DbCommands.reportErrors(spec.commandLine(), "query", db);
  }

  private static void print(PrintWriter out, String key, boolean maybe) {
    out.print(key);
    out.print('\t');
    out.println(maybe ? "maybe" : "absent");
  }
}
