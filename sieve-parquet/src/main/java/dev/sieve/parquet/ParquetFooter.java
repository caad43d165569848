package dev.sieve.parquet;

import dev.sieve.parquet.ParquetFile.Column;
import dev.sieve.parquet.ParquetFile.ColumnChunk;
import dev.sieve.parquet.ParquetFile.PhysicalType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parquet's footer, the {@code FileMetaData} struct (apache/parquet-format: parquet.thrift), read
 * with {@link ThriftCompactReader}: the fields {@link ParquetFile} needs are kept and every other
 * field is skipped whatever its type, so files from newer writers read.
 *
 * <h2>What is kept</h2>
 *
 * <ul>
 *   <li>{@code FileMetaData.schema} (field 2): the schema tree flattened depth-first; each {@code
 *       SchemaElement} gives its type (1), type_length (2), name (4), num_children (5),
 *       converted_type (6) and logicalType (10, only the union member's name). Its leaves, with
 *       their paths below the root, are the columns.
 *   <li>{@code FileMetaData.row_groups} (4): each {@code RowGroup}'s column chunks (field 1), and
 *       each chunk's {@code ColumnMetaData} (ColumnChunk field 3): physical type (1),
 *       path_in_schema (3), num_values (5), statistics (12: null_count 3, distinct_count 4),
 *       bloom_filter_offset (14) and bloom_filter_length (15).
 * </ul>
 *
 * <h2>Checks</h2>
 *
 * Besides the Thrift reader's own: a schema must be present, its child counts must add up to a
 * single tree below the root, every leaf must have a physical type, every column chunk must have
 * its meta_data (an encrypted column has none) with type, path and value count, and its path and
 * type must match a leaf of the schema. Negative Bloom filter offsets or lengths are refused;
 * negative statistics are read as absent. Each problem is a {@link dev.sieve.SieveFormatException}
 * naming the file offset.
 */
final class ParquetFooter {

  /**
   * What the footer gives {@link ParquetFile}.
   *
   * @param columns the leaf columns, in schema order (unmodifiable)
   * @param chunks every column chunk of every row group, in file order (unmodifiable)
   * @param numRowGroups the number of row groups
   */
  record Contents(List<Column> columns, List<ColumnChunk> chunks, int numRowGroups) {}

  private final ThriftCompactReader r;
  private final List<SchemaElement> schema = new ArrayList<>();
  private final List<RawChunk> raw = new ArrayList<>();
  private int rowGroups;

  private ParquetFooter(ThriftCompactReader r) {
    this.r = r;
  }

  /**
   * Reads the {@code FileMetaData} struct at {@code r}'s position.
   *
   * @throws dev.sieve.SieveFormatException if the Thrift is malformed, the schema is missing or its
   *     child counts do not add up, or a column chunk matches no leaf column
   */
  static Contents read(ThriftCompactReader r) {
    return new ParquetFooter(r).parse();
  }

  private record SchemaElement(
      String name, int type, int typeLength, int numChildren, String annotation) {}

  private record RawChunk(
      int rowGroup,
      List<String> path,
      int type,
      long numValues,
      long nullCount,
      long distinctCount,
      long bloomOffset,
      int bloomLength) {}

  private Contents parse() {
    r.enter();
    boolean sawSchema = false;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() == 2) {
        r.expect(f, ThriftCompactReader.LIST, "FileMetaData.schema");
        readList(this::readSchemaElement, "FileMetaData.schema");
        sawSchema = true;
      } else if (f.id() == 4) {
        r.expect(f, ThriftCompactReader.LIST, "FileMetaData.row_groups");
        readList(this::readRowGroup, "FileMetaData.row_groups");
      } else {
        r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (!sawSchema || schema.isEmpty()) {
      throw r.error("FileMetaData has no schema");
    }
    List<Column> leaves = leaves();
    Map<String, Column> byPath = new HashMap<>();
    for (Column c : leaves) {
      byPath.put(c.dottedPath(), c);
    }
    List<ColumnChunk> chunks = new ArrayList<>(raw.size());
    for (RawChunk c : raw) {
      Column col = byPath.get(String.join(".", c.path()));
      PhysicalType type = physical(c.type());
      if (col == null || col.type() != type) {
        throw r.error(
            "column chunk "
                + String.join(".", c.path())
                + " ("
                + type
                + ") in row group "
                + c.rowGroup()
                + " matches no leaf column of the schema");
      }
      chunks.add(
          new ColumnChunk(
              c.rowGroup(),
              col,
              c.numValues(),
              c.nullCount(),
              c.distinctCount(),
              c.bloomOffset(),
              c.bloomLength()));
    }
    return new Contents(
        Collections.unmodifiableList(leaves), Collections.unmodifiableList(chunks), rowGroups);
  }

  @SuppressWarnings("EnumOrdinal") // PhysicalType is declared in Parquet's Thrift id order
  private PhysicalType physical(int t) {
    if (t < 0 || t >= PhysicalType.values().length) {
      throw r.error("unknown Parquet physical type " + t);
    }
    return PhysicalType.values()[t];
  }

  private void readList(Runnable element, String what) {
    r.enter();
    ThriftCompactReader.ListHeader h = r.readListHeader();
    if (h.elementType() != ThriftCompactReader.STRUCT) {
      throw r.error(what + " holds Thrift type " + h.elementType() + ", not structs");
    }
    for (int i = 0; i < h.size(); i++) {
      element.run();
    }
    r.leave();
  }

  private void readSchemaElement() {
    r.enter();
    String name = null;
    int type = -1;
    int typeLength = -1;
    int numChildren = -1;
    String converted = null;
    String logical = null;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      switch (f.id()) {
        case 1 -> {
          r.expect(f, ThriftCompactReader.I32, "SchemaElement.type");
          type = r.readI32();
        }
        case 2 -> {
          r.expect(f, ThriftCompactReader.I32, "SchemaElement.type_length");
          typeLength = r.readI32();
        }
        case 4 -> {
          r.expect(f, ThriftCompactReader.BINARY, "SchemaElement.name");
          name = r.readString();
        }
        case 5 -> {
          r.expect(f, ThriftCompactReader.I32, "SchemaElement.num_children");
          numChildren = r.readI32();
          if (numChildren < 0) {
            throw r.error("SchemaElement.num_children " + numChildren + " is negative");
          }
        }
        case 6 -> {
          r.expect(f, ThriftCompactReader.I32, "SchemaElement.converted_type");
          converted = ParquetTypeNames.converted(r.readI32());
        }
        case 10 -> {
          r.expect(f, ThriftCompactReader.STRUCT, "SchemaElement.logicalType");
          logical = readLogicalType();
        }
        default -> r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (name == null) {
      throw r.error("SchemaElement without a name");
    }
    schema.add(
        new SchemaElement(
            name, type, typeLength, numChildren, logical != null ? logical : converted));
  }

  /** The LogicalType union's member name (its field id), skipping its parameters. */
  private String readLogicalType() {
    r.enter();
    String name = null;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      name = ParquetTypeNames.logical(f.id());
      r.skip(f.type(), false);
      last = f.id();
    }
    r.leave();
    return name;
  }

  private void readRowGroup() {
    int group = rowGroups++;
    r.enter();
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() == 1) {
        r.expect(f, ThriftCompactReader.LIST, "RowGroup.columns");
        readList(() -> readColumnChunk(group), "RowGroup.columns");
      } else {
        r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
  }

  private void readColumnChunk(int group) {
    r.enter();
    boolean sawMeta = false;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() == 3) {
        r.expect(f, ThriftCompactReader.STRUCT, "ColumnChunk.meta_data");
        readColumnMetaData(group);
        sawMeta = true;
      } else {
        r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (!sawMeta) {
      throw r.error(
          "a column chunk in row group " + group + " has no meta_data (encrypted column?)");
    }
  }

  private void readColumnMetaData(int group) {
    r.enter();
    int type = -1;
    List<String> path = null;
    long numValues = -1;
    long[] stats = {-1, -1};
    long bloomOffset = -1;
    int bloomLength = -1;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      switch (f.id()) {
        case 1 -> {
          r.expect(f, ThriftCompactReader.I32, "ColumnMetaData.type");
          type = r.readI32();
        }
        case 3 -> {
          r.expect(f, ThriftCompactReader.LIST, "ColumnMetaData.path_in_schema");
          path = readStringList();
        }
        case 5 -> {
          r.expect(f, ThriftCompactReader.I64, "ColumnMetaData.num_values");
          numValues = r.readI64();
        }
        case 12 -> {
          r.expect(f, ThriftCompactReader.STRUCT, "ColumnMetaData.statistics");
          readStatistics(stats);
        }
        case 14 -> {
          r.expect(f, ThriftCompactReader.I64, "ColumnMetaData.bloom_filter_offset");
          bloomOffset = r.readI64();
          if (bloomOffset < 0) {
            throw r.error("bloom_filter_offset " + bloomOffset + " is negative");
          }
        }
        case 15 -> {
          r.expect(f, ThriftCompactReader.I32, "ColumnMetaData.bloom_filter_length");
          bloomLength = r.readI32();
          if (bloomLength < 0) {
            throw r.error("bloom_filter_length " + bloomLength + " is negative");
          }
        }
        default -> r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (type < 0 || path == null || numValues < 0) {
      throw r.error(
          "ColumnMetaData lacks its type, path_in_schema or num_values (row group " + group + ")");
    }
    raw.add(
        new RawChunk(group, path, type, numValues, stats[0], stats[1], bloomOffset, bloomLength));
  }

  private List<String> readStringList() {
    r.enter();
    ThriftCompactReader.ListHeader h = r.readListHeader();
    if (h.elementType() != ThriftCompactReader.BINARY) {
      throw r.error("path_in_schema holds Thrift type " + h.elementType() + ", not strings");
    }
    List<String> out = new ArrayList<>(h.size());
    for (int i = 0; i < h.size(); i++) {
      out.add(r.readString());
    }
    r.leave();
    return List.copyOf(out);
  }

  private void readStatistics(long[] out) {
    r.enter();
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() == 3 && f.type() == ThriftCompactReader.I64) {
        out[0] = r.readI64();
      } else if (f.id() == 4 && f.type() == ThriftCompactReader.I64) {
        out[1] = r.readI64();
      } else {
        r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (out[0] < -1) {
      out[0] = -1;
    }
    if (out[1] < -1) {
      out[1] = -1;
    }
  }

  /** The leaves of the flattened schema tree, with their paths below the root. */
  private List<Column> leaves() {
    List<Column> out = new ArrayList<>();
    Deque<int[]> left = new ArrayDeque<>(); // children still to come, per open group
    Deque<String> names = new ArrayDeque<>();
    SchemaElement root = schema.get(0);
    left.push(new int[] {Math.max(0, root.numChildren())});
    for (int i = 1; i < schema.size(); i++) {
      while (!left.isEmpty() && left.peek()[0] == 0) {
        left.pop();
        if (!names.isEmpty()) {
          names.pop();
        }
      }
      if (left.isEmpty()) {
        throw r.error(
            "schema element " + i + " of " + schema.size() + " is outside the root's tree");
      }
      left.peek()[0]--;
      SchemaElement e = schema.get(i);
      if (e.numChildren() > 0) {
        left.push(new int[] {e.numChildren()});
        names.push(e.name());
      } else {
        List<String> path = new ArrayList<>(names.size() + 1);
        names.descendingIterator().forEachRemaining(path::add);
        path.add(e.name());
        if (e.type() < 0) {
          throw r.error("schema leaf " + String.join(".", path) + " has no physical type");
        }
        out.add(
            new Column(
                List.copyOf(path),
                physical(e.type()),
                physical(e.type()) == PhysicalType.FIXED_LEN_BYTE_ARRAY ? e.typeLength() : -1,
                e.annotation()));
      }
    }
    return out;
  }
}
