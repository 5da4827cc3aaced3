/** ContextualFixedKeyProcessor (Kafka Streams' ContextualFixedKeyProcessor) run by KStream.processValues. */
import { expect } from 'chai'
import { PunctuationType, Record, Serdes, StreamsError } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { Consumed, ContextualFixedKeyProcessor, Produced, StreamsBuilder } from '../src/index.js'
import type { FixedKeyProcessorContext } from '../src/index.js'
import { readAll } from './helpers.js'

const S = Serdes.String()

/** Appends the value's length; every 10 ms of stream time forwards a marker under the key of the last record. */
class Annotate extends ContextualFixedKeyProcessor<string, string, string> {
  readonly #ticks: number[] = []
  override init(context: FixedKeyProcessorContext<string, string>): void {
    super.init(context)
    context.schedule(10, PunctuationType.STREAM_TIME, ts => {
      this.#ticks.push(ts)
    })
  }
  process(record: Record<string, string>): void {
    // A key change is ignored: the fixed-key context forwards under the input record's key.
    this.context().forward(record.withKey('ignored').withValue(`${record.value}:${record.value.length}`))
  }
  get ticks(): number[] {
    return this.#ticks
  }
}

describe('ContextualFixedKeyProcessor', () => {
  it('keeps the context init() gave it and forwards through context() under the input key', () => {
    const builder = new StreamsBuilder()
    const processors: Annotate[] = []
    builder
      .stream('in', Consumed.with(S, S))
      .processValues(() => {
        const p = new Annotate()
        processors.push(p)
        return p
      })
      .to('out', Produced.with(S, S))
    const driver = new TopologyTestDriver(builder.build())
    try {
      const input = driver.createInputTopic('in', S, S)
      input.pipeInput('a', 'xy', 1)
      input.pipeInput('b', 'xyz', 12)
      expect(readAll(driver.createOutputTopic('out', S, S))).to.deep.equal([
        ['a', 'xy:2', 1],
        ['b', 'xyz:3', 12]
      ])
      // The processor the task runs (the topology also asks the supplier twice when the node is added).
      const running = processors.filter(p => p.ticks.length > 0)
      expect(running).to.have.length(1)
      expect(running[0]!.ticks).to.deep.equal([1, 12])
    } finally {
      driver.close()
    }
  })

  it('context() before init() is an ILLEGAL_STATE error naming the class', () => {
    expect(() => new Annotate().process(new Record('k', 'v', 0)))
      .to.throw(StreamsError, 'Annotate.context() was called before init()')
      .with.property('code', 'ILLEGAL_STATE')
  })
})
