package dev.sieve.internal;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The per-class serialized forms (payload codecs) of the filters whose container payload is their
 * own form (standard Bloom, Xor, Binary Fuse, Cuckoo), reachable inside the module only: each class
 * registers its package-private writer and readers here when it is initialized, and the container
 * ({@code dev.sieve.format}) and the tests use them. Public persistence is the container and the
 * RocksDB blocks; this package is not exported.
 */
public final class PayloadForms {
  private PayloadForms() {}

  /**
   * One class's form.
   *
   * @param <F> the filter class
   */
  public static final class Form<F> {
    private final Function<F, byte[]> writer;
    private final BiFunction<byte[], Long, F> reader;
    private final BiFunction<ByteBuffer, Long, F> wrapper;

    Form(
        Function<F, byte[]> writer,
        BiFunction<byte[], Long, F> reader,
        BiFunction<ByteBuffer, Long, F> wrapper) {
      this.writer = writer;
      this.reader = reader;
      this.wrapper = wrapper;
    }

    /** The serialized form of {@code filter}. */
    public byte[] write(F filter) {
      return writer.apply(filter);
    }

    /** Reads the form onto the heap; {@code numKeys} where the form does not store it. */
    public F read(byte[] bytes, long numKeys) {
      return reader.apply(bytes, numKeys);
    }

    /** Reads the form in place from the buffer's position to its limit. */
    public F wrap(ByteBuffer bytes, long numKeys) {
      return wrapper.apply(bytes, numKeys);
    }
  }

  private static final Map<Class<?>, Form<?>> FORMS = new ConcurrentHashMap<>();
  private static final Map<Class<?>, PayloadForm<?>> PAYLOAD_FORMS = new ConcurrentHashMap<>();

  /**
   * Registers a filter class's container payload form (from the class's static initializer).
   *
   * @param form the form; its {@link PayloadForm#filterClass()} is the key
   */
  public static void register(PayloadForm<?> form) {
    PAYLOAD_FORMS.put(form.filterClass(), form);
  }

  /**
   * The container payload form of {@code cls}, initializing the class (which registers it) if need
   * be.
   *
   * @throws IllegalArgumentException if the class registers none
   */
  @SuppressWarnings("unchecked")
  public static <F extends dev.sieve.Filter> PayloadForm<F> form(Class<F> cls) {
    Objects.requireNonNull(cls, "cls");
    PayloadForm<?> form = PAYLOAD_FORMS.get(cls);
    if (form == null) {
      initialize(cls);
      form = PAYLOAD_FORMS.get(cls);
    }
    if (form == null) {
      throw new IllegalArgumentException(cls.getName() + " registers no container payload form");
    }
    return (PayloadForm<F>) form;
  }

  private static void initialize(Class<?> cls) {
    try {
      Class.forName(cls.getName(), true, cls.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Registers {@code cls}'s form (from its static initializer). */
  public static <F> void register(
      Class<F> cls,
      Function<F, byte[]> writer,
      BiFunction<byte[], Long, F> reader,
      BiFunction<ByteBuffer, Long, F> wrapper) {
    FORMS.put(cls, new Form<>(writer, reader, wrapper));
  }

  /**
   * The form of {@code cls}, initializing the class (which registers it) if need be.
   *
   * @throws IllegalArgumentException if the class has no form of its own
   */
  @SuppressWarnings("unchecked")
  public static <F> Form<F> of(Class<F> cls) {
    Objects.requireNonNull(cls, "cls");
    Form<?> form = FORMS.get(cls);
    if (form == null) {
      initialize(cls);
      form = FORMS.get(cls);
    }
    if (form == null) {
      throw new IllegalArgumentException(cls.getName() + " has no serialized form of its own");
    }
    return (Form<F>) form;
  }
}
