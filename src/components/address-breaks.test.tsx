import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AddressBreaks } from './address-breaks';

/** The text between the line-break opportunities, as the browser may lay it out on lines. */
const pieces = (text: string) => render(<AddressBreaks text={text} />).container.innerHTML.split('<wbr>');

describe('AddressBreaks', () => {
  it('lets an email address break after its @ and before the dots of its names', () => {
    expect(pieces('erika.mustermann@example.com')).toEqual(['erika', '.mustermann@', 'example', '.com']);
  });

  it('lets a link break after its slashes, never between them', () => {
    expect(pieces('https://trattoria-demo.example/menu')).toEqual(['https://', 'trattoria-demo', '.example/', 'menu']);
  });

  it('leaves words, amounts and dates whole, and the text around an address as it is', () => {
    expect(pieces('Pizza Margherita 2.618,00 € 25.11.2026 z.B.')).toEqual(['Pizza Margherita 2.618,00 € 25.11.2026 z.B.']);
    expect(pieces('Mail owner@localhost today.')).toEqual(['Mail owner@', 'localhost today.']);
  });
});
