import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The Java Kafka Streams side of the kstreams bench (tools/bench, `npm run bench:java`): the same
 * workloads as the kstreams contenders, on Kafka Streams with its defaults (one stream thread,
 * at_least_once, commit.interval.ms 30000, a 10 MiB record cache), run by the bench in a fresh
 * JVM per run.
 *
 * <pre>
 * java -cp classes:libs/* KStreamsBench &lt;workload&gt; --bootstrap=host:port --input=topic --output=topic
 *     --app-id=id --state-dir=dir --records=N [--commit-interval-ms=N] [--threads=N (num.stream.threads)]
 * </pre>
 *
 * Workloads:
 * <ul>
 *   <li>passthrough: source (ByteArray serdes) -> sink (ByteArray serdes).</li>
 *   <li>count-papi: Processor API, source (String) -> a processor doing store.get(word),
 *       store.put(word, count + 1), forward((word, count)) on a RocksDB KeyValueStore
 *       (Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("Counts"), String, Long):
 *       logging on, caching off) -> sink (String, Long): one output record per input record.</li>
 *   <li>count-dsl: stream.peek(count processed).groupByKey().count(Materialized.as("Counts"))
 *       .toStream().to(output): RocksDB (the DSL default), the default record cache. The cache
 *       holds the output back until a commit, so the app itself says when it has processed
 *       --records input records (the peek, just before the count).</li>
 *   <li>restore: the count-papi application on an empty input topic, started with an empty state
 *       directory while its changelog ({app-id}-Counts-changelog, written beforehand by the bench)
 *       holds --records records: it says when it is RUNNING and the StateRestoreListener's
 *       onRestoreEnd and onRestoreSuspended calls add up to --records (with several stream
 *       threads a rebalance can suspend a restore, which goes on from its checkpoint).</li>
 * </ul>
 *
 * Protocol with the bench: lines "BENCH {json}" on stdout, commands on stdin. The program loads
 * the main classes (and RocksDB's native library for the workloads that use it), prints
 * {"type":"ready"} and waits for "start"; the bench starts its clock when it sends it. It then
 * builds the topology, starts KafkaStreams and prints {"type":"started"}; {"type":"first"} at the
 * first record processed (count-dsl) or the first onRestoreStart (restore), {"type":"half","records":n} when
 * half the records are processed or restored (onBatchRestored), {"type":"processed"} (count-dsl)
 * and {"type":"restored","records":N} (restore) at the end of the timed part. On "stop" it closes
 * KafkaStreams (a clean close: commit) and prints {"type":"stopped",...} with its own CPU time,
 * GC and heap. A stream thread that dies prints {"type":"failed","message":...}. Everything else
 * (SLF4J at WARN) goes to stderr.
 */
public final class KStreamsBench {
  static final String STORE = "Counts";

  private static final Object LOCK = new Object();
  /** count-dsl: records seen by the peek before the count (one stream thread). */
  private static long processed;
  /** restore: sum of totalRestored over the onRestoreEnd and onRestoreSuspended calls. */
  private static long restored;
  /** restore: sum of numRestored over the onBatchRestored calls. */
  private static long batchesRestored;
  private static boolean running;
  private static boolean restoreReported;
  private static boolean firstReported;

