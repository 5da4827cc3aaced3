import { expect } from 'chai'
import { PunctuationType, Record, Serdes, Topology, type Cancellable, type ProcessorContext } from '@kstreams/core'
import { TopologyTestDriver } from '../src/topology-test-driver.js'

interface Fired {
  type: PunctuationType
  at: number
}

function punctuatingTopology(
  fired: Fired[],
  schedules: Array<{ type: PunctuationType; interval: number; cancelAfter?: number }>
): Topology {
  return new Topology()
    .addSource('source', 'input', { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
    .addProcessor(
      'punctuator',
      () => {
        let ctx: ProcessorContext<string, string>
        return {
          init(context: ProcessorContext<string, string>) {
            ctx = context
            for (const s of schedules) {
              let count = 0
              const cancellable: Cancellable = context.schedule(s.interval, s.type, ts => {
                fired.push({ type: s.type, at: ts })
                count++
                if (s.cancelAfter !== undefined && count >= s.cancelAfter) cancellable.cancel()
                ctx.forward(new Record(`${s.type}`, `${ts}`, ts))
              })
            }
          },
          process() {}
        }
      },
      'source'
    )
    .addSink('sink', 'output', { keySerializer: Serdes.String(), valueSerializer: Serdes.String() }, 'punctuator')
}

describe('punctuation (through TopologyTestDriver)', () => {
  it('STREAM_TIME fires on the first record, at most once per advance, aligned to the interval grid', () => {
    const fired: Fired[] = []
    const driver = new TopologyTestDriver(punctuatingTopology(fired, [{ type: PunctuationType.STREAM_TIME, interval: 10 }]), {}, 0)
    const input = driver.createInputTopic('input', Serdes.String(), Serdes.String())
    const at = (): number[] => fired.map(f => f.at)
    input.pipeInput('k', 'v', 3)
    expect(at()).to.deep.equal([3]) // first record: due time 0 <= 3; receives the stream time, not the due time
    input.pipeInput('k', 'v', 5)
    expect(at()).to.deep.equal([3])
    input.pipeInput('k', 'v', 10)
    expect(at()).to.deep.equal([3, 10])
    input.pipeInput('k', 'v', 25)
    expect(at()).to.deep.equal([3, 10, 25])
    input.pipeInput('k', 'v', 29) // next due is 30 (grid), not 35
    expect(at()).to.deep.equal([3, 10, 25])
    input.pipeInput('k', 'v', 30)
    expect(at()).to.deep.equal([3, 10, 25, 30])
    input.pipeInput('k', 'v', 77) // jumps several intervals: fires once, no catch-up
    expect(at()).to.deep.equal([3, 10, 25, 30, 77])
    input.pipeInput('k', 'v', 79) // next due is 80
    input.pipeInput('k', 'v', 20) // out of order: stream time stays 79
    expect(at()).to.deep.equal([3, 10, 25, 30, 77])
    input.pipeInput('k', 'v', 80)
    expect(at()).to.deep.equal([3, 10, 25, 30, 77, 80])
    const out = driver.createOutputTopic('output', Serdes.String(), Serdes.String()).readRecordsToList()
    expect(out.map(r => r.timestamp)).to.deep.equal([3, 10, 25, 30, 77, 80])
    driver.close()
  })

  it('STREAM_TIME does not fire before any record and does not fire on wall-clock advance', () => {
    const fired: Fired[] = []
    const driver = new TopologyTestDriver(punctuatingTopology(fired, [{ type: PunctuationType.STREAM_TIME, interval: 10 }]), {}, 0)
    driver.advanceWallClockTime(1000)
    expect(fired).to.deep.equal([])
    driver.close()
  })

  it('WALL_CLOCK_TIME fires interval after schedule, only on advanceWallClockTime, once per advance, aligned', () => {
    const fired: Fired[] = []
    const driver = new TopologyTestDriver(punctuatingTopology(fired, [{ type: PunctuationType.WALL_CLOCK_TIME, interval: 100 }]), {}, 1000)
    const input = driver.createInputTopic('input', Serdes.String(), Serdes.String())
    input.pipeInput('k', 'v', 5000) // records do not trigger wall-clock punctuation in the driver
    expect(fired).to.deep.equal([])
    driver.advanceWallClockTime(99)
    expect(fired).to.deep.equal([])
    driver.advanceWallClockTime(1)
    expect(fired.map(f => f.at)).to.deep.equal([1100])
    driver.advanceWallClockTime(250) // now 1350: fires once, next due 1400
    expect(fired.map(f => f.at)).to.deep.equal([1100, 1350])
    driver.advanceWallClockTime(49)
    expect(fired.map(f => f.at)).to.deep.equal([1100, 1350])
    driver.advanceWallClockTime(1)
    expect(fired.map(f => f.at)).to.deep.equal([1100, 1350, 1400])
    expect(fired.every(f => f.type === PunctuationType.WALL_CLOCK_TIME)).to.equal(true)
    driver.close()
  })

  it('a punctuator can cancel its own schedule', () => {
    const fired: Fired[] = []
    const driver = new TopologyTestDriver(
      punctuatingTopology(fired, [{ type: PunctuationType.WALL_CLOCK_TIME, interval: 10, cancelAfter: 2 }]),
      {},
      0
    )
    for (let i = 0; i < 5; i++) driver.advanceWallClockTime(10)
    expect(fired.map(f => f.at)).to.deep.equal([10, 20])
    driver.close()
  })

  it('several schedules due in one check fire in due-time order', () => {
    const fired: Fired[] = []
    const driver = new TopologyTestDriver(
      punctuatingTopology(fired, [
        { type: PunctuationType.WALL_CLOCK_TIME, interval: 30 },
        { type: PunctuationType.WALL_CLOCK_TIME, interval: 20 }
      ]),
      {},
      0
    )
    driver.advanceWallClockTime(35)
    // both due (20 and 30): the one due at 20 first; both receive the current time 35
    expect(fired.map(f => f.at)).to.deep.equal([35, 35])
    const out = driver.createOutputTopic('output', Serdes.String(), Serdes.String()).readRecordsToList()
    expect(out.map(r => r.key)).to.deep.equal(['WALL_CLOCK_TIME', 'WALL_CLOCK_TIME'])
    driver.close()
  })

  it('recordMetadata is absent inside a punctuation and the current system time is the driver clock', () => {
    const seen: unknown[] = []
    const topology = new Topology()
      .addSource('source', 'input', { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
      .addProcessor(
        'p',
        () => {
          return {
            init(ctx: ProcessorContext) {
              ctx.schedule(10, PunctuationType.WALL_CLOCK_TIME, () => {
                seen.push([ctx.recordMetadata(), ctx.currentSystemTimeMs(), ctx.currentStreamTimeMs()])
              })
            },
            process() {}
          }
        },
        'source'
      )
    const driver = new TopologyTestDriver(topology, {}, 500)
    driver.advanceWallClockTime(10)
    expect(seen).to.deep.equal([[undefined, 510, -1]])
    driver.close()
  })

  it('rejects an interval below 1 ms', () => {
    const topology = new Topology()
      .addSource('source', 'input', { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() })
      .addProcessor(
        'p',
        () => ({
          init(ctx: ProcessorContext) {
            ctx.schedule(0, PunctuationType.STREAM_TIME, () => {})
          },
          process() {}
        }),
        'source'
      )
    expect(() => new TopologyTestDriver(topology))
      .to.throw()
      .with.property('code', 'ILLEGAL_ARGUMENT')
  })
})
