// docker-compose.yml describes the production shape. Where the docker client has its compose plugin,
// the file must pass `docker compose config` (no Docker engine needed); the structure below is
// checked everywhere, from the YAML itself, so a machine without the plugin still holds it.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

interface ComposeConfig {
  services: Record<string, { environment?: Record<string, string>; command?: string[]; depends_on?: unknown; restart?: string }>
}

// `docker compose` is a plugin of the client: `docker --version` can answer without it.
const hasCompose = spawnSync('docker', ['compose', 'version']).status === 0

function expectProductionShape(config: ComposeConfig) {
  expect(Object.keys(config.services).sort()).toEqual(['api', 'postgres', 'temporal', 'temporal-ui', 'worker'])
  expect(config.services.api!.environment!.TEMPORAL_ADDRESS).toBe('temporal:7233')
  expect(config.services.worker!.command).toEqual(['npx', 'tsx', 'src/main-worker.ts'])
  // The service's own processes come back if they exit.
  expect([config.services.api!.restart, config.services.worker!.restart]).toEqual(['unless-stopped', 'unless-stopped'])
}

describe('docker-compose.yml', () => {
  it.skipIf(!hasCompose)('passes docker compose config and has the production services', () => {
    const out = execFileSync('docker', ['compose', 'config', '--format', 'json'], { encoding: 'utf8' })
    expectProductionShape(JSON.parse(out) as ComposeConfig)
  })

  it('is YAML with the production services, and every depends_on names one of them', () => {
    const config = parse(readFileSync('docker-compose.yml', 'utf8')) as ComposeConfig
    expectProductionShape(config)
    for (const [name, service] of Object.entries(config.services)) {
      const needs = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {})
      for (const needed of needs) expect(Object.keys(config.services), `${name} depends on ${needed}`).toContain(needed)
    }
  })
})
