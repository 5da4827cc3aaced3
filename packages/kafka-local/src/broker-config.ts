/**
 * server.properties for one node of a local KRaft cluster: every node is a combined
 * broker+controller on 127.0.0.1 with a static voter list (same on 3.x and 4.x, no extra format
 * flag). Defaults are tuned for fast tests: no initial rebalance delay, few internal-topic
 * partitions, replication that fits the node count, quick failure detection with three nodes.
 */
import { randomBytes } from 'node:crypto'
import type { KafkaVersion } from './kafka-version.js'
import { listenerName, securityProperties } from './security-config.js'
import type { SecurityRecord } from './security-options.js'

/** One node of a local cluster: its id, ports and files. */
export interface BrokerNode {
  /** KRaft node.id, 1-based. */
  readonly nodeId: number
  /** The client listener (PLAINTEXT, or the secured one). */
  readonly port: number
  /** CONTROLLER listener (KRaft quorum). */
  readonly controllerPort: number
  /** log.dirs (and the metadata log). */
  readonly dataDir: string
  /** This node's server.properties. */
  readonly configPath: string
  /** The JVM's stdout and stderr. */
  readonly logPath: string
}

/** server.properties entries, key to value (rendered with String()). */
export type BrokerProperties = Readonly<Record<string, string | number | boolean>>

/** The broker settings a caller may change; the rest follow from the node count. */
export interface BrokerConfigOptions {
  /** auto.create.topics.enable; false by default, as Kafka Streams requires existing source topics. */
  readonly autoCreateTopics?: boolean
  /** Extra or overriding server.properties entries, applied to every node. */
  readonly overrides?: BrokerProperties
}

/** "127.0.0.1:<port>,..." of every node, in node order. */
export function bootstrapServers(nodes: readonly BrokerNode[]): string {
  return nodes.map(n => `127.0.0.1:${n.port}`).join(',')
}

/**
 * The server.properties of one node of `nodes` (defaults tuned for tests, the secured listener's
 * keys when `security` is given, then `options.overrides`). The client listener is named after its
 * protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) and carries the inter-broker traffic too.
 */
export function brokerProperties(
  node: BrokerNode,
  nodes: readonly BrokerNode[],
  kafka: KafkaVersion,
  options: BrokerConfigOptions = {},
  security?: SecurityRecord
): BrokerProperties {
  const listener = listenerName(security)
  const count = nodes.length
  const replication = Math.min(count, 3)
  const minIsr = replication > 1 ? 2 : 1
  const internalPartitions = count > 1 ? 3 : 1
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': node.nodeId,
    'controller.quorum.voters': nodes.map(n => `${n.nodeId}@127.0.0.1:${n.controllerPort}`).join(','),
    listeners: `${listener}://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}`,
    'advertised.listeners': `${listener}://127.0.0.1:${node.port}`,
    'inter.broker.listener.name': listener,
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': `${listener}:${listener},CONTROLLER:PLAINTEXT`,
    'log.dirs': node.dataDir,
    'num.partitions': 1,
    'default.replication.factor': replication,
    'min.insync.replicas': minIsr,
    'auto.create.topics.enable': options.autoCreateTopics ?? false,
    'offsets.topic.replication.factor': replication,
    'offsets.topic.num.partitions': internalPartitions,
    'transaction.state.log.replication.factor': replication,
    'transaction.state.log.min.isr': minIsr,
    'transaction.state.log.num.partitions': internalPartitions,
    'group.initial.rebalance.delay.ms': 0,
    'num.network.threads': 2,
    'num.io.threads': 4,
    'num.recovery.threads.per.data.dir': 1,
    'log.cleaner.dedupe.buffer.size': 16 * 1024 * 1024,
    // Quick fencing of a killed node, and quick re-election, for failover tests.
    'broker.heartbeat.interval.ms': 500,
    'broker.session.timeout.ms': 3000,
    'controller.quorum.election.timeout.ms': 1000,
    'controller.quorum.fetch.timeout.ms': 2000
  }
  if (kafka.shareCoordinator) {
    props['share.coordinator.state.topic.replication.factor'] = replication
    props['share.coordinator.state.topic.min.isr'] = minIsr
    props['share.coordinator.state.topic.num.partitions'] = 1
  }
  return { ...props, ...(security === undefined ? {} : securityProperties(security)), ...options.overrides }
}

/** A server.properties file: one `key=value` line per entry. */
export function renderProperties(props: BrokerProperties): string {
  return (
    Object.entries(props)
      .map(([key, value]) => `${key}=${String(value)}`)
      .join('\n') + '\n'
  )
}

/** What Kafka's Uuid.randomUuid() gives: 16 random bytes, base64url, no padding, never starting with "-". */
export function randomClusterId(): string {
  for (;;) {
    const bytes = randomBytes(16)
    bytes[6] = (bytes[6]! & 0x0f) | 0x40
    bytes[8] = (bytes[8]! & 0x3f) | 0x80
    const id = bytes.toString('base64url')
    if (!id.startsWith('-')) return id
  }
}
