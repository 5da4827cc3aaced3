/**
 * The Processor API topology builder (Kafka Streams' `Topology`): sources, processors, sinks,
 * state stores and global stores, each checked when it is added (a `TopologyError` naming the
 * node, topic or store). Owns the grouping into sub-topologies and hands the runtime a plain
 * `TopologyDef` through the internal `TOPOLOGY_DEF` method; `describe()` prints Kafka's text.
 */
import { TopologyError } from '../errors.js'
import type { AutoOffsetReset, ProcessorSupplier, StreamPartitioner, TimestampExtractor, TopicNameExtractor } from '../processor/api.js'
import { isAutoOffsetReset } from '../processor/api.js'
import type { DeserializerLike, SerializerLike } from '../serialization/serde.js'
import { toDeserializer, toSerializer } from '../serialization/serde.js'
import type { StateStore, StoreBuilder } from '../state/state-store.js'
import type { GlobalStoreDef, NodeDef, ProcessorNodeDef, SubtopologyDef, TopologyDef } from './definitions.js'
import { describeTopology } from './describe-topology.js'
import {
  ADD_INTERNAL_TOPIC,
  COPARTITION_SOURCES,
  REWRITE,
  SOURCE_CHANGELOG,
  TOPOLOGY_DEF,
  type InternalTopicSpec,
  type TopologyEdit
} from './internal.js'
import { computeNodeGroups } from './node-groups.js'
import {
  checkName,
  checkStoreBuilder,
  checkSupplier,
  checkSupplierReturnsNewInstances,
  disableLogging,
  wholeNameMatcher
} from './topology-arguments.js'
import type { TopologyDescription } from './topology-description.js'
import { validateTopologyDef } from './validate-topology-def.js'

/** The options of Topology.addSource. */
export interface SourceOptions<K = unknown, V = unknown> {
  /** The key deserializer (or serde); default: the config's defaultKeySerde. */
  readonly keyDeserializer?: DeserializerLike<K>
  /** The value deserializer (or serde); default: the config's defaultValueSerde. */
  readonly valueDeserializer?: DeserializerLike<V>
  /** The source's timestamp extractor; default: the config's defaultTimestampExtractor. */
  readonly timestampExtractor?: TimestampExtractor
  /** Where to start when the group has no committed offset; defaults to the `auto.offset.reset` config. */
  readonly offsetReset?: AutoOffsetReset
}

/** The options of Topology.addSink. */
export interface SinkOptions<K = unknown, V = unknown> {
  /** The key serializer (or serde); default: the config's defaultKeySerde. */
  readonly keySerializer?: SerializerLike<K>
  /** The value serializer (or serde); default: the config's defaultValueSerde. */
  readonly valueSerializer?: SerializerLike<V>
  /** Chooses each record's partition; default: murmur2 of the serialized key, as Kafka's producer. */
  readonly partitioner?: StreamPartitioner<K, V>
}

/** The options of Topology.addGlobalStore: how the global topic is read. */
export interface GlobalStoreOptions<K = unknown, V = unknown> {
  /** The key deserializer (or serde); default: the config's defaultKeySerde. */
  readonly keyDeserializer?: DeserializerLike<K>
  /** The value deserializer (or serde); default: the config's defaultValueSerde. */
  readonly valueDeserializer?: DeserializerLike<V>
  /** The timestamp extractor; default: the config's defaultTimestampExtractor. */
  readonly timestampExtractor?: TimestampExtractor
}

/** The options of Topology.addReadOnlyStateStore: how the store's source topic is read (as for a global store). */
export type ReadOnlyStateStoreOptions<K = unknown, V = unknown> = GlobalStoreOptions<K, V>

interface GlobalStoreEntry {
  readonly storeName: string
  readonly sourceName: string
  readonly processorName: string
  readonly topic: string
}

/**
 * A Processor API topology (Kafka Streams' Topology): sources, processors, sinks, state stores and
 * global stores, each checked when it is added (a TopologyError naming the node, topic or store).
 * Run it with KafkaStreams, test it with the TopologyTestDriver of @kstreams/testing.
 */
