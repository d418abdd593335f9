/**
 * How a platform's publishing options are described: each option's documented values, so one
 * check refuses an unknown option or value when the post is written (platform_option_invalid),
 * and the connector can send what it gets as the platform's own field without checking again.
 */

export type OptionRule =
  | { kind: 'choice'; values: readonly string[] }
  | { kind: 'text'; maxLength: number; /** What the platform refuses in it (YouTube titles: < and >). */ forbidden?: RegExp; pattern?: RegExp; describe?: string }
  | { kind: 'flag' }
  | { kind: 'list'; maxItems: number; maxLength: number };

export type OptionsSchema = Record<string, OptionRule>;

/** The value an option of this rule holds once checked. */
type ValueOf<Rule> = Rule extends { kind: 'choice'; values: readonly (infer V)[] } ? V : Rule extends { kind: 'flag' } ? boolean : Rule extends { kind: 'list' } ? string[] : string;

/** The checked options of a schema, each optional (absent: the platform's default). */
export type OptionValues<Schema extends OptionsSchema> = { [Name in keyof Schema]?: ValueOf<Schema[Name]> };

export const choice = <const Values extends readonly string[]>(values: Values) => ({ kind: 'choice', values }) as const;
export const flag = () => ({ kind: 'flag' }) as const;

/** Why `value` breaks `rule`, or null when it keeps it. */
export function optionValueProblem(rule: OptionRule, value: unknown): string | null {
  switch (rule.kind) {
    case 'choice':
      return typeof value === 'string' && rule.values.includes(value) ? null : `must be one of ${rule.values.join(', ')}`;
    case 'flag':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'text': {
      if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
      if ([...value].length > rule.maxLength) return `must be at most ${rule.maxLength} characters`;
      if (rule.forbidden?.test(value)) return `must not contain ${rule.forbidden.source.replace(/[[\]]/g, '')}`;
      if (rule.pattern && !rule.pattern.test(value)) return `must be ${rule.describe ?? `of the form ${rule.pattern.source}`}`;
      return null;
    }
    case 'list':
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) return 'must be a list of non-empty strings';
      if (value.length > rule.maxItems) return `must have at most ${rule.maxItems} entries`;
      if (value.reduce((sum: number, item: string) => sum + [...item].length, 0) > rule.maxLength) return `must total at most ${rule.maxLength} characters`;
      return null;
  }
}
