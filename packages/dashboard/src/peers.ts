/**
 * Asks another instance's dashboard for its own view (`<base>/api/local`), within a time limit
 * and a size limit: the body is read as it arrives and the request aborted at the limit (or at
 * once when its Content-Length is over it), so a peer cannot make this process hold more than
 * that. Whatever else it answers is an error naming the peer and what came back, never a view.
 */
import type { InstanceView } from './instance-view.js'

/** The other instance's view, or why there is none. */
export type PeerAnswer = { readonly ok: true; readonly view: InstanceView } | { readonly ok: false; readonly error: string }

/** The largest view read from a peer, in bytes. */
export const MAX_PEER_BYTES = 4 * 1024 * 1024

export async function fetchPeer(baseUrl: string, headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<PeerAnswer> {
  const url = `${baseUrl}/api/local`
  const abort = new AbortController()
  const failed = (error: string): PeerAnswer => {
    abort.abort()
    return { ok: false, error: `${url} ${error}` }
  }
  try {
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(timeoutMs)])
    const res = await fetch(url, { headers: { ...headers }, signal, redirect: 'error' })
    const type = res.headers.get('content-type') ?? ''
    if (res.status !== 200 || !type.startsWith('application/json')) return failed(`answered ${res.status} (${type || 'no content-type'})`)
    const declared = Number(res.headers.get('content-length') ?? 0)
    if (declared > MAX_PEER_BYTES) return failed(`announced ${declared} bytes (limit ${MAX_PEER_BYTES})`)
    const chunks: Uint8Array[] = []
    let bytes = 0
    const reader = res.body?.getReader()
    while (reader !== undefined) {
      const { done, value } = await reader.read()
      if (done) break
      bytes += value.byteLength
      if (bytes > MAX_PEER_BYTES) return failed(`answered more than ${MAX_PEER_BYTES} bytes`)
      chunks.push(value)
    }
    const view = JSON.parse(Buffer.concat(chunks).toString('utf8')) as InstanceView
    if (typeof view !== 'object' || view === null || !Array.isArray(view.threads))
      return failed('answered something else than an instance view')
    return { ok: true, view }
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code
    return failed(`could not be read: ${err instanceof Error ? `${err.message}${cause === undefined ? '' : ` (${cause})`}` : String(err)}`)
  }
}
