// What follows a catalogue change (core/next-steps.ts): an active service is quoted by its id.
import { formatDollars } from '../../core/money.js'
import type { NextStep } from '../../core/next-steps.js'

const PER: Record<string, string> = { each: 'each', hour: 'per hour', metre: 'per metre', square_metre: 'per square metre', fixed: 'fixed price' }

interface ServiceView { id: string; name: string; unit: string; price: number; active: boolean }

export function afterServiceChange(output: { service: ServiceView }): NextStep[] {
  const s = output.service
  // An inactive service is refused on new quotes, so nothing follows until it is active again.
  if (!s.active) return []
  return [{
    tool: 'quotes.create',
    why: `Use it on a lead's quote: a line item with service_id ${s.id} takes its name and ${formatDollars(s.price)} ex GST ${PER[s.unit] ?? `per ${s.unit}`}.`,
  }]
}
