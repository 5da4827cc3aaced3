/** Temporary state directories for the RocksDB tests, removed by cleanup(). */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export class TempDirs {
  readonly #dirs: string[] = []

  async make(prefix = 'kstreams-rocksdb-'): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix))
    this.#dirs.push(dir)
    return dir
  }

  async cleanup(): Promise<void> {
    // Retried: a RocksDB instance still closing may add or drop a file while the tree is removed.
    for (const dir of this.#dirs.splice(0)) await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })
  }
}
