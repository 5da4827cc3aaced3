/**
 * The metadata of the committed offsets (partition time, KIP-825 processor metadata) is read when
 * a task is assigned, before it processes, as Kafka Streams' StreamTask does when it completes
 * its restoration. A read that keeps failing is tried again at the thread's next iterations (the
 * thread keeps polling meanwhile, so the member stays in the group) until taskTimeoutMs: it is
 * never skipped, so a task never runs without its stream time and processor metadata.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { KafkaStreamsState, ProcessorContext, Record, StreamsConfig, StreamsError } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'
import { FAST, sleep } from './streams-harness.js'

const S = Serdes.String()
const THREAD_1 = /-StreamThread-1-consumer$/
const MARKER = 'highest-timestamp'

/** What the processor saw of one record: its timestamp, the task's stream time and the committed processor metadata. */
interface Seen {
  readonly timestamp: number
  readonly streamTime: number
  readonly marker: number | undefined
}

/** The runtime's context also carries the task's KIP-825 processor metadata (internal; what the DSL's emit-on-window-close uses). */
interface MetadataContext {
  processorMetadataForKey(key: string): number | undefined
  addProcessorMetadataKeyValue(key: string, value: number): void
}

/** words -> a processor that notes stream time and the processor metadata, and records the highest timestamp in the metadata. */
function topology(seen: Seen[]): Topology {
  return new Topology().addSource('Words', 'words', { keyDeserializer: S, valueDeserializer: S }).addProcessor(
    'Note',
    () => {
      let context: ProcessorContext<never, never> & MetadataContext
      return {
        init(c: ProcessorContext<never, never>) {
          context = c as ProcessorContext<never, never> & MetadataContext
        },
        process(r: Record<string, string>) {
          const marker = context.processorMetadataForKey(MARKER)
          seen.push({ timestamp: r.timestamp, streamTime: context.currentStreamTimeMs(), marker })
          if (marker === undefined || r.timestamp > marker) context.addProcessorMetadataKeyValue(MARKER, r.timestamp)
        }
      }
    },
    'Words'
  )
}

describe('KafkaStreams on the in-memory Kafka: the committed metadata read at assignment', function () {
  this.timeout(30_000)
  let kafka: InMemoryKafka
  let dir: string
  const running: KafkaStreams[] = []
  const applicationId = `committed-metadata-${process.pid}`

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    kafka.createTopic('words', 1)
    dir = await mkdtemp(join(tmpdir(), 'kstreams-committed-metadata-'))
  })
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close()
    kafka.close()
    await rm(dir, { recursive: true, force: true })
  })

  async function start(seen: Seen[], config: StreamsConfig = {}) {
    const streams = new KafkaStreams(topology(seen), { ...FAST, applicationId, stateDir: dir, ...config }, { client: kafka.client() })
    running.push(streams)
    const states: KafkaStreamsState[] = []
    const errors: StreamsError[] = []
    streams.setStateListener(s => {
      states.push(s)
    })
    streams.setUncaughtExceptionHandler(e => {
      errors.push(e)
      return 'SHUTDOWN_CLIENT'
    })
    await streams.start()
    return { streams, states, errors }
  }

  /** A first run processes a record of timestamp 1000 and commits its offset with stream time and metadata 1000, then closes. */
  async function firstRun(): Promise<void> {
    const seen: Seen[] = []
    const { streams } = await start(seen)
    kafka.produce('words', { key: 'a', value: 'x', timestamp: 1000 })
    await eventually(() => kafka.group(applicationId)?.committed.get('words-0')?.offset === 1)
    await streams.close()
    expect(seen).to.deep.equal([{ timestamp: 1000, streamTime: 1000, marker: undefined }])
  }

  it('a read failing for a while is tried again until it succeeds: stream time and processor metadata are restored, the member stays', async () => {
    await firstRun()
    const fault = kafka.failNext({ api: 'fetchCommittedOffsets', error: 'REQUEST_TIMED_OUT', times: Infinity, clientId: THREAD_1 })
    const seen: Seen[] = []
    // A committed() attempt gives up after 300 ms; a thread that stopped polling for 1 s would leave the group.
    const second = await start(seen, { defaultApiTimeoutMs: 300, maxPollIntervalMs: 1000, taskTimeoutMs: 20_000 })
    await eventually(() => fault.hits > 0, 10_000)
    await sleep(1500) // several committed() attempts, longer than maxPollIntervalMs
    expect(second.streams.state()).to.equal('REBALANCING')
    expect(fault.hits).to.be.greaterThan(3)
    fault.remove()
    kafka.produce('words', { key: 'b', value: 'x', timestamp: 10 })
    await eventually(() => seen.length === 1)
    // The earlier record of timestamp 10 did not set the clock back: stream time is the committed 1000.
    expect(seen).to.deep.equal([{ timestamp: 10, streamTime: 1000, marker: 1000 }])
    expect(second.states).to.deep.equal(['REBALANCING', 'RUNNING'])
    expect(second.errors).to.deep.equal([])
  })

  it('a read failing for longer than taskTimeoutMs fails the thread with a typed error naming the task, through the handler', async () => {
    await firstRun()
    kafka.failNext({ api: 'fetchCommittedOffsets', error: 'REQUEST_TIMED_OUT', times: Infinity, clientId: THREAD_1 })
    const seen: Seen[] = []
    const second = await start(seen, { defaultApiTimeoutMs: 300, taskTimeoutMs: 1000 })
    await eventually(() => second.streams.state() === 'ERROR', 10_000)
    expect(second.errors).to.have.length(1)
    const error = second.errors[0]!
    expect([error.code, error.taskId]).to.deep.equal(['KAFKA', '0_0'])
    expect(error.cause).to.include({ errorName: 'REQUEST_TIMED_OUT', retriable: true })
    // It never ran without its metadata.
    expect(seen).to.deep.equal([])
  })
})
