/** The first line, cut to `max` characters: a title for platforms that want one (YouTube, Pinterest, TikTok photos). */
export function titleFrom(content: string, max: number): string {
  const firstLine = content.trim().split('\n')[0] ?? '';
  const chars = [...firstLine];
  return chars.length <= max ? firstLine : `${chars.slice(0, max - 1).join('')}…`;
}
