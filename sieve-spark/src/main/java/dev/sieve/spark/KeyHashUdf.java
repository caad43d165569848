package dev.sieve.spark;

import org.apache.spark.sql.api.java.UDF1;

/**
 * {@code sieve_key_hash(key)}: the Sieve key hash of a {@code bigint}, {@code int}, {@code string}
 * or {@code binary} value ({@link KeyType}), {@code null} for {@code null}.
 */
final class KeyHashUdf implements UDF1<Object, Long> {
  private static final long serialVersionUID = 1L;

  @Override
  public Long call(Object key) {
    return key == null ? null : KeyType.hashAny(key);
  }
}
