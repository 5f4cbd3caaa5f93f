/** A piece of a text diff: words both versions have, or only the old one, or only the new one. */
export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Beyond this many words on either side a diff would cost too much on a phone: the two texts are then shown whole. */
const MAX_WORDS = 1500;
/** Unchanged words kept on each side of a change; longer runs between changes are shortened to "…". */
const CONTEXT = 4;

/**
 * What changed between two texts, word by word (spaces kept with their words), as a person reads a
 * change: the removed and added words with a few unchanged ones around them. Null when either text
 * is too long to compare here.
 */
export function wordDiff(before: string, after: string): DiffPart[] | null {
  const a = before.match(/\S+\s*/g) ?? [];
  const b = after.match(/\S+\s*/g) ?? [];
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) return null;
  // The longest common subsequence, by its lengths from the end.
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i]!.trim() === b[j]!.trim() ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i]!.trim() === b[j]!.trim()) {
      push('same', b[j]!);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  return parts.map((part, index) => (part.kind === 'same' ? { ...part, text: shortened(part.text, index > 0, index < parts.length - 1) } : part));
}

/** An unchanged run with only its words next to a change: `before` and `after` say on which sides there is one. */
function shortened(text: string, before: boolean, after: boolean): string {
  const words = text.match(/\S+\s*/g) ?? [];
  const keep = (before ? CONTEXT : 0) + (after ? CONTEXT : 0);
  if (words.length <= keep + 1) return text;
  const head = before ? words.slice(0, CONTEXT).join('') : '';
  const tail = after ? words.slice(-CONTEXT).join('') : '';
  return `${head}… ${tail}`;
}