export class Topology {
  /** Every node, in insertion order (parents always come before their children). */
  readonly #nodes = new Map<string, NodeDef>()
  /** The store names of each processor, in connection order (the same sets as in `#nodes`). */
  readonly #processorStores = new Map<string, Set<string>>()
  /** Local and global store builders, in the order they were added. */
  readonly #storeBuilders = new Map<string, StoreBuilder<StateStore>>()
  /** The processors connected to each local store, in connection order. */
  readonly #storeUsers = new Map<string, string[]>()
  readonly #globalStores = new Map<string, GlobalStoreEntry>()
  readonly #internalTopics = new Map<string, InternalTopicSpec>()
  readonly #copartitionGroups: string[][] = []
  readonly #sourceChangelogs = new Map<string, string>()
  /** The source and processor nodes of global stores. */
  readonly #globalNodes = new Set<string>()
  /** Every fixed topic read by a source, global ones included. */
  readonly #topics = new Set<string>()
  readonly #patterns: Array<{ readonly sourceName: string; readonly matcher: RegExp }> = []

  /**
   * Adds a source reading the given topics (one name, a list, or a pattern matched against whole
   * topic names). A topic may be read by one source only.
   */
  addSource(name: string, topics: string | readonly string[] | RegExp, options: SourceOptions = {}): this {
    checkName('Source', name)
    this.#checkNewNodeName(name)
    const opts = options ?? {}
    const offsetReset = opts.offsetReset
    if (offsetReset !== undefined && !isAutoOffsetReset(offsetReset)) {
      throw new TopologyError(
        'TOPOLOGY_INVALID',
        `Source ${name} has an unknown offset reset '${typeof offsetReset === 'object' ? JSON.stringify(offsetReset) : String(offsetReset)}' (expected 'earliest', 'latest', 'none' or AutoOffsetReset.byDuration(ms)).`
      )
    }
    let topicList: readonly string[] = Object.freeze([])
    let pattern: RegExp | undefined
    if (topics instanceof RegExp) {
      const matcher = wholeNameMatcher(topics)
      for (const topic of this.#topics) {
        if (matcher.test(topic)) {
          throw new TopologyError(
            'DUPLICATE_TOPIC',
            `Pattern /${topics.source}/ of source ${name} matches topic ${topic}, which another source already reads.`
          )
        }
      }
      pattern = topics
      this.#patterns.push({ sourceName: name, matcher })
    } else {
      topicList = Object.freeze(typeof topics === 'string' ? [topics] : Array.isArray(topics) ? [...topics] : [])
      if (topicList.length === 0) throw new TopologyError('TOPOLOGY_INVALID', `Source ${name} must read at least one topic.`)
      topicList.forEach((topic, i) => {
        checkName(`Topic of source ${name}:`, topic)
        if (topicList.indexOf(topic) !== i) throw new TopologyError('DUPLICATE_TOPIC', `Source ${name} lists topic ${topic} twice.`)
        this.#checkTopicFree(topic)
      })
      for (const topic of topicList) this.#topics.add(topic)
    }
    this.#addNode({
      kind: 'source',
      name,
      topics: topicList,
      pattern,
      keyDeserializer: toDeserializer(opts.keyDeserializer),
      valueDeserializer: toDeserializer(opts.valueDeserializer),
      timestampExtractor: opts.timestampExtractor,
      offsetReset
    })
    return this
  }

  /** Adds a processor receiving the records of the given parents (at least one, each already added). */
  addProcessor<KIn, VIn, KOut, VOut>(name: string, supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>, ...parentNames: string[]): this {
    checkName('Processor', name)
    checkSupplier(name, supplier)
    this.#checkNewNodeName(name)
    if (parentNames.length === 0) throw new TopologyError('TOPOLOGY_INVALID', `Processor ${name} must have at least one parent.`)
    this.#checkParents(name, parentNames)
    checkSupplierReturnsNewInstances(name, supplier)
    const stores = new Set<string>()
    this.#processorStores.set(name, stores)
    this.#addNode({ kind: 'processor', name, supplier, parents: Object.freeze([...parentNames]), stores })
    return this
  }

  /**
   * Adds a sink writing what its parents forward to a fixed topic, or to the topic a
   * `TopicNameExtractor` chooses per record. Options may be given before the parent names.
   */
  addSink<K, V>(
    name: string,
    topic: string | TopicNameExtractor<K, V>,
    options: SinkOptions<K, V> | undefined,
    ...parentNames: string[]
  ): this
  addSink<K, V>(name: string, topic: string | TopicNameExtractor<K, V>, ...parentNames: string[]): this
  addSink<K, V>(name: string, topic: string | TopicNameExtractor<K, V>, ...rest: Array<string | SinkOptions<K, V> | undefined>): this {
    const hasOptions = rest.length > 0 && typeof rest[0] !== 'string'
    const options = (hasOptions ? rest[0] : undefined) ?? {}
    const parentNames = (hasOptions ? rest.slice(1) : rest) as string[]
    checkName('Sink', name)
    if (typeof options !== 'object') throw new TopologyError('TOPOLOGY_INVALID', `The options of sink ${name} must be an object.`)
    if (typeof topic !== 'function') checkName(`Topic of sink ${name}:`, topic)
    this.#checkNewNodeName(name)
    if (parentNames.length === 0) throw new TopologyError('SINK_WITHOUT_PARENT', `Sink ${name} must have at least one parent.`)
    this.#checkParents(name, parentNames)
    this.#addNode({
      kind: 'sink',
      name,
      topic: typeof topic === 'string' ? topic : undefined,
      topicExtractor: typeof topic === 'function' ? topic : undefined,
      keySerializer: toSerializer(options.keySerializer as SerializerLike<unknown> | undefined),
      valueSerializer: toSerializer(options.valueSerializer as SerializerLike<unknown> | undefined),
      partitioner: options.partitioner,
      parents: Object.freeze([...parentNames])
    })
    return this
  }

  /**
   * Adds a store and connects it to the given processors. Adding the same builder again (to
   * connect more processors) is allowed; another builder with the same store name is not.
   * Processors sharing a store end up in the same sub-topology.
   */
  addStateStore(storeBuilder: StoreBuilder<StateStore>, ...processorNames: string[]): this {
    checkStoreBuilder(storeBuilder)
    const storeName = storeBuilder.name
    const existing = this.#storeBuilders.get(storeName)
    if (this.#globalStores.has(storeName) || (existing !== undefined && existing !== storeBuilder)) {
      throw new TopologyError('DUPLICATE_STORE', `Another store named ${storeName} has already been added.`)
    }
    for (const processorName of processorNames) this.#checkStoreUser(processorName, storeName)
    if (existing === undefined) {
      this.#storeBuilders.set(storeName, storeBuilder)
      this.#storeUsers.set(storeName, [])
    }
    for (const processorName of processorNames) this.#connect(processorName, storeName)
    return this
  }

  /** Connects already added stores to a processor so that it can use them. */
  connectProcessorAndStateStores(processorName: string, ...storeNames: string[]): this {
    checkName('Processor', processorName)
    if (storeNames.length === 0)
      throw new TopologyError('TOPOLOGY_INVALID', `No store names given to connect to processor ${processorName}.`)
    for (const storeName of storeNames) {
      checkName('Store', storeName)
      if (this.#globalStores.has(storeName)) {
        throw new TopologyError(
          'TOPOLOGY_INVALID',
          `Global store ${storeName} is available to every processor and must not be connected explicitly (processor ${processorName}).`
        )
      }
      if (!this.#storeUsers.has(storeName))
        throw new TopologyError('UNKNOWN_STORE', `Store ${storeName} has not been added (processor ${processorName}).`)
      this.#checkStoreUser(processorName, storeName)
    }
    for (const storeName of storeNames) this.#connect(processorName, storeName)
    return this
  }

  /**
   * Adds a global store, filled on every instance from all partitions of `topic` by the records
   * `supplier`'s processors receive from a dedicated source. The processor only updates the
   * store: it cannot have children, and the store's own topic is its changelog, so the builder
   * must have logging disabled (`withLoggingDisabled()`), else TOPOLOGY_INVALID, as in Kafka.
   */
  addGlobalStore<K, V>(
    storeBuilder: StoreBuilder<StateStore>,
    sourceName: string,
    options: GlobalStoreOptions<K, V>,
    topic: string,
    processorName: string,
    supplier: ProcessorSupplier<K, V, never, never>
  ): this {
    this.#checkStoreSource('global', storeBuilder, sourceName, topic, processorName, supplier)
    const storeName = storeBuilder.name
    this.#addStoreSource(sourceName, topic, options, undefined)
    const stores = new Set([storeName])
    this.#processorStores.set(processorName, stores)
    this.#addNode({ kind: 'processor', name: processorName, supplier, parents: Object.freeze([sourceName]), stores })
    this.#storeBuilders.set(storeName, storeBuilder)
    this.#globalStores.set(storeName, { storeName, sourceName, processorName, topic })
    this.#globalNodes.add(sourceName).add(processorName)
    return this
  }

  /**
   * Adds a read-only store (KIP-813, Kafka Streams' `Topology.addReadOnlyStateStore`): a local
   * store kept up to date only by the processors `supplier` returns, from the records of `topic`
   * read by a new source (offset reset 'earliest'). The topic is the store's changelog: logging is
   * turned off on `storeBuilder` (no changelog topic is created) and the store is restored from the
   * topic, so it should be compacted. Other processors read the store after
   * `connectProcessorAndStateStores`, which puts them in the same sub-topology.
   */
  addReadOnlyStateStore<K, V>(
    storeBuilder: StoreBuilder<StateStore>,
    sourceName: string,
    options: ReadOnlyStateStoreOptions<K, V>,
    topic: string,
    processorName: string,
    supplier: ProcessorSupplier<K, V, never, never>
  ): this {
    this.#checkStoreSource('read-only', storeBuilder, sourceName, topic, processorName, supplier)
    disableLogging(storeBuilder)
    const storeName = storeBuilder.name
    this.#addStoreSource(sourceName, topic, options, 'earliest')
    this.#processorStores.set(processorName, new Set())
    this.#addNode({
      kind: 'processor',
      name: processorName,
      supplier,
      parents: Object.freeze([sourceName]),
      stores: this.#processorStores.get(processorName)!
    })
    this.#storeBuilders.set(storeName, storeBuilder)
    this.#storeUsers.set(storeName, [])
    this.#connect(processorName, storeName)
    this.#sourceChangelogs.set(storeName, topic)
    return this
  }

  /** The sub-topologies and global stores; its `toString()` prints Kafka Streams' text format. */
  describe(): TopologyDescription {
    return describeTopology(this[TOPOLOGY_DEF]())
  }

  /** Declares an internal (repartition) topic. @internal */
  [ADD_INTERNAL_TOPIC](name: string, spec: InternalTopicSpec = {}): this {
    this.#internalTopics.set(name, spec)
    return this
  }

  /**
   * Declares the inputs of these nodes co-partitioned (a join's two sides): the topics of every
   * source node upstream of them, resolved when the definition is built. @internal
   */
  [COPARTITION_SOURCES](nodeNames: readonly string[]): this {
    for (const name of nodeNames) {
      if (!this.#nodes.has(name))
        throw new TopologyError('UNKNOWN_NODE', `Cannot co-partition the inputs of ${name}: no such node in this topology`)
    }
    this.#copartitionGroups.push([...nodeNames])
    return this
  }

  /** Makes the source topic `topic` the changelog of `storeName` (reuse.ktable.source.topics). @internal */
  [SOURCE_CHANGELOG](storeName: string, topic: string): this {
    const builder = this.#storeBuilders.get(storeName)
    if (builder === undefined || this.#globalStores.has(storeName))
      throw new TopologyError('UNKNOWN_STORE', `Cannot use topic ${topic} as the changelog of ${storeName}: no such local store`)
    if (builder.loggingEnabled)
      throw new TopologyError('TOPOLOGY_INVALID', `Store ${storeName} logs to its own changelog; it cannot also use source topic ${topic}`)
    this.#sourceChangelogs.set(storeName, topic)
    return this
  }

  /** Applies the DSL's optimizations, edit by edit (see TopologyEdit). @internal */
  [REWRITE](edits: readonly TopologyEdit[]): this {
    for (const edit of edits) {
      switch (edit.op) {
        case 'removeNode':
          this.#removeNode(edit.name)
          break
        case 'setParents':
          this.#setParents(edit.name, edit.parents)
          break
        case 'replaceProcessor': {
          const node = this.#processorNode(edit.name)
          checkSupplier(edit.name, edit.supplier)
          this.#checkParents(edit.name, edit.parents)
          this.#nodes.set(edit.name, Object.freeze({ ...node, supplier: edit.supplier, parents: Object.freeze([...edit.parents]) }))
          break
        }
        case 'moveAfter':
          this.#moveAfter(edit.names, edit.anchor)
          break
        case 'removeStore': {
          const users = this.#storeUsers.get(edit.storeName)
          if (users === undefined || users.length > 0)
            throw new TopologyError('TOPOLOGY_INVALID', `Store ${edit.storeName} cannot be removed: it is unknown or still connected.`)
          this.#storeBuilders.delete(edit.storeName)
          this.#storeUsers.delete(edit.storeName)
          this.#sourceChangelogs.delete(edit.storeName)
          break
        }
        case 'connectStore':
          this.#processorNode(edit.processorName)
          this.#connect(edit.processorName, edit.storeName)
          break
        case 'renameCopartitionNode':
          for (const group of this.#copartitionGroups) {
            for (let i = 0; i < group.length; i++) if (group[i] === edit.from) group[i] = edit.to
          }
          break
      }
    }
    return this
  }

  #processorNode(name: string): ProcessorNodeDef {
    const node = this.#nodes.get(name)
    if (node?.kind !== 'processor') throw new TopologyError('UNKNOWN_NODE', `No processor named ${name} to rewrite.`)
    return node
  }

  #removeNode(name: string): void {
    const node = this.#nodes.get(name)
    if (node === undefined) throw new TopologyError('UNKNOWN_NODE', `No node named ${name} to remove.`)
    for (const other of this.#nodes.values()) {
      if (other.kind !== 'source' && other.parents.includes(name))
        throw new TopologyError('TOPOLOGY_INVALID', `Node ${name} cannot be removed: ${other.name} reads it.`)
    }
    this.#nodes.delete(name)
    if (node.kind === 'processor') {
      for (const store of node.stores) {
        const users = this.#storeUsers.get(store)
        users?.splice(users.indexOf(name), 1)
      }
      this.#processorStores.delete(name)
    }
    if (node.kind === 'source') for (const topic of node.topics) this.#topics.delete(topic)
    const topic = node.kind === 'source' ? node.topics[0] : node.kind === 'sink' ? node.topic : undefined
    if (topic !== undefined && this.#internalTopics.has(topic)) {
      const used = [...this.#nodes.values()].some(n =>
        n.kind === 'source' ? n.topics.includes(topic) : n.kind === 'sink' && n.topic === topic
      )
      if (!used) this.#internalTopics.delete(topic)
    }
  }

  #setParents(name: string, parents: readonly string[]): void {
    const node = this.#nodes.get(name)
    if (node === undefined || node.kind === 'source')
      throw new TopologyError('UNKNOWN_NODE', `No processor or sink named ${name} to re-parent.`)
    if (parents.length === 0) throw new TopologyError('TOPOLOGY_INVALID', `Node ${name} must keep at least one parent.`)
    this.#checkParents(name, parents)
    this.#nodes.set(name, Object.freeze({ ...node, parents: Object.freeze([...parents]) }))
  }

  #moveAfter(names: readonly string[], anchor: string): void {
    if (!this.#nodes.has(anchor)) throw new TopologyError('UNKNOWN_NODE', `No node named ${anchor} to move nodes after.`)
    const moved = names.map(name => {
      const node = this.#nodes.get(name)
      if (node === undefined || name === anchor) throw new TopologyError('UNKNOWN_NODE', `No node named ${name} to move after ${anchor}.`)
      return node
    })
    const entries = [...this.#nodes.values()].filter(node => !names.includes(node.name))
    entries.splice(entries.findIndex(node => node.name === anchor) + 1, 0, ...moved)
    this.#nodes.clear()
    for (const node of entries) this.#nodes.set(node.name, node)
  }

  /** The topics of the source nodes upstream of `nodeNames` (Kafka Streams' copartition group). */
  #copartitionTopics(nodeNames: readonly string[]): string[] {
    const topics = new Set<string>()
    const seen = new Set<string>()
    const visit = (name: string): void => {
      if (seen.has(name)) return
      seen.add(name)
      const node = this.#nodes.get(name)!
      if (node.kind === 'source') {
        if (node.pattern !== undefined)
          throw new TopologyError(
            'TOPOLOGY_INVALID',
            `Cannot co-partition the inputs of ${nodeNames.join(', ')}: source ${name} subscribes by pattern`
          )
        for (const topic of node.topics) topics.add(topic)
        return
      }
      for (const parent of node.parents) visit(parent)
    }
    for (const name of nodeNames) visit(name)
    return [...topics]
  }

  /** The validated plain definition of this topology as it is now, for the runtime. @internal */
  [TOPOLOGY_DEF](): TopologyDef {
    const nodes = new Map<string, NodeDef>()
    const children = new Map<string, string[]>()
    for (const [name, node] of this.#nodes) {
      nodes.set(name, node.kind === 'processor' ? Object.freeze({ ...node, stores: new Set(node.stores) }) : node)
      children.set(name, [])
      if (node.kind !== 'source') for (const parent of node.parents) children.get(parent)!.push(name)
    }

    const links: Array<readonly [string, string]> = []
    for (const node of this.#nodes.values()) {
      if (node.kind !== 'source') for (const parent of node.parents) links.push([node.name, parent])
    }
    for (const users of this.#storeUsers.values()) for (const user of users.slice(1)) links.push([users[0]!, user])

    const globalBySource = new Map([...this.#globalStores.values()].map(entry => [entry.sourceName, entry]))
    const subtopologies: SubtopologyDef[] = []
    const globalStores: GlobalStoreDef[] = []
    computeNodeGroups([...this.#nodes.keys()], links).forEach((group, id) => {
      const global = group.map(name => globalBySource.get(name)).find(entry => entry !== undefined)
      if (global !== undefined) globalStores.push(Object.freeze({ id, ...global }))
      else subtopologies.push(this.#subtopologyDef(id, group))
    })

    const def: TopologyDef = {
      nodes,
      children: new Map([...children].map(([name, list]) => [name, Object.freeze(list)])),
      subtopologies: Object.freeze(subtopologies),
      globalStores: Object.freeze(globalStores),
      storeBuilders: new Map(this.#storeBuilders),
      globalStoreNames: new Set(this.#globalStores.keys()),
      internalTopics: new Map(this.#internalTopics),
      copartitionGroups: Object.freeze(this.#copartitionGroups.map(group => Object.freeze(this.#copartitionTopics(group)))),
      sourceChangelogs: new Map(this.#sourceChangelogs)
    }
    validateTopologyDef(def)
    return def
  }

  #subtopologyDef(id: number, group: readonly string[]): SubtopologyDef {
    const sourceTopics: string[] = []
    const sourcePatterns: RegExp[] = []
    const stores = new Set<string>()
    for (const name of group) {
      const node = this.#nodes.get(name)!
      if (node.kind === 'source') {
        sourceTopics.push(...node.topics)
        if (node.pattern !== undefined) sourcePatterns.push(node.pattern)
      } else if (node.kind === 'processor') {
        for (const store of node.stores) stores.add(store)
      }
    }
    return Object.freeze({
      id,
      nodes: Object.freeze([...group]),
      sourceTopics: Object.freeze(sourceTopics),
      sourcePatterns: Object.freeze(sourcePatterns),
      stores: Object.freeze([...stores])
    })
  }

  /** The checks shared by addGlobalStore and addReadOnlyStateStore, before anything is added. */
  #checkStoreSource(
    kind: 'global' | 'read-only',
    storeBuilder: StoreBuilder<StateStore>,
    sourceName: string,
    topic: string,
    processorName: string,
    supplier: ProcessorSupplier<any, any, never, never>
  ): void {
    checkStoreBuilder(storeBuilder)
    checkName('Source', sourceName)
    checkName('Processor', processorName)
    checkName(`Topic of ${kind} store ${storeBuilder.name}:`, topic)
    checkSupplier(processorName, supplier)
    this.#checkNewNodeName(sourceName)
    this.#checkNewNodeName(processorName)
    const storeName = storeBuilder.name
    if (this.#storeBuilders.has(storeName))
      throw new TopologyError('DUPLICATE_STORE', `Another store named ${storeName} has already been added.`)
    // As Kafka's validateGlobalStoreArguments: the global topic is the store's changelog.
    if (kind === 'global' && storeBuilder.loggingEnabled)
      throw new TopologyError('TOPOLOGY_INVALID', `StateStore ${storeName} for global table must not have logging enabled.`)
    if (sourceName === processorName) {
      throw new TopologyError('DUPLICATE_NODE', `The source and the processor of ${kind} store ${storeName} are both named ${sourceName}.`)
    }
    this.#checkTopicFree(topic)
    checkSupplierReturnsNewInstances(processorName, supplier)
  }

  /** The source of a global or read-only store, reading its one topic. */
  #addStoreSource(
    sourceName: string,
    topic: string,
    options: GlobalStoreOptions<any, any>,
    offsetReset: AutoOffsetReset | undefined
  ): void {
    const opts = options ?? {}
    this.#addNode({
      kind: 'source',
      name: sourceName,
      topics: Object.freeze([topic]),
      pattern: undefined,
      keyDeserializer: toDeserializer(opts.keyDeserializer as DeserializerLike<unknown> | undefined),
      valueDeserializer: toDeserializer(opts.valueDeserializer as DeserializerLike<unknown> | undefined),
      timestampExtractor: opts.timestampExtractor,
      offsetReset
    })
    this.#topics.add(topic)
  }

  #addNode(node: NodeDef): void {
    this.#nodes.set(node.name, Object.freeze(node))
  }

  #checkNewNodeName(name: string): void {
    if (this.#nodes.has(name)) throw new TopologyError('DUPLICATE_NODE', `A node named ${name} has already been added.`)
  }

  /** A topic may be read by one source only, and must not match another source's pattern. */
  #checkTopicFree(topic: string): void {
    if (this.#topics.has(topic)) throw new TopologyError('DUPLICATE_TOPIC', `Topic ${topic} is already read by another source.`)
    for (const { sourceName, matcher } of this.#patterns) {
      if (matcher.test(topic)) throw new TopologyError('DUPLICATE_TOPIC', `Topic ${topic} matches the pattern of source ${sourceName}.`)
    }
  }

  #checkParents(childName: string, parentNames: readonly string[]): void {
    for (const parentName of parentNames) {
      checkName(`Parent of ${childName}:`, parentName)
      if (parentName === childName) throw new TopologyError('INVALID_PARENT', `Node ${childName} cannot be its own parent.`)
      const parent = this.#nodes.get(parentName)
      if (parent === undefined) throw new TopologyError('UNKNOWN_NODE', `Parent ${parentName} of ${childName} has not been added.`)
      if (parent.kind === 'sink') throw new TopologyError('INVALID_PARENT', `Sink ${parentName} cannot be the parent of ${childName}.`)
      if (this.#globalNodes.has(parentName)) {
        throw new TopologyError('INVALID_PARENT', `${parentName} feeds a global store and cannot be the parent of ${childName}.`)
      }
    }
  }

  #checkStoreUser(processorName: string, storeName: string): void {
    checkName(`Processor for store ${storeName}:`, processorName)
    const node = this.#nodes.get(processorName)
    if (node === undefined)
      throw new TopologyError('UNKNOWN_NODE', `Processor ${processorName} (for store ${storeName}) has not been added.`)
    if (node.kind !== 'processor') {
      throw new TopologyError(
        'TOPOLOGY_INVALID',
        `Store ${storeName} cannot be connected to ${node.kind} ${processorName}, only to a processor.`
      )
    }
    if (this.#globalNodes.has(processorName)) {
      throw new TopologyError(
        'TOPOLOGY_INVALID',
        `Store ${storeName} cannot be connected to ${processorName}, the processor of a global store.`
      )
    }
  }

  #connect(processorName: string, storeName: string): void {
    this.#processorStores.get(processorName)!.add(storeName)
    const users = this.#storeUsers.get(storeName)!
    if (!users.includes(processorName)) users.push(processorName)
  }
}
