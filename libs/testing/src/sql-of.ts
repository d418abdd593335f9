/**
 * The SQL text and values of a call to pg's query, as a spy records it: `(text, values)`, or one
 * query config (`prepared` statements, @app/database) with its text and values.
 */
export function sqlOf(args: readonly unknown[]): { text: string; values: unknown[] } {
  const [first, second] = args;
  if (typeof first === 'object' && first !== null && 'text' in first) {
    const config = first as { text: string; values?: unknown[] };
    return { text: config.text, values: config.values ?? [] };
  }
  return { text: String(first), values: Array.isArray(second) ? second : [] };
}
