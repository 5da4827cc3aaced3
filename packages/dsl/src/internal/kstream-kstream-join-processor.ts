/**
 * The processors of a stream-stream join (Kafka Streams' KStreamJoinWindow and
 * KStreamKStreamJoin with its left and right sides). The windowed processor forwards each record
 * and then keeps it in its side's window store. The join processor of each side looks up the
 * other side's store for `[ts - before, ts + after]` and emits one result per match, with the
 * larger timestamp. In left/outer joins a record without a match waits in the shared outer store
 * until `sharedStreamTime > ts + after + grace` (right side: `before`), then is emitted joined
 * with null under its own timestamp; a match removes it. Both sides share one stream-time
 * tracker per task; emission passes are throttled by `outerJoinEmitIntervalMs`. @internal
 */
import { ConfigError } from '@kstreams/core'
import type { Processor, ProcessorContext, ProcessorSupplier, Record, Serde, TaskId, WindowStore } from '@kstreams/core'
import { recordDroppedRecord } from '@kstreams/core/internal'
import { type OuterJoinStore, decodeJoinKey, decodeSideValue, encodeJoinKey, encodeSideValue } from './outer-join-store.js'

/** Java's Long.MAX_VALUE as Kafka's "no pending record" marker of minTime. */
const NO_MIN_TIME = Number.MAX_VALUE

/** The stream time both join sides of one task share (Kafka's KStreamImplJoin.TimeTracker). */
interface TimeTracker {
  emitIntervalMs: number
  streamTime: number
  minTime: number
  nextTimeToEmit: number
}

/** One TimeTracker per task, shared by the two join processors of that task. */
export class SharedTimeTrackers {
  readonly #byTask = new Map<string, TimeTracker>()

  get(taskId: TaskId): TimeTracker {
    const id = taskId.toString()
    let tracker = this.#byTask.get(id)
    if (tracker === undefined) {
      tracker = { emitIntervalMs: 1000, streamTime: -1, minTime: NO_MIN_TIME, nextTimeToEmit: 0 }
      this.#byTask.set(id, tracker)
    }
    return tracker
  }

  remove(taskId: TaskId): void {
    this.#byTask.delete(taskId.toString())
  }
}

/** Forwards every record, then stores those with a key in its side's window store (null values are not kept). */
export function joinWindowProcessor<K, V>(storeName: string): ProcessorSupplier<K, V, K, V> {
  return () => {
    let context: ProcessorContext<K, V>
    let store: WindowStore<K, V>
    return {
      init(c) {
        context = c
        store = c.getStateStore<WindowStore<K, V>>(storeName)
      },
      process(record) {
        context.forward(record)
        if (record.key !== null && record.key !== undefined) store.put(record.key, record.value, record.timestamp)
      }
    }
  }
}

export interface JoinSideOptions<K, VL, VR, VOut> {
  readonly isLeftSide: boolean
  readonly otherStoreName: string
  /** The shared outer store, in left/outer joins. */
  readonly outerStoreName: string | undefined
  /** Whether this side's unmatched records are emitted (left side of left joins, both sides of outer joins). */
  readonly outer: boolean
  readonly beforeMs: number
  readonly afterMs: number
  readonly graceMs: number
  /** The user's joiner, always called as (key, left value, right value). */
  readonly joiner: (key: K, left: VL | null, right: VR | null) => VOut
  readonly trackers: SharedTimeTrackers
  readonly keySerde: Serde<K> | undefined
  readonly leftValueSerde: Serde<VL> | undefined
  readonly rightValueSerde: Serde<VR> | undefined
}

/** The join processor of one side; `VThis` is the value type of that side. */
export function joinSideProcessor<K, VL, VR, VOut, VThis, VOther>(
  options: JoinSideOptions<K, VL, VR, VOut>
): ProcessorSupplier<K, VThis, K, VOut> {
  return () => new JoinSideProcessor<K, VL, VR, VOut, VThis, VOther>(options)
}

