/**
 * Bounds a best-effort lookup made inside a rebalance hook: the hook must not outlast the
 * rebalance timeout, so a lookup that takes longer than `ms` yields `fallback` (logged). @internal
 */
import type { Logger } from '../logger.js'

export async function within<T>(what: string, ms: number, logger: Logger, work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<T>(resolve => {
    timer = setTimeout(() => {
      logger.warn(`${what} took longer than ${ms} ms; going on without it`)
      resolve(fallback)
    }, ms)
  })
  work.catch(() => {})
  try {
    return await Promise.race([work, timeout])
  } catch (err) {
    logger.warn(`${what} failed (${err instanceof Error ? err.message : String(err)}); going on without it`)
    return fallback
  } finally {
    clearTimeout(timer)
  }
}
