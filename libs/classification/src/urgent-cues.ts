import { hasCue, words } from './cue-matching';

/**
 * Someone may get hurt: fire, burns, injuries, poisoning, choking. Slang is left out on purpose:
 * "this is fire", "you're on fire", "I'm dying 😂", "killing it" praise; "die in a fire" is abuse.
 */
const SAFETY_CUES: readonly RegExp[] = [
  words('caught (?:on )?fire', '(?:house|home|car|building|kitchen|phone|battery|charger|laptop|it) (?:is |was )?on fire', 'burst into flames', 'went up in flames', 'in flames', 'smok(?:e|ed|ing) (?:came|coming|from|out)', 'started smoking', 'explod(?:ed|es|ing)', 'overheat(?:s|ed|ing)', 'sparks? (?:came|flew|coming)', 'electric(?:al)? shock', 'electrocut\\w*', 'gas leak', 'carbon monoxide'),
  words('burn(?:ed|t|s)? (?:me|my|him|her|us|our|his|their)', 'injur(?:ed|y|ies)', 'hurt (?:me|my|myself|him|her|himself|herself|themselves|us)', 'bleeding (?:badly|from)', 'cut (?:my|his|her|their) (?:finger|hand|mouth|lip)', 'allergic reaction', 'anaphyla\\w*', 'chok(?:ed|ing) (?:on|hazard)', '(?:kid|child|son|daughter|baby|toddler|dog|cat) swallowed', 'food poisoning', 'poison(?:ed|ing|ous)', '(?:in|to) (?:the )?(?:hospital|er|emergency room)', 'hospitali[sz]ed', 'ambulance'),
  words('unsafe', 'dangerous', 'safety (?:issue|hazard|risk|concern|recall)', 'fire hazard', 'hazardous', 'product recall', 'recalled', 'glass in (?:my|the|it)', 'mou?ld (?:in|on|inside|growing)', 'toxic (?:fumes|smell|chemicals?)'),
];

/** Legal exposure: lawyers, lawsuits, regulators, fraud, data breaches, harassment. "Sue me" is an idiom. */
const LEGAL_CUES: readonly RegExp[] = [
  words('lawyers?', 'attorneys?', 'su(?:e|ing) (?:you|them|your|the|this|for)', 'lawsuit', 'legal action', 'class action', '(?:take|taking) (?:you|this|it|them) to court', 'see you in court', 'small claims'),
  words('report(?:ed|ing)? (?:you |this |it )?to (?:the )?(?:ftc|bbb|fcc|police|authorities|regulators?|trading standards|consumer protection|attorney general)', 'gdpr', 'data (?:breach|leak)', 'leaked (?:my|our) (?:data|info|information|details|address)', 'identity theft', 'stolen (?:card|identity|data|account)', 'fraud(?:ulent)?', 'unauthori[sz]ed (?:charges?|transactions?|payments?)', 'chargeback', 'discriminat\\w*', 'harass\\w*', 'copyright infringement'),
];

/** The product or service is out for people right now. */
const OUTAGE_CUES: readonly RegExp[] = [
  words('outage', '(?:site|app|website|service|servers?|system|platform|checkout|payments?|login|api|network) (?:is |are |went |goes |keeps going )?(?:down|offline)', 'down (?:for everyone|for everybody|again|for hours)', 'is it (?:just me|down)', "(?:can'?t|cannot|unable to) (?:log ?in|sign in|access|connect|load|pay|check ?out)", '(?:500|502|503|504) error', 'error 50\\d', 'service unavailable', 'nothing (?:loads|works)', 'totally broken', 'completely broken'),
];

const URGENT_CUES: readonly RegExp[] = [...SAFETY_CUES, ...LEGAL_CUES, ...OUTAGE_CUES];

/** Safety, legal or outage words: the comments someone should read within the hour (folded text). */
export function isUrgent(folded: string): boolean {
  return hasCue(URGENT_CUES, folded);
}
