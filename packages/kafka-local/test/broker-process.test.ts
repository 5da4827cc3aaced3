import { expect } from 'chai'
import { BrokerProcess, commandLineOf } from '../src/broker-process.js'
import type { BrokerNode } from '../src/broker-config.js'
import { spawnFakeBroker, type FakeBroker } from './fake-broker.js'

function node(configPath: string): BrokerNode {
  return { nodeId: 1, port: 1, controllerPort: 2, dataDir: '/nowhere/data', configPath, logPath: '/nowhere/broker.log' }
}

describe('BrokerProcess (attached by pid)', () => {
  const started: FakeBroker[] = []
  afterEach(() => {
    for (const f of started.splice(0)) f.child.kill('SIGKILL')
  })

  it('sees a recorded broker as running and stops it with SIGTERM', async () => {
    const fake = await spawnFakeBroker('kafka.Kafka', '/run-a/node-1/server.properties')
    started.push(fake)
    const broker = BrokerProcess.attach(node('/run-a/node-1/server.properties'), fake.pid)
    expect(await broker.isRunning()).to.equal(true)
    await broker.stop(5000)
    expect(await fake.exited).to.equal('SIGTERM')
    expect(await broker.isRunning()).to.equal(false)
  })

  it('kills with SIGKILL', async () => {
    const fake = await spawnFakeBroker('kafka.Kafka', '/run-b/node-1/server.properties')
    started.push(fake)
    await BrokerProcess.attach(node('/run-b/node-1/server.properties'), fake.pid).kill()
    expect(await fake.exited).to.equal('SIGKILL')
  })

  it('never signals a pid that now runs something else', async () => {
    const other = await spawnFakeBroker('kafka.Kafka', '/another-run/node-1/server.properties')
    started.push(other)
    const stale = BrokerProcess.attach(node('/run-c/node-1/server.properties'), other.pid)
    expect(await stale.isRunning()).to.equal(false)
    await stale.stop(500)
    await stale.kill()
    expect(await commandLineOf(other.pid)).to.contain('/another-run/node-1/server.properties')
    expect(other.child.exitCode).to.equal(null)
    expect(other.child.signalCode).to.equal(null)
  })

  it('does not treat its own test process as a broker', async () => {
    const self = BrokerProcess.attach(node('/run-d/node-1/server.properties'), process.pid)
    expect(await self.isRunning()).to.equal(false)
    await self.stop(100)
  })
})

describe('commandLineOf', () => {
  it('returns the argument list of a live process and undefined for none', async () => {
    expect(await commandLineOf(process.pid)).to.contain(process.execPath.split('/').pop())
    expect(await commandLineOf(0)).to.equal(undefined)
    expect(await commandLineOf(2 ** 22 + 7)).to.equal(undefined)
  })
})
