/**
 * The offset sums a thread's subscription reports of the tasks it owns (Kafka Streams'
 * TaskManager.taskOffsetSums): LATEST_OFFSET for a running active task; for a task restoring, a
 * task suspended by a revocation, and a standby, the sum of its stores' changelog positions, in
 * memory too. The leader measures lags with them: a suspended task reported as nothing would
 * look as if this thread had to restore it from scratch.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Headers } from '../../src/index.js'
import { LATEST_OFFSET } from '../../src/runtime/assignment/subscription-info.js'
import { SimpleBytesStore } from '../state/helpers/simple-bytes-store.js'
import { CHANGELOG, setup } from './helpers/task-manager-harness.js'

const INPUT = { topic: 'in', partition: 0 }

describe('TaskManager: the offset sums of its tasks', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-offset-sums-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reports a running task as LATEST_OFFSET, a restoring or suspended one (in-memory stores) by its changelog position', async () => {
    const ctx = setup(dir, () => new SimpleBytesStore('counts'))
    for (const k of ['a', 'b', 'a']) ctx.log.append(CHANGELOG, 0, k, '1')
    await ctx.assign(new Map([['0_0', [INPUT]]]))
    expect(ctx.tm.hasRestoringTasks).to.equal(true)
    expect(ctx.tm.taskOffsetSums()).to.deep.equal(new Map([['0_0', 0]]))
    for (let i = 0; i < 4 && ctx.tm.hasRestoringTasks; i++) await ctx.step()
    expect(ctx.tm.taskOffsetSums()).to.deep.equal(new Map([['0_0', LATEST_OFFSET]]))

    ctx.tm.addBatch({
      ...INPUT,
      records: ['c', 'd'].map((k, offset) => ({
        ...INPUT,
        offset,
        timestamp: 0,
        key: Buffer.from(k),
        value: null,
        headers: new Headers()
      })),
      highWatermark: 2,
      nextOffset: 2,
      logStartOffset: 0
    })
    expect(ctx.tm.process(10)).to.equal(2)
    await ctx.tm.handleRevocation()
    // The commit of the revocation wrote c and d: the store is at the changelog's end, 5.
    expect(ctx.log.text(CHANGELOG, 0)).to.have.length(5)
    expect(ctx.tm.taskOffsetSums()).to.deep.equal(new Map([['0_0', 5]]))
    await ctx.tm.shutdown(true)
  })
})
