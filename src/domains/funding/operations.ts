import type { AnyOperation } from '../../core/operation.js'
import { defineOperation } from '../../core/operation.js'
import { READ } from '../../core/annotations.js'
import { afterDetails, afterScan } from './next-steps.js'
import { eligibilityScan, programDetails } from './scan.js'
import { DetailsInput, DetailsResponse, ScanInput, ScanResponse } from './schema.js'

const SOURCES = 'Each program comes from the project\'s facts folder with its source and as-of date, and is open or closed on your own date.'

export const fundingOperations: AnyOperation[] = [
  defineOperation({
    name: 'funding.eligibility_scan',
    domain: 'funding',
    title: 'Funding eligibility scan',
    description:
      'Scan government grants, incentives and loans the business may be eligible for, from the answers given and, where not given, its records (state, trade, 12 months of payments as turnover). ' +
      `Each program shows the criterion it meets, misses or cannot judge, a verdict (likely, possible, not_eligible), its amounts and whether it is open. ${SOURCES} Details with funding.program_details. General information, not advice.`,
    input: ScanInput,
    output: ScanResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => eligibilityScan(ctx.deps, ctx.principal!, input),
    nextSteps: afterScan,
  }),
  defineOperation({
    name: 'funding.program_details',
    domain: 'funding',
    title: 'Funding program details',
    description: `Full details of one funding program: who is paid, amounts, rules, dates, whether it is open on your date, and how to apply. ${SOURCES} General information, not advice.`,
    input: DetailsInput,
    output: DetailsResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => programDetails(ctx.deps, ctx.principal!, input),
    nextSteps: afterDetails,
  }),
]
