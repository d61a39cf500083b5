// docker-compose.yml describes the production shape. Where the docker client has its compose plugin,
// the file must pass `docker compose config` (no Docker engine needed); the structure below is
// checked everywhere, from the YAML itself, so a machine without the plugin still holds it.
// The Dockerfile is read as text: no engine here builds it.
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'

interface ComposeService {
  image?: string
  build?: unknown
  environment?: Record<string, string>
  command?: string[]
  depends_on?: unknown
  restart?: string
  healthcheck?: { test?: string[]; disable?: boolean }
}
interface ComposeConfig {
  services: Record<string, ComposeService>
}

// `docker compose` is a plugin of the client: `docker --version` can answer without it.
const hasCompose = spawnSync('docker', ['compose', 'version']).status === 0

function dependsOn(service: ComposeService): Record<string, { condition?: string }> {
  if (Array.isArray(service.depends_on)) return Object.fromEntries((service.depends_on as string[]).map((name) => [name, {}]))
  return (service.depends_on ?? {}) as Record<string, { condition?: string }>
}

function expectProductionShape(config: ComposeConfig) {
  const { services } = config
  expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui', 'worker'])
  // Temporal's reference shape: the server image, schema and namespace by admin-tools, never auto-setup.
  for (const service of Object.values(services)) expect(service.image ?? '').not.toMatch(/temporalio\/auto-setup/)
  expect(services.temporal!.image).toMatch(/^temporalio\/server:/)
  expect(services['temporal-schema']!.image).toMatch(/^temporalio\/admin-tools:/)
  expect(services['temporal-namespace']!.image).toMatch(/^temporalio\/admin-tools:/)
  expect(services['temporal-ui']!.image).toMatch(/^temporalio\/ui:/)
  expect(services.postgres!.image).toMatch(/^postgres:/)
  // Each step starts when the one before it has finished: schema, server, namespace, then the service.
  expect(dependsOn(services['temporal-schema']!).postgres!.condition).toBe('service_healthy')
  expect(dependsOn(services.temporal!)['temporal-schema']!.condition).toBe('service_completed_successfully')
  expect(dependsOn(services['temporal-namespace']!).temporal!.condition).toBe('service_healthy')
  expect(dependsOn(services.api!)['temporal-namespace']!.condition).toBe('service_completed_successfully')
  // Our two processes: built from the Dockerfile, pointed at the compose Temporal and Postgres, checked for health.
  for (const name of ['api', 'worker']) {
    const service = services[name]!
    expect(service.build, name).toBeDefined()
    expect(service.environment!.TEMPORAL_ADDRESS, name).toBe('temporal:7233')
    expect(service.environment!.DATABASE_URL, name).toMatch(/@postgres:5432\//)
    expect(service.healthcheck?.test?.length, name).toBeGreaterThan(0)
    expect(service.healthcheck?.disable, name).not.toBe(true)
    // The service's own processes come back if they exit.
    expect(service.restart, name).toBe('unless-stopped')
  }
  // Compiled code run by node: no tsx in production (the image has no dev dependencies).
  expect(services.api!.command).toEqual(['node', 'dist/src/main-api.js'])
  expect(services.worker!.command).toEqual(['node', 'dist/src/main-worker.js'])
  expect(services.worker!.healthcheck!.test).toEqual(['CMD', 'node', 'scripts/worker-health.mjs'])
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
      for (const needed of Object.keys(dependsOn(service))) expect(Object.keys(config.services), `${name} depends on ${needed}`).toContain(needed)
    }
  })
})

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8')
  // Instructions only: comments and continuation lines joined.
  const instructions = dockerfile.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
  const named = (keyword: string) => instructions.filter((line) => line.toUpperCase().startsWith(`${keyword} `))

  it('builds from an official Node 24 image', () => {
    const from = named('FROM')
    expect(from.length).toBeGreaterThan(0)
    // Official images live in Docker Hub's library namespace: `node:<tag>` or `library/node:<tag>`.
    for (const line of from) expect(line).toMatch(/^FROM\s+(docker\.io\/)?(library\/)?node:24(-[a-z0-9.-]+)?(\s+AS\s+\S+)?$/i)
  })

  it('builds in a build stage and runs the compiled service with node, production dependencies only', () => {
    const from = named('FROM')
    expect(from.length).toBe(2)
    expect(from[0]).toMatch(/\sAS\s+build$/i)
    expect(instructions).toContain('RUN npm run build')
    const run = instructions.slice(instructions.indexOf(from[1]!))
    expect(run).toContain('RUN npm ci --omit=dev --no-audit --no-fund')
    expect(run.some((line) => /^COPY --from=build \/app\/dist /.test(line))).toBe(true)
    expect(named('CMD').at(-1)).toBe('CMD ["node", "dist/src/main-api.js"]')
    expect(instructions.join('\n')).not.toMatch(/tsx/)
  })

  it('runs as a user that is not root', () => {
    const users = named('USER').map((line) => line.split(/\s+/)[1]!)
    expect(users.length).toBeGreaterThan(0)
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/)
  })

  it('has a health check on the readiness endpoint and ships the worker health script', () => {
    const healthchecks = named('HEALTHCHECK')
    expect(healthchecks).toHaveLength(1)
    expect(healthchecks[0]).toMatch(/\/readyz/)
    expect(named('COPY').some((line) => line.includes('scripts/worker-health.mjs'))).toBe(true)
  })
})
