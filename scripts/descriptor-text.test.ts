// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { dropDescriptorText } from './descriptor-text';

describe('dropDescriptorText', () => {
  it('leaves each descriptor its id, on as many lines as before', () => {
    const code = [
      'export const messages = {',
      "  notFound: /*i18n*/ { id: 'error.notFound', message: 'Not found' },",
      "  quoted: /*i18n*/ { id: 'x.quoted', message: 'It\\'s {name}' },",
      '  mail: /*i18n*/ {',
      "    id: 'mail.text',",
      '    message:',
      "      'Hello {name},\\n\\nyour PIN',",
      '  },',
      "  plain: { id: 'not.marked', message: 'Kept' },",
      '};',
    ].join('\n');
    const out = dropDescriptorText(code);
    expect(out).not.toMatch(/Not found|It\\'s|Hello/);
    expect(out).toContain("/*i18n*/ { id: 'error.notFound' }");
    expect(out).toContain("id: 'mail.text'");
    // Only what the extractor reads as a descriptor: an object that is not marked keeps its text.
    expect(out).toContain("message: 'Kept'");
    expect(out.split('\n')).toHaveLength(code.split('\n').length);
    expect(new Function(`${out.replace('export ', '')}; return messages;`)()).toMatchObject({ notFound: { id: 'error.notFound' }, mail: { id: 'mail.text' } });
  });
});
