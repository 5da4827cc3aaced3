/**
 * The fetch loop of one consumer, as Java's Fetcher: the source of truth for the fetch position
 * of every assigned partition, pause state, and fetches in flight. At most one Fetch is in flight
 * per broker; a fetched batch waits in a buffer until poll() hands it out, and poll() sends the
 * next fetches before it returns, so the next batches arrive while the caller processes these.
 * Positions move when a batch is handed out, never when it arrives, so a pause, a seek or a new
 * assignment made meanwhile drops what no longer matches. Leader changes and lost connections
 * make the leaders be looked up again; an offset out of range is reset (`resetPolicy`). The
 * positions themselves come from the owner: `assign` with offsets, or `undefined` for the
 * owner's `initialOffsets` lookup (committed offsets, or the reset policy). @internal
 */
import type { Logger } from '../../logger.js'
import { StreamsError } from '../../errors.js'
import { isKafkaError } from '../kafka/kafka-request-error.js'
import { RecordBatchDecodeError } from '../kafka/record-batch-decode-error.js'
import { isSecurityError } from '../kafka/security-errors.js'
import {
  isPartitionError,
  tpKey,
  type FetchedBatch,
  type FetchedRecord,
  type FetchPort,
  type IsolationLevel,
  type PartitionError,
  type TopicPartition,
  type TopicPartitionTimestamp
} from '../kafka/ports.js'
import { Wakeup } from './wakeup.js'
import { describeOffsetReset, type AutoOffsetReset } from '../../processor/api.js'
import { resetOffsets } from './reset-offsets.js'

/** Where a partition without a position starts (Kafka Streams' AutoOffsetReset, by-duration included). */
export type ResetPolicy = AutoOffsetReset

/** Errors after which the partition's leader must be looked up again. */
const STALE_LEADER = [
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'REPLICA_NOT_AVAILABLE',
  'KAFKA_STORAGE_ERROR',
  'OFFSET_NOT_AVAILABLE'
] as const

export interface FetcherOptions {
  readonly port: FetchPort
  readonly clientId: string
  readonly isolationLevel: IsolationLevel
  readonly maxWaitMs: number
  readonly maxBytes: number
  readonly maxPartitionBytes: number
  /** `fetch.min.bytes` of each Fetch; default 1. */
  readonly minBytes?: number
  /**
   * Most records one poll hands out (`max.poll.records`): a batch with more is handed out in
   * parts, the rest at the next polls; default unbounded.
   */
  readonly maxPollRecords?: number
  readonly retryBackoffMs: number
  /** Where a partition starts that has no position: the offsets of those known, absent = reset. */
  readonly initialOffsets?: (partitions: readonly TopicPartition[]) => Promise<ReadonlyMap<string, number>>
  /**
   * Where a partition without a position (or with one out of range) starts, per partition
   * (Kafka Streams' per-source reset policy); 'none' makes poll() fail with a typed error.
   */
  readonly resetPolicy: (tp: TopicPartition) => ResetPolicy
  /**
   * ListOffsets by timestamp, for partitions whose policy is by-duration (absent = no such
   * record); without it such a partition fails poll() with a typed error.
   */
  readonly offsetsForTimes?: (
    partitions: readonly TopicPartitionTimestamp[],
    isolationLevel: IsolationLevel
  ) => Promise<Map<string, number>>
  /** The wall clock a by-duration reset subtracts its duration from (default Date.now). */
  readonly now?: () => number
  /** Told when a position out of range was reset; returns a batch to hand out for it (or nothing). */
  readonly onOutOfRange?: (tp: TopicPartition, requested: number, reset: number) => FetchedBatch | undefined
  readonly logger: Logger
}

