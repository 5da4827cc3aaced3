/**
 * Forwards an interactive query to the instance that hosts the key, once, and reads its answer
 * within limits: the whole exchange within `timeoutMs` (not only between two chunks), at most
 * `maxBytes` of body, and only a JSON answer is relayed. The owner comes from the group's
 * assignment metadata, so any member can name any address: whatever it answers beyond that is
 * OWNER_ANSWER_INVALID (502), never relayed as it is. @internal
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest, type RequestOptions } from 'node:https'
import type { HostInfo } from './streams-metadata-state.js'

/** What the instance asked says, or why there is nothing to relay. */
export type ForwardResult =
  | { readonly kind: 'answer'; readonly status: number; readonly body: string; readonly retryAfter: boolean }
  | { readonly kind: 'unreachable' | 'invalid'; readonly reason: string }

export interface ForwardOptions {
  readonly protocol: 'http' | 'https'
  /** Extra request options: TLS (ca, cert, key), an agent, headers (a service credential). */
  readonly requestOptions: Omit<RequestOptions, 'host' | 'hostname' | 'port' | 'path' | 'method' | 'timeout' | 'signal'>
  readonly timeoutMs: number
  readonly maxBytes: number
  /** Marks the request as forwarded (the owner does not forward it again). */
  readonly forwardedHeader: string
}

export async function forwardQuery(owner: HostInfo, path: string, o: ForwardOptions): Promise<ForwardResult> {
  const send = o.protocol === 'https' ? httpsRequest : httpRequest
  return await new Promise<ForwardResult>(resolve => {
    let settled = false
    const finish = (result: ForwardResult): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.destroy()
      resolve(result)
    }
    const timer = setTimeout(() => finish({ kind: 'unreachable', reason: `no complete answer within ${o.timeoutMs} ms` }), o.timeoutMs)
    const req = send(
      {
        ...o.requestOptions,
        host: owner.host,
        port: owner.port,
        path,
        method: 'GET',
        headers: { ...o.requestOptions.headers, [o.forwardedHeader]: '1' }
      },
      (res: IncomingMessage) => {
        const type = res.headers['content-type'] ?? ''
        if (!/^application\/json\b/i.test(type)) {
          finish({ kind: 'invalid', reason: `answered ${res.statusCode ?? '?'} with content-type "${type}"` })
          return
        }
        const declared = Number(res.headers['content-length'] ?? 0)
        if (declared > o.maxBytes) {
          finish({ kind: 'invalid', reason: `announced ${declared} bytes (limit ${o.maxBytes})` })
          return
        }
        const chunks: Buffer[] = []
        let bytes = 0
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length
          if (bytes > o.maxBytes) finish({ kind: 'invalid', reason: `answered more than ${o.maxBytes} bytes` })
          else chunks.push(chunk)
        })
        res.on('end', () =>
          finish({
            kind: 'answer',
            status: res.statusCode ?? 502,
            body: Buffer.concat(chunks).toString('utf8'),
            retryAfter: res.headers['retry-after'] !== undefined
          })
        )
        res.on('error', err => finish({ kind: 'unreachable', reason: err.message }))
      }
    )
    req.on('error', err => finish({ kind: 'unreachable', reason: err.message }))
    req.end()
  })
}
