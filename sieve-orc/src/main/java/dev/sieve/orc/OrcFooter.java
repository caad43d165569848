package dev.sieve.orc;

import dev.sieve.SieveFormatException;
import dev.sieve.orc.OrcFile.Column;
import dev.sieve.orc.OrcFile.Kind;
import dev.sieve.orc.OrcFile.Stripe;
import java.util.ArrayList;
import java.util.List;

/**
 * ORC's file {@code Footer} message (orc_proto.proto), decompressed and parsed: the stripes (field
 * 3, {@code StripeInformation}: offset 1, indexLength 2, dataLength 3, footerLength 4, numberOfRows
 * 5), the type tree (4, {@code Type}: kind 1, subtypes 2, fieldNames 3) flattened into dotted
 * column names, the number of rows (6) and the row index stride (8); other fields are skipped.
 * {@link OrcFile} reads the PostScript, finds and decompresses this message, and checks the stripes
 * against the file's bytes.
 *
 * <p>The type tree must be one tree below type 0: each child comes after its parent and belongs to
 * one parent only; a struct's children are named by its field names, a list's element {@code
 * _elem}, a map's {@code _key} and {@code _value}, any other child {@code _i}.
 */
record OrcFooter(
    List<Stripe> stripes, List<Column> columns, long numberOfRows, int rowIndexStride) {

  /** Parses the footer message {@code f}, its problems reported at {@code footerOffset}. */
  static OrcFooter read(ProtoReader f, long footerOffset) {
    List<Stripe> stripeList = new ArrayList<>();
    List<TypeNode> types = new ArrayList<>();
    long rows = 0;
    int stride = 0;
    while (f.next()) {
      switch (f.field()) {
        case 3 -> stripeList.add(stripe(f.message("StripeInformation"), stripeList.size()));
        case 4 -> {
          if (types.size() >= OrcFile.MAX_TYPES) {
            throw f.error("more than " + OrcFile.MAX_TYPES + " types");
          }
          types.add(type(f.message("Type")));
        }
        case 6 -> rows = f.longIn("numberOfRows", 0, Long.MAX_VALUE);
        case 8 -> stride = f.intIn("rowIndexStride", 0, Integer.MAX_VALUE);
        default -> f.skip();
      }
    }
    return new OrcFooter(List.copyOf(stripeList), columns(types, footerOffset), rows, stride);
  }

  private static Stripe stripe(ProtoReader r, int index) {
    long offset = -1;
    long indexLength = 0;
    long dataLength = 0;
    long footerLength = 0;
    long rows = 0;
    long max = Long.MAX_VALUE / 4;
    while (r.next()) {
      switch (r.field()) {
        case 1 -> offset = r.longIn("offset", 0, max);
        case 2 -> indexLength = r.longIn("indexLength", 0, max);
        case 3 -> dataLength = r.longIn("dataLength", 0, max);
        case 4 -> footerLength = r.longIn("footerLength", 0, OrcFile.MAX_METADATA_BYTES);
        case 5 -> rows = r.longIn("numberOfRows", 0, max);
        default -> r.skip();
      }
    }
    if (offset < 0) {
      throw r.error("stripe " + index + " has no offset");
    }
    return new Stripe(index, offset, indexLength, dataLength, footerLength, rows);
  }

  private record TypeNode(Kind kind, List<Integer> children, List<String> names) {}

  private static TypeNode type(ProtoReader r) {
    Kind kind = null;
    List<Integer> children = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (r.next()) {
      switch (r.field()) {
        case 1 -> kind = OrcFile.enumValue(Kind.values(), r, "kind");
        case 2 ->
            r.repeatedUint32("subtypes", v -> children.add((int) Math.min(v, OrcFile.MAX_TYPES)));
        case 3 -> names.add(r.string("fieldNames"));
        default -> r.skip();
      }
    }
    if (kind == null) {
      throw r.error("Type has no kind");
    }
    return new TypeNode(kind, children, names);
  }

  private static List<Column> columns(List<TypeNode> types, long offset) {
    String[] names = new String[types.size()];
    if (names.length > 0) {
      names[0] = "";
    }
    List<Column> out = new ArrayList<>(types.size());
    for (int id = 0; id < types.size(); id++) {
      if (names[id] == null) {
        throw new SieveFormatException(offset, "Footer: type " + id + " is no type's child");
      }
      TypeNode t = types.get(id);
      for (int c = 0; c < t.children().size(); c++) {
        int child = t.children().get(c);
        if (child <= id || child >= types.size() || names[child] != null) {
          throw new SieveFormatException(
              offset,
              "Footer: type "
                  + id
                  + " names child "
                  + child
                  + " (children come after their parent,"
                  + " once, below "
                  + types.size()
                  + ")");
        }
        String field =
            t.kind() == Kind.STRUCT && c < t.names().size()
                ? t.names().get(c)
                : t.kind() == Kind.LIST
                    ? "_elem"
                    : t.kind() == Kind.MAP ? (c == 0 ? "_key" : "_value") : "_" + c;
        names[child] = names[id].isEmpty() ? field : names[id] + "." + field;
      }
      out.add(new Column(id, names[id], t.kind()));
    }
    return List.copyOf(out);
  }
}
