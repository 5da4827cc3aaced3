/**
 * Shared setup of the KafkaStreams-on-InMemoryKafka tests: a counting application (Processor API,
 * a logged in-memory key-value store), its input with the true count of every key, and the checks
 * every test ends with: no client reached ERROR, no key is counted below its true count, every
 * store equals a replay of its changelog.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, QueryableStoreTypes, Serdes, Topology } from '@kstreams/core'
import type {
  IsolationLevel,
  KafkaStreamsState,
  KeyValueStore,
  Processor,
  ProcessorContext,
  Record,
  StateRestoreListener,
  StreamsConfig,
  StreamsError,
  StreamsUncaughtExceptionHandler
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import type { InMemoryKafkaOptions } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'

export const INPUT = 'words'
export const STORE = 'Counts'
const S = Serdes.String()
const L = Serdes.Long()

/** words -> a count per key in the logged store `Counts`. */
export function countingTopology(): Topology {
  return new Topology()
    .addSource('Words', INPUT, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'Words')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), S, L), 'Count')
}

class CountProcessor implements Processor<string, string, never, never> {
  #store!: KeyValueStore<string, number>

  init(context: ProcessorContext<never, never>): void {
    this.#store = context.getStateStore<KeyValueStore<string, number>>(STORE)
  }

  process(record: Record<string, string>): void {
    this.#store.put(record.key, (this.#store.get(record.key) ?? 0) + 1)
  }
}

/** Short timeouts, so faults play out in well under a second. */
export const FAST: StreamsConfig = {
  sessionTimeoutMs: 500,
  heartbeatIntervalMs: 100,
  commitIntervalMs: 100,
  maxPollIntervalMs: 5000,
  pollMs: 50,
  fetchMaxWaitMs: 50,
  retryBackoffMs: 20,
  defaultApiTimeoutMs: 1000
}

/** One KafkaStreams instance and every state it went through. */
export interface App {
  readonly streams: KafkaStreams
  readonly states: KafkaStreamsState[]
  /** The errors the uncaught-exception handler saw (with a recording handler only). */
  readonly errors: StreamsError[]
}

export interface AppOptions {
  readonly config?: StreamsConfig
  /** A recording handler answering this; default: the default handler (none set). */
  readonly handlerResponse?: ReturnType<StreamsUncaughtExceptionHandler>
  /** Told of every restore (of the stream threads' stores too). */
  readonly restoreListener?: StateRestoreListener
}

export class Harness {
  readonly kafka: InMemoryKafka
  readonly applicationId: string
  readonly apps: App[] = []
  /** How many records of each key were produced. */
  readonly trueCounts = new Map<string, number>()
  readonly #dirs: string[] = []
  readonly #dirOf = new Map<App, string>()
  #next = 0

  constructor(options: { partitions?: number; kafka?: InMemoryKafkaOptions } = {}) {
    this.kafka = new InMemoryKafka(options.kafka)
    this.kafka.createTopic(INPUT, options.partitions ?? 4)
    this.applicationId = `counting-${process.pid}-${Date.now()}`
  }

  get changelog(): string {
    return `${this.applicationId}-${STORE}-changelog`
  }

