/**
 * Review: the value getter of a suppressed table answers buffered keys with their prior value and
 * an unknown timestamp (Kafka's InMemoryTimeOrderedKeyValueChangeBuffer.priorValueForBuffered uses
 * RecordQueue.UNKNOWN = -1), so a KTable-KTable join result triggered from the other side is
 * stamped with the other record's timestamp, not the buffered update's.
 */
import { expect } from 'chai'
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { BufferConfig, Consumed, Materialized, Produced, StreamsBuilder, Suppressed } from '../../src/index.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()

describe('review: suppressed table view timestamp', () => {
  it('a join read of a buffered key uses the prior value with an unknown timestamp', () => {
    const builder = new StreamsBuilder()
    const left = builder
      .table(
        'left',
        Consumed.with(S, S),
        Materialized.as<string, string>('left-store').withKeySerde(S).withValueSerde(S).withCachingDisabled()
      )
      .suppress(Suppressed.untilTimeLimit(10, BufferConfig.unbounded()))
    const right = builder.table(
      'right',
      Consumed.with(S, S),
      Materialized.as<string, string>('right-store').withKeySerde(S).withValueSerde(S).withCachingDisabled()
    )
    left
      .join(right, (l, r) => `${l}+${r}`)
      .toStream()
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    try {
      const l = driver.createInputTopic('left', S, S)
      const r = driver.createInputTopic('right', S, S)
      const out = driver.createOutputTopic('out', S, S)
      l.pipeInput('k', 'a', 0)
      l.pipeInput('k2', 'z', 20) // evicts k=a (buffered at 0)
      l.pipeInput('k', 'b', 25) // buffered, prior value a
      r.pipeInput('k', 'x', 22)
      expect(readAll(out)).to.deep.equal([['k', 'a+x', 22]])
    } finally {
      driver.close()
    }
  })
})