class JoinSideProcessor<K, VL, VR, VOut, VThis, VOther> implements Processor<K, VThis, K, VOut> {
  readonly #o: JoinSideOptions<K, VL, VR, VOut>
  /** This side's look-up bounds: the right side mirrors the windows. */
  readonly #joinBeforeMs: number
  readonly #joinAfterMs: number
  #context!: ProcessorContext<K, VOut>
  #otherStore!: WindowStore<K, VOther>
  #outerStore: OuterJoinStore | undefined
  #tracker!: TimeTracker
  #serdes: { key: Serde<K>; left: Serde<VL>; right: Serde<VR>; topic: string } | undefined

  constructor(options: JoinSideOptions<K, VL, VR, VOut>) {
    this.#o = options
    this.#joinBeforeMs = options.isLeftSide ? options.beforeMs : options.afterMs
    this.#joinAfterMs = options.isLeftSide ? options.afterMs : options.beforeMs
  }

  init(context: ProcessorContext<K, VOut>): void {
    this.#context = context
    this.#otherStore = context.getStateStore<WindowStore<K, VOther>>(this.#o.otherStoreName)
    this.#tracker = this.#o.trackers.get(context.taskId)
    if (this.#o.outerStoreName !== undefined) {
      this.#outerStore = context.getStateStore<OuterJoinStore>(this.#o.outerStoreName)
      this.#tracker.emitIntervalMs = context.appConfigs.outerJoinEmitIntervalMs
    }
  }

