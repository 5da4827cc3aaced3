/**
 * The instance's view of where every store partition lives (Kafka Streams'
 * StreamsMetadataState), built from the host maps of the latest assignment any of its threads
 * received: per "host:port" (members' `applicationServer`) the source partitions of its active
 * and standby tasks. Answers which instance hosts a key (`keyQueryMetadataForKey`, partitioning
 * like the default producer partitioner) and what each instance hosts. @internal
 */
import { InvalidStateStoreError, StreamsError } from '../../errors.js'
import { formatEndpoint, parseEndpoint } from '../../config/endpoint.js'
import type { Serializer } from '../../serialization/serde.js'
import type { StreamPartitioner } from '../../processor/api.js'
import { multicastPartitions } from '../../partitioner/stream-partitions.js'
import type { TopologyDef } from '../../topology/definitions.js'
import { partitionFor } from '../../partitioner/murmur2.js'
import type { TopicPartition } from '../kafka/ports.js'
import { runtimeTopicName } from '../processor-graph.js'

/** An instance's interactive-query endpoint, from its `applicationServer` (Kafka Streams' HostInfo). */
export interface HostInfo {
  /** The host name or address. */
  readonly host: string
  /** The port. */
  readonly port: number
}

/** Where a key's partition is hosted (Kafka Streams' KeyQueryMetadata). */
export interface KeyQueryMetadata {
  /** The instance with the key's active task. */
  readonly activeHost: HostInfo
  /** The instances with a standby of the key's task. */
  readonly standbyHosts: readonly HostInfo[]
  /** The partition of the key; -1 when not available. */
  readonly partition: number
}

/** What one instance hosts (Kafka Streams' StreamsMetadata). */
export interface StreamsMetadata {
  /** The instance's endpoint. */
  readonly hostInfo: HostInfo
  /** The stores of its active tasks. */
  readonly stateStoreNames: ReadonlySet<string>
  /** The source partitions of its active tasks. */
  readonly topicPartitions: readonly TopicPartition[]
  /** The stores of its standby tasks. */
  readonly standbyStateStoreNames: ReadonlySet<string>
  /** The source partitions of its standby tasks. */
  readonly standbyTopicPartitions: readonly TopicPartition[]
}

/** Kafka's HostInfo.unavailable(). */
export const UNAVAILABLE_HOST: HostInfo = Object.freeze({ host: 'unavailable', port: -1 })
/** Kafka's KeyQueryMetadata.NOT_AVAILABLE: no assignment has been received yet. */
export const KEY_QUERY_METADATA_NOT_AVAILABLE: KeyQueryMetadata = Object.freeze({
  activeHost: UNAVAILABLE_HOST,
  standbyHosts: Object.freeze([]) as readonly HostInfo[],
  partition: -1
})

/** The HostInfo of a host map's `host:port` (an IPv6 host without its brackets, as Kafka's). */
export function parseHostInfo(endpoint: string): HostInfo {
  const parsed = parseEndpoint(endpoint)
  if (parsed !== undefined) return parsed
  const colon = endpoint.lastIndexOf(':')
  return { host: endpoint.slice(0, colon), port: Number(endpoint.slice(colon + 1)) }
}

/** `host:port` of a HostInfo, an IPv6 host in brackets: the key of the host maps, and the form of `applicationServer`. */
export const hostKey = (host: HostInfo): string => formatEndpoint(host.host, host.port)

export class StreamsMetadataState {
  readonly #def: TopologyDef
  readonly #applicationId: string
  readonly #thisHost: HostInfo | undefined
  #active: ReadonlyMap<string, readonly TopicPartition[]> | undefined
  #standby: ReadonlyMap<string, readonly TopicPartition[]> = new Map()
  /** Partition count per source topic, as far as the host maps show it. */
  #partitionCounts = new Map<string, number>()

  /** `thisHost`: this instance's applicationServer, if it has one. */
  constructor(def: TopologyDef, applicationId: string, thisHost?: string) {
    this.#def = def
    this.#applicationId = applicationId
    this.#thisHost = thisHost === undefined ? undefined : parseHostInfo(thisHost)
  }

  /** Whether an assignment has been received. */
  get initialized(): boolean {
    return this.#active !== undefined
  }

  /** A thread received an assignment: its host maps are the instance's view from now on. */
  onAssignment(
    partitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>,
    standbyPartitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
  ): void {
    this.#active = partitionsByHost
    this.#standby = standbyPartitionsByHost
    const counts = new Map<string, number>()
    for (const map of [partitionsByHost, standbyPartitionsByHost]) {
      for (const partitions of map.values())
        for (const p of partitions) counts.set(p.topic, Math.max(counts.get(p.topic) ?? 0, p.partition + 1))
    }
    this.#partitionCounts = counts
  }

