package dev.kstreams.compat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.assignment.ProcessId;
import org.apache.kafka.streams.processor.internals.assignment.AssignmentInfo;
import org.apache.kafka.streams.processor.internals.assignment.SubscriptionInfo;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Kafka Streams' own encoders and decoders of the group protocol's userData, for the kstreams
 * wire-compatibility tests: encodes fixed samples and decodes hex it is given, printing each
 * decoded field on its own line in a form the tests compare with kstreams' decoders.
 *
 * <pre>
 * java -cp ... dev.kstreams.compat.WireFormats encode-subscription
 * java -cp ... dev.kstreams.compat.WireFormats decode-subscription HEX
 * java -cp ... dev.kstreams.compat.WireFormats encode-assignment
 * java -cp ... dev.kstreams.compat.WireFormats decode-assignment HEX
 * </pre>
 */
public final class WireFormats {
    private WireFormats() {}

    public static void main(final String[] args) {
        final HexFormat hex = HexFormat.of();
        switch (args[0]) {
            case "encode-subscription": {
                final Map<TaskId, Long> sums = new TreeMap<>();
                sums.put(new TaskId(0, 1), 5L);
                sums.put(new TaskId(1, 0), -2L);
                sums.put(new TaskId(2, 12), 1L << 40);
                final SubscriptionInfo info = new SubscriptionInfo(11, 11,
                    new ProcessId(UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")), "h:1", sums, (byte) 7, 0, Map.of());
                System.out.println(hex.formatHex(bytes(info.encode())));
                break;
            }
            case "decode-subscription": {
                final SubscriptionInfo info = SubscriptionInfo.decode(ByteBuffer.wrap(hex.parseHex(args[1])));
                System.out.println("version=" + info.version());
                System.out.println("latestSupportedVersion=" + info.latestSupportedVersion());
                System.out.println("processId=" + info.processId().id());
                System.out.println("userEndPoint=" + info.userEndPoint());
                System.out.println("taskOffsetSums=" + new TreeMap<>(info.taskOffsetSums()));
                System.out.println("prevTasks=" + new TreeSet<>(info.prevTasks()));
                System.out.println("standbyTasks=" + new TreeSet<>(info.standbyTasks()));
                System.out.println("errorCode=" + info.errorCode());
                System.out.println("clientTags=" + new TreeMap<>(info.clientTags()));
                break;
            }
            case "encode-assignment": {
                final List<TaskId> active = List.of(new TaskId(0, 1), new TaskId(0, 1));
                final Map<TaskId, Set<TopicPartition>> standby = Map.of(new TaskId(1, 1), Set.of(new TopicPartition("c", 1)));
                final Map<HostInfo, Set<TopicPartition>> byHost = Map.of(new HostInfo("h", 1), Set.of(new TopicPartition("a", 1)));
                final Map<HostInfo, Set<TopicPartition>> standbyByHost = Map.of(new HostInfo("h", 1), Set.of(new TopicPartition("a", 0)));
                final AssignmentInfo info = new AssignmentInfo(11, 11, active, standby, byHost, standbyByHost, 0);
                info.setNextRebalanceTime(1000L);
                System.out.println(hex.formatHex(bytes(info.encode())));
                break;
            }
            case "decode-assignment": {
                final AssignmentInfo info = AssignmentInfo.decode(ByteBuffer.wrap(hex.parseHex(args[1])));
                System.out.println("version=" + info.version());
                System.out.println("commonlySupportedVersion=" + info.commonlySupportedVersion());
                System.out.println("activeTasks=" + info.activeTasks());
                System.out.println("standbyTasks=" + sorted(info.standbyTasks()));
                System.out.println("partitionsByHost=" + sorted(info.partitionsByHost()));
                System.out.println("standbyPartitionsByHost=" + sorted(info.standbyPartitionByHost()));
                System.out.println("errorCode=" + info.errCode());
                System.out.println("nextRebalanceMs=" + info.nextRebalanceMs());
                break;
            }
            default:
                throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static byte[] bytes(final ByteBuffer buffer) {
        final byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    /** A map's entries as "key=[partitions sorted]" sorted by the key's text (a host as host:port). */
    private static <K> String sorted(final Map<K, Set<TopicPartition>> map) {
        final TreeMap<String, List<String>> out = new TreeMap<>();
        for (final Map.Entry<K, Set<TopicPartition>> e : map.entrySet()) {
            final List<String> parts = new ArrayList<>();
            for (final TopicPartition tp : e.getValue()) parts.add(tp.toString());
            parts.sort(null);
            final K key = e.getKey();
            out.put(key instanceof HostInfo ? ((HostInfo) key).host() + ":" + ((HostInfo) key).port() : key.toString(), parts);
        }
        return out.toString();
    }
}
