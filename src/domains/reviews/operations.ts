import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { Channel, closed, Id, REVIEW_PLATFORMS } from '../shared-schema.js'

const capability = 'Communications and reminders'

export const reviewsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'reviews.request',
    title: 'Request a review',
    description:
      "Ask the client of a completed job (job_id required; the job must be Completed) for a review by SMS and/or email, linking to the chosen review platform. Ask every client regardless of sentiment: under ACCC guidance, review gating and undisclosed incentives are risky.",
    input: Type.Object(
      {
        job_id: Id('Completed job whose client to ask'),
        platform: Type.Optional(StringEnum(REVIEW_PLATFORMS, { description: "Review platform to link to; defaults to the company's preferred platform (see reviews.platforms)" })),
        channel: Type.Optional(Channel),
        message: Type.Optional(Type.String({ maxLength: 500, description: 'Custom wording; the review link is appended' })),
      },
      closed,
    ),
    access: { scope: 'jobs', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'reviews.platforms',
    title: 'Review platforms',
    description:
      'List the review platforms review requests can link to (Google Business Profile, Facebook, hipages, ProductReview.com.au, Trustpilot, Yelp, TrueLocal, ServiceSeeking), showing which have a review link set up for the company and which is the default.',
    input: Type.Object({}, closed),
    access: { scope: 'jobs', permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
