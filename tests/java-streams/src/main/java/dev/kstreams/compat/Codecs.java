package dev.kstreams.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Java side of kstreams' compression interop tests: Kafka's own producer writes records with
 * each compression codec, and Kafka's own consumer reads back what kstreams wrote.
 *
 * <pre>
 * java -cp ... dev.kstreams.compat.Codecs produce BOOTSTRAP COUNT TOPIC=CODEC...
 *   writes COUNT records (key "k&lt;i&gt;", value "&lt;codec&gt;-&lt;i&gt;-..." ) to each TOPIC, by a producer
 *   with compression.type CODEC; prints "produced TOPIC COUNT" for each.
 * java -cp ... dev.kstreams.compat.Codecs consume BOOTSTRAP COUNT TIMEOUT_MS TOPIC...
 *   reads every partition of each TOPIC from the start (no group) until COUNT records of each
 *   came; prints "TOPIC TAB PARTITION TAB OFFSET TAB KEY TAB VALUE" per record; exits 2 when the
 *   time is up first.
 * </pre>
 */
public final class Codecs {
    private Codecs() {}

    public static void main(final String[] args) throws Exception {
        switch (args[0]) {
            case "produce":
                produce(args[1], Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
                break;
            case "consume":
                consume(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), List.of(args).subList(4, args.length));
                break;
            default:
                throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static void produce(final String bootstrap, final int count, final List<String> topicCodecs) {
        for (final String topicCodec : topicCodecs) {
            final String topic = topicCodec.substring(0, topicCodec.lastIndexOf('='));
            final String codec = topicCodec.substring(topicCodec.lastIndexOf('=') + 1);
            final Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
            props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < count; i++) {
                    producer.send(new ProducerRecord<>(topic, "k" + i, codec + "-" + i + "-" + "abcdefgh".repeat(i % 7 + 1)));
                }
                producer.flush();
            }
            System.out.println("produced " + topic + " " + count);
        }
    }

    private static void consume(final String bootstrap, final int count, final long timeoutMs, final List<String> topics) {
        final Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (final String topic : topics) {
                for (final PartitionInfo info : consumer.partitionsFor(topic)) partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<String, Integer> seen = new HashMap<>();
            final long deadline = System.currentTimeMillis() + timeoutMs;
            while (topics.stream().anyMatch(t -> seen.getOrDefault(t, 0) < count)) {
                if (System.currentTimeMillis() > deadline) {
                    System.out.println("timed out: " + seen);
                    System.exit(2);
                }
                for (final ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    seen.merge(r.topic(), 1, Integer::sum);
                    System.out.println(r.topic() + "\t" + r.partition() + "\t" + r.offset() + "\t" + r.key() + "\t" + r.value());
                }
            }
        }
    }
}
