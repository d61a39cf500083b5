// The TLS and API-key settings for a secured Temporal cluster (Temporal Cloud), read as Temporal's own
// environment configuration reads them. No server: what the connections would be given.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { temporalSecurity } from '../src/temporal/connection.js'

const security = (env: Record<string, string>) => temporalSecurity(loadConfig(env))

describe('Temporal connection security from the settings', () => {
  it('plain by default; an API key turns TLS on; TEMPORAL_TLS decides when set', () => {
    expect(security({})).toEqual({})
    expect(security({ TEMPORAL_API_KEY: 'k' })).toEqual({ tls: {}, apiKey: 'k' })
    expect(security({ TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' })).toEqual({ apiKey: 'k' })
    expect(security({ TEMPORAL_TLS: 'true' })).toEqual({ tls: {} })
    expect(security({ TEMPORAL_TLS_SERVER_NAME: 'temporal.internal' })).toEqual({ tls: { serverNameOverride: 'temporal.internal' } })
  })

  it('mTLS reads the certificate pair and a private CA from their files, and wants both halves of the pair', () => {
    const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'))
    const file = (name: string, text: string) => (writeFileSync(join(dir, name), text), join(dir, name))
    const crt = file('client.pem', 'CERT'), key = file('client.key', 'KEY'), ca = file('ca.pem', 'CA')
    const tls = security({ TEMPORAL_TLS_CLIENT_CERT_PATH: crt, TEMPORAL_TLS_CLIENT_KEY_PATH: key, TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca }).tls!
    expect(String(tls.clientCertPair!.crt)).toBe('CERT')
    expect(String(tls.clientCertPair!.key)).toBe('KEY')
    expect(String(tls.serverRootCACertificate)).toBe('CA')
    expect(() => security({ TEMPORAL_TLS_CLIENT_CERT_PATH: crt })).toThrow(/go together/)
    expect(() => security({ TEMPORAL_TLS_CLIENT_CERT_PATH: join(dir, 'missing.pem'), TEMPORAL_TLS_CLIENT_KEY_PATH: key })).toThrow(/ENOENT/)
  })
})
