// "did you mean ...?" for an unknown field: an agent guessing `price` for `unitPrice` or `jobID` for
// `job_id` is told the name to use instead of only that its guess is wrong.
import type { TSchema } from 'typebox'

type Node = { type?: unknown; properties?: Record<string, Node>; items?: Node; anyOf?: Node[] }

/** The property names the schema allows at an instance path such as "line_items/0". */
export function knownFieldsAt(schema: TSchema, path: string): string[] {
  let node: Node | undefined = schema as Node
  for (const segment of path.split('/').filter(Boolean)) {
    if (!node) return []
    if (/^\d+$/.test(segment) && node.items) node = node.items
    else node = node.properties?.[segment] ?? node.anyOf?.find((branch) => branch.properties?.[segment])?.properties?.[segment]
    while (node?.anyOf && !node.properties) node = node.anyOf.find((branch) => branch.properties || branch.items)
  }
  return Object.keys(node?.properties ?? {})
}

const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]!
}

/**
 * The known fields an unknown name most likely meant: the same letters in another spelling
 * (jobID, job-id), names containing it or contained in it (price in unitPrice; deposit in
 * deposit_amount and deposit_percent, both offered), or a near miss (adress). Empty when nothing is
 * close enough to be a fair guess.
 */
export function closestFields(unknown: string, known: string[]): string[] {
  const given = plain(unknown)
  if (!given) return []
  const scored: { name: string; kind: number; by: number }[] = []
  for (const name of known) {
    const candidate = plain(name)
    if (candidate === given) scored.push({ name, kind: 0, by: 0 })
    else if (given.length >= 4 && (candidate.includes(given) || given.includes(candidate))) scored.push({ name, kind: 1, by: Math.abs(candidate.length - given.length) })
    else {
      const d = distance(given, candidate)
      if (d <= Math.floor(given.length / 4)) scored.push({ name, kind: 2, by: d })
    }
  }
  const kind = Math.min(...scored.map((x) => x.kind))
  return scored.filter((x) => x.kind === kind).sort((a, b) => a.by - b.by).slice(0, 3).map((x) => x.name)
}

/** "; did you mean a or b?" for an error message, or nothing. */
export function didYouMean(unknown: string, known: string[]): string {
  const meant = closestFields(unknown, known)
  return meant.length ? `; did you mean ${meant.length > 1 ? `${meant.slice(0, -1).join(', ')} or ${meant.at(-1)}` : meant[0]}?` : ''
}
