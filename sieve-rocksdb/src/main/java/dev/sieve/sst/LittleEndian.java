package dev.sieve.sst;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian fixed-width reads of byte arrays (RocksDB's {@code DecodeFixed32/64}). */
final class LittleEndian {
  private LittleEndian() {}

  private static final VarHandle LE64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LE32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  static long u64(byte[] b, int off) {
    return (long) LE64.get(b, off);
  }

  /** The unsigned 32-bit value at {@code off}, widened to a long. */
  static long u32(byte[] b, int off) {
    return ((int) LE32.get(b, off)) & 0xFFFFFFFFL;
  }

  static int i32(byte[] b, int off) {
    return (int) LE32.get(b, off);
  }

  static void putI32(byte[] b, int off, int v) {
    LE32.set(b, off, v);
  }
}
