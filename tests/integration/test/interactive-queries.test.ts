import { expect } from 'chai'
import { request } from 'node:http'
import {
  KafkaStreams,
  type Record as KRecord,
  Serdes,
  Topology,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  QueryableStoreTypes,
  InteractiveQueryServer,
  partitionFor
} from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { bootstrapServers, createTopics, produce, sleep, tempDir, unique, waitFor, freePort, testClient } from './helpers.js'

const STORE = 'Counts'
const PARTITIONS = 6
const S = Serdes.String()

class CountProcessor implements Processor<string, string, string, number> {
  #store!: KeyValueStore<string, number>
  init(ctx: ProcessorContext<string, number>): void {
    this.#store = ctx.getStateStore(STORE)
  }
  process(record: KRecord<string, string>): void {
    this.#store.put(record.key, (this.#store.get(record.key) ?? 0) + 1)
  }
}

const countingTopology = (input: string): Topology =>
  new Topology()
    .addSource('In', input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'In')
    .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STORE), S, Serdes.Long()), 'Count')

interface HttpAnswer {
  status: number
  body: any
  retryAfter: string | undefined
}
async function get(port: number, path: string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, res => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: JSON.parse(Buffer.concat(chunks).toString()),
          retryAfter: res.headers['retry-after'] as string | undefined
        })
      )
    })
    req.on('error', reject)
    req.end()
  })
}

interface Instance {
  streams: KafkaStreams
  port: number
  server: InteractiveQueryServer
  remove: () => Promise<void>
}

/**
 * Three (then four) KafkaStreams instances in one process count a few hundred keys on a
 * 6-partition topic; each has an applicationServer and an InteractiveQueryServer.
 */
