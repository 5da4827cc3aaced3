/**
 * The `kstreams` command line against the broker, through the built bin: a DSL WordCount (RocksDB
 * store, repartition topic) runs and counts its input; `query` asks its interactive-query
 * endpoint; `reset` is refused while it runs; after a clean close `state` lists its task
 * directories, stores and checkpoints with the changelog lag; `reset --dry-run` changes nothing;
 * `reset` commits the input's earliest offsets and deletes the changelog and repartition topics,
 * and a rerun on a fresh state directory re-processes the input from the start (the same counts,
 * not doubled). Then the positions of Kafka's tool (--to-offset, --shift-by, --to-latest,
 * --to-datetime, --by-duration) on a group of its own, and a missing input topic (exit 1).
 */
import { expect } from 'chai'
import { InteractiveQueryServer, KafkaStreams, Serdes } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import {
  bootstrapServers,
  createTopics,
  freePort,
  kafka,
  produce,
  readUntil,
  tempDir,
  testClient,
  testClientName,
  unique,
  waitFor
} from './helpers.js'
import { type CliRun, kstreams } from './kstreams-cli.js'

const S = Serdes.String()
const L = Serdes.Long()
const LINES = ['Hello Kafka Streams', 'All streams lead to Kafka', 'Join Kafka Summit', 'kafka, KAFKA; streams!']
const EXPECTED = { hello: 1, kafka: 5, streams: 3, all: 1, lead: 1, to: 1, join: 1, summit: 1 }

async function committed(groupId: string, topic: string): Promise<Record<number, number>> {
  const admin = kafka().admin()
  await admin.connect()
  try {
    const [fetched] = await admin.fetchOffsets({ groupId, topics: [topic] })
    return Object.fromEntries(fetched!.partitions.map(p => [p.partition, Number(p.offset)]))
  } finally {
    await admin.disconnect()
  }
}

async function topics(): Promise<string[]> {
  const admin = kafka().admin()
  await admin.connect()
  try {
    return await admin.listTopics()
  } finally {
    await admin.disconnect()
  }
}

