/**
 * Where a RocksDB store keeps its files: `<taskDir>/rocksdb/<storeName>`, created with mode 0700
 * (owner only). A name that could leave that directory is rejected with ILLEGAL_ARGUMENT.
 * @internal
 */
import { IllegalStateError, StreamsError } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import { chmod, mkdir } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'

export const ROCKSDB_DIR = 'rocksdb'
const OWNER_ONLY = 0o700

/** The store directory below `taskDir`, without touching the file system. */
export function storeDirectory(taskDir: string | undefined, storeName: string): string {
  if (taskDir === undefined) {
    throw new IllegalStateError(`Store "${storeName}" is persistent and needs a state directory, but its task has none`)
  }
  return childDirectory(resolve(taskDir, ROCKSDB_DIR), storeName)
}

/** `parent/name`, checking that `name` is a legal store name that stays inside `parent`. */
export function childDirectory(parent: string, name: string): string {
  validateStoreName(name)
  const dir = join(parent, name)
  const rel = relative(parent, dir)
  if (rel !== name || rel.includes(sep) || rel.startsWith('..')) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `Store name "${name}" would leave the state directory ${parent}`)
  }
  return dir
}

/** Creates `dir` (and missing parents) and makes it owner-only. */
export async function createOwnerOnlyDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: OWNER_ONLY })
  await chmod(dir, OWNER_ONLY)
}

/** Creates the store directory and the `rocksdb` directory above it, both owner-only. */
export async function prepareStoreDirectory(dir: string): Promise<void> {
  await createOwnerOnlyDirectory(dir)
  await chmod(resolve(dir, '..'), OWNER_ONLY)
}
