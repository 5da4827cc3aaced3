package dev.kstreams.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * A Java Kafka Streams application for kstreams' mixed-group tests, configured through the same
 * environment variables as kstreams' examples/wordcount app so a test starts either side the same
 * way: KAFKA_BOOTSTRAP_SERVERS, WORDCOUNT_APP_ID, WORDCOUNT_STATE_DIR, WORDCOUNT_TOPIC_PREFIX,
 * WORDCOUNT_COMMIT_INTERVAL_MS, WORDCOUNT_THREADS, WORDCOUNT_STANDBYS,
 * WORDCOUNT_SESSION_TIMEOUT_MS, WORDCOUNT_ACCEPTABLE_RECOVERY_LAG, WORDCOUNT_APPLICATION_SERVER,
 * WORDCOUNT_LEAVE_GROUP_ON_CLOSE ("1": SIGTERM closes with leaveGroup(true)),
 * and JAVA_TOPOLOGY: "wordcount" (the default, Kafka's WordCountDemo with the "Counts" store),
 * "windowed" (words counted in 5-minute windows, store "WindowedCounts"), "join" (lines joined
 * with the table topic `<prefix>wordcount-table`, store "Table").
 *
 * With the argument "describe" it prints the topology's description and exits. Otherwise it
 * prints one JSON line per event on stdout (state, restore-start, restore-end, tasks on every
 * RUNNING, closed) and on SIGTERM closes, as kstreams' app does.
 */
public final class JavaStreamsApp {
    private JavaStreamsApp() {}

    public static void main(final String[] args) throws InterruptedException {
        final Map<String, String> env = System.getenv();
        final String prefix = env.getOrDefault("WORDCOUNT_TOPIC_PREFIX", "");
        final Topology topology = topology(env.getOrDefault("JAVA_TOPOLOGY", "wordcount"), prefix);
        if (args.length > 0 && args[0].equals("describe")) {
            System.out.print(topology.describe());
            return;
        }
        final Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, env.getOrDefault("WORDCOUNT_APP_ID", "wordcount"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, env.get("KAFKA_BOOTSTRAP_SERVERS"));
        putIfSet(props, env, "WORDCOUNT_STATE_DIR", StreamsConfig.STATE_DIR_CONFIG);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, env.getOrDefault("WORDCOUNT_COMMIT_INTERVAL_MS", "1000"));
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, env.getOrDefault("WORDCOUNT_THREADS", "1"));
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, env.getOrDefault("WORDCOUNT_STANDBYS", "0"));
        putIfSet(props, env, "WORDCOUNT_ACCEPTABLE_RECOVERY_LAG", StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG);
        putIfSet(props, env, "WORDCOUNT_APPLICATION_SERVER", StreamsConfig.APPLICATION_SERVER_CONFIG);
        putIfSet(props, env, "WORDCOUNT_REPLICATION_FACTOR", StreamsConfig.REPLICATION_FACTOR_CONFIG);
        if (env.containsKey("WORDCOUNT_SESSION_TIMEOUT_MS")) {
            props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), env.get("WORDCOUNT_SESSION_TIMEOUT_MS"));
            props.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), "1000");
        }

        final KafkaStreams streams = new KafkaStreams(topology, props);
        streams.setStateListener((to, from) -> {
            emit("{\"event\":\"state\",\"from\":\"" + from + "\",\"to\":\"" + to + "\"}");
            if (to == KafkaStreams.State.RUNNING) emitTasks(streams);
        });
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public void onRestoreStart(final TopicPartition tp, final String store, final long start, final long end) {
                emit("{\"event\":\"restore-start\",\"topic\":\"" + tp.topic() + "\",\"partition\":" + tp.partition()
                    + ",\"store\":\"" + store + "\",\"start\":" + start + ",\"end\":" + end + "}");
            }

            @Override
            public void onBatchRestored(final TopicPartition tp, final String store, final long end, final long n) {}

            @Override
            public void onRestoreEnd(final TopicPartition tp, final String store, final long total) {
                emit("{\"event\":\"restore-end\",\"topic\":\"" + tp.topic() + "\",\"partition\":" + tp.partition()
                    + ",\"store\":\"" + store + "\",\"total\":" + total + "}");
            }
        });
        final CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            final boolean leave = "1".equals(env.get("WORDCOUNT_LEAVE_GROUP_ON_CLOSE"));
            streams.close(new KafkaStreams.CloseOptions().leaveGroup(leave).timeout(Duration.ofSeconds(60)));
            emit("{\"event\":\"closed\"}");
            closed.countDown();
        }));
        streams.start();
        closed.await();
    }

    static Topology topology(final String name, final String prefix) {
        final Serde<String> s = Serdes.String();
        final String input = prefix + "wordcount-input";
        final String output = prefix + "wordcount-output";
        final StreamsBuilder builder = new StreamsBuilder();
        switch (name) {
            case "wordcount":
                builder.stream(input, Consumed.with(s, s))
                    .flatMapValues(JavaStreamsApp::words)
                    .groupBy((key, word) -> word, Grouped.with(s, s))
                    .count(Materialized.as("Counts"))
                    .toStream()
                    .to(output, Produced.with(s, Serdes.Long()));
                break;
            case "windowed":
                builder.stream(input, Consumed.with(s, s))
                    .flatMapValues(JavaStreamsApp::words)
                    .groupBy((key, word) -> word, Grouped.with(s, s))
                    .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(5), Duration.ofDays(1)))
                    .count(Materialized.as("WindowedCounts"))
                    .toStream((windowed, count) -> windowed.key() + "@" + windowed.window().start())
                    .to(output, Produced.with(s, Serdes.Long()));
                break;
            case "join":
                final KTable<String, String> table = builder.table(prefix + "wordcount-table", Consumed.with(s, s), Materialized.as("Table"));
                builder.stream(input, Consumed.with(s, s))
                    .join(table, (line, value) -> line + "|" + value)
                    .to(output, Produced.with(s, s));
                break;
            default:
                throw new IllegalArgumentException("JAVA_TOPOLOGY must be wordcount, windowed or join, got " + name);
        }
        return builder.build();
    }

    /** Kafka's WordCountDemo split, without empty words (kstreams' splitWords). */
    static List<String> words(final String line) {
        final List<String> words = new ArrayList<>();
        for (final String word : line.toLowerCase(Locale.ROOT).split("\\W+")) {
            if (!word.isEmpty()) words.add(word);
        }
        return words;
    }

    private static void emitTasks(final KafkaStreams streams) {
        final TreeSet<String> active = new TreeSet<>();
        final TreeSet<String> standby = new TreeSet<>();
        for (final ThreadMetadata thread : streams.metadataForLocalThreads()) {
            for (final TaskMetadata task : thread.activeTasks()) active.add(task.taskId().toString());
            for (final TaskMetadata task : thread.standbyTasks()) standby.add(task.taskId().toString());
        }
        emit("{\"event\":\"tasks\",\"active\":" + json(active) + ",\"standby\":" + json(standby) + "}");
    }

    private static String json(final TreeSet<String> ids) {
        final List<String> quoted = new ArrayList<>();
        for (final String id : ids) quoted.add("\"" + id + "\"");
        return "[" + String.join(",", quoted) + "]";
    }

    private static void putIfSet(final Properties props, final Map<String, String> env, final String variable, final String key) {
        final String value = env.get(variable);
        if (value != null && !value.isEmpty()) props.put(key, value);
    }

    private static synchronized void emit(final String json) {
        System.out.println("{\"t\":" + System.currentTimeMillis() + "," + json.substring(1));
        System.out.flush();
    }

}
