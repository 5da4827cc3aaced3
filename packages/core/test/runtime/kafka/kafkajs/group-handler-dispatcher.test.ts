/**
 * GroupHandlerDispatcher without a broker: handler calls never overlap, batches of unassigned or
 * paused partitions are not delivered, onIdle runs only when idle and not during a rebalance, and
 * the first handler error is fatal.
 */
import { expect } from 'chai'
import { systemClock } from '../../../../src/clock.js'
import { Headers } from '../../../../src/record.js'
import { GroupHandlerDispatcher } from '../../../../src/runtime/kafka/kafkajs/group-handler-dispatcher.js'
import type { FetchedBatch } from '../../../../src/runtime/kafka/ports.js'
import { RecordingHandlers } from './group-test-doubles.js'
import { sleep, waitFor } from './kafka-test-env.js'

const tp = { topic: 't', partition: 0 }
const batch = (value: string): FetchedBatch => ({
  ...tp,
  records: [{ ...tp, offset: 0, timestamp: 0, key: null, value: Buffer.from(value), headers: new Headers() }],
  highWatermark: 1,
  nextOffset: 1
})

describe('GroupHandlerDispatcher', () => {
  let handlers: RecordingHandlers
  let failures: unknown[]
  let dispatcher: GroupHandlerDispatcher

  beforeEach(() => {
    handlers = new RecordingHandlers()
    failures = []
    dispatcher = new GroupHandlerDispatcher({ handlers, idleIntervalMs: 50, clock: systemClock, onFailure: e => { failures.push(e) } })
  })
  afterEach(async () => { await dispatcher.close() })

  it('delivers batches of assigned, unpaused partitions only, and only while current', async () => {
    expect(await dispatcher.batch(tp, () => true, () => batch('before'))).to.equal(false)
    await dispatcher.assigned({ partitions: [tp], userData: Buffer.from('u') })
    expect(await dispatcher.batch(tp, () => true, () => batch('a'))).to.equal(true)
    expect(await dispatcher.batch(tp, () => false, () => batch('stale'))).to.equal(false)
    dispatcher.markPaused(tp, true)
    expect(await dispatcher.batch(tp, () => true, () => batch('paused'))).to.equal(false)
    expect(await dispatcher.batch({ topic: 't', partition: 1 }, () => true, () => batch('other'))).to.equal(false)
    expect(handlers.values()).to.deep.equal(['a'])
    expect(handlers.lastAssignment()!.userData.toString()).to.equal('u')
  })

  it('clears assignment and pause state on revocation and returns what was paused', async () => {
    await dispatcher.assigned({ partitions: [tp], userData: Buffer.alloc(0) })
    dispatcher.markPaused(tp, true)
    expect(await dispatcher.revoked([tp])).to.deep.equal([tp])
    expect(dispatcher.isAssigned(tp)).to.equal(false)
    expect(dispatcher.isPaused(tp)).to.equal(false)
    expect(handlers.events.map(e => e.type)).to.deep.equal(['assigned', 'revoked'])
  })

  it('never runs two handlers at once, and runs onIdle only when nothing ran for the interval', async () => {
    handlers.hooks.onBatch = async () => { await sleep(30) }
    handlers.hooks.onIdle = async () => { await sleep(30) }
    handlers.hooks.onRevoked = async () => { await sleep(30) }
    await dispatcher.assigned({ partitions: [tp], userData: Buffer.alloc(0) })
    const batches = Array.from({ length: 5 }, async (_, i) => await dispatcher.batch(tp, () => true, () => batch(`v${i}`)))
    await Promise.all(batches)
    await waitFor('idle', () => handlers.count('idle') >= 2, 2000)
    await dispatcher.revoked([tp])
    const idles = handlers.count('idle')
    await sleep(200)
    expect(handlers.count('idle')).to.equal(idles) // none during a rebalance
    expect(handlers.maxActive).to.equal(1)
    const lastBatch = handlers.events.filter(e => e.type === 'batch').at(-1)!.at
    const firstIdle = handlers.events.find(e => e.type === 'idle')!.at
    expect(firstIdle - lastBatch).to.be.at.least(45)
  })

  it('treats the first handler error as fatal: reported once, no handler after it', async () => {
    const boom = new Error('boom')
    handlers.hooks.onBatch = async () => { throw boom }
    await dispatcher.assigned({ partitions: [tp], userData: Buffer.alloc(0) })
    expect(await dispatcher.batch(tp, () => true, () => batch('x'))).to.equal(false)
    expect(await dispatcher.batch(tp, () => true, () => batch('y'))).to.equal(false)
    await dispatcher.revoked([tp])
    await sleep(120)
    expect(failures).to.deep.equal([boom])
    expect(dispatcher.failed).to.equal(true)
    expect(handlers.events.map(e => e.type)).to.deep.equal(['assigned', 'batch'])
  })

  it('calls nothing after close()', async () => {
    await dispatcher.assigned({ partitions: [tp], userData: Buffer.alloc(0) })
    await dispatcher.close()
    expect(await dispatcher.batch(tp, () => true, () => batch('x'))).to.equal(false)
    await dispatcher.revoked([tp])
    await sleep(100)
    expect(handlers.events.map(e => e.type)).to.deep.equal(['assigned'])
  })
})
