/**
 * `host:port` endpoints (`applicationServer`, the hosts of the assignment's host maps), as Kafka
 * reads them (Utils.getHost/getPort): an IPv6 host either in brackets (`[::1]:8080`) or bare
 * (`::1:8080`, the port after the last colon); host characters `[0-9a-zA-Z-%._:]`. The port must
 * be 1 to 65535. The canonical form puts an IPv6 host in brackets (Kafka's Utils.formatAddress),
 * as a URL needs it. @internal
 */

const BRACKETED = /^\[([0-9a-zA-Z\-%._:]+)\]:(\d{1,5})$/
const PLAIN = /^([0-9a-zA-Z\-%._:]+):(\d{1,5})$/

/** The host (IPv6 without brackets) and port of `host:port`; undefined when it is not one. */
export function parseEndpoint(endpoint: string): { host: string; port: number } | undefined {
  const match = BRACKETED.exec(endpoint) ?? PLAIN.exec(endpoint)
  if (match === null) return undefined
  const port = Number(match[2])
  return port >= 1 && port <= 65535 ? { host: match[1]!, port } : undefined
}

/** `host:port`, an IPv6 host (one with a colon) in brackets. */
export function formatEndpoint(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}
