// The advisory tools' facts folder (src/facts/data/): every fact has a source, an as-of date and a
// well-formed period; ids are unique; and the figures the issue names are as the reference sheet
// gives them (written from the facts, not from the code that uses them). Each tool's own test
// checks that its result cites only facts that exist here (cite() throws on an unknown id).
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { allFacts, cite, FACT_CONFIDENCE, factById, standingOn } from '../src/facts/facts.js'

const DATE = /^\d{4}-\d{2}-\d{2}$/

describe('facts folder', () => {
  it('every fact has an id, a statement, a source, an as-of date, a known confidence and a well-formed period', () => {
    const facts = [...allFacts().values()]
    expect(facts.length).toBeGreaterThan(0)
    for (const f of facts) {
      expect(f.id, JSON.stringify(f)).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/)
      expect(f.statement.length, f.id).toBeGreaterThan(10)
      expect(f.source.trim().length, f.id).toBeGreaterThan(3)
      expect(f.as_of, f.id).toMatch(/^\d{4}-\d{2}(-\d{2})?$/)
      expect(FACT_CONFIDENCE, f.id).toContain(f.confidence)
      if (f.applies_from !== null) expect(f.applies_from, f.id).toMatch(DATE)
      if (f.applies_to !== null) expect(f.applies_to, f.id).toMatch(DATE)
      if (f.value !== null) expect(f.unit, `${f.id} has a value without a unit`).not.toBeNull()
    }
  })

  it('ids are unique across the files', () => {
    const ids = readdirSync('src/facts/data').filter((f) => f.endsWith('.json'))
      .flatMap((file) => (JSON.parse(readFileSync(`src/facts/data/${file}`, 'utf8')) as { facts: { id: string }[] }).facts.map((f) => f.id))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('the figures the issue names: super 12% from 1 July 2025, GST at $75,000, a NSW contractor licence over $5,000', () => {
    expect(factById('super.guarantee_rate')).toMatchObject({ value: 0.12, applies_from: '2025-07-01' })
    expect(factById('gst.registration_threshold')).toMatchObject({ value: 75_000_00, unit: 'cents' })
    expect(factById('licence.nsw.contractor_threshold')).toMatchObject({ value: 5_000_00, unit: 'cents', jurisdiction: 'NSW' })
  })

  it('a citation says when a fact is past its date or applies from a future date, on the given day', () => {
    expect(standingOn({ applies_from: '2026-07-01', applies_to: null }, '2026-06-30')).toBe('from_a_future_date')
    expect(standingOn({ applies_from: '2026-07-01', applies_to: null }, '2026-07-01')).toBe('current')
    expect(standingOn({ applies_from: null, applies_to: '2025-06-30' }, '2025-07-01')).toBe('past_its_date')
    const [payday] = cite(['super.payday_super'], '2026-05-01')
    expect(payday).toMatchObject({ standing: 'from_a_future_date' })
    expect(payday!.caution).toMatch(/from 2026-07-01/)
    expect(() => cite(['no.such_fact'], '2026-05-01')).toThrow(/No fact no.such_fact/)
  })
})
