// The workflows that run on demand (workflows.instant_response is built elsewhere).
import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, Channel, closed, DateOnly, Id, REVIEW_PLATFORMS } from '../shared-schema.js'

const capability = 'Automations'
const read = { permission: 'read' } as const
const write = { permission: 'write' } as const
const Days = (fallback: number, description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: fallback, description }))

export const workflowRunPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'workflows.trigger_invoice',
    title: 'Run the invoice workflow',
    description:
      "Run the invoicing workflow for a Completed job now: generates the invoice (with a payment URL when a payment account is connected) and applies the workflow's follow-up steps, which may wait in workflows.pending_actions for approval.",
    input: Type.Object({ job_id: Id('Completed job to invoice') }, closed),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.process_lead',
    title: 'Process a lead',
    description: 'Run the lead-processing workflow on a lead now: qualifies and prioritises it, updates its status, creates a follow-up reminder and returns the suggested next action (such as a quote).',
    input: Type.Object({ lead_id: Id('Lead to process') }, closed),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.quote_to_invoice',
    title: 'Quote to invoice',
    description:
      "Carry an Accepted quote through to invoicing: creates the linked job if there is none and, once the job is Completed, generates the invoice from the quote's line items.",
    input: Type.Object({ quote_id: Id('Accepted quote') }, closed),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.sync_contact',
    title: 'Sync a contact',
    description: "Copy a lead's or client's contact details to connected systems (such as accounting or CRM) that hold contacts, creating or updating the contact there.",
    input: Type.Object(
      {
        lead_id: Id('Lead or client to sync'),
        connection_id: Type.Optional(Id('Only this connection; all active connections that hold contacts when omitted')),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.schedule_job',
    title: 'Schedule a job next business day',
    description: "Schedule a job for the next business day, skipping weekends and the state's public holidays; sets its scheduled date and status Scheduled.",
    input: Type.Object(
      {
        job_id: Id('Job to schedule'),
        start_time: Type.Optional(Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', default: '08:00', description: 'Local start time, HH:MM (24-hour)' })),
        technician: Type.Optional(Type.String({ description: 'Technician to assign' })),
        state: Type.Optional(AuState("State whose public holidays apply; defaults to the company's state")),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.team_notify',
    title: 'Notify the team',
    description: 'Send a message to team members (technicians) by SMS and/or email, optionally about a job, whose details are included.',
    input: Type.Object(
      {
        message: Type.String({ minLength: 1, maxLength: 1000, description: 'What to tell the team' }),
        job_id: Type.Optional(Id('Job the message is about')),
        recipients: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50, description: "Team members' names or user ids; the whole team when omitted" })),
        channel: Type.Optional(Channel),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'workflows.search_ads_pipeline',
    title: 'Search-ads lead pipeline',
    description: 'Report on leads from paid search ads through the pipeline (lead, quote, job, revenue) by campaign, with cost per lead and return on ad spend when spend is given.',
    input: Type.Object(
      {
        days: Days(30, 'Lookback period in days (default 30)'),
        campaign: Type.Optional(Type.String({ description: 'Only this campaign (lead source)' })),
        ad_spend: Type.Optional(Dollars({ minimum: 0, description: 'Ad spend over the period in AUD dollars, for cost per lead and return' })),
      },
      closed,
    ),
    access: read,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'workflows.daily_summary',
    title: 'Daily summary',
    description: "The day's summary: new leads, jobs scheduled and completed, quotes awaiting a reply, overdue invoices, reminders due and actions pending approval.",
    input: Type.Object({ date: Type.Optional(DateOnly("Day to summarise (YYYY-MM-DD, company's time zone); default today")) }, closed),
    access: read,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'workflows.review_booster',
    title: 'Review booster',
    description:
      'Send review requests to clients of recently completed jobs who have not been asked yet. Every such client is asked regardless of satisfaction (no review gating, per ACCC guidance).',
    input: Type.Object(
      {
        days: Days(14, 'Jobs completed in the last this many days (default 14)'),
        platform: Type.Optional(StringEnum(REVIEW_PLATFORMS, { description: "Review platform to link to; defaults to the company's preferred platform" })),
        channel: Type.Optional(Channel),
        max_requests: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Most requests to send in this run' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'workflows.chase_payment',
    title: 'Chase payments',
    description:
      "Chase unpaid invoices: with jobId, that job's invoice; otherwise scans all overdue invoices. Each gets the reminder for its tier: friendly at 7 or more days overdue, firm at 14 or more, final at 30 or more.",
    input: Type.Object(
      {
        jobId: Type.Optional(Id('Job whose invoice to chase; omit to scan all overdue invoices')),
        channel: Type.Optional(Channel),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'workflows.follow_up_quote',
    title: 'Follow up quotes',
    description:
      'Follow up quotes awaiting a reply (Sent or Viewed): with quoteId, that quote; otherwise scans all pending quotes. At most 3 follow-ups are sent per quote.',
    input: Type.Object(
      {
        quoteId: Type.Optional(Id('Quote to follow up; omit to scan all pending quotes')),
        channel: Type.Optional(Channel),
        message: Type.Optional(Type.String({ maxLength: 500, description: 'Custom wording; the quote link is appended' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'workflows.upsell_suggest',
    title: 'Upsell suggestions',
    description: "Suggest extra services to offer a client, from their job history, the job at hand and the service catalog (e.g. a maintenance plan after a repair), with suggested prices in AUD. Suggestions only.",
    input: Type.Object(
      {
        job_id: Type.Optional(Id('Job to base suggestions on')),
        lead_id: Type.Optional(Id('Client (lead) to base suggestions on')),
      },
      closed,
    ),
    access: read,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'workflows.referral_program',
    title: 'Client referral program',
    description:
      'Set up client referral offers: picks past clients with completed jobs and creates for each a referral code with the reward, ready to share. Rewards for referrals are incentives and must be disclosed.',
    input: Type.Object(
      {
        reward_type: Type.Optional(StringEnum(['discount', 'credit', 'gift_card'] as const, { default: 'discount', description: 'What the referrer gets' })),
        reward_amount: Type.Optional(Dollars({ minimum: 0, description: 'Reward value in AUD dollars' })),
        days: Days(365, 'Clients with jobs completed in the last this many days (default 365)'),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
]
