package dev.sieve.spark;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import java.nio.ByteBuffer;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.api.java.UDF1;

/**
 * {@code might_contain(key)}: whether a broadcast Sieve filter may contain the key; {@code null}
 * for a null key (so a {@code WHERE} drops it). The container bytes travel once per executor as a
 * broadcast variable and are read in place ({@link SieveFormat#wrap}) once per task.
 */
final class MightContainUdf implements UDF1<Object, Boolean> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<byte[]> container;
  private final KeyType keyType;
  private transient Filter filter;

  MightContainUdf(Broadcast<byte[]> container, KeyType keyType) {
    this.container = container;
    this.keyType = keyType;
  }

  @Override
  public Boolean call(Object key) {
    if (key == null) {
      return null;
    }
    Filter f = filter;
    if (f == null) {
      f = SieveFormat.wrap(ByteBuffer.wrap(container.value()), false); // checked on the driver
      filter = f;
    }
    return f.mayContainHash(keyType.hash(key));
  }
}
