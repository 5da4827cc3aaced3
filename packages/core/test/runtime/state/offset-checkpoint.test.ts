import { expect } from 'chai'
import { mkdtemp, readdir, readFile, rm, writeFile, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

  for (const [name, content] of [
    ['wrong version', '1\n1\nt 0 5\n'],
    ['bad count', '0\nx\n'],
    ['count mismatch', '0\n2\nt 0 5\n'],
    ['malformed line', '0\n1\nt zero 5\n'],
    ['garbage', '\u0000\u0001binary']
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
})
