// What follows an import (core/next-steps.ts): fix and resend refused rows; then use the items.
import { steps, type NextStep } from '../../core/next-steps.js'

interface ImportResult { supplier: string; created: number; updated: number; rejected: { line: number | null }[]; markup_percent: number | null; source: string }

export function afterPricebookImport(output: ImportResult): NextStep[] {
  const refused = output.rejected.length
  return steps(
    refused > 0 && {
      tool: 'pricebook.import',
      why: `${refused} row${refused === 1 ? ' was' : 's were'} not imported (see rejected, by line): fix them and import again; rows already imported are updated, never duplicated.`,
    },
    output.created + output.updated > 0 && {
      tool: 'pricebook.search',
      why: `Find the ${output.source === 'catalogue' ? 'copied catalogue items' : `${output.supplier} items`}: the company's own items are listed first.`,
    },
    output.source === 'supplier_csv' && output.markup_percent === null && {
      tool: 'pricebook.import',
      why: 'Items new to the price book have no sell price without a markup: import again with default_markup_percent to set one.',
    },
  )
}
