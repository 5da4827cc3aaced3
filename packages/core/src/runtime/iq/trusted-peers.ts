/**
 * Which other instances of an application may be sent a service credential. Any member of the
 * group can advertise any address as its `applicationServer`, so the credential headers of
 * requests to other instances (the InteractiveQueryServer's forwarded queries, the dashboard's
 * peer requests) go only to the instances the user lists; by default to none.
 */
import { ConfigError } from '../../errors.js'
import type { HostInfo } from './streams-metadata-state.js'

/**
 * The instances trusted with a service credential: `host:port` entries as the instances advertise
 * them in `applicationServer` (`'10.0.0.7:7070'`, `'[::1]:7070'`), or a predicate over their host info.
 */
export type TrustedPeers = readonly string[] | ((host: HostInfo) => boolean)

const ENTRY = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/

/**
 * The check of `trustedPeers` (the option named `key`, for its ConfigError): whether an instance
 * may be sent the credential. Without the option, no instance may.
 */
export function trustedPeerCheck(trustedPeers: TrustedPeers | undefined, key: string): (host: HostInfo) => boolean {
  if (trustedPeers === undefined) return () => false
  if (typeof trustedPeers === 'function') return host => trustedPeers(host) === true
  const trusted = new Set<string>()
  for (const entry of trustedPeers) {
    const match = typeof entry === 'string' ? ENTRY.exec(entry.trim()) : null
    const port = Number(match?.[3])
    if (match === null || port < 1 || port > 65535)
      throw new ConfigError(key, `${key}: ${JSON.stringify(entry)} is not a "host:port" entry (an instance's applicationServer)`)
    trusted.add(`${(match[1] ?? match[2]!).toLowerCase()}:${port}`)
  }
  return host => trusted.has(`${host.host.toLowerCase()}:${host.port}`)
}
