/**
 * KafkaStreams.close(CloseOptions.leaveGroup), as in Kafka Streams 4.1: by default the stream
 * threads' consumers close without LeaveGroup (the member stays until its session times out, so
 * a quick restart gets its tasks back without a rebalance); `leaveGroup: true` sends it, and the
 * group rebalances at once. KafkaStreams on the in-memory Kafka.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { StreamsConfig } from '@kstreams/core'
import { InMemoryKafka } from '@kstreams/testing/in-memory-kafka'
import { eventually } from '../in-memory-kafka/helpers.js'

const S = Serdes.String()
const SESSION_TIMEOUT_MS = 3000

describe('KafkaStreams.close: leaveGroup (KafkaStreams.CloseOptions)', function () {
  this.timeout(20_000)
  let kafka: InMemoryKafka
  let stateDir: string
  const running: KafkaStreams[] = []

  beforeEach(async () => {
    kafka = new InMemoryKafka()
    kafka.createTopic('in', 2)
    kafka.createTopic('out', 1)
    stateDir = await mkdtemp(join(tmpdir(), 'kstreams-leave-'))
  })

  afterEach(async () => {
    for (const s of running.splice(0)) await s.close({ leaveGroup: true })
    kafka.close()
    await rm(stateDir, { recursive: true, force: true })
  })

  const start = async (config: StreamsConfig = {}): Promise<KafkaStreams> => {
    const topology = new Topology()
      .addSource('In', ['in'], { keyDeserializer: S, valueDeserializer: S })
      .addSink('Out', 'out', { keySerializer: S, valueSerializer: S }, 'In')
    const streams = new KafkaStreams(
      topology,
      {
        applicationId: 'app',
        stateDir,
        commitIntervalMs: 100,
        sessionTimeoutMs: SESSION_TIMEOUT_MS,
        heartbeatIntervalMs: 100,
        numStreamThreads: 2,
        ...config
      },
      { client: kafka.client() }
    )
    running.push(streams)
    await streams.start()
    await eventually(() => streams.state() === 'RUNNING' && kafka.group('app')?.members.length === 2)
    return streams
  }

  it('close() sends no LeaveGroup: the members stay in the group until their sessions time out', async () => {
    const streams = await start()
    running.splice(running.indexOf(streams), 1)
    expect(await streams.close()).to.equal(true)
    expect(streams.state()).to.equal('NOT_RUNNING')
    expect(kafka.requests({ api: 'leaveGroup' })).to.deep.equal([])
    expect(kafka.group('app')!.members).to.have.length(2)
    await eventually(() => kafka.group('app')!.members.length === 0, SESSION_TIMEOUT_MS * 3)
    expect(kafka.requests({ api: 'leaveGroup' })).to.deep.equal([])
  })

  it('close({ leaveGroup: true }) sends LeaveGroup for every stream thread: the group is empty at once', async () => {
    const streams = await start()
    running.splice(running.indexOf(streams), 1)
    expect(await streams.close({ leaveGroup: true })).to.equal(true)
    expect(kafka.requests({ api: 'leaveGroup' })).to.have.length(2)
    expect(kafka.group('app')!.members).to.deep.equal([])
  })

  it('close({ leaveGroup: false }) equals the default; a bad timeoutMs or leaveGroup is ILLEGAL_ARGUMENT', async () => {
    const streams = await start()
    const code = async (promise: Promise<unknown>): Promise<unknown> => {
      try {
        await promise
        return 'resolved'
      } catch (error) {
        return (error as { code?: unknown }).code
      }
    }
    expect(await code(streams.close({ timeoutMs: -1 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(await code(streams.close({ leaveGroup: 'yes' as never }))).to.equal('ILLEGAL_ARGUMENT')
    expect(streams.state()).to.equal('RUNNING')
    running.splice(running.indexOf(streams), 1)
    expect(await streams.close({ leaveGroup: false, timeoutMs: 10_000 })).to.equal(true)
    expect(kafka.requests({ api: 'leaveGroup' })).to.deep.equal([])
  })

  it('removeStreamThread() still leaves the group with the removed thread (Kafka Streams asks it to)', async () => {
    const streams = await start()
    expect(await streams.removeStreamThread()).to.be.a('string')
    expect(kafka.requests({ api: 'leaveGroup' })).to.have.length(1)
  })
})
