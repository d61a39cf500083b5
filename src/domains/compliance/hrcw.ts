// The 18 high-risk construction work (HRCW) categories of the model WHS Regulations reg 291, (a) to
// (r), in the regulation's words as the project's AU reference sheet records them, with the words in
// a work description that point to each. The words are ours and only point: the draft lists the ones
// that matched, so the competent person reviewing it can see why a category is there and add or strike
// one (a threshold such as "more than 2 m" cannot be read from words).
export const HRCW_SOURCE = {
  source: 'Safe Work Australia model WHS Regulations reg 291, as in NSW WHS Regulation 2017 cl 291 (legislation.nsw.gov.au)',
  as_of: 'project AU trade reference sheet, 2026-11',
} as const

export interface HrcwCategory {
  code: string
  /** The paragraph of reg 291. */
  paragraph: string
  description: string
  /** Words that point to the category, matched in lower case. */
  words: RegExp[]
}

export const HRCW_CATEGORIES = [
  {
    code: 'fall_over_2m', paragraph: '(a)', description: 'involves a risk of a person falling more than 2 metres',
    words: [/\broof(?:s|top|ing)?\b/, /\bat heights?\b/, /\bscaffold\w*/, /\bgutters?\b/, /\beaves\b/, /\bskylights?\b/, /\b(?:second|upper|two|2)[- ]stor(?:e)?y\b/, /\bmezzanine\b/, /\bbalcon(?:y|ies)\b/, /\belevated work platform\b/, /\b(?:boom|scissor) lift\b/],
  },
  { code: 'telecommunication_tower', paragraph: '(b)', description: 'is carried out on a telecommunication tower', words: [/\b(?:tele)?communications? tower\b/, /\b(?:phone|mobile) tower\b/, /\bantenna mast\b/] },
  { code: 'demolition_load_bearing', paragraph: '(c)', description: 'involves demolition of an element of a structure that is load-bearing or otherwise related to the physical integrity of the structure', words: [/\bdemoli(?:sh|shing|tion)\b/, /\bload[- ]bearing\b/] },
  { code: 'asbestos', paragraph: '(d)', description: 'involves, or is likely to involve, the disturbance of asbestos', words: [/\basbestos\b/, /\bfibro\b/, /\bsuper six\b/] },
  { code: 'structural_alteration_temporary_support', paragraph: '(e)', description: 'involves structural alterations or repairs that require temporary support to prevent collapse', words: [/\btemporary (?:support|propping|shoring)\b/, /\bacrow props?\b/, /\bshoring\b/, /\bunderpinning\b/, /\bstructural (?:alteration|repair)s?\b/] },
  { code: 'confined_space', paragraph: '(f)', description: 'is carried out in or near a confined space', words: [/\bconfined spaces?\b/, /\bmanholes?\b/, /\bseptic tanks?\b/, /\bsilos?\b/, /\binside (?:a |the )?(?:tank|vessel|pit)\b/] },
  { code: 'trench_shaft_over_1_5m_or_tunnel', paragraph: '(g)', description: 'is carried out in or near a shaft or trench with an excavated depth greater than 1.5 metres, or a tunnel', words: [/\btrench(?:es|ing)?\b/, /\bshafts?\b/, /\btunnel\w*/, /\bexcavat\w*/] },
  { code: 'explosives', paragraph: '(h)', description: 'involves the use of explosives', words: [/\bexplosives\b/, /\bexplosive (?:charges?|devices?)\b/, /\bdetonat\w*/, /(?<!sand |grit |bead |abrasive )\bblasting\b/] },
  { code: 'pressurised_gas_mains', paragraph: '(i)', description: 'is carried out on or near pressurised gas distribution mains or piping', words: [/\bgas (?:mains?|lines?|pipes?|piping|meters?)\b/, /\bgas ?fitt\w*/, /\bnatural gas\b/, /\blpg\b/] },
  { code: 'chemical_fuel_refrigerant_lines', paragraph: '(j)', description: 'is carried out on or near chemical, fuel or refrigerant lines', words: [/\brefrigera\w*/, /\bsplit[- ]systems?\b/, /\bfuel (?:lines?|tanks?|pipes?)\b/, /\bchemical (?:lines?|pipes?)\b/] },
  { code: 'energised_electrical', paragraph: '(k)', description: 'is carried out on or near energised electrical installations or services', words: [/\blive (?:power|wires?|wiring|electrical|circuits?|conductors?|cables?)\b/, /\benergi[sz]ed\b/, /\bpower ?lines?\b/, /\boverhead (?:lines?|wires?|cables?|power)\b/, /\bswitchboards?\b/, /\bmains power\b/] },
  { code: 'contaminated_flammable_atmosphere', paragraph: '(l)', description: 'is carried out in an area that may have a contaminated or flammable atmosphere', words: [/\bflammable\b/, /\bcontaminated\b/, /\bfumes?\b/, /\bexplosive atmospheres?\b/] },
  { code: 'tilt_up_precast_concrete', paragraph: '(m)', description: 'involves tilt-up or precast concrete', words: [/\btilt[- ]up\b/, /\bpre-?cast\b/] },
  { code: 'traffic_corridor', paragraph: '(n)', description: 'is carried out on, in or adjacent to a road, railway, shipping lane or other traffic corridor that is in use by traffic other than pedestrians', words: [/\btraffic\b/, /\brailway\b/, /\bshipping lane\b/, /\b(?:on|next to|beside|adjacent to|near) (?:a |the )?(?:busy )?(?:road|highway|freeway|motorway|rail line)\b/] },
  { code: 'powered_mobile_plant', paragraph: '(o)', description: 'is carried out in an area at a workplace in which there is any movement of powered mobile plant', words: [/\b(?:excavators?|bobcats?|skid steers?|forklifts?|cranes?|backhoes?|bulldozers?|telehandlers?|mobile plant|cherry pickers?)\b/, /\b(?:boom|scissor) lift\b/] },
  { code: 'extreme_temperatures', paragraph: '(p)', description: 'is carried out in an area in which there are artificial extremes of temperature', words: [/\b(?:cool ?rooms?|cold rooms?|freezer rooms?|furnaces?|kilns?|boiler rooms?)\b/, /\bextreme (?:heat|cold|temperatures?)\b/] },
  { code: 'drowning_risk', paragraph: '(q)', description: 'is carried out in or near water or other liquid that involves a risk of drowning', words: [/\b(?:swimming )?pools?\b/, /\b(?:dams?|rivers?|creeks?|lakes?|jett(?:y|ies)|wharf|pontoons?)\b/, /\bflooded\b/] },
  { code: 'diving', paragraph: '(r)', description: 'involves diving work', words: [/\bdiving\b/, /\bdivers?\b/, /\bunderwater\b/] },
] as const satisfies readonly HrcwCategory[]

export type HrcwCode = (typeof HRCW_CATEGORIES)[number]['code']
export const HRCW_CODES = HRCW_CATEGORIES.map((c) => c.code) as unknown as readonly [HrcwCode, ...HrcwCode[]]

export interface DetectedCategory { code: HrcwCode; paragraph: string; description: string; matched_words: string[]; given: boolean }

/** The categories the description points to, with the words that matched, plus those the caller gave. */
export function detectCategories(text: string, given: readonly HrcwCode[] = []): DetectedCategory[] {
  const lower = text.toLowerCase()
  return HRCW_CATEGORIES.flatMap((c) => {
    const matched = [...new Set(c.words.map((w) => w.exec(lower)?.[0]).filter((m): m is string => Boolean(m)))]
    const isGiven = given.includes(c.code)
    if (matched.length === 0 && !isGiven) return []
    return [{ code: c.code, paragraph: `reg 291${c.paragraph}`, description: c.description, matched_words: matched, given: isGiven }]
  })
}
