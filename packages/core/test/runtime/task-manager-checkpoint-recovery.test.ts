/**
 * When the local state of a task cannot be trusted, it is wiped before the full restore (Kafka's
 * TaskCorruptedException): a corrupted `.checkpoint`, or a checkpoint below the changelog's
 * log-start offset (the records between were deleted before this task saw them). Restoring over
 * the old store instead keeps keys whose tombstone the changelog no longer has. And a task's
 * checkpoint is written only after its stores flushed what the checkpoint covers.
 */
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KeyValueStore } from '../../src/index.js'
import { FileBackedBytesStore } from './helpers/file-backed-store.js'
import { CHANGELOG, setup } from './helpers/task-manager-harness.js'

const get = (store: unknown, k: string): string | null => (store as KeyValueStore<string, string>).get(k)
const ACTIVE = new Map([['0_0', [{ topic: 'in', partition: 0 }]]])

describe('TaskManager: local state that cannot be trusted is wiped before the restore', () => {
  let dir: string
  let taskDir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-checkpoint-recovery-'))
    taskDir = join(dir, 'app', '0_0')
    await mkdir(taskDir, { recursive: true })
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function restoreAll(ctx: ReturnType<typeof setup>): Promise<void> {
    await ctx.assign(ACTIVE)
    for (let i = 0; i < 20 && ctx.tm.hasRestoringTasks; i++) await ctx.tm.restoreStep(0)
    expect(ctx.tm.hasRestoringTasks).to.equal(false)
  }

  it('a corrupted checkpoint: the store is wiped, then restored in full; a key whose tombstone was compacted away does not come back', async () => {
    // The previous owner applied a=1, z=9 and later z's tombstone; compaction then dropped z=9 and its tombstone.
    FileBackedBytesStore.leave(taskDir, 'counts', { a: '1', z: '9' })
    await writeFile(join(taskDir, '.checkpoint'), '0\n1\napp-counts-changelog 0 x\n')
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'))
    ctx.log.append(CHANGELOG, 0, 'a', '1')
    ctx.log.append(CHANGELOG, 0, 'b', '1')
    await restoreAll(ctx)
    const store = ctx.tm.storesOf('0_0')!.get('counts')
    expect(['a', 'b', 'z'].map(k => get(store, k))).to.deep.equal(['1', '1', null])
    expect(ctx.events).to.deep.equal(['start counts 0 2', 'end counts 2'])
    await ctx.tm.shutdown(true)
  })

  it("a checkpoint below the changelog's log-start offset: the store is wiped and restored from the log start", async () => {
    // Checkpointed at offset 1; offsets 2-3 (among them z's tombstone) were deleted since.
    FileBackedBytesStore.leave(taskDir, 'counts', { a: '1', z: '9' })
    await writeFile(join(taskDir, '.checkpoint'), '0\n1\napp-counts-changelog 0 1\n')
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'))
    for (const [k, v] of [
      ['a', '1'],
      ['z', '9'],
      ['z', 'deleted'],
      ['a', '2'],
      ['b', '1'],
      ['c', '1']
    ] as const)
      ctx.log.append(CHANGELOG, 0, k, v)
    ctx.log.deleteBefore(CHANGELOG, 0, 4)
    await restoreAll(ctx)
    const store = ctx.tm.storesOf('0_0')!.get('counts')
    expect(['a', 'b', 'c', 'z'].map(k => get(store, k))).to.deep.equal([null, '1', '1', null])
    expect(ctx.events).to.deep.equal(['start counts 4 6', 'end counts 2'])
    await ctx.tm.shutdown(true)
  })

  /** The task as a standby, following its changelog a few steps: its store. */
  async function standbyStore(ctx: ReturnType<typeof setup>): Promise<unknown> {
    await ctx.assign(new Map(), new Map([['0_0', []]]))
    for (let i = 0; i < 3; i++) await ctx.tm.restoreStep(0)
    return ctx.tm.queryableStores('counts', true)[0]!.store
  }

  for (const [name, checkpoint, processingGuarantee] of [
    ['a standby with a corrupted checkpoint is wiped too', 'garbage', undefined],
    // An active task that died here left z=9 of a transaction that was aborted: the changelog never had it.
    [
      'under exactly-once a standby over local state without a checkpoint is wiped (it may hold aborted writes), as an active task',
      undefined,
      'exactly_once_v2'
    ]
  ] as const) {
    it(name, async () => {
      FileBackedBytesStore.leave(taskDir, 'counts', { a: '1', z: '9' })
      if (checkpoint !== undefined) await writeFile(join(taskDir, '.checkpoint'), checkpoint)
      const ctx = setup(dir, () => new FileBackedBytesStore('counts'), { processingGuarantee })
      ctx.log.append(CHANGELOG, 0, 'a', '1')
      const store = await standbyStore(ctx)
      expect(['a', 'z'].map(k => get(store, k))).to.deep.equal(['1', null])
      await ctx.tm.shutdown(true)
    })
  }

  it('under exactly-once a standby loads a checkpoint with OFFSET_UNKNOWN, deletes it, and writes one again at close', async () => {
    FileBackedBytesStore.leave(taskDir, 'counts', {})
    await writeFile(join(taskDir, '.checkpoint'), `0\n1\n${CHANGELOG} 0 -4\n`)
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'), { processingGuarantee: 'exactly_once_v2' })
    ctx.log.append(CHANGELOG, 0, 'a', '1')
    const store = await standbyStore(ctx)
    expect(existsSync(join(taskDir, '.checkpoint')), 'deleted once loaded').to.equal(false)
    expect(get(store, 'a')).to.equal('1')
    await ctx.tm.shutdown(true)
    expect(await readFile(join(taskDir, '.checkpoint'), 'utf8')).to.equal(`0\n1\n${CHANGELOG} 0 0\n`)
  })

  it('under exactly-once a standby whose checkpoint was deleted at load writes one at its first commit when far enough (Kafka: an empty snapshot)', async () => {
    FileBackedBytesStore.leave(taskDir, 'counts', { a: '1' })
    await writeFile(join(taskDir, '.checkpoint'), `0\n1\n${CHANGELOG} 0 20000\n`)
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'), { processingGuarantee: 'exactly_once_v2' })
    for (let i = 0; i <= 20_000; i++) ctx.log.append(CHANGELOG, 0, 'a', '1')
    await standbyStore(ctx)
    expect(existsSync(join(taskDir, '.checkpoint')), 'deleted once loaded').to.equal(false)
    await ctx.tm.commit()
    expect(await readFile(join(taskDir, '.checkpoint'), 'utf8')).to.equal(`0\n1\n${CHANGELOG} 0 20000\n`)
    await ctx.tm.shutdown(true)
  })

  it('a restored task writes its checkpoint only after its stores flushed what the checkpoint covers', async () => {
    let store: FileBackedBytesStore | undefined
    const ctx = setup(dir, () => (store = new FileBackedBytesStore('counts')))
    for (const [k, v] of [
      ['a', '1'],
      ['b', '1'],
      ['a', '2']
    ] as const)
      ctx.log.append(CHANGELOG, 0, k, v)
    await restoreAll(ctx)
    const checkpoint = await readFile(join(taskDir, '.checkpoint'), 'utf8')
    expect(checkpoint).to.equal('0\n1\napp-counts-changelog 0 2\n')
    // The last flush came before the checkpoint that covers offset 2 was written.
    expect(store!.flushes.length).to.be.greaterThan(0)
    expect(store!.flushes.at(-1)).to.not.equal(checkpoint)
    await ctx.tm.shutdown(true)
  })
})

