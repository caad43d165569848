package dev.sieve.parquet;

/**
 * The names of the logical and converted types of Parquet's schema (apache/parquet-format:
 * parquet.thrift, the {@code LogicalType} union's members and the {@code ConvertedType} enum), as
 * {@link ParquetFooter} reports a column's annotation. A table apart from the footer's parser: new
 * format versions add names here without touching how the footer is read.
 */
final class ParquetTypeNames {
  private ParquetTypeNames() {}

  // LogicalType's members by field id (10 was the withdrawn NULL member)
  private static final String[] LOGICAL = {
    null,
    "STRING",
    "MAP",
    "LIST",
    "ENUM",
    "DECIMAL",
    "DATE",
    "TIME",
    "TIMESTAMP",
    null,
    "INTEGER",
    "UNKNOWN",
    "JSON",
    "BSON",
    "UUID",
    "FLOAT16",
    "VARIANT",
    "GEOMETRY",
    "GEOGRAPHY"
  };

  /**
   * The name of LogicalType union member {@code id}, or {@code LOGICAL#id} for one unknown here.
   */
  static String logical(int id) {
    return id > 0 && id < LOGICAL.length && LOGICAL[id] != null ? LOGICAL[id] : "LOGICAL#" + id;
  }

  // ConvertedType's values, from 0
  private static final String[] CONVERTED = {
    "UTF8",
    "MAP",
    "MAP_KEY_VALUE",
    "LIST",
    "ENUM",
    "DECIMAL",
    "DATE",
    "TIME_MILLIS",
    "TIME_MICROS",
    "TIMESTAMP_MILLIS",
    "TIMESTAMP_MICROS",
    "UINT_8",
    "UINT_16",
    "UINT_32",
    "UINT_64",
    "INT_8",
    "INT_16",
    "INT_32",
    "INT_64",
    "JSON",
    "BSON",
    "INTERVAL"
  };

  /** The name of ConvertedType {@code v}, or {@code CONVERTED#v} for one unknown here. */
  static String converted(int v) {
    return v >= 0 && v < CONVERTED.length ? CONVERTED[v] : "CONVERTED#" + v;
  }
}
