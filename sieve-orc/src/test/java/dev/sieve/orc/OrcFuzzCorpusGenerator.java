package dev.sieve.orc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcProto;
import org.apache.orc.protobuf.ByteString;

/**
 * Writes the seed corpus of {@link OrcFileFuzzTest} (small files written by orc-core, and their
 * halves) and {@link OrcBloomStreamFuzzTest} (a file's first Bloom filter stream, uncompressed).
 * Run once from the sieve-orc directory with the test class path (not part of the suite): {@code
 * java -cp target/test-classes:target/classes:<test deps> dev.sieve.orc.OrcFuzzCorpusGenerator
 * src/test/resources}.
 */
public final class OrcFuzzCorpusGenerator {
  private OrcFuzzCorpusGenerator() {}

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources").resolve("dev/sieve/orc");
    Path files = root.resolve("OrcFileFuzzTestInputs/fuzz");
    Path streams = root.resolve("OrcBloomStreamFuzzTestInputs/fuzz");
    Files.createDirectories(files);
    Files.createDirectories(streams);
    Path tmp = Files.createTempDirectory("sieve-orc-corpus");
    Object[][] shapes = {
      {3L, CompressionKind.NONE}, {40L, CompressionKind.ZLIB}, {2500L, CompressionKind.NONE}
    };
    for (Object[] s : shapes) {
      long rows = (Long) s[0];
      CompressionKind codec = (CompressionKind) s[1];
      Path f = OrcTestFiles.write(tmp, "f" + rows + ".orc", rows, codec, 0.2, 1000);
      byte[] bytes = Files.readAllBytes(f);
      String name = "seed-rows" + rows + "-" + codec.name().toLowerCase();
      Files.write(files.resolve(name), bytes);
      Files.write(files.resolve(name + "-cut"), Arrays.copyOf(bytes, bytes.length / 2));
      if (codec == CompressionKind.NONE) {
        // the stripe's filters as both stream forms (orc-core's protobuf classes write them)
        OrcProto.BloomFilterIndex.Builder utf8 = OrcProto.BloomFilterIndex.newBuilder();
        OrcProto.BloomFilterIndex.Builder plain = OrcProto.BloomFilterIndex.newBuilder();
        for (OrcFile.RowGroup g : OrcFile.of(bytes).rowGroups(0)) {
          utf8.addBloomFilter(
              OrcProto.BloomFilter.newBuilder()
                  .setNumHashFunctions(g.filter().numHashFunctions())
                  .setUtf8Bitset(ByteString.copyFrom(g.filter().utf8Bitset())));
          OrcProto.BloomFilter.Builder p = OrcProto.BloomFilter.newBuilder();
          p.setNumHashFunctions(g.filter().numHashFunctions());
          for (long w : g.filter().bitset()) {
            p.addBitset(w);
          }
          plain.addBloomFilter(p);
        }
        Files.write(streams.resolve(name + "-utf8"), utf8.build().toByteArray());
        Files.write(streams.resolve(name + "-plain"), plain.build().toByteArray());
      }
    }
    try (var walk = Files.walk(tmp)) { // the files and Hadoop's .crc files beside them
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
