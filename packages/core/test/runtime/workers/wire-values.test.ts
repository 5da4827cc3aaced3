/**
 * What crosses between a worker thread and the main thread (toWire, structured clone, fromWire):
 * kstreams' own classes come back as themselves, Buffers as Buffers, store iterators as
 * iterators over the same records (the original closed), other class instances as plain data.
 */
import { expect } from 'chai'
import { fromWire, toWire } from '../../../src/runtime/workers/wire-values.js'
import { TaskId } from '../../../src/task-id.js'
import { KeyValue } from '../../../src/key-value.js'
import { ValueAndTimestamp } from '../../../src/state/key-value-store.js'
import { SessionWindow, TimeWindow, Windowed } from '../../../src/state/windowed.js'
import { VersionedRecord } from '../../../src/state/versioned-record.js'
import { ListVersionedRecordIterator } from '../../../src/state/versioned-record-iterator.js'
import { KeyQuery } from '../../../src/runtime/iq/v2/key-query.js'
import { RangeQuery } from '../../../src/runtime/iq/v2/range-query.js'
import { WindowRangeQuery } from '../../../src/runtime/iq/v2/window-range-query.js'
import { Position, PositionBound } from '../../../src/runtime/iq/v2/position.js'
import { QueryConfig } from '../../../src/runtime/iq/v2/query-config.js'
import { QueryResult } from '../../../src/runtime/iq/v2/query-result.js'
import type { KeyValueIterator } from '../../../src/state/key-value-store.js'

const cross = <T>(value: T): T => fromWire(structuredClone(toWire(value))) as T

function iteratorOf<K, V>(entries: Array<KeyValue<K, V>>): KeyValueIterator<K, V> & { closed: boolean } {
  let i = 0
  const it = {
    closed: false,
    next: () => (i < entries.length ? { done: false as const, value: entries[i++]! } : { done: true as const, value: undefined }),
    peekNextKey: () => entries[i]?.key,
    close() {
      it.closed = true
    },
    [Symbol.iterator]: () => it,
    [Symbol.dispose]: () => it.close()
  }
  return it
}

