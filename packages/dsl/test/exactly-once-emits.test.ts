/**
 * Results that are emitted once by design (emitStrategy onWindowClose, suppress untilWindowCloses,
 * a stream-time punctuator's output) under exactly_once_v2, on the in-memory Kafka, while
 * transaction commits and sends fail and the tasks are revived from their committed offsets: read
 * read_committed, every window's final count appears exactly once and right, and punctuation
 * output stays in stream-time order. Read read_uncommitted, the aborted transactions' copies are there.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  KafkaStreams,
  KeyValue,
  PunctuationType,
  Record,
  Serdes,
  type IsolationLevel,
  type KafkaErrorName,
  type Processor,
  type ProcessorContext
} from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import {
  BufferConfig,
  Consumed,
  EmitStrategy,
  Grouped,
  Materialized,
  Produced,
  StreamsBuilder,
  Suppressed,
  TimeWindows,
  type TimeWindowedKStream
} from '../src/index.js'

const S = Serdes.String()
const L = Serdes.Long()
const WINDOW = 10_000

/** Forwards `tick@<timestamp>` every 5 s of stream time (Kafka's punctuation: no catch-up). */
class Ticker implements Processor<string, string, string, string> {
  init(context: ProcessorContext<string, string>): void {
    context.schedule(5_000, PunctuationType.STREAM_TIME, ts => {
      context.forward(new Record(`task-${context.taskId.toString()}`, `tick@${ts}`, ts))
    })
  }

  process(): void {}
}