/** One assigned partition. A new object on assign/seek, so results for an older one are recognised. */
interface Position extends TopicPartition {
  readonly key: string
  offset: number | undefined
  /** The offset that was out of range, while the position is being reset. */
  outOfRange: number | undefined
  paused: boolean
  /** A fetched batch for this position, not handed out yet. */
  buffered: FetchedBatch | undefined
  /** How many records of `buffered` were handed out already (a batch larger than max.poll.records goes out in parts). */
  handedOut: number
  /** When `buffered` arrived (a sequence number): batches go out in the order they arrived. */
  arrived: number
  /** Records between the position and the partition's end, as the last fetch response said; undefined before one came. */
  lag: number | undefined
  inFlight: boolean
  /** No fetch from here on: the reader wants nothing at or past this offset (a restore's end). */
  endOffset: number | undefined
}

/** The part of `batch` a poll hands out: `records`, then the position `nextOffset` (decoded, without `undecoded`). */
function handedOut(batch: FetchedBatch, records: readonly FetchedRecord[], nextOffset: number): FetchedBatch {
  return {
    topic: batch.topic,
    partition: batch.partition,
    records,
    highWatermark: batch.highWatermark,
    nextOffset,
    logStartOffset: batch.logStartOffset
  }
}

export class Fetcher {
  readonly #o: FetcherOptions
  readonly #wakeup = new Wakeup()
  #positions = new Map<string, Position>()
  /** Leader node per partition; absent = look it up. */
  readonly #leaders = new Map<string, number>()
  /** A leader was dropped because of an error (or a lookup found none): the next lookup reloads the metadata. */
  #leadersStale = false
  readonly #busyNodes = new Set<number>()
  /** When a node may be asked again after its connection failed. */
  readonly #nodeBackoff = new Map<number, number>()
  #resolving: Promise<void> | undefined
  /** A partition that had to be reset under the policy 'none': poll() throws it. */
  #fatal: StreamsError | undefined
  #closed = false
  #lastError: unknown
  #arrivals = 0

  constructor(options: FetcherOptions) {
    this.#o = options
  }

  /**
   * Replaces the assignment (pause state belongs to an assignment); a partition without an offset
   * gets one from initialOffsets or the reset policy. A partition assigned again at the offset it
   * is at keeps what was fetched for it (and a fetch in flight), as Java's assign keeps the state
   * of partitions that stay. With `endOffset`, a partition is not fetched at or past that offset
   * (a restore that ends there would otherwise leave a fetch waiting out fetch.max.wait.ms at the
   * partition's end, holding back the fetches of the other partitions of its broker).
   */
  assign(partitions: ReadonlyArray<TopicPartition & { offset?: number | undefined; endOffset?: number | undefined }>): void {
    const next = new Map<string, Position>()
    for (const p of partitions) {
      const key = tpKey(p.topic, p.partition)
      const old = this.#positions.get(key)
      const endOffset = p.endOffset
      if (old !== undefined && p.offset !== undefined && old.offset === p.offset && old.outOfRange === undefined) {
        old.paused = false
        old.endOffset = endOffset
        next.set(key, old)
        continue
      }
      next.set(key, {
        topic: p.topic,
        partition: p.partition,
        key,
        offset: p.offset,
        outOfRange: undefined,
        paused: false,
        buffered: undefined,
        handedOut: 0,
        arrived: 0,
        lag: undefined,
        inFlight: false,
        endOffset
      })
    }
    this.#positions = next
    this.#wakeup.wake()
  }

