/**
 * A standby task that becomes active, driven through the TaskManager without a broker: an
 * in-memory log stands in for the changelog and input topics. In-memory stores are recycled
 * (same store objects, restore of the tail only, re-initialised with the active task's cache,
 * changelog writer and metrics); persistent stores close and reopen from the checkpoint.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Headers } from '../../src/index.js'
import type { KeyValueStore } from '../../src/index.js'
import { SimpleBytesStore } from '../state/helpers/simple-bytes-store.js'
import { CHANGELOG, setup } from './helpers/task-manager-harness.js'

const get = (store: unknown, k: string): string | null => (store as KeyValueStore<string, string>).get(k)

/** Standby on 0_0 that applied the five records of the changelog, then two more records are written. */
async function standbyThenTail(ctx: ReturnType<typeof setup>): Promise<unknown> {
  for (const [k, v] of [
    ['a', '1'],
    ['b', '1'],
    ['a', '2'],
    ['c', '1'],
    ['b', '2']
  ] as const)
    ctx.log.append(CHANGELOG, 0, k, v)
  await ctx.assign(new Map(), new Map([['0_0', []]]))
  for (let i = 0; i < 4; i++) await ctx.tm.restoreStep(0)
  const [standby] = ctx.tm.queryableStores('counts', true)
  expect(ctx.tm.standbyTaskIds.map(id => id.toString())).to.deep.equal(['0_0'])
  expect(['a', 'b', 'c'].map(k => get(standby!.store, k))).to.deep.equal(['2', '2', '1'])
  expect(ctx.events).to.deep.equal([]) // a standby reports no restore
  ctx.log.append(CHANGELOG, 0, 'a', '3')
  ctx.log.append(CHANGELOG, 0, 'd', '1')
  return standby!.store
}

async function becomeActive(ctx: ReturnType<typeof setup>): Promise<void> {
  await ctx.assign(new Map([['0_0', [{ topic: 'in', partition: 0 }]]]), new Map())
  for (let i = 0; i < 4 && ctx.tm.hasRestoringTasks; i++) await ctx.tm.restoreStep(0)
  expect(ctx.tm.hasRestoringTasks).to.equal(false)
  expect(ctx.tm.standbyTaskIds).to.deep.equal([])
}

describe('TaskManager: a standby that becomes active', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-recycle-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('with in-memory stores is recycled: the same stores restore only the tail, then process with the task cache, changelog and metrics', async () => {
    const ctx = setup(dir, () => new SimpleBytesStore('counts'))
    const standbyStore = await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 5 7', 'end counts 2'])
    expect(ctx.built).to.have.length(1)
    const store = ctx.tm.storesOf('0_0')!.get('counts')
    expect(store).to.equal(standbyStore)
    expect(['a', 'b', 'c', 'd'].map(k => get(store, k))).to.deep.equal(['3', '2', '1', '1'])

    ctx.tm.addBatch({
      topic: 'in',
      partition: 0,
      records: [
        { topic: 'in', partition: 0, offset: 0, timestamp: 10, key: Buffer.from('a'), value: Buffer.from('x'), headers: new Headers() }
      ],
      highWatermark: 1,
      nextOffset: 1,
      logStartOffset: 0
    })
    expect(ctx.tm.process(10)).to.equal(1)
    expect(get(store, 'a')).to.equal('4')
    // The caching layer got the thread cache at re-init: the reads above and the write are cached.
    expect(ctx.cache.size()).to.equal(4)
    expect(ctx.log.text(CHANGELOG, 0)).to.have.length(7)
    await ctx.tm.commit(true)
    expect(ctx.log.text(CHANGELOG, 0).slice(7)).to.deep.equal(['a=4']) // the changelog writer of the active task
    const puts = ctx.metrics.metrics().find(m => m.name === 'put-rate' && m.tags['in-memory-state-id'] === 'counts')
    expect(puts?.tags).to.deep.equal({ 'thread-id': 't1', 'task-id': '0_0', 'in-memory-state-id': 'counts' })
    await ctx.tm.shutdown(true)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
  })

  it('with a persistent store closes (checkpointed) and the active task reopens a new store from the checkpoint', async () => {
    const ctx = setup(dir, () => Object.defineProperty(new SimpleBytesStore('counts'), 'persistent', { value: true }))
    const standbyStore = await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 5 7', 'end counts 2'])
    expect(ctx.built).to.have.length(2)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
    expect(ctx.tm.storesOf('0_0')!.get('counts')).to.not.equal(standbyStore)
    await ctx.tm.shutdown(true)
  })

  it('with an in-memory store that refuses a second init opens a new store and restores it from the beginning', async () => {
    const ctx = setup(dir, () => {
      const store = new SimpleBytesStore('counts')
      const init = store.init.bind(store)
      let inits = 0
      store.init = (context, root) => {
        if (++inits > 1) throw new Error('already open')
        init(context, root)
      }
      return store
    })
    await standbyThenTail(ctx)
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 0 7', 'end counts 7'])
    expect(ctx.built).to.have.length(2)
    expect(ctx.built[0]!.isOpen()).to.equal(false)
    expect(['a', 'b', 'c', 'd'].map(k => get(ctx.tm.storesOf('0_0')!.get('counts'), k))).to.deep.equal(['3', '2', '1', '1'])
    await ctx.tm.shutdown(true)
  })

  it('with in-memory stores that never received a changelog record restores from the beginning', async () => {
    const ctx = setup(dir, () => new SimpleBytesStore('counts'))
    await ctx.assign(new Map(), new Map([['0_0', []]]))
    await ctx.tm.restoreStep(0)
    ctx.log.append(CHANGELOG, 0, 'a', '1')
    await becomeActive(ctx)
    expect(ctx.events).to.deep.equal(['start counts 0 1', 'end counts 1'])
    expect(ctx.built).to.have.length(1)
    expect(get(ctx.tm.storesOf('0_0')!.get('counts'), 'a')).to.equal('1')
    await ctx.tm.shutdown(true)
  })
})
