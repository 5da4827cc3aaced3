import { expect } from 'chai'
import fsPromises, { mkdir, mkdtemp, readdir, readFile, rm, writeFile, stat } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { syncBuiltinESMExports } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { OffsetCheckpoint, OFFSET_UNKNOWN } from '../../../src/runtime/state/offset-checkpoint.js'

const fixture = fileURLToPath(new URL('../fixtures/checkpoint-v0.txt', import.meta.url))

describe('OffsetCheckpoint (.checkpoint file)', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kstreams-ckpt-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it("writes Kafka Streams' format byte for byte (golden fixture)", async () => {
    const cp = new OffsetCheckpoint(join(dir, '.checkpoint'))
    await cp.write([
      { topic: 'app-Counts-changelog', partition: 0, offset: 41 },
      { topic: 'app-Other-changelog', partition: 3, offset: 7 }
    ])
    expect(await readFile(join(dir, '.checkpoint'))).to.deep.equal(await readFile(fixture))
    expect((await stat(join(dir, '.checkpoint'))).mode & 0o777).to.equal(0o600)
  })

  it('concurrent writes of one file (two instances) all succeed, in call order, the last one winning', async () => {
    const path = join(dir, '.checkpoint')
    const writes = Array.from({ length: 20 }, (_, i) => new OffsetCheckpoint(path).write([{ topic: 't', partition: 0, offset: i }]))
    await Promise.all(writes)
    expect([...(await new OffsetCheckpoint(path).read()).values()]).to.deep.equal([{ topic: 't', partition: 0, offset: 19 }])
    expect((await readdir(dir)).filter(f => f.endsWith('.tmp'))).to.deep.equal([])
  })

  it('reads the golden fixture', async () => {
    const offsets = await new OffsetCheckpoint(fixture).read()
    expect([...offsets.values()]).to.deep.equal([
      { topic: 'app-Counts-changelog', partition: 0, offset: 41 },
      { topic: 'app-Other-changelog', partition: 3, offset: 7 }
    ])
  })

  it('a missing file is an empty map; an empty write deletes the file', async () => {
    const cp = new OffsetCheckpoint(join(dir, '.checkpoint'))
    expect((await cp.read()).size).to.equal(0)
    await cp.write([{ topic: 't', partition: 0, offset: 1 }])
    await cp.write([])
    expect((await cp.read()).size).to.equal(0)
  })

  it('skips negative offsets on read except OFFSET_UNKNOWN, and rejects them on write', async () => {
    const path = join(dir, '.checkpoint')
    await writeFile(path, '0\n2\nt 0 -1\nt 1 -4\n')
    const offsets = await new OffsetCheckpoint(path).read()
    expect([...offsets.values()]).to.deep.equal([{ topic: 't', partition: 1, offset: OFFSET_UNKNOWN }])
    let err: any
    try {
      await new OffsetCheckpoint(path).write([{ topic: 't', partition: 0, offset: -2 }])
    } catch (e) {
      err = e
    }
    expect(err).to.have.property('code', 'ILLEGAL_ARGUMENT')
  })

  // Java's Integer.parseInt / Long.parseLong accept an optional sign and decimal digits only; an
  // entry line splits on runs of whitespace, trailing empty pieces dropped (String.split).
  for (const [content, entries] of [
    ['+0\n+1\nt +3 +5\n', [{ topic: 't', partition: 3, offset: 5 }]],
    ['0\n1\nt 007 0042\n', [{ topic: 't', partition: 7, offset: 42 }]],
    ['0\r\n1\r\nt 0 5\r\n', [{ topic: 't', partition: 0, offset: 5 }]],
    ['0\n1\nt 0 5 \n', [{ topic: 't', partition: 0, offset: 5 }]],
    ['0\n1\nt\t0   5\n', [{ topic: 't', partition: 0, offset: 5 }]],
    ['0\n1\nt 0 -1\n', []],
    ['0\n1\nt 0 -9223372036854775808\n', []],
    ['0\n1\nt 2147483647 9007199254740991\n', [{ topic: 't', partition: 2147483647, offset: 9007199254740991 }]]
  ] as const) {
    it(`reads ${JSON.stringify(content)} as Java's OffsetCheckpoint does`, async () => {
      const path = join(dir, '.checkpoint')
      await writeFile(path, content)
      expect([...(await new OffsetCheckpoint(path).read()).values()]).to.deep.equal(entries)
    })
  }

  for (const [name, content] of [
    ['wrong version', '1\n1\nt 0 5\n'],
    ['bad count', '0\nx\n'],
    ['count mismatch', '0\n2\nt 0 5\n'],
    ['one entry twice', '0\n2\nt 0 5\nt 0 6\n'],
    ['malformed line', '0\n1\nt zero 5\n'],
    ['garbage', '\u0000\u0001binary'],
    ['empty file', ''],
    ['hex partition', '0\n1\nt 0x10 5\n'],
    ['exponent offset', '0\n1\nt 0 1e3\n'],
    ['decimal offset', '0\n1\nt 0 5.0\n'],
    ['empty partition', '0\n1\nt  5\n'],
    ['sign only', '0\n1\nt - 5\n'],
    ['two signs', '0\n1\nt 0 +-5\n'],
    ['digits and letters', '0\n1\nt 0 5x\n'],
    ['partition beyond int', '0\n1\nt 2147483648 5\n'],
    ['offset beyond long', '0\n1\nt 0 9223372036854775808\n'],
    ['offset beyond 2^53', '0\n1\nt 0 9007199254740992\n'],
    ['version with a space', '0 \n1\nt 0 5\n'],
    ['hex count', '0\n0x1\nt 0 5\n'],
    ['four fields', '0\n1\nt 0 5 6\n'],
    ['leading space', '0\n1\n t 0 5\n'],
    ['empty line', '0\n1\nt 0 5\n\n']
  ] as const) {
    it(`a corrupted file (${name}) is a CHECKPOINT_CORRUPTED error naming the path`, async () => {
      const path = join(dir, '.checkpoint')
      await writeFile(path, content)
      let err: any
      try {
        await new OffsetCheckpoint(path).read()
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'CHECKPOINT_CORRUPTED')
      expect(err.message).to.contain(path)
    })
  }

  describe('on disk', () => {
    // The calls the checkpoint makes on node:fs/promises, seen by wrapping the module's open and
    // rename (syncBuiltinESMExports carries the wrappers over to the named ESM imports).
    const calls: string[] = []
    const original = { open: fsPromises.open, rename: fsPromises.rename }
    beforeEach(() => {
      calls.length = 0
      fsPromises.open = (async (path: string, ...rest: unknown[]) => {
        const handle: FileHandle = await (original.open as (...a: unknown[]) => Promise<FileHandle>)(path, ...rest)
        const sync = handle.sync.bind(handle)
        handle.sync = async () => {
          await sync()
          calls.push(`fsync ${path}`)
        }
        return handle
      }) as typeof fsPromises.open
      fsPromises.rename = (async (from: string, to: string) => {
        await original.rename(from, to)
        calls.push(`rename ${from} ${to}`)
      }) as typeof fsPromises.rename
      syncBuiltinESMExports()
    })
    afterEach(() => {
      Object.assign(fsPromises, original)
      syncBuiltinESMExports()
    })

    it('fsyncs the temp file before the rename and the directory after it, as Kafka (atomicMoveWithFallback)', async () => {
      const path = join(dir, '.checkpoint')
      await new OffsetCheckpoint(path).write([{ topic: 't', partition: 0, offset: 1 }])
      expect(calls).to.have.length(3)
      const [syncTmp, renamed, syncDir] = calls as [string, string, string]
      const tmp = syncTmp.slice('fsync '.length)
      expect(dirname(tmp)).to.equal(dir)
      expect(renamed).to.equal(`rename ${tmp} ${path}`)
      expect(syncDir).to.equal(`fsync ${dir}`)
    })

    it('a write that fails removes its temp file and keeps the old checkpoint', async () => {
      const path = join(dir, '.checkpoint')
      await new OffsetCheckpoint(path).write([{ topic: 't', partition: 0, offset: 1 }])
      fsPromises.rename = (async () => {
        throw Object.assign(new Error('no space left'), { code: 'ENOSPC' })
      }) as typeof fsPromises.rename
      syncBuiltinESMExports()
      let err: any
      try {
        await new OffsetCheckpoint(path).write([{ topic: 't', partition: 0, offset: 2 }])
      } catch (e) {
        err = e
      }
      expect(err).to.have.property('code', 'ENOSPC')
      expect(await readdir(dir)).to.deep.equal(['.checkpoint'])
      expect([...(await new OffsetCheckpoint(path).read()).values()]).to.deep.equal([{ topic: 't', partition: 0, offset: 1 }])
    })
  })

  it("removeTemporaryFiles deletes the temp files of its writes (ours and Java's), and nothing else", async () => {
    const cp = new OffsetCheckpoint(join(dir, '.checkpoint'))
    await cp.write([{ topic: 't', partition: 0, offset: 1 }])
    await mkdir(join(dir, 'rocksdb'))
    for (const name of ['.checkpoint.4242.0.tmp', '.checkpoint.1.17.tmp', '.checkpoint.tmp', 'store.tmp', '.checkpointx']) {
      await writeFile(join(dir, name), 'left behind')
    }
    expect((await cp.removeTemporaryFiles()).sort()).to.deep.equal(['.checkpoint.1.17.tmp', '.checkpoint.4242.0.tmp', '.checkpoint.tmp'])
    expect((await readdir(dir)).sort()).to.deep.equal(['.checkpoint', '.checkpointx', 'rocksdb', 'store.tmp'])
    expect(await new OffsetCheckpoint(join(dir, 'missing', '.checkpoint')).removeTemporaryFiles()).to.deep.equal([])
  })
})
