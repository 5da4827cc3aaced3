/**
 * The error a RocksDB store throws when its files cannot be used: corrupt (STORE_CORRUPTED; the
 * runtime wipes the store and restores it from the changelog), locked by another process or store
 * (STATE_DIR_LOCKED, retriable), or failing I/O (STORE_IO_ERROR). It names the store and the
 * directory; the binding's error is the `cause`.
 */
import { StreamsError } from '@kstreams/core'
import type { StreamsErrorOptions } from '@kstreams/core'

/** Why a RocksDB store's files cannot be used: corrupt, locked, or failing I/O. */
export type RocksDBStoreErrorCode = 'STORE_CORRUPTED' | 'STATE_DIR_LOCKED' | 'STORE_IO_ERROR'

/**
 * The error a RocksDB store throws when its files cannot be used: corrupt (STORE_CORRUPTED; the
 * runtime wipes the store and restores it from the changelog), locked (STATE_DIR_LOCKED,
 * retriable), or failing I/O (STORE_IO_ERROR). The binding's error is the `cause`.
 */
export class RocksDBStoreError extends StreamsError {
  /** The store. */
  readonly storeName: string
  /** The directory of its DB. */
  readonly path: string

  constructor(code: RocksDBStoreErrorCode, storeName: string, path: string, message: string, options: StreamsErrorOptions = {}) {
    super(code, `Store "${storeName}" at ${path}: ${message}`, options)
    this.storeName = storeName
    this.path = path
  }
}

/** The binding's error code (`LEVEL_*`), looking through abstract-level's wrapper. */
function nativeCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code !== 'LEVEL_DATABASE_NOT_OPEN') return code
  }
  return undefined
}

/** Whether the binding reported that another handle holds the DB's LOCK file. */
export function isLockError(err: unknown): boolean {
  return nativeCode(err) === 'LEVEL_LOCKED'
}

/** Wraps what the binding threw for store `storeName` at `path`, keeping it as `cause`. */
export function toStoreError(err: unknown, storeName: string, path: string, operation: string, taskId?: string): RocksDBStoreError {
  if (err instanceof RocksDBStoreError) return err
  const code = nativeCode(err)
  const detail = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err)
  if (code === 'LEVEL_CORRUPTION') {
    return new RocksDBStoreError('STORE_CORRUPTED', storeName, path, `${operation} failed, the store's files are corrupt: ${detail}`, {
      cause: err,
      taskId
    })
  }
  if (code === 'LEVEL_LOCKED') {
    return new RocksDBStoreError(
      'STATE_DIR_LOCKED',
      storeName,
      path,
      `${operation} failed, the store is locked by another process or store instance: ${detail}`,
      { cause: err, taskId, retriable: true }
    )
  }
  return new RocksDBStoreError('STORE_IO_ERROR', storeName, path, `${operation} failed: ${detail}`, { cause: err, taskId })
}