  process(record: Record<K, VThis>): void {
    const timestamp = record.timestamp
    const tracker = this.#tracker
    tracker.streamTime = Math.max(tracker.streamTime, timestamp)
    const key = record.key
    const value = record.value
    if (this.#o.outer && isNull(key) && !isNull(value)) {
      this.#context.forward(record.withValue(this.#join(key, value, null)))
      return
    }
    if (isNull(key) || isNull(value)) {
      recordDroppedRecord(this.#context)
      return
    }
    const outerStore = this.#outerStore
    if (outerStore !== undefined && timestamp === tracker.streamTime) this.#emitNonJoinedOuterRecords(outerStore, record)

    const timeFrom = Math.max(0, timestamp - this.#joinBeforeMs)
    const timeTo = Math.max(0, timestamp + this.#joinAfterMs)
    let matched = false
    const iterator = this.#otherStore.fetch(key, timeFrom, timeTo)
    try {
      for (const other of iterator) {
        matched = true
        if (outerStore !== undefined) outerStore.deleteIfPresent(this.#outerKey(key, other.key, !this.#o.isLeftSide))
        this.#context.forward(record.withValue(this.#join(key, value, other.value)).withTimestamp(Math.max(timestamp, other.key)))
      }
    } finally {
      iterator.close()
    }
    if (!this.#o.outer || matched) return
    if (outerStore === undefined || timeTo < tracker.streamTime) {
      this.#context.forward(record.withValue(this.#join(key, value, null)))
    } else {
      tracker.minTime = Math.min(tracker.minTime, timestamp)
      const serdes = this.#resolveSerdes()
      const valueBytes = this.#o.isLeftSide
        ? serdes.left.serializer().serialize(serdes.topic, value as unknown as VL)
        : serdes.right.serializer().serialize(serdes.topic, value as unknown as VR)
      if (valueBytes !== null)
        outerStore.append(this.#outerKey(key, timestamp, this.#o.isLeftSide), encodeSideValue(this.#o.isLeftSide, valueBytes))
    }
  }

  close(): void {
    this.#o.trackers.remove(this.#context.taskId)
  }

  /** The joiner applied to this side's value and the other side's (either may be null). */
  #join(key: K, thisValue: VThis | null, otherValue: VOther | null): VOut {
    return this.#o.isLeftSide
      ? this.#o.joiner(key, thisValue as unknown as VL | null, otherValue as unknown as VR | null)
      : this.#o.joiner(key, otherValue as unknown as VL | null, thisValue as unknown as VR | null)
  }

  #emitNonJoinedOuterRecords(store: OuterJoinStore, record: Record<K, VThis>): void {
    const tracker = this.#tracker
    const graceMs = this.#o.graceMs
    // only try to emit when some stored record might have expired, at most once per emit interval
    if (longSumAtLeast(tracker.minTime, this.#joinAfterMs + graceMs, tracker.streamTime)) return
    const now = this.#context.currentSystemTimeMs()
    if (now < tracker.nextTimeToEmit) return
    tracker.nextTimeToEmit = now + tracker.emitIntervalMs
    tracker.minTime = NO_MIN_TIME

    const serdes = this.#resolveSerdes()
    let prevKey: Buffer | undefined
    let leftWindowOpen = false
    let rightWindowOpen = false
    for (const entry of store.entries()) {
      const { timestamp, isLeftSide, keyBytes } = decodeJoinKey(entry.key)
      tracker.minTime = timestamp
      if (leftWindowOpen && rightWindowOpen) break
      // the window of this record is still open: so are those of later records of its side
      const lookBackMs = isLeftSide ? this.#o.afterMs : this.#o.beforeMs
      if (timestamp + lookBackMs + graceMs >= tracker.streamTime) {
        if (isLeftSide) leftWindowOpen = true
        else rightWindowOpen = true
        continue
      }
      const key = serdes.key.deserializer().deserialize(serdes.topic, Buffer.from(keyBytes)) as K
      const { valueBytes } = decodeSideValue(entry.value)
      const result = isLeftSide
        ? this.#o.joiner(key, serdes.left.deserializer().deserialize(serdes.topic, valueBytes), null)
        : this.#o.joiner(key, null, serdes.right.deserializer().deserialize(serdes.topic, valueBytes))
      this.#context.forward(record.withKey(key).withValue(result).withTimestamp(timestamp))
      // delete a key once all its values were emitted (the store keeps a list per key)
      if (prevKey !== undefined && !prevKey.equals(entry.key)) store.delete(prevKey)
      prevKey = entry.key
    }
    if (prevKey !== undefined) store.delete(prevKey)
  }

  #outerKey(key: K, timestamp: number, isLeftSide: boolean): Buffer {
    const serdes = this.#resolveSerdes()
    const keyBytes = serdes.key.serializer().serialize(serdes.topic, key)
    return encodeJoinKey(timestamp, isLeftSide, keyBytes ?? Buffer.alloc(0))
  }

  /** The serdes of the outer store's keys and values: the StreamJoined ones, else the config defaults. */
  #resolveSerdes(): { key: Serde<K>; left: Serde<VL>; right: Serde<VR>; topic: string } {
    if (this.#serdes !== undefined) return this.#serdes
    const configs = this.#context.appConfigs
    const storeName = this.#o.outerStoreName ?? ''
    const key = this.#o.keySerde ?? (configs.defaultKeySerde as Serde<K> | undefined)
    if (key === undefined)
      throw new ConfigError(
        'defaultKeySerde',
        `Store "${storeName}" has no key serde: pass one in StreamJoined or set defaultKeySerde in the config`
      )
    const left = this.#o.leftValueSerde ?? (configs.defaultValueSerde as Serde<VL> | undefined)
    const right = this.#o.rightValueSerde ?? (configs.defaultValueSerde as Serde<VR> | undefined)
    if (left === undefined || right === undefined) {
      throw new ConfigError(
        'defaultValueSerde',
        `Store "${storeName}" has no value serde: pass both in StreamJoined or set defaultValueSerde in the config`
      )
    }
    this.#serdes = { key, left, right, topic: `${this.#context.applicationId}-${storeName}-changelog` }
    return this.#serdes
  }
}

function isNull(x: unknown): x is null | undefined {
  return x === null || x === undefined
}

/**
 * `a + b >= c` with Java long arithmetic when `a` is Long.MAX_VALUE (the empty-store marker): a
 * positive `b` overflows to a negative sum, as it does in Kafka.
 */
function longSumAtLeast(a: number, b: number, c: number): boolean {
  if (a === NO_MIN_TIME) return b <= 0
  return a + b >= c
}