describe('kstreams CLI (the built bin) against the broker', function () {
  this.timeout(300_000)
  const prefix = unique('cli')
  const appId = `${prefix}-app`
  const input = `${prefix}-in`
  const output = `${prefix}-out`
  const client = ['--client', testClientName()]
  const broker = ['--bootstrap-server', bootstrapServers()]
  const internal = [`${appId}-Counts-changelog`, `${appId}-Counts-repartition`]
  /** `kstreams reset` of the application's input topic, with `extra` options. */
  const resetApp = async (...extra: string[]): Promise<CliRun> =>
    await kstreams(['reset', '--application-id', appId, ...broker, ...client, '--input-topics', input, ...extra])
  let state: { path: string; remove: () => Promise<void> }
  let streams: KafkaStreams | undefined
  let iq: InteractiveQueryServer<string> | undefined
  let port = 0

  const start = async (stateDir: string): Promise<void> => {
    const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
    builder
      .stream(input, Consumed.with(S, S))
      .flatMapValues(line =>
        line
          .toLowerCase()
          .split(/\W+/)
          .filter(w => w !== '')
      )
      .groupBy((_key, word) => word, Grouped.as<string, string>('Counts').withKeySerde(S).withValueSerde(S))
      .count(Materialized.as<string, number>('Counts').withKeySerde(S).withValueSerde(L))
      .toStream()
      .to(output, Produced.with(S, L))
    port = await freePort()
    streams = new KafkaStreams(
      builder.build(),
      {
        applicationId: appId,
        bootstrapServers: bootstrapServers(),
        stateDir,
        applicationServer: `127.0.0.1:${port}`,
        commitIntervalMs: 200,
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 1000
      },
      { client: testClient() }
    )
    iq = new InteractiveQueryServer(streams, { keySerializer: S })
    await iq.start()
    await streams.start()
    await waitFor('RUNNING', () => streams!.state() === 'RUNNING', 90_000)
  }
  const stop = async (): Promise<void> => {
    await iq?.close()
    await streams?.close({ leaveGroup: true })
    iq = undefined
    streams = undefined
  }
  const counts = async (): Promise<Array<[string, number]>> =>
    await readUntil(
      output,
      (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as [string, number],
      records => Object.entries(EXPECTED).every(([w, n]) => records.some(([k, c]) => k === w && c === n)),
      90_000
    )

  before(async () => {
    await createTopics([
      { topic: input, numPartitions: 2 },
      { topic: output, numPartitions: 2 }
    ])
    state = await tempDir('kstreams-cli-state')
  })
  after(async () => {
    await stop().catch(() => undefined)
    await state?.remove()
  })

  it('runs the application, which counts its input', async () => {
    await start(state.path)
    await produce(
      input,
      LINES.map((value, i) => ({ key: String(i), value }))
    )
    const out = await counts()
    expect(Object.fromEntries(out)).to.deep.equal(EXPECTED)
  })

  it("query: the running application's interactive-query endpoint answers a key (exit 0); a missing key or store exits 3", async () => {
    const url = `http://127.0.0.1:${port}`
    // --wait: the instance may still be settling its assignment (503 with Retry-After).
    const found = await kstreams(['query', '--url', url, '--store', 'Counts', '--key', 'kafka', '--wait', '60000'])
    expect(found.code, found.stderr).to.equal(0)
    expect(JSON.parse(found.stdout)).to.include({ key: 'kafka', value: 5 })
    const missing = await kstreams(['query', '--url', url, '--store', 'Counts', '--key', 'nowhere', '--wait', '60000'])
    expect({ code: missing.code, stdout: missing.stdout }).to.deep.equal({ code: 3, stdout: '' })
    expect(missing.stderr).to.include('KEY_NOT_FOUND')
    const store = await kstreams(['query', '--url', url, '--store', 'NoSuchStore', '--key', 'kafka', '--wait', '60000'])
    expect(store.code).to.equal(3)
    const closed = await kstreams(['query', '--url', `http://127.0.0.1:${await freePort()}`, '--store', 'Counts', '--key', 'kafka'])
    expect(closed.code).to.equal(1)
    expect(closed.stderr).to.match(/ERROR \[NOT_RUNNING\]: No answer from .*ECONNREFUSED/)
  })

  it('reset is refused while the group has active members (exit 1, naming them) and changes nothing', async () => {
    const before = await committed(appId, input)
    const run = await resetApp()
    expect(run.code, run.stdout + run.stderr).to.equal(1)
    expect(run.stderr).to.include(`Consumer group '${appId}' is still active and has following members: [(memberId=`)
    expect(run.stderr).to.include("You can use option '--force' to remove active members from the group.")
    expect(await committed(appId, input)).to.deep.equal(before)
    expect(await topics()).to.include.members(internal)
  })

  it('state: lists task directories, stores and checkpoint offsets, and with --bootstrap-server the changelog end and lag', async () => {
    await stop() // a clean close checkpoints the RocksDB stores
    const run = await kstreams(['state', state.path, '--json', ...broker, ...client])
    expect(run.code, run.stderr).to.equal(0)
    const { applications } = JSON.parse(run.stdout)
    expect(applications.map((a: { applicationId: string }) => a.applicationId)).to.deep.equal([appId])
    const tasks: Array<{ taskId: string; stores: string[]; checkpoint: Array<Record<string, unknown>> }> = applications[0].tasks
    // Sub-topology 1 counts (2 partitions of the repartition topic); sub-topology 0 has no store.
    const counting = tasks.filter(t => t.taskId.startsWith('1_'))
    expect(counting.map(t => t.taskId)).to.deep.equal(['1_0', '1_1'])
    let records = 0
    for (const task of counting) {
      expect(task.stores).to.deep.equal(['Counts'])
      expect(task.checkpoint).to.have.length(1)
      const [entry] = task.checkpoint
      expect(entry).to.include({ topic: `${appId}-Counts-changelog`, partition: Number(task.taskId.slice(2)), store: 'Counts', lag: 0 })
      expect(entry!.endOffset).to.equal((entry!.offset as number) + 1)
      records += entry!.endOffset as number
    }
    expect(records, 'changelog records: one per count update at most').to.be.within(Object.keys(EXPECTED).length, 14)
    const text = await kstreams(['state', state.path])
    expect(text.code).to.equal(0)
    expect(text.stdout).to.match(
      new RegExp(`Task 1_0\\n    stores: Counts\\n    checkpoint ${appId}-Counts-changelog-0 \\(store Counts\\): offset \\d+`)
    )
  })

  it('reset --dry-run prints the offsets and the internal topics it would delete, and changes nothing', async () => {
    const before = await committed(appId, input)
    expect(Object.values(before)).to.satisfy((offsets: number[]) => offsets.some(o => o > 0))
    const run = await resetApp('--dry-run', '--state-dir', state.path)
    expect(run.code, run.stderr).to.equal(0)
    expect(run.stdout).to.include(`Topic: ${input} Partition: 0 Offset: 0`)
    expect(run.stdout).to.include(`Topic: ${input} Partition: 1 Offset: 0`)
    expect(run.stdout).to.include(`Internal topics to delete (inferred): ${[...internal].sort().join(', ')}`)
    expect(run.stdout).to.include(`delete ${state.path}/${appId} (`)
    expect(await committed(appId, input)).to.deep.equal(before)
    expect(await topics()).to.include.members(internal)
  })

  it('reset rejects --internal-topics that are not internal topics of the application (exit 1), before changing anything', async () => {
    const before = await committed(appId, input)
    const run = await resetApp('--internal-topics', output)
    expect(run.code).to.equal(1)
    expect(run.stderr).to.include(`not internal topics of application ${appId}: ${output}`)
    expect(await committed(appId, input)).to.deep.equal(before)
    expect(await topics()).to.include.members(internal)
  })

  it('reset commits the earliest offsets and deletes the internal topics; a rerun re-processes the input from the start', async () => {
    const run = await resetApp()
    expect(run.code, run.stdout + run.stderr).to.equal(0)
    expect(await committed(appId, input)).to.deep.equal({ 0: 0, 1: 0 })
    const left = await topics()
    expect(left.filter(t => internal.includes(t))).to.deep.equal([])
    expect(left).to.include.members([input, output])

    const fresh = await tempDir('kstreams-cli-rerun')
    try {
      const already = (await counts()).length
      await start(fresh.path)
      // The counts again from 1 (a changelog still there would have been restored: kafka 10).
      const out = await readUntil(
        output,
        (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as [string, number],
        records =>
          records.length > already &&
          Object.entries(EXPECTED).every(([w, n]) => records.slice(already).some(([k, c]) => k === w && c === n)),
        90_000
      )
      expect(Object.fromEntries(out.slice(already))).to.deep.equal(EXPECTED)
      expect(out.slice(already).find(([w]) => w === 'hello')).to.deep.equal(['hello', 1])
    } finally {
      await stop()
      await fresh.remove()
    }
  })

  it("resets to --to-offset, --shift-by, --to-latest, --to-datetime and --by-duration as Kafka's tool (kept within each partition)", async () => {
    const group = unique('cli-positions')
    const topic = unique('cli-positions-in')
    await createTopics([{ topic, numPartitions: 1 }])
    await produce(
      topic,
      Array.from({ length: 10 }, (_, i) => ({ key: null, value: `v${i}` }))
    )
    const reset = async (...position: string[]): Promise<number> => {
      const run = await kstreams(['reset', '--application-id', group, ...broker, ...client, '--input-topics', topic, ...position])
      expect(run.code, run.stdout + run.stderr).to.equal(0)
      return (await committed(group, topic))[0]!
    }
    expect(await reset('--to-offset', '3')).to.equal(3)
    expect(await reset('--shift-by', '-2')).to.equal(1)
    expect(await reset('--shift-by', '-5')).to.equal(0)
    expect(await reset('--to-offset', '99')).to.equal(10)
    expect(await reset('--to-earliest')).to.equal(0)
    expect(await reset('--to-latest')).to.equal(10)
    expect(await reset('--by-duration', 'PT1H')).to.equal(0)
    expect(await reset('--to-datetime', '2000-01-01T00:00:00.000')).to.equal(0)
    expect(await reset('--to-datetime', '2999-01-01T00:00:00.000Z')).to.equal(10)
  })

  it('names an input topic that does not exist and exits 1 after doing the rest', async () => {
    const missing = unique('cli-missing')
    const run = await kstreams(['reset', '--application-id', unique('cli-nogroup'), ...broker, ...client, '--input-topics', missing])
    expect(run.code).to.equal(1)
    expect(run.stdout).to.include(`Topic: ${missing}`)
    expect(run.stdout).to.include('Internal topics to delete (inferred): none')
  })
})