  /** Source topics (as named at runtime: internal ones prefixed) of the sub-topology that holds the store; undefined for an unknown or global store. */
  #sourceTopicsOf(storeName: string): readonly string[] | undefined {
    const sub = this.#def.subtopologies.find(s => s.stores.includes(storeName))
    return sub === undefined ? undefined : this.#runtimeTopics(sub.sourceTopics)
  }

  #runtimeTopics(topics: readonly string[]): string[] {
    return topics.map(t => runtimeTopicName(this.#def, this.#applicationId, t))
  }

  #storesOf(partitions: readonly TopicPartition[]): Set<string> {
    const topics = new Set(partitions.map(p => p.topic))
    const stores = new Set<string>()
    for (const sub of this.#def.subtopologies) {
      if (this.#runtimeTopics(sub.sourceTopics).some(t => topics.has(t))) for (const s of sub.stores) stores.add(s)
    }
    return stores
  }

  /** Every instance with an applicationServer, sorted by host:port; empty until the first assignment. */
  allMetadata(): StreamsMetadata[] {
    if (this.#active === undefined) return []
    const hosts = new Set([...this.#active.keys(), ...this.#standby.keys()])
    return [...hosts].sort().map(host => {
      const active = this.#active!.get(host) ?? []
      const standby = this.#standby.get(host) ?? []
      const stores = this.#storesOf(active)
      if (active.length > 0 || standby.length > 0) for (const g of this.#def.globalStoreNames) stores.add(g)
      return {
        hostInfo: parseHostInfo(host),
        stateStoreNames: stores,
        topicPartitions: active,
        standbyStateStoreNames: this.#storesOf(standby),
        standbyTopicPartitions: standby
      }
    })
  }

  /** The instances that host the store (active or standby). */
  allMetadataForStore(storeName: string): StreamsMetadata[] {
    this.#checkStore(storeName)
    return this.allMetadata().filter(m => m.stateStoreNames.has(storeName) || m.standbyStateStoreNames.has(storeName))
  }

  /** The number of partitions of the store (the most of its sub-topology's source topics); undefined while unknown. */
  partitionCount(storeName: string): number | undefined {
    const topics = this.#sourceTopicsOf(storeName)
    if (topics === undefined || this.#active === undefined) return undefined
    const max = Math.max(0, ...topics.map(t => this.#partitionCounts.get(t) ?? 0))
    return max === 0 ? undefined : max
  }

  /** Whether a partition of the store exists in the cluster; undefined while unknown. */
  partitionExists(storeName: string, partition: number): boolean | undefined {
    const count = this.partitionCount(storeName)
    return count === undefined ? undefined : partition >= 0 && partition < count
  }

  /**
   * Where `key` of `storeName` is hosted: its partition from `keySerializer` and the default
   * partitioning (murmur2), or from `partitioner`, asked with the source topic with the most
   * partitions and an undefined value; it must name exactly one partition (Kafka Streams'
   * IllegalArgumentException otherwise: ILLEGAL_ARGUMENT).
   */
  keyQueryMetadataForKey<K>(
    storeName: string,
    key: K,
    keySerializerOrPartitioner: Serializer<K> | StreamPartitioner<K, never>
  ): KeyQueryMetadata {
    this.#checkStore(storeName)
    if (this.#def.globalStoreNames.has(storeName)) {
      // A global store is on every instance: this one answers (Kafka Streams picks the first known host without an applicationServer).
      const host = this.#thisHost ?? this.allMetadata()[0]?.hostInfo
      return host === undefined ? KEY_QUERY_METADATA_NOT_AVAILABLE : { activeHost: host, standbyHosts: [], partition: -1 }
    }
    const topics = this.#sourceTopicsOf(storeName)
    const count = this.partitionCount(storeName)
    if (topics === undefined || count === undefined) return KEY_QUERY_METADATA_NOT_AVAILABLE
    const partition =
      typeof keySerializerOrPartitioner === 'function'
        ? this.#partitionFromPartitioner(storeName, key, keySerializerOrPartitioner, topics, count)
        : this.#partitionFromSerializer(storeName, key, keySerializerOrPartitioner, topics[0]!, count)
    const hosts = (map: ReadonlyMap<string, readonly TopicPartition[]>): HostInfo[] =>
      [...map]
        .filter(([, partitions]) => partitions.some(p => p.partition === partition && topics.includes(p.topic)))
        .map(([host]) => parseHostInfo(host))
    return { activeHost: hosts(this.#active!)[0] ?? UNAVAILABLE_HOST, standbyHosts: hosts(this.#standby), partition }
  }

  #partitionFromSerializer<K>(storeName: string, key: K, keySerializer: Serializer<K>, topic: string, count: number): number {
    const bytes = keySerializer.serialize(topic, key)
    if (bytes === null) throw new InvalidStateStoreError('ILLEGAL_ARGUMENT', `The key of a query on ${storeName} serialized to null`)
    return partitionFor(bytes, count)
  }

  /** Kafka Streams asks the partitioner with the source topic that has the most partitions. */
  #partitionFromPartitioner<K>(
    storeName: string,
    key: K,
    partitioner: StreamPartitioner<K, never>,
    topics: readonly string[],
    count: number
  ): number {
    const topic = topics.find(t => this.#partitionCounts.get(t) === count) ?? topics[0]!
    const partitions = multicastPartitions(partitioner(topic, key, undefined as never, count))
    if (partitions?.length !== 1) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The partitions returned by the StreamPartitioner for a key of store ${storeName} (topic ${topic}) should be a single partition, got ${describe(partitions)}`
      )
    }
    return partitions[0]!
  }

  #checkStore(storeName: string): void {
    if (!this.#def.storeBuilders.has(storeName))
      throw new InvalidStateStoreError('UNKNOWN_STATE_STORE', `No store ${storeName} in the topology`)
  }
}

function describe(partitions: readonly number[] | undefined): string {
  return partitions === undefined ? 'none (the default partitioning)' : `[${partitions.join(', ')}]`
}
