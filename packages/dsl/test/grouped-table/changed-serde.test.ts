import { expect } from 'chai'
import { KeyValue, Serdes } from '@kstreams/core'
import { resolveStreamsConfig } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Change } from '../../src/change.js'
import { ChangedSerde } from '../../src/internal/changed-serde.js'
import { StreamsBuilder } from '../../src/index.js'
import { readAll } from '../helpers.js'

const S = Serdes.String()

describe('ChangedSerde: the Change values of a KTable repartition topic (ChangedSerializer/ChangedDeserializer)', () => {
  const serde = new ChangedSerde<string>(S)
  const ser = (c: Change<string>): string => serde.serializer().serialize('t', c)!.toString('hex')
  const de = (hex: string): Change<string> => serde.deserializer().deserialize('t', Buffer.from(hex, 'hex'))!

  it("writes the 4.x layouts: old only (flag 3), new only (flag 4), both with the new value's length first (flag 5)", () => {
    expect(ser(new Change<string>(null, 'b'))).to.equal('62' + '01' + '03')
    expect(ser(new Change<string>('a', null))).to.equal('61' + '01' + '04')
    expect(ser(new Change<string>('aa', 'b'))).to.equal('00000002' + '6161' + '62' + '01' + '05')
  })

  it('reads back every layout, the pre-3.5 ones (flags 0, 1, 2) included', () => {
    expect(de('620103')).to.deep.equal(new Change(null, 'b'))
    expect(de('610104')).to.deep.equal(new Change('a', null))
    expect(de('0000000261616201' + '05')).to.deep.equal(new Change('aa', 'b'))
    expect(de('6200')).to.deep.equal(new Change(null, 'b'))
    expect(de('6101')).to.deep.equal(new Change('a', null))
    expect(de('00000001' + '61' + '62' + '02')).to.deep.equal(new Change('a', 'b'))
  })

  it('refuses a change without values and an unknown flag', () => {
    expect(() => ser(new Change<string>(null, null)))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
    expect(() => de('6109'))
      .to.throw()
      .with.property('code', 'SERIALIZATION')
  })

  it('without an inner serde it uses the default value serde of the config', () => {
    const defaulted = new ChangedSerde<string>(undefined)
    expect(() => defaulted.serializer().serialize('t', new Change<string>('a', null)))
      .to.throw()
      .with.property('code', 'SERIALIZATION')
    defaulted.resolveDefault(resolveStreamsConfig({ defaultValueSerde: S }))
    expect(defaulted.serializer().serialize('t', new Change<string>('a', null))!.toString('hex')).to.equal('610104')
  })

  it('a groupBy without Grouped serdes runs on the default serdes', () => {
    const builder = new StreamsBuilder()
    builder
      .table<string, string>('input')
      .groupBy((k, v) => KeyValue.pair(v, k))
      .reduce(
        (a, b) => a + b,
        (a, b) => a.replace(b, '')
      )
      .toStream()
      .to('output')
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S })
    const input = driver.createInputTopic('input', S, S)
    input.pipeInput('a', 'x', 1)
    input.pipeInput('b', 'x', 2)
    input.pipeInput('a', 'y', 3)
    expect(readAll(driver.createOutputTopic('output', S, S))).to.deep.equal([
      ['x', 'a', 1],
      ['x', 'ab', 2],
      ['x', 'b', 3],
      ['y', 'a', 3]
    ])
    driver.close()
  })
})