  /** A new instance (own state directory), not started. */
  async create(options: AppOptions = {}): Promise<App> {
    const dir = options.config?.stateDir ?? (await mkdtemp(join(tmpdir(), 'kstreams-faults-')))
    if (!this.#dirs.includes(dir)) this.#dirs.push(dir)
    const streams = new KafkaStreams(
      countingTopology(),
      {
        ...FAST,
        applicationId: this.applicationId,
        stateDir: dir,
        ...options.config
      },
      { client: this.kafka.client() }
    )
    const app: App = { streams, states: [], errors: [] }
    this.#dirOf.set(app, dir)
    streams.setStateListener(state => {
      app.states.push(state)
    })
    if (options.restoreListener !== undefined) streams.setGlobalStateRestoreListener(options.restoreListener)
    const response = options.handlerResponse
    if (response !== undefined)
      streams.setUncaughtExceptionHandler(error => {
        app.errors.push(error)
        return response
      })
    this.apps.push(app)
    return app
  }

  /** The state directory of an instance (to start another on it). */
  stateDirOf(app: App): string {
    return this.#dirOf.get(app)!
  }

  /** A new instance, started. */
  async start(options: AppOptions = {}): Promise<App> {
    const app = await this.create(options)
    await app.streams.start()
    return app
  }

  /** Produces `n` records over `keys` keys (round robin), counting them. */
  produce(n: number, keys = 20): void {
    const records = Array.from({ length: n }, () => {
      const key = `k${this.#next++ % keys}`
      this.trueCounts.set(key, (this.trueCounts.get(key) ?? 0) + 1)
      return { key, value: 'x' }
    })
    this.kafka.produce(INPUT, records)
  }

  /** Produces `n` records in slices of `perSlice` every `everyMs`, while a fault plays out. */
  async produceSlowly(n: number, perSlice = 10, everyMs = 20): Promise<void> {
    for (let sent = 0; sent < n; sent += perSlice) {
      this.produce(Math.min(perSlice, n - sent))
      await sleep(everyMs)
    }
  }

  /** Whether the group committed every input partition up to its end. */
  allCommitted(): boolean {
    const group = this.kafka.group(this.applicationId)
    if (group === undefined) return false
    const input = this.kafka.topic(INPUT)
    for (let p = 0; p < input.partitions; p++) {
      if ((group.committed.get(`${INPUT}-${p}`)?.offset ?? 0) !== input.highWatermark(p)) return false
    }
    return true
  }

  /** Waits until every running instance is RUNNING and the input is committed to its end. */
  async settle(timeoutMs = 10_000): Promise<void> {
    await eventually(() => this.allCommitted() && this.running().every(a => a.streams.state() === 'RUNNING'), timeoutMs)
  }

  /** The instances not stopped. */
  running(): App[] {
    return this.apps.filter(a => a.streams.state() === 'RUNNING' || a.streams.state() === 'REBALANCING')
  }

  /** Every key's count as the running instances' stores show it (interactive queries). */
  storeContents(): Map<string, number> {
    const contents = new Map<string, number>()
    for (const app of this.running()) {
      const store = app.streams.store({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() })
      using all = store.all()
      for (const { key, value } of all) {
        expect(contents.has(key), `key ${key} in two stores`).to.equal(false)
        contents.set(key, value)
      }
    }
    return contents
  }

  /** The store rebuilt from its changelog topic: the last value of every key (of committed records only, READ_COMMITTED). */
  changelogReplay(isolationLevel: IsolationLevel = 'READ_UNCOMMITTED'): Map<string, number> {
    const replay = new Map<string, number>()
    for (const r of this.kafka.topic(this.changelog).allRecords({ isolationLevel })) {
      const key = S.deserializer().deserialize(this.changelog, r.key)!
      const value = L.deserializer().deserialize(this.changelog, r.value)
      if (value === null) replay.delete(key)
      else replay.set(key, value)
    }
    return replay
  }

  /**
   * The checks every test ends with, once settled: no instance went through ERROR (or
   * PENDING_ERROR), every key counted at least as often as it was produced (at-least-once), and
   * the stores equal their changelog.
   */
  async verify(): Promise<void> {
    await this.settle()
    // A rebalance may start between settle() and the query (IQ then says STREAMS_REBALANCING): try again.
    let contents: Map<string, number> | undefined
    await eventually(() => {
      try {
        contents = this.storeContents()
        return true
      } catch (error) {
        if ((error as StreamsError).retriable !== true) throw error
        return false
      }
    })
    this.expectNoError()
    expect([...contents!.keys()].sort(), 'keys in the stores').to.deep.equal([...this.trueCounts.keys()].sort())
    const below = [...this.trueCounts].filter(([key, count]) => (contents!.get(key) ?? 0) < count)
    expect(below, 'keys counted below their true count').to.deep.equal([])
    expect(sorted(contents!), 'stores == changelog replay').to.deep.equal(sorted(this.changelogReplay()))
  }

  expectNoError(): void {
    for (const app of this.apps) {
      expect(
        app.states.filter(s => s === 'ERROR' || s === 'PENDING_ERROR'),
        `states ${app.states.join(' -> ')}`
      ).to.deep.equal([])
    }
  }

  /** Closes every instance and the broker, removes the state directories. */
  async cleanup(): Promise<void> {
    await Promise.all(
      this.apps.map(async a => {
        await a.streams.close()
      })
    )
    this.kafka.close()
    await Promise.all(
      this.#dirs.map(async d => {
        await rm(d, { recursive: true, force: true })
      })
    )
  }
}

export const sleep = async (ms: number): Promise<void> => {
  await new Promise(resolve => setTimeout(resolve, ms))
}

const sorted = (m: ReadonlyMap<string, number>): Array<[string, number]> => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** The group member of a client (e.g. `StreamThread-1-consumer`), by the end of its client id. */
export function memberOf(kafka: InMemoryKafka, groupId: string, clientSuffix: string): { memberId: string; clientId: string } | undefined {
  return kafka.group(groupId)?.members.find(m => m.clientId.endsWith(clientSuffix))
}
