/**
 * Review of table operators against Kafka Streams 4.x: a Named / Grouped / TableJoined name
 * still draws ("burns") the generated index it replaces (NamedInternal.suffixWithOrElseGet and
 * orElseGenerateWithPrefix), so the names generated after it match Kafka's.
 */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import { Grouped, Named, StreamsBuilder, TableJoined } from '../../src/index.js'
import { consumed, joiner } from '../joins/ktable-join-helpers.js'

describe('review: table operators burn the generated index of a given name', () => {
  it('a named primary-key join burns merge, join-this and join-other indices', () => {
    const builder = new StreamsBuilder()
    const t1 = builder.table('topic1', consumed)
    const t2 = builder.table('topic2', consumed)
    t1.join(t2, joiner, Named.as('my-join')).toStream().to('output')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Processor: KTABLE-TOSTREAM-0000000009 (stores: [])')
    expect(text).to.contain('Sink: KSTREAM-SINK-0000000010 (topic: output)')
  })

  it('a TableJoined-named foreign-key join burns every index it names', () => {
    const builder = new StreamsBuilder()
    const l = builder.table('left', consumed)
    const r = builder.table('right', consumed)
    l.join(r, (v: string) => Number(v), joiner, TableJoined.as<number, number>('fkj'))
      .toStream()
      .to('output')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Processor: fkj-result (stores: [])')
    expect(text).to.contain('Processor: KTABLE-TOSTREAM-0000000020 (stores: [])')
  })

  it('a Grouped-named groupBy burns the KTABLE-SELECT index', () => {
    const builder = new StreamsBuilder()
    builder
      .table('topic1', consumed)
      .groupBy((k, v) => KeyValue.pair(v, k), Grouped.as<string, number>('g'))
      .count()
      .toStream()
      .to('output')
    const text = builder.build().describe().toString()
    expect(text).to.contain('Processor: g (stores: [])')
    expect(text).to.contain('Processor: KTABLE-AGGREGATE-0000000007 (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000004])')
    expect(text).to.contain('Processor: KTABLE-TOSTREAM-0000000008 (stores: [])')
  })
})
