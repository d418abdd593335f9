import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { escapeXml, LineChart, renderLineChart } from './line-chart.svg';

const CHROMIUM = '/usr/bin/chromium';

const chart: LineChart = {
  title: 'likes of post <demo> & more',
  xLabel: 'collected at (UTC)',
  yLabel: 'likes',
  series: [
    {
      name: 'mastodon 110000000000000001',
      points: [
        { at: new Date('2026-05-04T09:35:00Z'), value: 2 },
        { at: new Date('2026-05-04T10:35:00Z'), value: 9 },
        { at: new Date('2026-05-04T11:35:00Z'), value: 15 },
      ],
    },
    {
      name: 'x 1790000000000000001',
      points: [
        { at: new Date('2026-05-04T09:36:00Z'), value: 1 },
        { at: new Date('2026-05-04T10:36:00Z'), value: null },
        { at: new Date('2026-05-04T11:36:00Z'), value: 4 },
      ],
    },
  ],
};

describe('the SVG line chart', () => {
  it('draws the same chart for the same numbers (snapshot)', () => {
    expect(renderLineChart(chart)).toMatchSnapshot();
  });

  it('is accessible: a title and a description naming every point, labelled axes, a line and a legend entry per series', () => {
    const svg = renderLineChart(chart);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('<title id="chart-title">likes of post &lt;demo&gt; &amp; more</title>');
    expect(svg).toMatch(/<desc id="chart-desc">mastodon 110000000000000001: 2 at 2026-05-04T09:35:00.000Z; 9 at .*x 1790000000000000001: 1 at .*4 at 2026-05-04T11:36:00.000Z\.<\/desc>/);
    expect(svg).toContain('>collected at (UTC)</text>');
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    // A number the platform did not give is left out of the line, not drawn as 0.
    expect(svg.match(/<circle /g)).toHaveLength(5);
  });

  it('says so when nothing was collected yet', () => {
    const svg = renderLineChart({ ...chart, series: [{ name: 'x', points: [] }] });
    expect(svg).toContain('No numbers collected yet');
    expect(svg).not.toContain('<polyline');
  });

  it('escapes every character XML reserves', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  const browser = existsSync(CHROMIUM) ? it : it.skip;
  if (!existsSync(CHROMIUM)) console.warn(`${CHROMIUM} not found: the chart is not opened in headless Chromium`);
  browser('opens in headless Chromium as an SVG document, without a parse error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chart-'));
    try {
      const file = join(dir, 'chart.svg');
      writeFileSync(file, renderLineChart(chart));
      const { stdout } = await promisify(execFile)(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--dump-dom', `file://${file}`], { timeout: 60_000 });
      // Chromium shows an XML document it cannot parse as an XHTML page with a <parsererror>.
      expect(stdout).not.toContain('parsererror');
      expect(stdout.trimStart().startsWith('<svg')).toBe(true);
      expect(stdout.match(/<polyline /g)).toHaveLength(2);
      expect(stdout).toContain('likes of post &lt;demo&gt; &amp; more');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