describe('TaskManager: a changelog truncated under a restore', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-truncated-restore-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('below the restore position (unclean leader election): the restore does not hang; the task is wiped and restored from what the changelog holds now', async () => {
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'))
    for (let i = 0; i < 10; i++) ctx.log.append(CHANGELOG, 0, `k${i}`, '1')
    await ctx.assign(ACTIVE)
    await ctx.tm.restoreStep(0)
    await ctx.tm.restoreStep(0) // 4 records applied
    // The new leader has only the first 2 records, then takes a new write.
    ctx.log.of(CHANGELOG, 0).splice(2)
    ctx.log.append(CHANGELOG, 0, 'k9', 'new')
    for (let i = 0; i < 20 && ctx.tm.hasRestoringTasks; i++) await ctx.step()
    expect(ctx.tm.hasRestoringTasks).to.equal(false)
    const store = ctx.tm.storesOf('0_0')!.get('counts')
    expect(['k0', 'k1', 'k2', 'k3', 'k9'].map(k => get(store, k))).to.deep.equal(['1', '1', null, null, 'new'])
    await ctx.tm.shutdown(true)
  })

  it('a standby past the end of a truncated changelog is wiped and follows it from the beginning', async () => {
    const ctx = setup(dir, () => new FileBackedBytesStore('counts'))
    for (let i = 0; i < 6; i++) ctx.log.append(CHANGELOG, 0, `k${i}`, '1')
    await ctx.assign(new Map(), new Map([['0_0', []]]))
    for (let i = 0; i < 4; i++) await ctx.tm.restoreStep(0)
    ctx.log.of(CHANGELOG, 0).splice(3)
    for (let i = 0; i < 6; i++) await ctx.tm.restoreStep(0)
    const [standby] = ctx.tm.queryableStores('counts', true)
    expect(['k0', 'k2', 'k3', 'k5'].map(k => get(standby!.store, k))).to.deep.equal(['1', '1', null, null])
    ctx.log.append(CHANGELOG, 0, 'k7', '1')
    for (let i = 0; i < 3; i++) await ctx.tm.restoreStep(0)
    expect(get(ctx.tm.queryableStores('counts', true)[0]!.store, 'k7')).to.equal('1')
    await ctx.tm.shutdown(true)
  })
})
