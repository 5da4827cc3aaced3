/**
 * Records a handler skips (a deserialization error answered CONTINUE, an invalid timestamp) are
 * consumed like processed ones: the offsets the task commits pass them (Kafka commits the
 * consumer's position), so the group's lag reaches 0 and they are not read again after a restart.
 */
import { expect } from 'chai'
import { Headers, ManualClock, Serdes, TaskId, Topology, resolveStreamsConfig } from '../../src/index.js'
import type { Deserializer, TimestampExtractor } from '../../src/index.js'
import { StreamTask, TOPOLOGY_DEF, type ConsumedRecord } from '../../src/internal.js'

const S = Serdes.String()
/** Fails on the value "bad". */
const picky: Deserializer<string> = {
  deserialize: (topic, data) => {
    const s = S.deserializer().deserialize(topic, data)
    if (s === 'bad') throw new Error('not a string I like')
    return s
  }
}
/** The value "-5" gives the record the timestamp -5. */
const fromValue: TimestampExtractor = record => (record.value === '-5' ? -5 : 1)

function raw(offset: number, value: string): ConsumedRecord {
  return { topic: 'in', partition: 0, offset, timestamp: 1, key: Buffer.from('k'), value: Buffer.from(value), headers: new Headers() }
}

function task(seen: string[]): StreamTask {
  const topology = new Topology()
    .addSource('s', 'in', { keyDeserializer: S, valueDeserializer: picky, timestampExtractor: fromValue })
    .addProcessor(
      'p',
      () => ({
        process: (r: { value: string }) => {
          seen.push(r.value)
        }
      }),
      's'
    )
  const t = new StreamTask({
    id: new TaskId(0, 0),
    topology: topology[TOPOLOGY_DEF](),
    subtopologies: [0],
    config: resolveStreamsConfig({ applicationId: 'app', deserializationExceptionHandler: 'logAndContinue' }),
    clock: new ManualClock(0),
    collector: { send: () => {}, partitionsFor: () => 1 },
    stateDir: undefined,
    globalStores: new Map()
  })
  t.initializeStores()
  t.initializeTopology()
  return t
}

describe('StreamTask: offsets of skipped records', () => {
  it('a deserialization error skipped (CONTINUE) and a negative timestamp dropped advance the committed offset past them', () => {
    const seen: string[] = []
    const t = task(seen)
    t.addRecords('in', 0, [raw(0, 'a'), raw(1, 'bad'), raw(2, 'b'), raw(3, 'bad'), raw(4, '-5'), raw(5, 'bad')])
    while (t.process()) {
      /* drain */
    }
    expect(seen).to.deep.equal(['a', 'b'])
    expect(t.droppedRecords).to.equal(4)
    expect(t.prepareCommit()).to.deep.equal([{ topic: 'in', partition: 0, offset: 6 }])
    expect(t.commitNeeded).to.equal(true)
    t.close()
  })

  it('a partition whose records were all skipped still commits past them', () => {
    const t = task([])
    t.addRecords('in', 0, [raw(7, 'bad'), raw(8, '-5')])
    expect(t.hasRecordsQueued()).to.equal(false)
    expect(t.commitNeeded).to.equal(true)
    expect(t.prepareCommit()).to.deep.equal([{ topic: 'in', partition: 0, offset: 9 }])
    t.close()
  })
})
