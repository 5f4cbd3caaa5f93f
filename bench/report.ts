import { writeFileSync } from 'node:fs';

/** A target a figure must meet; `ratio` is ours ÷ floor. */
export interface Target {
  ratioAtMost?: number;
  ratioAtLeast?: number;
  atMost?: number;
}

export interface Figure {
  name: string;
  unit: 'ms' | 'kB' | 'MB' | 'req/s' | '×';
  ours: number | null;
  floor?: number | null;
  target?: Target;
  /** Why it could not be measured: reported, and counted as a missed target when it has one. */
  error?: string;
}

export function ratio(figure: Figure): number | null {
  return figure.ours !== null && figure.floor ? figure.ours / figure.floor : null;
}

/** null: no target to meet. */
export function met(figure: Figure): boolean | null {
  const { target } = figure;
  if (!target) return null;
  if (figure.error || figure.ours === null) return false;
  const r = ratio(figure);
  if (target.atMost !== undefined && figure.ours > target.atMost) return false;
  if (target.ratioAtMost !== undefined && (r === null || r > target.ratioAtMost)) return false;
  if (target.ratioAtLeast !== undefined && (r === null || r < target.ratioAtLeast)) return false;
  return true;
}

const digits = (unit: Figure['unit'], value: number) => (unit === 'ms' || unit === 'req/s' ? (value < 20 ? 1 : 0) : unit === '×' ? 2 : 1);
const show = (unit: Figure['unit'], value: number | null | undefined) => (value === null || value === undefined ? '–' : `${value.toFixed(digits(unit, value))} ${unit}`);

function describeTarget(figure: Figure): string {
  const t = figure.target;
  if (!t) return '';
  const parts = [
    t.atMost !== undefined ? `≤ ${t.atMost} ${figure.unit}` : '',
    t.ratioAtMost !== undefined ? `≤ ${t.ratioAtMost}× floor` : '',
    t.ratioAtLeast !== undefined ? `≥ ${t.ratioAtLeast}× floor` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

export function rows(figures: readonly Figure[]): string[][] {
  return figures.map((figure) => {
    const r = ratio(figure);
    const verdict = met(figure);
    return [
      figure.name,
      figure.error ? `error: ${figure.error}` : show(figure.unit, figure.ours),
      show(figure.unit, figure.floor),
      r === null ? '–' : r.toFixed(2),
      describeTarget(figure),
      verdict === null ? '' : verdict ? 'yes' : 'MISSED',
    ];
  });
}

const HEADER = ['figure', 'ours', 'floor', 'ours ÷ floor', 'target', 'met'];

export function printTable(figures: readonly Figure[]): void {
  const table = [HEADER, ...rows(figures)];
  const widths = HEADER.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const [index, row] of table.entries()) {
    console.info(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
    if (index === 0) console.info(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}

const escapeCell = (cell: string) => cell.replace(/\|/g, '\\|');

export function writeMarkdown(path: string, figures: readonly Figure[], { command, machine, notes }: { command: string; machine: string; notes: string[] }): void {
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`${command}\` on ${new Date().toISOString().slice(0, 10)}; ${machine}.`,
    'Every figure is measured against a floor built and measured in the same run; the command exits',
    'non-zero when a target is missed. Do not edit by hand: run the command again.',
    '',
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...rows(figures).map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
    '',
    '## How each figure is taken',
    '',
    ...notes.map((note) => `- ${note}`),
    '',
  ];
  writeFileSync(path, lines.join('\n'));
}
