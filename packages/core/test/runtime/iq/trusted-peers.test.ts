import { expect } from 'chai'
import { ConfigError } from '../../../src/errors.js'
import { trustedPeerCheck } from '../../../src/runtime/iq/trusted-peers.js'

describe('trustedPeerCheck', () => {
  it('trusts no instance without the option', () => {
    expect(trustedPeerCheck(undefined, 'trustedPeers')({ host: '127.0.0.1', port: 7070 })).to.equal(false)
  })

  it('trusts the host:port entries, as instances advertise them (names in any case, IPv6 in brackets)', () => {
    const trusted = trustedPeerCheck(['app-1.internal:7070', ' 10.0.0.2:7070 ', '[::1]:7070'], 'trustedPeers')
    expect(trusted({ host: 'APP-1.internal', port: 7070 })).to.equal(true)
    expect(trusted({ host: '10.0.0.2', port: 7070 })).to.equal(true)
    expect(trusted({ host: '::1', port: 7070 })).to.equal(true)
    expect(trusted({ host: 'app-1.internal', port: 7071 })).to.equal(false)
    expect(trusted({ host: '10.0.0.20', port: 7070 })).to.equal(false)
    expect(trusted({ host: 'app-1.internal.evil.example', port: 7070 })).to.equal(false)
  })

  it('asks a predicate, trusting only what it answers true for', () => {
    const trusted = trustedPeerCheck(host => (host.port === 7070 ? true : ('yes' as unknown as boolean)), 'trustedPeers')
    expect(trusted({ host: 'a', port: 7070 })).to.equal(true)
    expect(trusted({ host: 'a', port: 7071 })).to.equal(false)
  })

  it('refuses an entry that is not host:port with a ConfigError naming the option', () => {
    for (const entry of ['app-1', 'http://app-1:7070', 'app-1:7070/x', '::1:7070', 'app-1:65536', 'app-1:0', 7070 as unknown as string])
      expect(() => trustedPeerCheck([entry], 'peers'), String(entry))
        .to.throw(ConfigError, /is not a "host:port" entry/)
        .with.property('key', 'peers')
  })
})
