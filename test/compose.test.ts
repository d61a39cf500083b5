// docker-compose.yml describes the production shape and must pass `docker compose config`
// (no Docker engine needed). Skipped only where there is no docker client at all.
import { execFileSync, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

const hasDocker = spawnSync('docker', ['--version']).status === 0

describe.skipIf(!hasDocker)('docker-compose.yml', () => {
  it('passes docker compose config and has the production services', () => {
    const out = execFileSync('docker', ['compose', 'config', '--format', 'json'], { encoding: 'utf8' })
    const config = JSON.parse(out) as { services: Record<string, { environment?: Record<string, string>; command?: string[] }> }
    expect(Object.keys(config.services).sort()).toEqual(['api', 'postgres', 'temporal', 'temporal-ui', 'worker'])
    expect(config.services.api!.environment!.TEMPORAL_ADDRESS).toBe('temporal:7233')
    expect(config.services.worker!.command).toEqual(['npx', 'tsx', 'src/main-worker.ts'])
  })
})
