import { expect } from 'chai'
import { PunctuationType, Record, Serdes, TaskId, type KeyValueStore, type Processor, type ProcessorContext } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { MockProcessorContext } from '../src/index.js'

/** Counts per key; forwards all counts every 1000 ms of stream time; asks for a commit per record. */
class CountingProcessor implements Processor<string, string, string, number> {
  #ctx!: ProcessorContext<string, number>
  #store!: KeyValueStore<string, number>
  init(ctx: ProcessorContext<string, number>): void {
    this.#ctx = ctx
    this.#store = ctx.getStateStore('counts')
    ctx.schedule(1000, PunctuationType.STREAM_TIME, ts => {
      using it = this.#store.all()
      for (const kv of it) ctx.forward(new Record(kv.key, kv.value, ts), 'sink')
    })
  }

  process(record: Record<string, string>): void {
    this.#store.put(record.key, (this.#store.get(record.key) ?? 0) + 1)
    this.#ctx.commit()
  }
}

describe('MockProcessorContext', () => {
  it('captures forwards, commits and scheduled punctuators that a test can fire', () => {
    const context = new MockProcessorContext<string, number>({ defaultKeySerde: Serdes.String() }, new TaskId(1, 2))
    const store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('counts'), Serdes.String(), Serdes.Long()).build()
    store.init(context.getStateStoreContext(), store)
    context.addStateStore(store)
    const processor = new CountingProcessor()
    processor.init(context)

    const [punctuator] = context.scheduledPunctuators()
    expect(punctuator!.intervalMs).to.equal(1000)
    expect(punctuator!.type).to.equal(PunctuationType.STREAM_TIME)
    expect(punctuator!.cancelled).to.equal(false)

    processor.process(new Record('a', 'x', 1))
    processor.process(new Record('a', 'x', 2))
    processor.process(new Record('b', 'x', 3))
    expect(context.committed()).to.equal(true)
    expect(context.forwarded()).to.deep.equal([])

    punctuator!.punctuator(1000)
    const forwards = context.forwarded('sink')
    expect(forwards.map(f => [f.record.key, f.record.value, f.record.timestamp, f.childName])).to.deep.equal([
      ['a', 2, 1000, 'sink'],
      ['b', 1, 1000, 'sink']
    ])
    expect(context.forwarded('other')).to.deep.equal([])
    context.resetForwards()
    context.resetCommit()
    expect(context.forwarded()).to.deep.equal([])
    expect(context.committed()).to.equal(false)
    expect(context.taskId.toString()).to.equal('1_2')
    expect(context.applicationId).to.equal('dummy-application-id')
  })

  it('lets the test set record metadata and times; unknown stores are an error', () => {
    const context = new MockProcessorContext()
    expect(context.recordMetadata()).to.equal(undefined)
    context.setRecordMetadata('topic', 3, 42)
    expect(context.recordMetadata()).to.deep.equal({ topic: 'topic', partition: 3, offset: 42 })
    context.setCurrentStreamTimeMs(77)
    context.setCurrentSystemTimeMs(88)
    expect(context.currentStreamTimeMs()).to.equal(77)
    expect(context.currentSystemTimeMs()).to.equal(88)
    expect(() => context.getStateStore('nope'))
      .to.throw()
      .with.property('code', 'UNKNOWN_STORE')
    const cancellable = context.schedule(5, PunctuationType.WALL_CLOCK_TIME, () => {})
    cancellable.cancel()
    expect(context.scheduledPunctuators()[0]!.cancelled).to.equal(true)
    expect(() => context.schedule(0, PunctuationType.WALL_CLOCK_TIME, () => {}))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
