import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { connect, createServer, type ConnectionOptions, type TlsOptions } from 'node:tls'

/** Connects to a TLS server made with `server` using `client`; resolves with the error, or undefined after a good handshake. */
export async function handshake(server: TlsOptions, client: ConnectionOptions): Promise<Error | undefined> {
  const tls = createServer(server, socket => {
    socket.end('hello')
  })
  tls.on('tlsClientError', () => {})
  tls.listen(0, '127.0.0.1')
  await once(tls, 'listening')
  try {
    const { port } = tls.address() as AddressInfo
    return await new Promise<Error | undefined>(resolve => {
      const socket = connect({ host: '127.0.0.1', port, ...client }, () => {
        socket.once('data', () => {
          socket.destroy()
          resolve(undefined)
        })
      })
      socket.once('error', resolve)
      // Under TLS 1.3 a client certificate is refused after the client's handshake is done: the server just closes.
      socket.once('close', () => {
        resolve(new Error('closed by the server before it sent anything'))
      })
    })
  } finally {
    tls.close()
  }
}
