import { expect } from 'chai'
import { Headers, Serdes, TaskId, resolveStreamsConfig } from '@kstreams/core'
import type { StateRestoreCallback, StateStoreContext } from '@kstreams/core'
import { configsWithPrefix, defaultKeySerde, defaultValueSerde, StreamsMetricsRegistry } from '@kstreams/core/internal'
import { Change } from '../../src/change.js'
import { InMemoryTimeOrderedKeyValueChangeBuffer } from '../../src/internal/suppress/in-memory-time-ordered-change-buffer.js'
import type { Eviction } from '../../src/internal/suppress/in-memory-time-ordered-change-buffer.js'

const S = Serdes.String()
const L = Serdes.Long()

interface Logged {
  key: Buffer
  value: Buffer | null
}

function open(logged = true): {
  buffer: InMemoryTimeOrderedKeyValueChangeBuffer<string, number>
  log: Logged[]
  restore: () => StateRestoreCallback
} {
  const log: Logged[] = []
  let restore: StateRestoreCallback | undefined
  const appConfigs = resolveStreamsConfig({})
  const metrics = new StreamsMetricsRegistry({ recordingLevel: 'INFO' })
  const context: StateStoreContext = {
    applicationId: 'app',
    taskId: new TaskId(0, 0),
    appConfigs,
    stateDir: undefined,
    appConfigsWithPrefix: prefix => configsWithPrefix(appConfigs, prefix),
    keySerde: () => defaultKeySerde(appConfigs),
    valueSerde: () => defaultValueSerde(appConfigs),
    metrics: () => metrics,
    recordMetadata: () => undefined,
    register: (_store, callback) => {
      restore = callback
    },
    changelogWriter: () => ({
      append: (key, value) => {
        log.push({ key, value })
      }
    })
  }
  const buffer = new InMemoryTimeOrderedKeyValueChangeBuffer<string, number>('buf', S, L, logged)
  buffer.init(context, buffer)
  return { buffer, log, restore: () => restore! }
}

const ctx = (timestamp: number) => ({ timestamp, offset: 1, topic: 'topic', partition: 0, headers: new Headers() })

function drain(buffer: InMemoryTimeOrderedKeyValueChangeBuffer<string, number>): Array<[string, number | null, number | null, number]> {
  const out: Array<[string, number | null, number | null, number]> = []
  buffer.evictWhile(
    () => true,
    (e: Eviction<string, number>) => {
      out.push([e.key, e.value.newValue, e.value.oldValue, e.context.timestamp])
    }
  )
  return out
}

describe('InMemoryTimeOrderedKeyValueChangeBuffer (InMemoryTimeOrderedKeyValueChangeBufferTest)', () => {
  it('evicts in (buffer time, key) order; a key buffered again keeps its time and its prior value', () => {
    const { buffer } = open()
    buffer.put(5, 'b', new Change<number>(1, null), ctx(5))
    buffer.put(3, 'c', new Change<number>(7, 6), ctx(3))
    buffer.put(5, 'a', new Change<number>(2, null), ctx(5))
    buffer.put(9, 'c', new Change<number>(8, 7), ctx(9))
    expect([buffer.numRecords(), buffer.minTimestamp()]).to.deep.equal([3, 3])
    expect(buffer.priorValueForBuffered('c')).to.deep.equal({ defined: true, value: { value: 6, timestamp: -1 } })
    expect(buffer.priorValueForBuffered('a')).to.deep.equal({ defined: true, value: null })
    expect(buffer.priorValueForBuffered('z').defined).to.equal(false)
    expect(drain(buffer)).to.deep.equal([
      ['c', 8, 7, 9],
      ['a', 2, null, 5],
      ['b', 1, null, 5]
    ])
    expect([buffer.numRecords(), buffer.bufferSize()]).to.deep.equal([0, 0])
  })

  it('estimates its size as Kafka Streams does', () => {
    const { buffer } = open()
    buffer.put(1, 'k', new Change<number>(2, 1), ctx(1))
    // 8 (time) + 1 (key) + 8 (prior) + 0 (old is the prior) + 8 (new) + 8 + 8 + 5 (topic) + 4
    expect(buffer.bufferSize()).to.equal(50)
    buffer.put(2, 'k', new Change<number>(3, 2), ctx(2))
    // the old value is no longer the prior one: it counts
    expect(buffer.bufferSize()).to.equal(58)
  })

  it('logs changed keys on flush (entries, then a tombstone once evicted) and restores from its changelog', () => {
    const first = open()
    first.buffer.put(4, 'x', new Change<number>(1, null), ctx(4))
    first.buffer.put(2, 'y', new Change<number>(5, 4), ctx(2))
    first.buffer.flush()
    first.buffer.evictWhile(
      () => first.buffer.minTimestamp() <= 2,
      () => {}
    )
    first.buffer.flush()
    expect(first.log.map(r => [S.deserializer().deserialize('', r.key), r.value === null])).to.deep.equal([
      ['x', false],
      ['y', false],
      ['y', true]
    ])
    const second = open()
    second.restore()(first.log.map(r => ({ key: r.key, value: r.value, timestamp: 0 })))
    expect(drain(second.buffer)).to.deep.equal([['x', 1, null, 4]])
  })

  it('does not log when logging is disabled', () => {
    const { buffer, log } = open(false)
    buffer.put(1, 'k', new Change<number>(1, null), ctx(1))
    buffer.flush()
    expect(log).to.deep.equal([])
  })
})
