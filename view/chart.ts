/**
 * The bar chart, drawn as SVG with d3 (scales and the data join): categories as labelled
 * horizontal bars, largest first; days as columns in time order. Every bar carries its label
 * and value as text a person (and a screen reader) can read.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { type Bar, formatNumber } from './model.js';

const BAR_HEIGHT = 22;
const LABEL_WIDTH = 132;
const VALUE_WIDTH = 72;

export function drawBars(host: HTMLElement, bars: Bar[], measureName: string): void {
  host.replaceChildren();
  if (!bars.length) {
    host.textContent = 'Nothing to chart: no record matches.';
    return;
  }
  const width = Math.max(260, host.clientWidth || 480);
  const height = bars.length * BAR_HEIGHT + 8;
  const x = scaleLinear()
    .domain([0, Math.max(...bars.map((b) => b.value), 0) || 1])
    .range([0, Math.max(40, width - LABEL_WIDTH - VALUE_WIDTH)]);
  const y = scaleBand<number>()
    .domain(bars.map((_, i) => i))
    .range([4, height - 4])
    .padding(0.18);
  const svg = select(host)
    .append('svg')
    .attr('class', 'bars')
    .attr('role', 'img')
    .attr('aria-label', `${measureName}: ${bars.map((b) => `${b.label} ${formatNumber(b.value)}`).join(', ')}`)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
  const bar = svg
    .selectAll('g.bar')
    .data(bars)
    .join('g')
    .attr('class', 'bar')
    .attr('data-label', (b) => b.label)
    .attr('data-value', (b) => String(b.value))
    .attr('transform', (_, i) => `translate(0,${y(i)})`);
  bar.append('title').text((b) => `${b.label}: ${formatNumber(b.value)}`);
  bar
    .append('text')
    .attr('class', 'label')
    .attr('x', LABEL_WIDTH - 6)
    .attr('y', y.bandwidth() / 2)
    .attr('dy', '0.35em')
    .attr('text-anchor', 'end')
    .text((b) => (b.label.length > 18 ? `${b.label.slice(0, 17)}…` : b.label));
  bar
    .append('rect')
    .attr('x', LABEL_WIDTH)
    .attr('width', (b) => Math.max(1, x(b.value)))
    .attr('height', y.bandwidth())
    .attr('rx', 2);
  bar
    .append('text')
    .attr('class', 'value')
    .attr('x', (b) => LABEL_WIDTH + Math.max(1, x(b.value)) + 4)
    .attr('y', y.bandwidth() / 2)
    .attr('dy', '0.35em')
    .text((b) => formatNumber(b.value));
}
