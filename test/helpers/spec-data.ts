// The spec's data as the tests use it: copied from SPEC.md into test/fixtures/spec/ (see the README
// there for the sections and the date), so nothing here reads outside the repository.
import { readFileSync } from 'node:fs'

const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(`../fixtures/spec/${file}`, import.meta.url), 'utf8')) as T

/** Section 4, "Tools, by domain": the set tools/list must equal. */
export const SPEC_TOOL_NAMES: readonly string[] = read<{ tools: string[] }>('tool-names.json').tools

/** camelCase identifiers the spec itself writes (serviceType, jobId, unitPrice, ...). */
export const SPEC_CAMEL_CASE: ReadonlySet<string> = new Set(read<{ spellings: string[] }>('camel-case-spellings.json').spellings)

/** Section 2: the field names of the Lead, Quote, Job and Client tables. */
export const SPEC_RESOURCE_FIELDS: Readonly<Record<'Lead' | 'Quote' | 'Job' | 'Client', string[]>> =
  read<{ resources: Record<'Lead' | 'Quote' | 'Job' | 'Client', string[]> }>('resource-fields.json').resources

/** Section 6: the event names the REST endpoint and the MCP tool accept. */
export const SPEC_EVENT_NAMES: { rest: string[]; mcp: string[] } = read('event-names.json')
