import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.cassandra.io.util.DataOutputBuffer;
import org.apache.cassandra.utils.FilterFactory;
import org.apache.cassandra.utils.IFilter;
import org.apache.cassandra.utils.MurmurHash;

/** Writes a Filter.db with Cassandra's own FilterFactory and serializer, and Cassandra's answers for absent keys; see generate.sh. */
public class CassandraFilterGolden {
  public static void main(String[] args) throws Exception {
    String out = args[0];
    int n = Integer.parseInt(args[1]);
    double fp = Double.parseDouble(args[2]);
    int probes = Integer.parseInt(args[3]);
    IFilter f;
    try {
      f = (IFilter) FilterFactory.class.getMethod("getFilter", long.class, double.class)
          .invoke(null, (long) n, fp);
    } catch (NoSuchMethodException e) { // 3.x: (n, fp, offheap, oldBfHashOrder)
      f = (IFilter) FilterFactory.class
          .getMethod("getFilter", long.class, double.class, boolean.class, boolean.class)
          .invoke(null, (long) n, fp, true, false);
    }
    for (int i = 0; i < n; i++) {
      f.add(key("key-" + i));
    }
    DataOutputBuffer buf = new DataOutputBuffer();
    Method ser;
    try {
      ser = FilterFactory.class.getMethod("serialize", IFilter.class,
          org.apache.cassandra.io.util.DataOutputPlus.class);
      ser.invoke(null, f, buf);
    } catch (NoSuchMethodException e) {
      Class<?> s = Class.forName("org.apache.cassandra.utils.BloomFilterSerializer");
      Class<?> bf = Class.forName("org.apache.cassandra.utils.BloomFilter");
      try { // 4.x: a static serialize
        ser = s.getMethod("serialize", bf, org.apache.cassandra.io.util.DataOutputPlus.class);
        ser.invoke(null, f, buf);
      } catch (NoSuchMethodException e2) { // 5.0: the current ("na" and later) instance
        Object current = s.getField("newFormatInstance").get(null);
        ser = s.getMethod("serialize", bf,
            Class.forName("org.apache.cassandra.io.util.DataOutputStreamPlus"));
        ser.invoke(current, f, buf);
      }
    }
    try (FileOutputStream o = new FileOutputStream(out + "-Filter.db")) {
      o.write(buf.toByteArray());
    }
    // Cassandra's answer for each absent key "probe-i": one character per key.
    StringBuilder answers = new StringBuilder();
    for (int i = 0; i < probes; i++) {
      answers.append(f.isPresent(key("probe-" + i)) ? '1' : '0');
    }
    try (FileOutputStream o = new FileOutputStream(out + "-answers.txt")) {
      o.write((answers + "\n").getBytes(StandardCharsets.US_ASCII));
    }
  }

  /** A text partition key: its UTF-8 bytes, hashed as DecoratedKey.filterHash does. */
  static IFilter.FilterKey key(String s) {
    ByteBuffer b = ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    return dest -> MurmurHash.hash3_x64_128(b, b.position(), b.remaining(), 0, dest);
  }
}