function topology(): ReturnType<StreamsBuilder['build']> {
  const builder = new StreamsBuilder()
  const clicks = builder.stream('clicks', Consumed.with(S, S))
  // Two windowed streams: emitStrategy() sets the strategy of the stream it is called on (as in Kafka).
  const windowed = (): TimeWindowedKStream<string, string> =>
    clicks.groupByKey(Grouped.with(S, S)).windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW))
  windowed()
    .emitStrategy(EmitStrategy.onWindowClose())
    .count(Materialized.as<string, number>('final-counts').withKeySerde(S))
    .toStream()
    .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start}`, v))
    .to('final', Produced.with(S, L))
  windowed()
    .count(Materialized.as<string, number>('counts').withKeySerde(S))
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
    .toStream()
    .map((k, v) => KeyValue.pair(`${k.key}@${k.window.start}`, v))
    .to('suppressed', Produced.with(S, L))
  clicks.process(() => new Ticker()).to('ticks', Produced.with(S, S))
  return builder.build()
}

describe('exactly_once_v2: windows closed once, suppress, punctuation (DSL, in-memory Kafka)', function () {
  this.timeout(30_000)
  let kafka: InMemoryKafka
  let dir: string
  let streams: KafkaStreams | undefined

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    for (const t of ['clicks', 'final', 'suppressed', 'ticks']) kafka.createTopic(t, 2)
    dir = await mkdtemp(join(tmpdir(), 'kstreams-eos-emits-'))
  })

  afterEach(async () => {
    await streams?.close()
    kafka.close()
    await rm(dir, { recursive: true, force: true })
  })

  const read = (topic: string, isolationLevel: IsolationLevel): string[] =>
    kafka
      .topic(topic)
      .allRecords({ isolationLevel })
      .map(r => `${r.key!.toString()}=${topic === 'ticks' ? r.value!.toString() : String(r.value!.readBigInt64BE())}`)

  it("every window's final count once (onWindowClose and suppress), punctuation output in order, read_committed, through aborted transactions", async () => {
    streams = new KafkaStreams(
      topology(),
      {
        applicationId: 'eos-emits',
        stateDir: dir,
        processingGuarantee: 'exactly_once_v2',
        commitIntervalMs: 30,
        windowedAggregationEmitIntervalMs: 0,
        sessionTimeoutMs: 500,
        heartbeatIntervalMs: 100,
        pollMs: 20,
        fetchMaxWaitMs: 20,
        retryBackoffMs: 20
      },
      { client: kafka.client() }
    )
    await streams.start()
    const expected = new Map<string, number>()
    const faults: Array<{ api: 'commitTransaction' | 'send'; error: KafkaErrorName }> = [
      // Aborts at once: the transaction's results are visible read_uncommitted only.
      { api: 'commitTransaction', error: 'TRANSACTION_ABORTABLE' },
      { api: 'send', error: 'NOT_LEADER_OR_FOLLOWER' },
      // Retried for the same transaction (max.block.ms): nothing aborted, nothing twice.
      { api: 'commitTransaction', error: 'COORDINATOR_NOT_AVAILABLE' }
    ]
    const hits: Array<{ hits: number }> = []
    // 40 windows; in each, each key gets 1 + (window mod 3) clicks. A fault every 10 windows.
    for (let w = 0; w < 40; w++) {
      for (const key of ['a', 'b', 'c']) {
        const n = 1 + ((w + key.charCodeAt(0)) % 3)
        expected.set(`${key}@${w * WINDOW}`, n)
        kafka.produce(
          'clicks',
          Array.from({ length: n }, (_, i) => ({ key, value: 'x', timestamp: w * WINDOW + 100 * i }))
        )
      }
      if (w % 10 === 5) hits.push(kafka.failNext({ ...faults[((w - 5) / 10) % faults.length]!, clientId: /-producer$/ }))
      await new Promise(resolve => setTimeout(resolve, 40))
    }
    // Stream time far past every window on both partitions: all of them close.
    kafka.produce(
      'clicks',
      ['a', 'b', 'c'].map(key => ({ key, value: 'x', timestamp: 1_000 * WINDOW }))
    )
    const windows = [...expected].map(([k, n]) => `${k}=${n}`).sort()
    const settled = async (): Promise<void> => {
      for (const end = Date.now() + 20_000; Date.now() < end; await new Promise(resolve => setTimeout(resolve, 50))) {
        if (read('final', 'READ_COMMITTED').length >= windows.length && read('suppressed', 'READ_COMMITTED').length >= windows.length)
          return
      }
    }
    await settled()
    await new Promise(resolve => setTimeout(resolve, 300)) // a window emitted twice would be committed by now
    expect(
      hits.map(h => h.hits),
      'every fault hit'
    ).to.deep.equal(hits.map(() => 1))
    expect(streams.state()).to.equal('RUNNING')
    expect(read('final', 'READ_COMMITTED').sort(), 'onWindowClose, read_committed').to.deep.equal(windows)
    expect(read('suppressed', 'READ_COMMITTED').sort(), 'suppress(untilWindowCloses), read_committed').to.deep.equal(windows)
    // Ticks: per task, in stream-time order with no gap of more than one interval. A revived task's
    // punctuation schedule starts again (Kafka persists none), so the tick at its committed stream
    // time may come again; nothing of an aborted transaction shows.
    const ticks = read('ticks', 'READ_COMMITTED')
    // How many ticks depends on how many windows a poll's batch spans (no catch-up); every task
    // that got clicks (a, b and c all hash to partition 0) ticks last at the final stream time.
    const tasks = [...new Set(ticks.map(t => t.split('=')[0]!))].sort()
    expect(tasks, 'tasks that ticked').to.deep.equal(['task-0_0'])
    for (const task of tasks) {
      const times = ticks.filter(t => t.startsWith(`${task}=`)).map(t => Number(t.split('@')[1]))
      const backwards = times.filter((t, i) => i > 0 && t < times[i - 1]!)
      expect(backwards, `ticks of ${task} going back in stream time`).to.deep.equal([])
      expect(times.at(-1), `last tick of ${task}`).to.equal(1_000 * WINDOW)
    }
    // The faults aborted transactions that held results: their copies are only in read_uncommitted.
    const aborted =
      read('final', 'READ_UNCOMMITTED').length +
      read('suppressed', 'READ_UNCOMMITTED').length +
      read('ticks', 'READ_UNCOMMITTED').length -
      (2 * windows.length + ticks.length)
    expect(aborted, 'results of aborted transactions (read_uncommitted)').to.be.greaterThan(0)
  })
})
