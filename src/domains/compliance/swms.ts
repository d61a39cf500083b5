// compliance.generate_swms: finds the high-risk construction work categories (reg 291) in the work
// described, has the language model (or the local default's templates) word the work steps, hazards
// and controls inside a fixed structure, adds what only rules write (PPE, emergency steps, people and
// their sourced competencies, the SWMS rules), puts controls in hierarchy order, renders the PDF and
// files it as the company's document with a signed link. Always a DRAFT with the sign-off block.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { notFound, validationError } from '../../core/errors.js'
import { isUuid } from '../../core/uuid.js'
import { withTenant } from '../../db/sql.js'
import { generateMetered } from '../billing/llm-calls.js'
import { fileGeneratedPdf } from '../documents/service.js'
import { HIERARCHY } from './category-controls.js'
import { licenceFor, NO_SOURCED_LICENCE, regulationsFor, SWMS_RULES, WHITE_CARD } from './competencies.js'
import { emergencySteps, inHierarchyOrder, listedHazards, localWording, ppeFor, wordingBreaksStructure } from './draft.js'
import { detectCategories, HRCW_SOURCE } from './hrcw.js'
import { renderSwmsPdf, swmsText, type SwmsDraft } from './pdf.js'
import { findSwmsCompany, findSwmsJob, type SwmsJob } from './queries.js'
import { SwmsWording, type AuState, type SwmsInput, type SwmsResponse } from './schema.js'

type Input = Static<typeof SwmsInput>

const describeJob = (job: SwmsJob) => [job.title, job.service_type, job.message, job.notes].filter((p): p is string => Boolean(p?.trim())).join('. ')

async function loadFacts(deps: Deps, companyId: string, input: Input) {
  if (input.job_id === undefined && input.work_description === undefined) {
    throw validationError(['job_id or work_description: give one'], 'Describe the work in work_description, or give the job_id whose description to use.')
  }
  if (input.job_id !== undefined && !isUuid(input.job_id)) throw validationError(['job_id: must be a UUID'])
  return withTenant(deps.db, companyId, async (tx) => {
    const job = input.job_id === undefined ? null : await findSwmsJob(tx, input.job_id)
    if (input.job_id !== undefined && !job) throw notFound(`Job ${input.job_id}`)
    return { company: await findSwmsCompany(tx), job, today: await companyToday(tx, deps.clock.now()) }
  })
}

export async function generateSwms(deps: Deps, principal: Principal, input: Input): Promise<Static<typeof SwmsResponse>> {
  const { company, job, today } = await loadFacts(deps, principal.companyId, input)
  const description = input.work_description?.trim() || (job ? describeJob(job) : '')
  const categories = detectCategories(`${description}\n${input.additional_hazards ?? ''}`, input.high_risk_work ?? [])
  const hazards = listedHazards(input.additional_hazards)
  const state = (input.state ?? company.state ?? null) as AuState | null

  const answer = await generateMetered(deps, principal.companyId, {
    purpose: 'compliance.generate_swms',
    system: 'You word a draft Safe Work Method Statement for an Australian trade business. Keep the structure you are given: one step per high-risk work category found (its category code), ' +
      'hazards and controls for each, every control tagged with its level in the hierarchy of control (elimination, substitution, isolation, engineering, administrative, ppe). ' +
      'Return the draft_notice and sign_off exactly as given. State no distance, limit or figure that is not in the work description.',
    user: JSON.stringify({ work_description: description, high_risk_work: categories, site_specific_hazards: hazards, structure: localWording(description, categories, hazards) }),
    schema: SwmsWording,
    check: (w) => wordingBreaksStructure(w, categories),
    localAnswer: () => localWording(description, categories, hazards),
  })
  const wording = answer.value

  const competencies = [WHITE_CARD, ...categories.map((c) => licenceFor(c.code, state)).filter((f) => f !== null)]
  const draft: SwmsDraft = {
    status: 'draft', draft_notice: wording.draft_notice,
    title: job?.title ?? (description.length > 90 ? `${description.slice(0, 87)}...` : description),
    prepared_on: today, business_name: company.business_name, abn: company.abn, job_id: job?.id ?? null, state,
    site_address: input.site_address ?? job?.address ?? job?.lead_address ?? null, principal_contractor: input.principal_contractor ?? null,
    work_description: description, regulations: regulationsFor(state),
    high_risk_work: categories, high_risk_work_source: { ...HRCW_SOURCE }, hierarchy_of_control: [...HIERARCHY],
    work_steps: inHierarchyOrder(wording.work_steps).map((s, i) => ({ number: i + 1, ...s })),
    ppe: ppeFor(description, categories), emergency: emergencySteps(categories),
    people: { competencies: [...new Set(competencies)], not_sourced: NO_SOURCED_LICENCE },
    sign_off: wording.sign_off, rules: SWMS_RULES,
    produced_by: answer.producedBy, provider_note: answer.note,
  }
  const bytes = await renderSwmsPdf(draft)
  const filed = await fileGeneratedPdf(deps, principal, {
    bytes, filename: `SWMS-draft-${today}.pdf`, documentType: 'swms', text: swmsText(draft),
    jobId: job?.id ?? null, leadId: job?.lead_id ?? null, reason: 'written by compliance.generate_swms (a draft SWMS)',
  })
  const d = filed.document
  return { ...draft, document: { id: d.id, file_url: d.file_url, file_url_expires_at: d.file_url_expires_at, size_bytes: d.size_bytes, sha256: d.sha256, duplicate: filed.duplicate } }
}
