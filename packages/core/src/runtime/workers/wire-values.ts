/**
 * How values cross between a worker thread and the main thread. postMessage uses structured
 * clone, which keeps plain data (primitives, plain objects, arrays, Maps, Sets, Dates, typed
 * arrays) but drops classes and cannot carry iterators. `toWire` replaces the values of
 * kstreams' own classes (TaskId, KeyValue, Windowed, ValueAndTimestamp, VersionedRecord, the IQv2
 * queries, QueryResult, Position...) and Buffers by markers, and drains iterators into arrays;
 * `fromWire` builds the same values again. Other class instances arrive as plain objects.
 * @internal
 */
import { TaskId } from '../../task-id.js'
import { KeyValue } from '../../key-value.js'
import { ValueAndTimestamp } from '../../state/key-value-store.js'
import { SessionWindow, TimeWindow, Windowed } from '../../state/windowed.js'
import { VersionedRecord } from '../../state/versioned-record.js'
import { KeyValueIteratorBase } from '../../state/key-value-iterator-base.js'
import { KeyQuery } from '../iq/v2/key-query.js'
import { RangeQuery } from '../iq/v2/range-query.js'
import { TimestampedKeyQuery } from '../iq/v2/timestamped-key-query.js'
import { TimestampedRangeQuery } from '../iq/v2/timestamped-range-query.js'
import { WindowKeyQuery } from '../iq/v2/window-key-query.js'
import { WindowRangeQuery } from '../iq/v2/window-range-query.js'
import { VersionedKeyQuery } from '../iq/v2/versioned-key-query.js'
import { MultiVersionedKeyQuery } from '../iq/v2/multi-versioned-key-query.js'
import { Position, PositionBound } from '../iq/v2/position.js'
import { QueryConfig } from '../iq/v2/query-config.js'
import { QueryResult } from '../iq/v2/query-result.js'

const CLASS = '__kstreamsClass'

/** One class that crosses as a marker: `encode` gives what to send (encoded again), `decode` builds it back. */
interface WireClass {
  readonly name: string
  test(value: object): boolean
  encode(value: any): unknown
  decode(encoded: any): unknown
}

/** A class whose whole state is its public fields: sent as its fields, rebuilt on its prototype. */
function fieldsOf(type: { readonly name: string; readonly prototype: object }): WireClass {
  return {
    name: type.name,
    test: value => value.constructor === type,
    encode: value => ({ ...value }),
    decode: fields => Object.assign(Object.create(type.prototype), fields)
  }
}

function positionToMap(position: Position): Map<string, Map<number, number>> {
  return new Map([...position.getTopics()].map(topic => [topic, position.getPartitionPositions(topic)]))
}

const CLASSES: readonly WireClass[] = [
  { name: 'TaskId', test: v => v instanceof TaskId, encode: v => v.toString(), decode: text => TaskId.parse(text) },
  {
    name: 'Buffer',
    test: v => Buffer.isBuffer(v),
    // A copy of the Buffer's bytes only: a view would carry its whole backing memory (a pooled slab, a fetch response).
    encode: (v: Buffer) => new Uint8Array(v),
    decode: (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  },
  ...[KeyValue, ValueAndTimestamp, Windowed, TimeWindow, SessionWindow, VersionedRecord].map(fieldsOf),
  ...[
    KeyQuery,
    RangeQuery,
    TimestampedKeyQuery,
    TimestampedRangeQuery,
    WindowKeyQuery,
    WindowRangeQuery,
    VersionedKeyQuery,
    MultiVersionedKeyQuery
  ].map(fieldsOf),
  {
    name: 'Position',
    test: v => v instanceof Position,
    encode: positionToMap,
    decode: map => Position.fromMap(map)
  },
  {
    name: 'PositionBound',
    test: v => v instanceof PositionBound,
    encode: (v: PositionBound) => (v.isUnbounded() ? null : v.position()),
    decode: (position: Position | null) => (position === null ? PositionBound.unbounded() : PositionBound.at(position))
  },
  {
    name: 'QueryConfig',
    test: v => v instanceof QueryConfig,
    encode: (v: QueryConfig) => v.isCollectExecutionInfo(),
    decode: (collect: boolean) => new QueryConfig(collect)
  },
  {
    name: 'QueryResult',
    test: v => v instanceof QueryResult,
    encode: (v: QueryResult<unknown>) => ({
      result: v.isSuccess() ? v.getResult() : undefined,
      reason: v.isFailure() ? v.getFailureReason() : undefined,
      message: v.isFailure() ? v.getFailureMessage() : undefined,
      position: v.getPosition(),
      executionInfo: [...v.getExecutionInfo()]
    }),
    decode: (e: { result: unknown; reason: any; message: string; position: Position; executionInfo: string[] }) => {
      const result = e.reason === undefined ? QueryResult.forResult(e.result) : QueryResult.forFailure(e.reason, e.message)
      result.setPosition(e.position)
      for (const line of e.executionInfo) result.addExecutionInfo(line)
      return result
    }
  },
  {
    // A store iterator: read to its end (and closed) here, an iterator over the same records there.
    name: 'Iterator',
    test: v => isStoreIterator(v),
    encode: (v: Iterator<unknown> & { close(): void }) => {
      try {
        return [...(v as unknown as Iterable<unknown>)]
      } finally {
        v.close()
      }
    },
    decode: (items: Array<KeyValue<unknown, unknown>>) => new ListIterator(items)
  }
]

const BY_NAME = new Map(CLASSES.map(c => [c.name, c]))

function isStoreIterator(value: object): boolean {
  const v = value as Record<string | symbol, unknown>
  return typeof v.next === 'function' && typeof v.close === 'function' && typeof v[Symbol.iterator] === 'function'
}

/** `value` ready for postMessage: kstreams' classes and Buffers as markers, iterators drained. */
export function toWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  for (const c of CLASSES) if (c.test(value)) return { [CLASS]: c.name, v: toWire(c.encode(value)) }
  if (Array.isArray(value)) return value.map(toWire)
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [toWire(k), toWire(v)]))
  if (value instanceof Set) return new Set([...value].map(toWire))
  if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toWire(v)]))
  return value
}

/** The reverse of toWire. */
export function fromWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(fromWire)
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [fromWire(k), fromWire(v)]))
  if (value instanceof Set) return new Set([...value].map(fromWire))
  if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    const name = (value as Record<string, unknown>)[CLASS]
    if (typeof name === 'string') {
      const c = BY_NAME.get(name)
      if (c !== undefined) return c.decode(fromWire((value as { v: unknown }).v))
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromWire(v)]))
  }
  return value
}

/**
 * An iterator over records already read (a worker's store iterator, drained): a KeyValueIterator,
 * or, over VersionedRecords, a VersionedRecordIterator.
 */
class ListIterator extends KeyValueIteratorBase<unknown, unknown> {
  #i = 0
  readonly #items: Array<KeyValue<unknown, unknown>>

  constructor(items: Array<KeyValue<unknown, unknown>>) {
    super()
    this.#items = items
  }

  next(): IteratorResult<KeyValue<unknown, unknown>, undefined> {
    return this.#i < this.#items.length ? { done: false, value: this.#items[this.#i++]! } : { done: true, value: undefined }
  }

  peekNextKey(): unknown {
    return this.#items[this.#i]?.key
  }

  close(): void {
    this.#i = this.#items.length
  }
}
