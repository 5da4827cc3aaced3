import { expect } from 'chai'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KafkaLocalError } from '../src/kafka-local-error.js'
import { LocalKafkaCluster } from '../src/local-kafka-cluster.js'
import { writeClusterState } from '../src/cluster-state.js'
import { spawnFakeBroker, type FakeBroker } from './fake-broker.js'

/** A jar cache that passes the completeness check but holds no Kafka classes. */
async function fakeCache(root: string): Promise<string> {
  const libs = join(root, 'cache', 'kafka-4.1.1', 'libs')
  await mkdir(libs, { recursive: true })
  await writeFile(join(libs, 'empty.jar'), '')
  await writeFile(join(libs, '.complete'), JSON.stringify({ jars: ['empty.jar'] }))
  return join(root, 'cache')
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).to.be.instanceOf(KafkaLocalError)
  return (error as KafkaLocalError).code
}

describe('LocalKafkaCluster (without a real broker)', () => {
  let dir: string
  const fakes: FakeBroker[] = []

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kafka-local-test-'))
  })
  afterEach(async () => {
    for (const f of fakes.splice(0)) f.child.kill('SIGKILL')
    await rm(dir, { recursive: true, force: true })
  })

  for (const brokers of [0, -1, 2.5, 10]) {
    it(`rejects brokers=${brokers} with INVALID_OPTION before touching anything`, async () => {
      expect(await codeOf(LocalKafkaCluster.start({ runDir: join(dir, 'run'), brokers }))).to.equal('INVALID_OPTION')
      expect(await readdir(dir)).to.deep.equal([])
    })
  }

  it('finds nothing to attach in an empty run directory', async () => {
    expect(await LocalKafkaCluster.attach(dir)).to.equal(undefined)
  })

  it('fails with PORT_IN_USE when a fixed port is taken', async () => {
    const server = await new Promise<Server>(resolve => {
      const s = createServer()
      s.listen(0, '127.0.0.1', () => {
        resolve(s)
      })
    })
    try {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      const code = await codeOf(
        LocalKafkaCluster.start({ runDir: join(dir, 'run'), cacheDir: await fakeCache(dir), port: port - 1, classDataSharing: false })
      )
      expect(code).to.equal('PORT_IN_USE')
    } finally {
      server.close()
    }
  })

  it('reports FORMAT_FAILED with the tool output and records no cluster when the jars are not Kafka', async function () {
    this.timeout(30_000)
    const runDir = join(dir, 'run')
    const error = await LocalKafkaCluster.start({ runDir, cacheDir: await fakeCache(dir), classDataSharing: false }).catch(
      (e: unknown) => e
    )
    expect(error).to.be.instanceOf(KafkaLocalError).with.property('code', 'FORMAT_FAILED')
    expect((error as Error).message).to.contain('kafka.tools.StorageTool')
    expect(await readdir(runDir)).to.not.include('cluster.json')
  })

  it('refuses to start over a recorded cluster that still runs, and stops exactly its pids', async () => {
    const runDir = join(dir, 'run')
    const configPath = join(runDir, 'node-1', 'server.properties')
    const fake = await spawnFakeBroker('kafka.Kafka', configPath)
    const bystander = await spawnFakeBroker('kafka.Kafka', join(dir, 'other', 'server.properties'))
    fakes.push(fake, bystander)
    await mkdir(runDir, { recursive: true })
    await writeClusterState(runDir, {
      kafkaVersion: '4.1.1',
      clusterId: 'AAAAAAAAQQCAAAAAAAAAAA',
      cacheDir: join(dir, 'cache'),
      javaCommand: 'java',
      bootstrapServers: '127.0.0.1:1',
      startedAt: new Date().toISOString(),
      launch: {},
      brokers: [
        {
          nodeId: 1,
          pid: fake.pid,
          port: 1,
          controllerPort: 2,
          dataDir: join(runDir, 'node-1', 'data'),
          configPath,
          logPath: join(runDir, 'node-1', 'broker.log')
        }
      ]
    })

    expect(await codeOf(LocalKafkaCluster.start({ runDir, cacheDir: await fakeCache(dir) }))).to.equal('ALREADY_RUNNING')

    const cluster = await LocalKafkaCluster.attach(runDir)
    expect(cluster?.bootstrapServers).to.equal('127.0.0.1:1')
    const [status] = await cluster!.status()
    expect(status).to.include({ nodeId: 1, pid: fake.pid, running: true, reachable: false })
    await cluster!.stop({ timeoutMs: 5000 })
    expect(await fake.exited).to.equal('SIGTERM')
    expect(bystander.child.exitCode).to.equal(null)
    expect(bystander.child.signalCode).to.equal(null)
    expect(await LocalKafkaCluster.attach(runDir)).to.equal(undefined)
  })
})