describe('wire values (worker threads)', () => {
  it('kstreams records, windows and timestamps come back as their classes', () => {
    const value = {
      kv: new KeyValue('k', 1),
      vt: ValueAndTimestamp.make({ n: 1 }, 42),
      time: new Windowed('a', new TimeWindow(0, 10)),
      session: new Windowed(Buffer.from('b'), new SessionWindow(5, 5)),
      version: new VersionedRecord('v', 3, 9),
      task: new TaskId(1, 2)
    }
    const back = cross(value)
    expect(back.kv).to.be.instanceOf(KeyValue)
    expect(back.kv.toString()).to.equal('KeyValue(k, 1)')
    expect(back.vt).to.be.instanceOf(ValueAndTimestamp)
    expect(back.vt).to.deep.include({ value: { n: 1 }, timestamp: 42 })
    expect(back.time.window).to.be.instanceOf(TimeWindow)
    expect(back.time.toString()).to.equal('[a@0/10]')
    expect(back.session.window).to.be.instanceOf(SessionWindow)
    expect(back.session.window.equals(new SessionWindow(5, 5))).to.equal(true)
    expect(Buffer.isBuffer(back.session.key)).to.equal(true)
    expect(back.version).to.be.instanceOf(VersionedRecord)
    expect(back.version.validTo).to.equal(9)
    expect(back.task).to.be.instanceOf(TaskId)
    expect(back.task.toString()).to.equal('1_2')
  })

  it('Buffers, inside Maps, Sets and arrays too, stay Buffers; plain data stays as it is', () => {
    const back = cross({ m: new Map([['a', [Buffer.from('x')]]]), s: new Set([1n]), d: new Date(5), n: null, u: undefined })
    expect(Buffer.isBuffer(back.m.get('a')![0])).to.equal(true)
    expect(back.m.get('a')![0]!.toString()).to.equal('x')
    expect([...back.s]).to.deep.equal([1n])
    expect(back.d.getTime()).to.equal(5)
    expect(back.n).to.equal(null)
    expect('u' in back).to.equal(true)
  })

  it('a Buffer that views a larger one crosses as its own bytes, not its backing memory', () => {
    const slab = Buffer.alloc(100_000, 7)
    const view = slab.subarray(10, 14)
    const wire = structuredClone(toWire(view)) as { v: Uint8Array }
    expect(wire.v.buffer.byteLength).to.equal(4)
    const back = fromWire(wire) as Buffer
    expect(Buffer.isBuffer(back)).to.equal(true)
    expect([...back]).to.deep.equal([7, 7, 7, 7])
  })

  it('IQv2 queries, bounds and configs come back as themselves', () => {
    const key = cross(KeyQuery.withKey<string, number>('k').skipCache())
    expect(key).to.be.instanceOf(KeyQuery)
    expect(key.skipsCache).to.equal(true)
    expect(key.toString()).to.equal('KeyQuery{key=k}')
    const range = cross(RangeQuery.withRange<string, number>('a', 'c').withDescendingKeys())
    expect(range).to.be.instanceOf(RangeQuery)
    expect([range.lowerBound, range.upperBound, range.resultOrder]).to.deep.equal(['a', 'c', 'DESCENDING'])
    expect(cross(WindowRangeQuery.withKey('w'))).to.be.instanceOf(WindowRangeQuery)
    const bound = cross(PositionBound.at(Position.emptyPosition().withComponent('t', 0, 7)))
    expect(bound.isUnbounded()).to.equal(false)
    expect(bound.position().getPartitionPositions('t').get(0)).to.equal(7)
    expect(cross(PositionBound.unbounded()).isUnbounded()).to.equal(true)
    expect(cross(new QueryConfig(true)).isCollectExecutionInfo()).to.equal(true)
  })

  it('a QueryResult keeps its result, failure, position and execution info; an iterator result is read and closed', () => {
    const inner = iteratorOf([new KeyValue('a', 1), new KeyValue('b', 2)])
    const ok = QueryResult.forResult(inner)
    ok.setPosition(Position.emptyPosition().withComponent('in', 3, 11))
    ok.addExecutionInfo('handled')
    const back = cross(ok)
    expect(inner.closed).to.equal(true)
    expect(back).to.be.instanceOf(QueryResult)
    expect(back.getPosition().getPartitionPositions('in').get(3)).to.equal(11)
    expect(back.getExecutionInfo()).to.deep.equal(['handled'])
    const it = back.getResult()
    expect(it.peekNextKey()).to.equal('a')
    expect([...it].map(kv => [kv.key, kv.value])).to.deep.equal([
      ['a', 1],
      ['b', 2]
    ])
    expect(it.next().done).to.equal(true)

    const failed = cross(QueryResult.forFailure<number>('NOT_ACTIVE', 'standby'))
    expect(failed.isFailure()).to.equal(true)
    expect([failed.getFailureReason(), failed.getFailureMessage()]).to.deep.equal(['NOT_ACTIVE', 'standby'])
  })

  it('a versioned record iterator comes back as an iterator of VersionedRecords', () => {
    const back = cross(new ListVersionedRecordIterator([new VersionedRecord('v2', 2), new VersionedRecord('v1', 1, 2)]))
    const records = [...back]
    expect(records.map(r => r instanceof VersionedRecord)).to.deep.equal([true, true])
    expect(records.map(r => r.value)).to.deep.equal(['v2', 'v1'])
  })

  it('a user class instance arrives as plain data (structured clone)', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number
      ) {}
    }
    const back = cross({ p: new Point(1, 2) }) as unknown as { p: object }
    expect(back.p).to.deep.equal({ x: 1, y: 2 })
    expect(back.p).not.to.be.instanceOf(Point)
  })
})