  assignment(): TopicPartition[] {
    return [...this.#positions.values()].map(p => ({ topic: p.topic, partition: p.partition }))
  }

  isAssigned(tp: TopicPartition): boolean {
    return this.#positions.has(tpKey(tp.topic, tp.partition))
  }

  seek(tp: TopicPartition, offset: number): void {
    const old = this.#require(tp)
    this.#positions.set(old.key, {
      ...old,
      offset,
      outOfRange: undefined,
      buffered: undefined,
      handedOut: 0,
      lag: undefined,
      inFlight: false
    })
    this.#wakeup.wake()
  }

  /** Forgets the positions of `partitions` (and what was fetched for them): the next poll starts them from initialOffsets or the reset policy. */
  resetPositions(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) {
      const old = this.#require(tp)
      this.#positions.set(old.key, {
        ...old,
        offset: undefined,
        outOfRange: undefined,
        buffered: undefined,
        handedOut: 0,
        lag: undefined,
        inFlight: false
      })
    }
    this.#wakeup.wake()
  }

  /**
   * How far the position is behind the partition's end (the last stable offset under
   * READ_COMMITTED), as the last fetch response said: Java's currentLag, what max.task.idle.ms
   * decides on. Undefined until a response came for the current position.
   */
  currentLag(tp: TopicPartition): number | undefined {
    return this.#positions.get(tpKey(tp.topic, tp.partition))?.lag
  }

  /** The next offset to hand out; undefined before it is known. */
  position(tp: TopicPartition): number | undefined {
    return this.#require(tp).offset
  }

  pause(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.#require(tp).paused = true
  }

  resume(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.#require(tp).paused = false
    this.#wakeup.wake()
  }

  /** Ends a poll waiting for data (a rebalance is needed, the consumer closes). */
  wakeup(): void {
    this.#wakeup.wake()
  }

  /**
   * The batches fetched for unpaused partitions (positions move past them), waiting up to
   * `timeoutMs` when there are none; the next fetches are on their way when it returns.
   */
  async poll(timeoutMs: number): Promise<FetchedBatch[]> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      if (this.#fatal !== undefined) throw this.#fatal
      await this.#resolvePositions()
      const ready = this.#drain()
      this.#sendFetches()
      const left = deadline - Date.now()
      if (ready.length > 0 || this.#closed || left <= 0) return ready
      await this.#wakeup.wait(left)
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    this.#positions = new Map()
    this.#wakeup.wake()
    await this.#o.port.close()
  }

  #require(tp: TopicPartition): Position {
    const p = this.#positions.get(tpKey(tp.topic, tp.partition))
    if (p === undefined) throw new Error(`${tp.topic}-${tp.partition} is not assigned to ${this.#o.clientId}`)
    return p
  }

  /**
   * Hands out buffered batches of unpaused partitions in the order they arrived and moves their
   * positions, at most maxPollRecords records: a batch that does not fit is split, its rest goes
   * out first at the next poll (Java's next-in-line fetch). In arrival order, a partition fetched
   * again does not go before the others (handing out in assignment order would drain the first
   * partition alone, and its fetch, alone at the partition's end, would then wait out
   * fetch.max.wait.ms while the others ran dry). Records the adapter left undecoded are decoded
   * here, as many as go out and one more, which stays buffered (so the position is the offset of
   * the next record, as with a split of decoded records).
   */
  #drain(): FetchedBatch[] {
    const ready: Position[] = []
    for (const p of this.#positions.values()) if (p.buffered !== undefined && !p.paused) ready.push(p)
    if (ready.length > 1) ready.sort((a, b) => a.arrived - b.arrived)
    const out: FetchedBatch[] = []
    let room = this.#o.maxPollRecords ?? Number.POSITIVE_INFINITY
    for (const p of ready) {
      if (room <= 0) break
      const batch = p.buffered!
      const decoded = batch.records
      const from = p.handedOut
      let records: readonly FetchedRecord[]
      /** What stays buffered for the next polls. */
      let rest: FetchedBatch | undefined
      if (decoded.length - from > room) {
        records = decoded.slice(from, from + room)
        p.handedOut = from + room
        rest = batch
      } else {
        records = from === 0 ? decoded : decoded.slice(from)
        const want = room - records.length
        let more: FetchedRecord[]
        try {
          // One more than fits tells whether the rest ended, and where the position is.
          more = batch.undecoded?.next(want + 1) ?? []
        } catch (err) {
          // Like Java's fetch: what this poll has goes out, the failure comes at the next.
          if (out.length > 0) return out
          // A batch the client cannot decode names its codec, partition and offset already.
          if (err instanceof RecordBatchDecodeError) throw err
          throw new StreamsError('KAFKA', `Decoding the records of ${p.key} fetched at offset ${p.offset} failed`, { cause: err })
        }
        rest = undefined
        if (more.length > want) {
          rest = { ...batch, records: [more.pop()!] }
          p.handedOut = 0
        }
        if (more.length > 0) records = records.length === 0 ? more : [...records, ...more]
      }
      room -= records.length
      p.buffered = rest
      if (rest === undefined) {
        p.handedOut = 0
        p.offset = batch.nextOffset
      } else {
        p.offset = rest.records[p.handedOut]!.offset
      }
      p.lag = Math.max(0, batch.highWatermark - p.offset)
      out.push(rest === undefined && records === decoded && batch.undecoded === undefined ? batch : handedOut(batch, records, p.offset))
    }
    return out
  }

  /** Buffers a fetched batch for `p` (handed out by the next polls). */
  #buffer(p: Position, batch: FetchedBatch | undefined): void {
    p.buffered = batch
    p.handedOut = 0
    p.arrived = ++this.#arrivals
  }

  /** Finds a starting offset for every partition without one (at most one lookup at a time). */
  async #resolvePositions(): Promise<void> {
    const missing = [...this.#positions.values()].filter(p => p.offset === undefined)
    if (missing.length === 0) return
    this.#resolving ??= this.#resolve(missing).finally(() => {
      this.#resolving = undefined
    })
    await this.#resolving
  }

  async #resolve(missing: readonly Position[]): Promise<void> {
    try {
      const fresh = missing.filter(p => p.outOfRange === undefined)
      const known =
        this.#o.initialOffsets === undefined || fresh.length === 0 ? new Map<string, number>() : await this.#o.initialOffsets(fresh)
      const reset = await resetOffsets(
        missing.filter(p => !known.has(p.key)),
        {
          port: this.#o.port,
          isolationLevel: this.#o.isolationLevel,
          policy: this.#o.resetPolicy,
          offsetsForTimes: this.#o.offsetsForTimes,
          nowMs: this.#o.now?.() ?? Date.now()
        }
      )
      if ('fatal' in reset) {
        this.#fatal = reset.fatal
        return
      }
      const { offsets } = reset
      for (const p of missing) {
        if (this.#positions.get(p.key) !== p || p.offset !== undefined) continue
        p.offset = known.get(p.key) ?? offsets.get(p.key)
        if (p.offset !== undefined && p.outOfRange !== undefined) {
          this.#buffer(p, this.#o.onOutOfRange?.(p, p.outOfRange, p.offset))
          p.outOfRange = undefined
        }
      }
    } catch (error) {
      this.#warnOnce(error, 'looking up start offsets')
      await new Promise(resolve => setTimeout(resolve, this.#o.retryBackoffMs))
    }
  }

  /** Sends one Fetch to every broker that leads a fetchable partition and has none in flight. */
  #sendFetches(): void {
    if (this.#closed) return
    const now = Date.now()
    const byNode = new Map<number, Position[]>()
    let unknownLeaders = false
    for (const p of this.#positions.values()) {
      if (
        p.offset === undefined ||
        p.paused ||
        p.buffered !== undefined ||
        p.inFlight ||
        p.offset >= (p.endOffset ?? Number.POSITIVE_INFINITY)
      )
        continue
      const node = this.#leaders.get(p.key)
      if (node === undefined) {
        unknownLeaders = true
        continue
      }
      if (this.#busyNodes.has(node) || (this.#nodeBackoff.get(node) ?? 0) > now) continue
      const list = byNode.get(node) ?? []
      list.push(p)
      byNode.set(node, list)
    }
    if (unknownLeaders) void this.#lookUpLeaders()
    for (const [node, positions] of byNode) void this.#fetch(node, positions)
  }

  #lookingUp: Promise<void> | undefined

  async #lookUpLeaders(): Promise<void> {
    if (this.#lookingUp !== undefined) return
    this.#lookingUp = (async () => {
      const wanted = [...this.#positions.values()].filter(p => !this.#leaders.has(p.key))
      try {
        const refresh = this.#leadersStale
        this.#leadersStale = false
        const leaders = await this.#o.port.leaders(wanted, refresh)
        for (const [key, node] of leaders) this.#leaders.set(key, node)
        if (wanted.some(p => !leaders.has(p.key))) {
          this.#leadersStale = true
          await new Promise(resolve => setTimeout(resolve, this.#o.retryBackoffMs))
        }
      } catch (error) {
        if (this.#failOnSecurityError(error)) return
        this.#leadersStale = true
        this.#warnOnce(error, 'looking up partition leaders')
        await new Promise(resolve => setTimeout(resolve, this.#o.retryBackoffMs))
      }
    })().finally(() => {
      this.#lookingUp = undefined
      this.#wakeup.wake()
    })
    await this.#lookingUp
  }

  async #fetch(node: number, positions: readonly Position[]): Promise<void> {
    this.#busyNodes.add(node)
    const requested = new Map(positions.map(p => [p.key, { position: p, offset: p.offset! }]))
    for (const p of positions) p.inFlight = true
    try {
      const results = await this.#o.port.fetch({
        node,
        partitions: positions.map(p => ({ topic: p.topic, partition: p.partition, offset: p.offset! })),
        isolationLevel: this.#o.isolationLevel,
        maxWaitMs: this.#o.maxWaitMs,
        maxBytes: this.#o.maxBytes,
        maxPartitionBytes: this.#o.maxPartitionBytes,
        ...(this.#o.minBytes === undefined ? {} : { minBytes: this.#o.minBytes })
      })
      this.#lastError = undefined
      for (const result of results) {
        const entry = requested.get(tpKey(result.topic, result.partition))
        if (entry === undefined) continue
        const { position, offset } = entry
        // Dropped when the assignment or the position changed while the fetch was in flight.
        if (this.#positions.get(position.key) !== position || position.offset !== offset) continue
        if (isPartitionError(result)) this.#onPartitionError(position, offset, result)
        else if (result.records.length > 0 || result.undecoded !== undefined || result.nextOffset !== offset) this.#buffer(position, result)
        else position.lag = Math.max(0, result.highWatermark - offset)
      }
    } catch (error) {
      if (this.#failOnSecurityError(error)) return
      this.#warnOnce(error, `fetching from broker ${node}`)
      for (const p of positions) this.#leaders.delete(p.key)
      this.#leadersStale = true
      this.#nodeBackoff.set(node, Date.now() + this.#o.retryBackoffMs)
    } finally {
      for (const p of positions) p.inFlight = false
      this.#busyNodes.delete(node)
      this.#wakeup.wake()
    }
  }

  #onPartitionError(position: Position, offset: number, { error }: PartitionError): void {
    if (isKafkaError(error, 'OFFSET_OUT_OF_RANGE')) {
      this.#o.logger.warn(
        `${this.#o.clientId}: offset ${offset} of ${position.topic}-${position.partition} is out of range; resetting it (${describeOffsetReset(this.#o.resetPolicy(position))})`
      )
      position.offset = undefined
      position.outOfRange = offset
    } else if (isKafkaError(error, ...STALE_LEADER)) {
      this.#leaders.delete(position.key)
      this.#leadersStale = true
    } else if (!this.#failOnSecurityError(error)) {
      this.#warnOnce(error, `fetching ${position.topic}-${position.partition}`)
    }
  }

  /**
   * An authentication or authorization failure (no READ on a topic) is fatal, as Java's consumer
   * throws it from poll(): the next poll throws it, nothing retries it. Whether `error` was one.
   */
  #failOnSecurityError(error: unknown): boolean {
    if (!isSecurityError(error)) return false
    this.#fatal ??= error as StreamsError
    return true
  }

  /** Logs a failure once until something succeeds again (a broker down must not flood the log). */
  #warnOnce(error: unknown, what: string): void {
    if (this.#closed) return
    const message = error instanceof Error ? error.message : String(error)
    if (this.#lastError === message) return
    this.#lastError = message
    this.#o.logger.warn(`${this.#o.clientId}: ${what} failed: ${message}; retrying`)
  }
}
