package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.LongList;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sieve build --keys FILE --policy bloom:BITS|ribbon:BITS -o OUT}: writes the raw filter
 * block (trailer included) RocksDB's filter policy builds for the keys, in file order (RocksDB adds
 * an SST's keys in key order and collapses a key whose hash equals the previous one's).
 */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description = "Write the RocksDB filter block (trailer included) for keys read one per line.")
public final class BuildCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--keys",
      required = true,
      paramLabel = "FILE",
      description = "keys, one per line ('-' for stdin)")
  String keysFile;

  @Option(
      names = "--policy",
      required = true,
      paramLabel = "POLICY",
      converter = FilterPolicySpec.Converter.class,
      description =
          "bloom:BITS (FastLocalBloom) or ribbon:BITS (Standard128Ribbon, bloom-equivalent bits)")
  FilterPolicySpec policy;

  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "OUT",
      description = "the filter block file to write")
  Path output;

  @Option(names = "--hex", description = "keys are hex bytes, not UTF-8 text")
  boolean hex;

  @Override
  public Integer call() throws IOException {
    LongList hashes = new LongList(1024);
    try (BufferedReader reader = open()) {
      String line;
      long number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        hashes.add(KeyHash.hash64(KeyInput.decode(line, hex, number)));
      }
    }
    long[] exact = java.util.Arrays.copyOf(hashes.array(), hashes.size());
    Filter filter = policy.build(exact);
    byte[] block = FilterPolicySpec.rocksDbBlock(filter);
    Files.write(output, block);
    PrintWriter err = spec.commandLine().getErr();
    err.printf(
        java.util.Locale.ROOT,
        "sieve: wrote %d bytes (%s, %d keys, %.3f bits/key, modelled FPR %.6f) to %s%n",
        block.length,
        filter.getClass().getSimpleName(),
        filter.numKeys(),
        filter.bitsPerKey(),
        filter.modelledFpRate(),
        output);
    err.flush();
    return 0;
  }

  private BufferedReader open() throws IOException {
    if (keysFile.equals("-")) {
      return new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }
    try {
      return Files.newBufferedReader(Path.of(keysFile), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new KeyInput.BadInputException("no such keys file: " + keysFile);
    }
  }
}
