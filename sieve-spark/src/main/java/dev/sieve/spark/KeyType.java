package dev.sieve.spark;

import dev.sieve.hash.KeyHash;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark column types Sieve filters keys of, and how each value becomes the bytes Sieve hashes
 * ({@link KeyHash#hash64(byte[])}), so that a filter built on Spark answers exactly as one built in
 * one JVM from the same keys:
 *
 * <ul>
 *   <li>{@link #LONG} ({@code bigint}): the eight big-endian bytes, {@link KeyHash#hash64(long)};
 *   <li>{@link #INT} ({@code int}): the four big-endian bytes;
 *   <li>{@link #STRING} ({@code string}): the UTF-8 bytes;
 *   <li>{@link #BINARY} ({@code binary}): the bytes themselves.
 * </ul>
 *
 * So the int 7 and the long 7 are different keys (4 and 8 bytes), as in sieve-core. A filter does
 * not record the type of its keys (the container holds hashes); {@link SparkFilter} carries it, and
 * every query checks it against the column's type.
 */
public enum KeyType {
  LONG(DataTypes.LongType, Long.class),
  INT(DataTypes.IntegerType, Integer.class),
  STRING(DataTypes.StringType, String.class),
  BINARY(DataTypes.BinaryType, byte[].class);

  private final DataType sparkType;
  private final Class<?> javaClass;

  KeyType(DataType sparkType, Class<?> javaClass) {
    this.sparkType = sparkType;
    this.javaClass = javaClass;
  }

  /** The Spark SQL type of the key column. */
  public DataType sparkType() {
    return sparkType;
  }

  /** The encoder of the key column's values, for typed aggregations. */
  @SuppressWarnings("unchecked")
  <T> Encoder<T> encoder() {
    switch (this) {
      case LONG:
        return (Encoder<T>) Encoders.LONG();
      case INT:
        return (Encoder<T>) Encoders.INT();
      case STRING:
        return (Encoder<T>) Encoders.STRING();
      default:
        return (Encoder<T>) Encoders.BINARY();
    }
  }

  /**
   * The key type of {@code column} in {@code schema}.
   *
   * @throws IllegalArgumentException naming the column if it is missing or of another type
   */
  public static KeyType of(StructType schema, String column) {
    StructField field = null;
    for (StructField f : schema.fields()) {
      if (f.name().equals(column)) {
        field = f;
      }
    }
    if (field == null) {
      throw new IllegalArgumentException(
          "no column `" + column + "` among " + String.join(", ", schema.fieldNames()));
    }
    for (KeyType t : values()) {
      if (t.sparkType.equals(field.dataType())) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "column `"
            + column
            + "` is of type "
            + field.dataType().simpleString()
            + "; Sieve keys are bigint, int, string or binary (cast the column)");
  }

  /** The key type of a value as Spark hands it to a Java function, or {@code null}. */
  static KeyType ofValue(Object value) {
    for (KeyType t : values()) {
      if (t.javaClass.isInstance(value)) {
        return t;
      }
    }
    return null;
  }

  /**
   * The Sieve key hash of a non-null value of this type.
   *
   * @throws IllegalArgumentException if the value is of another type (a filter queried with a
   *     column of another key type)
   */
  public long hash(Object value) {
    if (!javaClass.isInstance(value)) {
      KeyType actual = ofValue(value);
      throw new IllegalArgumentException(
          "a filter over "
              + this
              + " keys ("
              + sparkType.simpleString()
              + ") was given a "
              + (actual != null
                  ? actual + " key (" + actual.sparkType.simpleString() + ")"
                  : value.getClass().getName())
              + ": query it with a column of the type it was built from");
    }
    return hashOf(value);
  }

  /** The hash of a value whose class is one of the four key classes. */
  static long hashAny(Object value) {
    KeyType t = ofValue(value);
    if (t == null) {
      throw new IllegalArgumentException(
          "a Sieve key is a bigint, int, string or binary value, not a "
              + value.getClass().getName());
    }
    return t.hashOf(value);
  }

  private long hashOf(Object value) {
    switch (this) {
      case LONG:
        return KeyHash.hash64((Long) value);
      case INT:
        int v = (Integer) value;
        return KeyHash.hash64(
            new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
      case STRING:
        return KeyHash.hash64(((String) value).getBytes(StandardCharsets.UTF_8));
      default:
        return KeyHash.hash64((byte[]) value);
    }
  }
}
