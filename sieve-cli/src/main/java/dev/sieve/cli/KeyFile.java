package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.range.RangeFilter;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The keys file of {@code sieve build --keys}: one key a line, read strictly ({@link KeyLines}).
 */
final class KeyFile {
  private KeyFile() {}

  /**
   * The keys of {@code keysFile}, sorted bytewise and de-duplicated unless {@code keepOrder}; null
   * after printing the one-line error on {@code err} for a bad file or line, or for a file without
   * keys (a filter of none answers absent for every key: almost surely the wrong file).
   */
  static List<byte[]> read(
      Path keysFile, KeyForm form, boolean allowEmptyKey, boolean keepOrder, PrintWriter err) {
    List<byte[]> keys = new ArrayList<>();
    try (InputStream in = Files.newInputStream(keysFile)) {
      KeyLines lines = new KeyLines(in, form, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          keys.add(key);
        }
      } catch (KeyLines.BadLine e) {
        err.println("sieve build: " + keysFile + ": " + e.getMessage());
        err.flush();
        return null;
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      SstCliSupport.badFile(err, "build", keysFile.toString(), e);
      return null;
    }
    if (keys.isEmpty()) {
      // a filter of no keys answers absent for every key: almost surely the wrong file
      err.println(
          "sieve build: "
              + keysFile
              + ": no keys (the file is empty); a filter of 0 keys answers absent for every"
              + " key, so nothing was written");
      err.flush();
      return null;
    }
    if (!keepOrder) {
      keys.sort(Arrays::compareUnsigned);
      List<byte[]> distinct = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        if (distinct.isEmpty() || !Arrays.equals(distinct.get(distinct.size() - 1), k)) {
          distinct.add(k);
        }
      }
      keys = distinct;
    }
    return keys;
  }

  /**
   * The {@code long} each key of {@code --long} stands for (its 8 big-endian bytes), or of {@code
   * --int} (its 4, widened).
   */
  static long[] asLongs(List<byte[]> keys) {
    long[] out = new long[keys.size()];
    for (int i = 0; i < out.length; i++) {
      ByteBuffer key = ByteBuffer.wrap(keys.get(i));
      out[i] = key.remaining() == Integer.BYTES ? key.getInt() : key.getLong();
    }
    return out;
  }

  /**
   * The filter of {@code keys} in {@code form}, hashed as the library hashes that form of key: a
   * range filter of {@code --long} keys over the numbers themselves (it answers range queries; over
   * their bytes' hashes it would answer points only). Under {@link KeyScheme#FAST}, the default
   * where no format fixes the hash, a number and its bytes are two keys, so numbers are built as
   * numbers: {@code --int} keys under FAST ({@code mayContainInt} asks for the {@code long} of the
   * same value), {@code --long} keys under {@link KeyScheme#MIX64}, FAST's hash of a {@code long}
   * restricted to {@code long}s, which the container records so that {@code query} takes decimal
   * longs by itself. Under XXPH3 a number is its bytes.
   */
  static Filter build(
      FilterType type, FilterBuilder<? extends Filter> builder, List<byte[]> keys, KeyForm form) {
    boolean number = form == KeyForm.LONG || form == KeyForm.INT;
    if (form == KeyForm.LONG && RangeFilter.class.isAssignableFrom(type.filterClass())) {
      return builder.build(asLongs(keys));
    }
    if (number && builder.keyScheme() == KeyScheme.FAST) {
      return (form == KeyForm.LONG ? builder.keyScheme(KeyScheme.MIX64) : builder)
          .build(asLongs(keys));
    }
    return builder.build(keys);
  }
}
