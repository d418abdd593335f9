import { Readable } from 'node:stream';
import { csvRows } from './csv-rows';

/** The bytes arrive in small pieces, as an upload's do: rows come out as they are complete. */
function upload(csv: string, pieceBytes = 7): Readable {
  const bytes = Buffer.from(csv, 'utf8');
  return Readable.from((function* () {
    for (let at = 0; at < bytes.length; at += pieceBytes) yield bytes.subarray(at, at + pieceBytes);
  })());
}

async function rowsOf(csv: string) {
  const rows = [];
  for await (const row of csvRows(upload(csv))) rows.push(row);
  return rows;
}

describe('csvRows', () => {
  it('reads each line as a create body: | lists, content_<platform> overrides, quoted commas and newlines, empty cells absent', async () => {
    const rows = await rowsOf(
      '\ufeffcontent,accounts,scheduledAt,mediaUrls,firstComments,content_x\n' +
        '"Hello, world\nsecond line",x:@acme | facebook:@page ,2030-01-01T09:00:00Z,https://a.example/1.png|https://a.example/2.png,first!,Short\n' +
        'Only content,x:@acme,,,,\n',
    );
    expect(rows).toEqual([
      {
        row: 1,
        body: {
          content: 'Hello, world\nsecond line',
          accounts: ['x:@acme', 'facebook:@page'],
          scheduledAt: '2030-01-01T09:00:00Z',
          mediaUrls: ['https://a.example/1.png', 'https://a.example/2.png'],
          firstComments: ['first!'],
          overrides: { x: { content: 'Short' } },
        },
      },
      { row: 2, body: { content: 'Only content', accounts: ['x:@acme'] } },
    ]);
  });

  it('refuses a header with a column it does not take (an unknown platform override too) before any row', async () => {
    await expect(rowsOf('content,accounts,colour\nHi,x:@acme,red\n')).rejects.toMatchObject({ code: 'unknown_field' });
    await expect(rowsOf('content,content_myspace\nHi,there\n')).rejects.toMatchObject({ code: 'unknown_field' });
  });

  it('refuses a line it cannot read as that row (another number of cells, an unclosed quote), and reads on', async () => {
    const rows = await rowsOf('content,accounts\nGood,x:@acme\nToo,many,cells\nAfter,x:@acme\n"Broken,x:@acme\n');
    expect(rows).toEqual([
      { row: 1, body: { content: 'Good', accounts: ['x:@acme'] } },
      { row: 2, unreadable: { message: expect.stringContaining('cannot be read'), details: { line: 3, reason: 'CSV_RECORD_INCONSISTENT_COLUMNS' } } },
      { row: 3, body: { content: 'After', accounts: ['x:@acme'] } },
      { row: 4, unreadable: expect.objectContaining({ details: expect.objectContaining({ reason: 'CSV_QUOTE_NOT_CLOSED' }) }) },
    ]);
  });

  it('stops after the first row past 1,000 without reading the rest', async () => {
    const rows = await rowsOf(['content', ...Array.from({ length: 1200 }, (_, i) => `Row ${i}`)].join('\n'));
    expect(rows).toHaveLength(1001);
  });
});
