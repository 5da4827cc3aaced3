/**
 * Asks another instance's dashboard for its own view (`<base>/api/local`), within a time limit
 * and a size limit; whatever else it answers is an error naming what came back, never a view.
 */
import type { InstanceView } from './instance-view.js'

/** The other instance's view, or why there is none. */
export type PeerAnswer = { readonly ok: true; readonly view: InstanceView } | { readonly ok: false; readonly error: string }

const MAX_BYTES = 4 * 1024 * 1024

export async function fetchPeer(baseUrl: string, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<PeerAnswer> {
  try {
    const res = await fetch(`${baseUrl}/api/local`, { headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' })
    const type = res.headers.get('content-type') ?? ''
    if (res.status !== 200 || !type.startsWith('application/json')) {
      await res.body?.cancel()
      return { ok: false, error: `answered ${res.status} (${type || 'no content-type'})` }
    }
    const text = await res.text()
    if (text.length > MAX_BYTES) return { ok: false, error: `answered more than ${MAX_BYTES} bytes` }
    const view = JSON.parse(text) as InstanceView
    if (typeof view !== 'object' || view === null || !Array.isArray(view.threads))
      return { ok: false, error: 'answered something else than an instance view' }
    return { ok: true, view }
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code
    return { ok: false, error: err instanceof Error ? `${err.message}${cause === undefined ? '' : ` (${cause})`}` : String(err) }
  }
}