describe('Interactive queries across three instances (real broker)', function () {
  this.timeout(240000)
  const instances: Instance[] = []
  let prefix: string
  const expected = new Map<string, number>()

  async function startInstance(): Promise<Instance> {
    const port = await freePort()
    const dir = await tempDir('kstreams-iq')
    const streams = new KafkaStreams(
      countingTopology(`${prefix}-input`),
      {
        applicationId: `${prefix}-app`,
        bootstrapServers: bootstrapServers(),
        stateDir: dir.path,
        applicationServer: `127.0.0.1:${port}`,
        commitIntervalMs: 200,
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 1000
      },
      { client: testClient() }
    )
    const server = new InteractiveQueryServer(streams, { keySerializer: S })
    await server.start()
    await streams.start()
    const instance = { streams, port, server, remove: dir.remove }
    instances.push(instance)
    return instance
  }

  const kv = QueryableStoreTypes.keyValueStore<string, number>()
  const allRunning = (): boolean => instances.every(i => i.streams.state() === 'RUNNING')
  const localCounts = (i: Instance): Map<string, number> => {
    const counts = new Map<string, number>()
    try {
      for (const { key, value } of i.streams.store({ storeName: STORE, queryableStoreType: kv }).all()) counts.set(key, value)
    } catch {
      /* rebalancing or nothing local */
    }
    return counts
  }
  const stable = (n: number) => async () =>
    waitFor(
      `${n} instances RUNNING with the same view`,
      () =>
        allRunning() &&
        instances.every(
          i =>
            i.streams.metadataForAllStreamsClients().length === n &&
            i.streams.metadataForAllStreamsClients().every(m => m.topicPartitions.length > 0)
        ),
      120000
    )

  before(async () => {
    prefix = unique('iq')
    await createTopics([{ topic: `${prefix}-input`, numPartitions: PARTITIONS }])
    for (let i = 0; i < 3; i++) await startInstance()
    await stable(3)()
    const records: Array<{ key: string; value: string }> = []
    for (let k = 0; k < 300; k++) {
      const key = `key-${k}`
      const n = 1 + (k % 4)
      expected.set(key, n)
      for (let j = 0; j < n; j++) records.push({ key, value: 'x' })
    }
    await produce(`${prefix}-input`, records)
    await waitFor(
      'every key counted',
      () => {
        const seen = new Map<string, number>()
        for (const i of instances) for (const [k, v] of localCounts(i)) seen.set(k, v)
        return [...expected].every(([k, v]) => seen.get(k) === v)
      },
      90000
    )
  })

  after(async () => {
    for (const i of instances) {
      await i.server.close()
      await i.streams.close()
      await i.remove()
    }
  })

  it("queryMetadataForKey agrees on every instance with where the key's partition is active; the owner has the value locally, the others do not", () => {
    const byPort = new Map(instances.map(i => [i.port, i]))
    const owners = new Set<number>()
    for (const [key, count] of expected) {
      const metas = instances.map(i => i.streams.queryMetadataForKey(STORE, key, S.serializer()))
      for (const m of metas) expect(m).to.deep.equal(metas[0])
      const meta = metas[0]!
      expect(meta.partition).to.equal(partitionFor(Buffer.from(key), PARTITIONS))
      expect(meta.activeHost.host).to.equal('127.0.0.1')
      expect(meta.standbyHosts).to.deep.equal([])
      const owner = byPort.get(meta.activeHost.port)!
      owners.add(owner.port)
      expect(owner.streams.store({ storeName: STORE, queryableStoreType: kv, partition: meta.partition }).get(key)).to.equal(count)
      expect(owner.streams.store({ storeName: STORE, queryableStoreType: kv }).get(key)).to.equal(count)
      for (const other of instances.filter(i => i !== owner)) {
        expect(other.streams.store({ storeName: STORE, queryableStoreType: kv }).get(key), `${key} on a non-owner`).to.equal(null)
        let code: string | undefined
        try {
          other.streams.store({ storeName: STORE, queryableStoreType: kv, partition: meta.partition }).get(key)
        } catch (e: any) {
          code = e.code
        }
        expect(code).to.equal('STATE_STORE_MIGRATED')
      }
    }
    expect(owners.size, 'the partitions are spread over the three instances').to.equal(3)
    const all = instances[0]!.streams.metadataForAllStreamsClients()
    expect(all.map(m => m.hostInfo.port).sort()).to.deep.equal(instances.map(i => i.port).sort())
    expect(all.flatMap(m => m.topicPartitions.map(tp => tp.partition)).sort()).to.deep.equal([0, 1, 2, 3, 4, 5])
    for (const m of all) expect([...m.stateStoreNames]).to.deep.equal([STORE])
  })

  it('allLocalStorePartitionLags reports the local active partitions caught up', async () => {
    for (const i of instances) {
      const lags = await i.streams.allLocalStorePartitionLags()
      const local = i.streams
        .metadataForAllStreamsClients()
        .find(m => m.hostInfo.port === i.port)!
        .topicPartitions.map(tp => tp.partition)
        .sort()
      expect([...(lags.get(STORE)?.keys() ?? [])]).to.deep.equal(local)
      for (const lag of lags.get(STORE)!.values()) {
        expect(lag.offsetLag).to.equal(0)
        expect(lag.currentOffsetPosition).to.equal(lag.endOffsetPosition)
      }
    }
  })

  it("any instance's HTTP endpoint answers any key with the owner's value; a missing key is 404", async () => {
    for (const [key, count] of expected) {
      const owner = instances[0]!.streams.queryMetadataForKey(STORE, key, S.serializer())
      for (const i of instances) {
        const answer = await get(i.port, `/stores/${STORE}/keys/${encodeURIComponent(key)}`)
        expect(answer.status, `${key} via ${i.port}`).to.equal(200)
        expect(answer.body).to.deep.equal({ key, value: count, host: `127.0.0.1:${owner.activeHost.port}`, partition: owner.partition })
      }
    }
    const missing = await get(instances[1]!.port, `/stores/${STORE}/keys/no-such-key`)
    expect(missing.status).to.equal(404)
    expect(missing.body.error).to.equal('KEY_NOT_FOUND')
    expect((await get(instances[2]!.port, '/stores/NoStore/keys/a')).status).to.equal(404)
  })

  interface Outcomes {
    answered: number
    retriable: Map<string, number>
    wrong: string[]
    staleAnswered: number
    http503: number
    http200: number
    sawRebalancing: boolean
  }

  /** Queries every partition on the probed instances (and HTTP) until `during` resolves; records what happened. */
  async function probeWhile(probed: () => Instance[], during: () => Promise<void>): Promise<Outcomes> {
    const byPartition = new Map<number, Array<[string, number]>>()
    for (const [key, count] of expected) {
      const p = partitionFor(Buffer.from(key), PARTITIONS)
      byPartition.set(p, [...(byPartition.get(p) ?? []), [key, count]])
    }
    const outcomes: Outcomes = {
      answered: 0,
      retriable: new Map(),
      wrong: [],
      staleAnswered: 0,
      http503: 0,
      http200: 0,
      sawRebalancing: false
    }
    let stop = false
    const probe = (async () => {
      while (!stop) {
        const targets = probed()
        for (const i of targets) {
          if (i.streams.state() === 'REBALANCING') outcomes.sawRebalancing = true
          for (const [p, keys] of byPartition) {
            try {
              const store = i.streams.store({ storeName: STORE, queryableStoreType: kv, partition: p })
              for (const [key, count] of keys) {
                const value = store.get(key)
                if (value !== count) outcomes.wrong.push(`${key}=${String(value)} (expected ${count}) on ${i.port} in ${i.streams.state()}`)
              }
              outcomes.answered++
            } catch (e: any) {
              if (e.retriable === true) outcomes.retriable.set(e.code, (outcomes.retriable.get(e.code) ?? 0) + 1)
              else outcomes.wrong.push(`non-retriable ${e.code as string} on ${i.port}`)
            }
            try {
              const stale = i.streams.store({ storeName: STORE, queryableStoreType: kv, partition: p, enableStaleStores: true })
              const [key, count] = keys[0]!
              if (i.streams.state() === 'REBALANCING' && stale.get(key) === count) outcomes.staleAnswered++
            } catch {
              /* not local */
            }
          }
        }
        const [key, count] = [...expected][Math.floor(Math.random() * expected.size)]!
        const answer = await get(targets[Math.floor(Math.random() * targets.length)]!.port, `/stores/${STORE}/keys/${key}`)
        if (answer.status === 200) {
          outcomes.http200++
          if (answer.body.value !== count) outcomes.wrong.push(`HTTP ${key}=${String(answer.body.value)}`)
        } else if (answer.status === 503) {
          outcomes.http503++
          if (answer.retryAfter !== '1') outcomes.wrong.push('HTTP 503 without Retry-After')
        } else {
          outcomes.wrong.push(`HTTP ${answer.status} ${JSON.stringify(answer.body)}`)
        }
        await sleep(5)
      }
    })()
    try {
      await during()
    } finally {
      stop = true
      await probe
    }
    return outcomes
  }

  function expectSafe(outcomes: Outcomes, what: string): void {
    expect(outcomes.wrong, outcomes.wrong.slice(0, 5).join('; ')).to.deep.equal([])
    expect(outcomes.sawRebalancing).to.equal(true)
    expect(
      outcomes.retriable.get('STREAMS_REBALANCING') ?? 0,
      'queries during the rebalance fail with STREAMS_REBALANCING'
    ).to.be.greaterThan(0)
    expect(outcomes.staleAnswered, 'stale stores answer during the rebalance').to.be.greaterThan(0)
    expect(outcomes.http503, 'HTTP answers 503 during the rebalance').to.be.greaterThan(0)
    expect(outcomes.answered).to.be.greaterThan(0)
    console.log(
      `      ${what}: ${outcomes.answered} partition queries answered correctly, retriable errors ${JSON.stringify([...outcomes.retriable])}, stale answers ${outcomes.staleAnswered}, HTTP 200/503 ${outcomes.http200}/${outcomes.http503}`
    )
  }

  async function expectEveryKeyEverywhere(): Promise<void> {
    for (const [key, count] of expected) {
      const meta = instances[0]!.streams.queryMetadataForKey(STORE, key, S.serializer())
      const owner = instances.find(i => i.port === meta.activeHost.port)!
      expect(owner.streams.store({ storeName: STORE, queryableStoreType: kv, partition: meta.partition }).get(key)).to.equal(count)
      const answer = await get(instances[count % instances.length]!.port, `/stores/${STORE}/keys/${key}`)
      expect(answer.status).to.equal(200)
      expect(answer.body.value).to.equal(count)
    }
  }

  it('during a rebalance (a 4th instance joins) local queries throw retriable errors, never a wrong value; stale stores answer; afterwards all four answer everything', async () => {
    const first3 = instances.slice(0, 3)
    const outcomes = await probeWhile(
      () => first3,
      async () => {
        await startInstance()
        await stable(4)()
        await sleep(500)
      }
    )
    expectSafe(outcomes, 'a 4th instance joins')
    const fourth = instances[3]!
    expect(
      fourth.streams.metadataForAllStreamsClients().find(m => m.hostInfo.port === fourth.port)!.topicPartitions.length,
      'the 4th instance took partitions'
    ).to.be.greaterThan(0)
    await expectEveryKeyEverywhere()
  })

  it('the same when an instance closes: its partitions move, the others answer them once restored', async () => {
    const leaving = instances[1]!
    const staying = instances.filter(i => i !== leaving)
    const outcomes = await probeWhile(
      () => staying,
      async () => {
        await leaving.server.close()
        await leaving.streams.close({ leaveGroup: true })
        instances.splice(instances.indexOf(leaving), 1)
        await stable(3)()
        await sleep(500)
      }
    )
    await leaving.remove()
    expectSafe(outcomes, 'an instance closes')
    expect(instances[0]!.streams.metadataForAllStreamsClients().some(m => m.hostInfo.port === leaving.port)).to.equal(false)
    await expectEveryKeyEverywhere()
  })
})