  private KStreamsBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) usage("no workload");
    String workload = args[0];
    Map<String, String> options = parseOptions(args);
    long records = Long.parseLong(require(options, "records"));
    boolean rocksdb = !workload.equals("passthrough");
    preload(rocksdb);
    emit("{\"type\":\"ready\"}");

    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    waitFor(stdin, "start");
    Topology topology;
    switch (workload) {
      case "passthrough":
        topology = passthrough(options);
        break;
      case "count-papi":
      case "restore":
        topology = countPapi(options);
        break;
      case "count-dsl":
        topology = countDsl(options, records);
        break;
      default:
        usage("unknown workload " + workload);
        return;
    }
    KafkaStreams streams = new KafkaStreams(topology, config(options));
    streams.setUncaughtExceptionHandler(
        error -> {
          emit("{\"type\":\"failed\",\"message\":" + json(String.valueOf(error)) + "}");
          return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
    if (workload.equals("restore")) watchRestore(streams, records);
    streams.start();
    emit("{\"type\":\"started\"}");

    waitFor(stdin, "stop");
    streams.close(Duration.ofSeconds(120));
    emit(stoppedMessage());
    System.exit(0);
  }

  /** Kafka Streams defaults, plus the ids, addresses and directories of this run. */
  static Properties config(Map<String, String> options) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, require(options, "app-id"));
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, require(options, "bootstrap"));
    props.put(StreamsConfig.STATE_DIR_CONFIG, require(options, "state-dir"));
    String commit = options.get("commit-interval-ms");
    if (commit != null) props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commit);
    String threads = options.get("threads");
    if (threads != null) props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
    return props;
  }

  static Topology passthrough(Map<String, String> options) {
    Topology topology = new Topology();
    topology.addSource(
        "Source",
        Serdes.ByteArray().deserializer(),
        Serdes.ByteArray().deserializer(),
        require(options, "input"));
    topology.addSink(
        "Sink",
        require(options, "output"),
        Serdes.ByteArray().serializer(),
        Serdes.ByteArray().serializer(),
        "Source");
    return topology;
  }

  static Topology countPapi(Map<String, String> options) {
    Serde<String> s = Serdes.String();
    StoreBuilder<KeyValueStore<String, Long>> store =
        Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), s, Serdes.Long());
    Topology topology = new Topology();
    topology.addSource("Words", s.deserializer(), s.deserializer(), require(options, "input"));
    topology.addProcessor("Count", CountProcessor::new, "Words");
    topology.addStateStore(store, "Count");
    topology.addSink(
        "Counts", require(options, "output"), s.serializer(), Serdes.Long().serializer(), "Count");
    return topology;
  }

  static Topology countDsl(Map<String, String> options, long records) {
    Serde<String> s = Serdes.String();
    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(require(options, "input"), Consumed.with(s, s))
        .peek((key, value) -> countProcessed(records))
        .groupByKey(Grouped.with(s, s))
        .count(Materialized.as(STORE))
        .toStream()
        .to(require(options, "output"), Produced.with(s, Serdes.Long()));
    return builder.build();
  }

  private static void countProcessed(long target) {
    long n = ++processed;
    if (n == 1) emit("{\"type\":\"first\"}");
    if (n == half(target)) emit("{\"type\":\"half\",\"records\":" + n + "}");
    if (n == target) emit("{\"type\":\"processed\",\"records\":" + n + "}");
  }

  /** The half-way mark of a run (the bench also times the second half: a warmed-up rate). */
  static long half(long target) {
    return (target + 1) / 2;
  }

  /** WordCount's counting half: one store read, one store write (and changelog record), one output per input. */
  static final class CountProcessor implements Processor<String, String, String, Long> {
    private ProcessorContext<String, Long> context;
    private KeyValueStore<String, Long> store;

    @Override
    public void init(ProcessorContext<String, Long> context) {
      this.context = context;
      this.store = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, String> record) {
      Long previous = store.get(record.key());
      long count = (previous == null ? 0L : previous) + 1;
      store.put(record.key(), count);
      context.forward(record.withValue(count));
    }
  }

  /** Reports "restored" once the instance is RUNNING and onRestoreEnd / onRestoreSuspended have counted `target` records. */
  static void watchRestore(KafkaStreams streams, long target) {
    streams.setGlobalStateRestoreListener(
        new StateRestoreListener() {
          @Override
          public void onRestoreStart(
              TopicPartition partition, String storeName, long startOffset, long endOffset) {
            synchronized (LOCK) {
              if (!firstReported) {
                firstReported = true;
                emit("{\"type\":\"first\"}");
              }
            }
          }

          @Override
          public void onBatchRestored(
              TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
            synchronized (LOCK) {
              long before = batchesRestored;
              batchesRestored += numRestored;
              if (before < half(target) && batchesRestored >= half(target)) {
                emit("{\"type\":\"half\",\"records\":" + batchesRestored + "}");
              }
            }
          }

          @Override
          public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
            synchronized (LOCK) {
              restored += totalRestored;
              checkRestored(target);
            }
          }

          @Override
          public void onRestoreSuspended(
              TopicPartition partition, String storeName, long totalRestored) {
            synchronized (LOCK) {
              restored += totalRestored;
            }
          }
        });
    streams.setStateListener(
        (newState, oldState) -> {
          synchronized (LOCK) {
            running = newState == KafkaStreams.State.RUNNING;
            checkRestored(target);
          }
        });
  }

  private static void checkRestored(long target) {
    if (running && restored >= target && !restoreReported) {
      restoreReported = true;
      emit("{\"type\":\"restored\",\"records\":" + restored + "}");
    }
  }

  /**
   * Loads (and initializes) the classes a run starts with, and RocksDB's native library, so that
   * the timed part starts from a loaded program, as the Node worker's does (its modules imported).
   */
  static void preload(boolean rocksdb) throws ClassNotFoundException {
    String[] classes = {
      "org.apache.kafka.streams.KafkaStreams",
      "org.apache.kafka.streams.StreamsConfig",
      "org.apache.kafka.streams.Topology",
      "org.apache.kafka.streams.StreamsBuilder",
      "org.apache.kafka.clients.consumer.KafkaConsumer",
      "org.apache.kafka.clients.producer.KafkaProducer",
      "org.apache.kafka.clients.admin.KafkaAdminClient",
      "org.apache.kafka.streams.processor.internals.StreamThread"
    };
    ClassLoader loader = KStreamsBench.class.getClassLoader();
    for (String name : classes) Class.forName(name, true, loader);
    if (rocksdb) org.rocksdb.RocksDB.loadLibrary();
  }

  static String stoppedMessage() {
    long cpuMs =
        ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L);
    List<String> gcs = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs.add(gc.getName());
    }
    long maxHeapMb = Runtime.getRuntime().maxMemory() / (1024 * 1024);
    return "{\"type\":\"stopped\",\"cpuMs\":"
        + cpuMs
        + ",\"gc\":"
        + json(String.join(", ", gcs))
        + ",\"maxHeapMb\":"
        + maxHeapMb
        + "}";
  }

  static void emit(String json) {
    synchronized (System.out) {
      System.out.println("BENCH " + json);
      System.out.flush();
    }
  }

  /** Blocks until the bench sends `command`; exits when stdin closes (the bench is gone). */
  static void waitFor(BufferedReader stdin, String command) throws IOException {
    for (String line = stdin.readLine(); line != null; line = stdin.readLine()) {
      if (line.trim().equals(command)) return;
    }
    System.err.println("KStreamsBench: stdin closed before \"" + command + "\"");
    Runtime.getRuntime().halt(1);
  }

  static Map<String, String> parseOptions(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) usage("bad argument " + arg);
      options.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
    return options;
  }

  static String require(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null || value.isEmpty()) usage("missing --" + name);
    return value;
  }

  static void usage(String problem) {
    System.err.println(
        "KStreamsBench: "
            + problem
            + "\nusage: KStreamsBench passthrough|count-papi|count-dsl|restore --bootstrap=host:port"
            + " --input=topic --output=topic --app-id=id --state-dir=dir --records=N"
            + " [--commit-interval-ms=N] [--threads=N]");
    System.exit(2);
  }

  static String json(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
