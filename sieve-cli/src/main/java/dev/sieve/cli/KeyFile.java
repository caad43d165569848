package dev.sieve.cli;

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

  /** The {@code long} each key of {@code --long} stands for (its 8 big-endian bytes). */
  static long[] asLongs(List<byte[]> keys) {
    long[] out = new long[keys.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ByteBuffer.wrap(keys.get(i)).getLong();
    }
    return out;
  }
}
